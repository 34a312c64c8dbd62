import {
  acceptCompletion,
  closeCompletion,
  completionStatus,
  currentCompletions,
  startCompletion,
} from '@codemirror/autocomplete';
import { EditorView } from '@codemirror/view';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { STORAGE_KEYS } from '../../api/storage';
import { jsonResponse, renderUi, t } from '../../testing/render';
import { mockAdminApi, renderWithSession } from '../../testing/session';
import { checkMarks, type EditorMark, errorMarks, markRange, placeholderOptions } from './editor-support';
import { HtmlCodeEditor } from './html-code-editor';
import { templateRoutes } from './routes';
import { TemplateHtmlField } from './template-html-field';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const badge = { id: 4, name: 'Badge', type: 1, pageSize: 'A6', htmlData: '<h1>{{firstname}}</h1>' };
const currentAction = {
  'GET actual': { id: 1, lastAction: 7 },
  'GET action': [
    {
      id: 7,
      name: text('Summer fest'),
      days: [],
      customField: [
        { id: 5, name: 'company', customFieldType: 1, isMandatory: false, notShow: false, defaultValue: '' },
      ],
    },
  ],
  'GET zone': [{ id: 2, name: 'Backstage', onAccreditation: 'B', actionId: 7, groups: [] }],
  'GET custom-field': [{ id: 5, name: 'company', label: text('Firma'), options: [] }],
  'GET groups': [
    { id: 11, name: 'Crew', adminTemplateId: 4, actionId: 7, displayName: text('Crew'), htmlData: '' },
    { id: 12, name: 'Press', adminTemplateId: null, actionId: 7, displayName: text('Tisk'), htmlData: '' },
  ],
};

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

const editorView = async () => {
  await waitFor(() => expect(document.querySelector('.cm-content')).not.toBeNull());
  const view = EditorView.findFromDOM(document.querySelector('.cm-content') as HTMLElement);
  if (!view) throw new Error('no editor');
  return view;
};

describe('editor support', () => {
  it('offers the catalogue in the UI language, the action’s user fields and the group and zone helpers', () => {
    const options = placeholderOptions(t as never, {
      fields: [{ id: 5, name: 'company' }],
      groups: ['Crew'],
      zones: ['Backstage'],
    });
    expect(options.find((o) => o.label === '{{firstname}}')?.detail).toBe(t('template.ph.firstname'));
    expect(options.find((o) => o.label === '{{custom_field[5]}}')?.detail).toBe(
      t('badgeEditor.userField', { name: 'company' }),
    );
    const crew = options.find((o) => o.label === '{{#ifGroup "Crew"}}');
    expect(crew?.insert).toMatch(/^\{\{#ifGroup "Crew"\}\}\n[\s\S]*\{\{\/ifGroup\}\}$/);
    expect(options.find((o) => o.label === '{{#ifZone "Backstage"}}')?.detail).toBe(
      t('badgeEditor.forZone', { name: 'Backstage' }),
    );
    // without the action's groups the helper is offered with a sample name
    expect(placeholderOptions(t as never).some((o) => o.label === '{{#ifGroup "Press"}}')).toBe(true);
  });

  it('turns the check’s findings and a template error into marks at their place', () => {
    expect(
      checkMarks(t as never, {
        missing: ['lastname'],
        unknown: ['nickname'],
        marks: [
          { name: 'nickname', problem: 'unknown', line: 2, column: 5 },
          { name: 'lastname', problem: 'missing', line: 1, column: 3 },
        ],
      }),
    ).toEqual([
      {
        line: 2,
        column: 5,
        length: 8,
        severity: 'warning',
        message: t('badgeEditor.markUnknown', { name: 'nickname' }),
      },
      { line: 1, column: 3, length: 8, severity: 'info', message: t('badgeEditor.markMissing', { name: 'lastname' }) },
    ]);
    const error = new ApiError('TEMPLATE_SYNTAX_ERROR', 400, 'x', [], {
      reason: 'Template error on line 2: y',
      line: 2,
      column: 4,
    });
    expect(errorMarks(error)).toEqual([
      { line: 2, column: 4, severity: 'error', message: 'Template error on line 2: y' },
    ]);
    expect(errorMarks(new ApiError('NETWORK_ERROR', 0))).toEqual([]);
    // a placeholder is marked to its }}, a mark without a column over its line
    expect(markRange(['<p>', '  {{#if x}} y'], { line: 2, column: 3, message: '', severity: 'error' })).toEqual({
      line: 2,
      from: 2,
      to: 11,
    });
    expect(markRange(['abc'], { line: 9, column: null, message: '', severity: 'error' })).toEqual({
      line: 1,
      from: 0,
      to: 3,
    });
  });
});

function Harness({ check, initial = '' }: { check?: (text: string) => Promise<EditorMark[]>; initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <TemplateHtmlField
        label="Template HTML"
        description="The layout"
        value={value}
        onChange={setValue}
        options={placeholderOptions(t as never, { fields: [{ id: 5, name: 'company' }] })}
        check={check}
      />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('the code editor', () => {
  it('is the labelled textbox of the field and completes a placeholder after {{, over the closing braces', async () => {
    renderUi(<Harness />);
    const view = await editorView();
    const box = screen.getByRole('textbox', { name: 'Template HTML' });
    expect(box).toBe(view.contentDOM);
    expect(box).toHaveAttribute('aria-describedby');

    // what closeBrackets leaves after typing {{: the cursor between {{fir and }}
    act(() => view.dispatch({ changes: { from: 0, insert: '<b>{{fir}}</b>' }, selection: { anchor: 8 } }));
    act(() => {
      startCompletion(view);
    });
    await waitFor(() => expect(currentCompletions(view.state).map((c) => c.label)).toContain('{{firstname}}'));
    expect(currentCompletions(view.state)[0].label).toBe('{{firstname}}');
    // (a completion cannot be accepted in the first moments after it opens: CodeMirror's interactionDelay)
    await waitFor(() => {
      let accepted = false;
      act(() => {
        accepted = acceptCompletion(view);
      });
      expect(accepted).toBe(true);
    });
    expect(view.state.doc.toString()).toBe('<b>{{firstname}}</b>');
    expect(screen.getByTestId('value')).toHaveTextContent('<b>{{firstname}}</b>');
  });

  it('pastes a copied placeholder as it is', async () => {
    renderUi(<Harness initial="<p></p>" />);
    const view = await editorView();
    act(() => view.dispatch({ selection: { anchor: 3 } }));
    const clipboardData = {
      types: ['text/plain'],
      getData: (type: string) => (type === 'text/plain' ? '{{custom_field[5]}}' : ''),
    };
    fireEvent.paste(view.contentDOM, { clipboardData });
    await waitFor(() => expect(view.state.doc.toString()).toBe('<p>{{custom_field[5]}}</p>'));
  });

  it('checks the text once typing pauses and marks the problems where the server says, also as a list', async () => {
    const check = vi.fn(
      async (text: string): Promise<EditorMark[]> =>
        text.includes('nickname')
          ? [{ line: 2, column: 6, length: 8, message: 'Unknown placeholder: nickname', severity: 'warning' }]
          : [],
    );
    renderUi(<Harness check={check} initial="<p>" />);
    const view = await editorView();
    act(() => {
      view.dispatch({ changes: { from: view.state.doc.length, insert: '\n' } });
      view.dispatch({ changes: { from: view.state.doc.length, insert: '<b>{{nick' } });
      view.dispatch({ changes: { from: view.state.doc.length, insert: 'name}}</b>' } });
    });
    const list = await screen.findByRole('list', { name: t('badgeEditor.marks') });
    expect(within(list).getByText(/nickname/)).toHaveTextContent(t('badgeEditor.markAt', { line: 2, column: 6 }));
    // one check for the three quick changes, with the final text
    expect(check).toHaveBeenCalledTimes(1);
    expect(check).toHaveBeenCalledWith('<p>\n<b>{{nickname}}</b>');
    await waitFor(() => expect(document.querySelector('.cm-lintRange-warning')?.textContent).toBe('nickname'));
  });

  it('is read-only when the form is', async () => {
    renderUi(<HtmlCodeEditor value="<p>x</p>" onChange={() => undefined} readOnly labelId="l" options={[]} />);
    const view = await editorView();
    expect(view.state.readOnly).toBe(true);
    expect(view.contentDOM).toHaveAttribute('contenteditable', 'false');
  });
});

describe('the badge editor page', () => {
  it('completes the action’s user fields by their label and its groups and zones, and helps with the helpers', async () => {
    mockAdminApi({
      ...currentAction,
      'GET template/4': badge,
      'POST template/validate': { missing: [], unknown: [], marks: [] },
      'POST template/preview': '<html></html>',
    });
    renderWithSession(templateRoutes, '/template/detail/4');
    const view = await editorView();
    // the help explains the helpers with a copyable example
    expect(await screen.findByText(t('template.helpersTitle'))).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: new RegExp(`^${t('basics.copy')}: \\{\\{#ifGroup "Press"\\}\\}`) }),
    ).toBeInTheDocument();

    act(() =>
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: '{{' }, selection: { anchor: 2 } }),
    );
    // (the action's groups arrive by a query: the list is opened again until they are in it)
    await waitFor(() => {
      const labels = currentCompletions(view.state).map((c) => c.label);
      if (!labels.includes('{{#ifGroup "Crew"}}') && completionStatus(view.state) !== 'pending')
        act(() => {
          closeCompletion(view);
          startCompletion(view);
        });
      expect(labels).toContain('{{#ifGroup "Crew"}}');
    });
    const options = currentCompletions(view.state);
    expect(options.find((o) => o.label === '{{custom_field[5]}}')?.detail).toBe(
      t('badgeEditor.userField', { name: 'Firma' }),
    );
    expect(options.map((o) => o.label)).toEqual(
      expect.arrayContaining(['{{firstname}}', '{{#ifGroup "Press"}}', '{{#ifZone "Backstage"}}']),
    );
  });
});

describe('the live preview', () => {
  it('follows the unsaved html, switches page size and person, shows the PDF and keeps the last good render on an error', async () => {
    const person = {
      id: 21,
      firstname: 'Petra',
      lastname: 'Crew',
      email: 'petra@example.com',
      groupIds: [12, 11],
      zoneIds: [2],
      days: [],
      customField: [{ id: 5, value: 'ACME' }],
      image: null,
      bc: 'PETRA1',
      customId: 1,
    };
    const { calls } = mockAdminApi({
      ...currentAction,
      'GET template/4': badge,
      'POST template/validate': { missing: [], unknown: [], marks: [] },
      'POST template/preview': (body: { data: string; type: string; pageSize: string }) => {
        if (body.type === 'pdf')
          return new Response('%PDF-1.7 preview', { headers: { 'content-type': 'application/pdf' } });
        if (body.data.includes('{{#if}}'))
          return jsonResponse(
            {
              error: {
                code: 'TEMPLATE_SYNTAX_ERROR',
                message: 'x',
                details: { reason: 'Template error on line 1: broken', line: 1 },
              },
            },
            400,
          );
        return `<html><body data-size="${body.pageSize}">${body.data}</body></html>`;
      },
      'POST user/filter': { paged: { data: [person], max: 1, customField: [] } },
      'GET user/7/21': person,
    });
    const createUrl = vi.fn(() => 'blob:preview-pdf');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() }));
    const { user } = renderWithSession(templateRoutes, '/template/detail/4');
    const previews = () => calls.filter((c) => c.path === 'template/preview').map((c) => c.body as Record<string, any>);

    const frame = await screen.findByTitle(t('badgeEditor.frameHtml'));
    expect(frame).toHaveAttribute('sandbox', '');
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('<h1>{{firstname}}</h1>'));
    expect(frame).toHaveAttribute('data-page-size', 'A6');

    // the unsaved text is previewed a moment after typing
    const view = await editorView();
    act(() => view.dispatch({ changes: { from: view.state.doc.length, insert: '<p>NEW</p>' } }));
    await waitFor(() =>
      expect(screen.getByTitle(t('badgeEditor.frameHtml')).getAttribute('srcdoc')).toContain('<p>NEW</p>'),
    );

    // page size
    await user.click(screen.getByRole('radio', { name: new RegExp(t('template.landscape', { size: 'A5' })) }));
    await waitFor(() =>
      expect(screen.getByTitle(t('badgeEditor.frameHtml'))).toHaveAttribute('data-page-size', 'A5-L'),
    );
    expect(previews().at(-1)).toMatchObject({ pageSize: 'A5-L', type: 'html' });

    // a person of the action: their groups and zones by name, for ifGroup and ifZone
    const select = screen.getByLabelText(t('badgeEditor.person'), {
      exact: false,
      selector: 'input:not([type="hidden"])',
    });
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: /Petra Crew/ }));
    await waitFor(() =>
      expect(previews().at(-1)?.params).toMatchObject({
        firstname: 'Petra',
        groupNames: ['Crew', 'Press'],
        zoneNames: ['Backstage'],
      }),
    );
    expect(previews().at(-1)?.params).toMatchObject({ group: 'Crew', custom_field: { 5: 'ACME' } });

    // an error keeps the last good render, with the reason
    act(() => view.dispatch({ changes: { from: view.state.doc.length, insert: '{{#if}}' } }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Template error on line 1: broken');
    expect(alert).toHaveTextContent(t('badgeEditor.staleNote'));
    expect(screen.getByTitle(t('badgeEditor.frameHtml')).getAttribute('srcdoc')).toContain('<p>NEW</p>');

    // PDF
    act(() => view.dispatch({ changes: { from: view.state.doc.length - 7, to: view.state.doc.length, insert: '' } }));
    await user.click(screen.getByRole('radio', { name: t('badgeEditor.formatPdf') }));
    const pdf = await screen.findByTitle(t('badgeEditor.framePdf'));
    expect(pdf).toHaveAttribute('src', 'blob:preview-pdf');
    expect(screen.getByRole('link', { name: t('badgeEditor.openPdf') })).toHaveAttribute('href', 'blob:preview-pdf');
    expect(previews().at(-1)).toMatchObject({ type: 'pdf', pageSize: 'A5-L', count: 1 });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
