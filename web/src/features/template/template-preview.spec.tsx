import { buildRights } from '@accredo/domain';
import { EditorView } from '@codemirror/view';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { jsonResponse, t } from '../../testing/render';
import { mockAdminApi, renderWithSession, testSession } from '../../testing/session';
import { templateRoutes } from './routes';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const badge = {
  id: 4,
  name: 'Badge',
  type: 1,
  pageSize: 'A5-L',
  htmlData: '<h1>{{firstname}}</h1>{{custom_field[5]}} {{nickname}}',
};
const mail = {
  id: 3,
  name: 'Welcome',
  type: 1,
  subjectFrom: 'Welcome',
  withAccreditation: false,
  mailCopy: [],
  html: '<p>Hi {{firstname}}</p>',
};

/** The admin's current action, whose days, zones and user fields the sample person gets. */
const currentAction = {
  'GET actual': { id: 1, lastAction: 7 },
  'GET action': [
    {
      id: 7,
      name: text('Summer fest'),
      days: [{ id: '2027-05-10', name: text('Pondělí'), onAccreditation: 'PO' }],
      customField: [{ id: 5, name: 'size', customFieldType: 4, isMandatory: false, notShow: false, defaultValue: '' }],
    },
  ],
  'GET zone': [
    { id: 2, name: 'Backstage', onAccreditation: 'B', actionId: 7, groups: [] },
    { id: 3, name: 'Elsewhere', onAccreditation: 'E', actionId: 8, groups: [] },
  ],
  'GET custom-field': [{ id: 5, name: 'size', options: [{ id: 'm', value: 'Medium' }] }],
};

const bodiesOf = (calls: { method: string; path: string; body: unknown }[], path: string) =>
  calls.filter((c) => c.method === 'POST' && c.path === path).map((c) => c.body as Record<string, unknown>);

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

describe('template preview and check', () => {
  it('checks the unsaved html with a sample person of the current action and lists missing and unknown', async () => {
    const { calls } = mockAdminApi({
      ...currentAction,
      'GET template/4': badge,
      'POST template/validate': { missing: ['zones[4]'], unknown: ['nickname'] },
    });
    const { user } = renderWithSession(templateRoutes, '/template/detail/4');
    // the code editor (loaded on demand) is the field's textbox
    await waitFor(() => expect(document.querySelector('.cm-content')).not.toBeNull());
    const html = screen.getByRole('textbox', { name: t('template.htmlData') });
    expect(html).toHaveClass('cm-content');
    const view = EditorView.findFromDOM(html);
    view?.dispatch({ changes: { from: view.state.doc.length, insert: ' {{zones[4]}}' } });
    await waitFor(() => expect(calls.some((c) => c.path === 'custom-field')).toBe(true));
    await user.click(screen.getByRole('button', { name: t('templateEngine.validate') }));

    const missing = await screen.findByRole('list', { name: t('templateEngine.missing') });
    expect(within(missing).getByText('zones[4]')).toBeInTheDocument();
    const unknown = screen.getByRole('list', { name: t('templateEngine.unknown') });
    expect(within(unknown).getByText('nickname')).toBeInTheDocument();

    const body = bodiesOf(calls, 'template/validate').at(-1) ?? {};
    expect(body.data).toBe('<h1>{{firstname}}</h1>{{custom_field[5]}} {{nickname}} {{zones[4]}}');
    const params = body.params as Record<string, unknown>;
    expect(params).toMatchObject({
      firstname: 'Jan',
      actionName: 'Summer fest',
      zones: ['B'],
      custom_field: { 5: 'Medium' },
      days: [{ id: '2027-05-10', name: 'Pondělí', onAccreditation: 'PO' }],
    });
  });

  it('says when every placeholder has a value, and shows a template error with its line', async () => {
    // a fresh Response per call: the editor's own marks also call validate while the page settles
    let answer: (() => Response) | object = { missing: [], unknown: [] };
    const table: Record<string, unknown> = { ...currentAction, 'GET template/4': badge };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const key = `${init?.method ?? 'GET'} ${url.replace('/api/admin/v1/', '')}`;
        if (key === 'POST template/validate')
          return typeof answer === 'function' ? answer() : jsonResponse({ data: answer });
        return key in table
          ? jsonResponse({ data: table[key] })
          : jsonResponse({ error: { code: 'NOT_FOUND', message: key } }, 404);
      }),
    );
    const { user } = renderWithSession(templateRoutes, '/template/detail/4');
    await user.click(await screen.findByRole('button', { name: t('templateEngine.validate') }));
    expect(await screen.findByText(t('templateEngine.validTitle'))).toBeInTheDocument();

    answer = () =>
      jsonResponse(
        {
          error: {
            code: 'TEMPLATE_SYNTAX_ERROR',
            message: 'The template contains an error',
            details: { reason: 'Template error on line 2: a block ({{#…}}) is not closed with {{/…}}', line: 2 },
          },
        },
        400,
      );
    await user.click(screen.getByRole('button', { name: t('templateEngine.validate') }));
    const alert = await screen.findByRole('alert', { name: t('templateEngine.syntaxTitle') });
    expect(alert).toHaveTextContent(t('templateEngine.syntaxTitle'));
    expect(alert).toHaveTextContent('Template error on line 2: a block');
  });

  it('previews the badge in a sandboxed frame with the page size and copies', async () => {
    const page = '<!DOCTYPE html><html><body><h1>Jan</h1><svg class="bc"></svg></body></html>';
    const { calls } = mockAdminApi({ ...currentAction, 'GET template/4': badge, 'POST template/preview': page });
    const { user } = renderWithSession(templateRoutes, '/template/detail/4');
    await user.click(await screen.findByRole('button', { name: t('templateEngine.preview') }));

    const dialog = await screen.findByRole('dialog', { name: t('templateEngine.previewTitle') });
    const frame = await within(dialog).findByTitle(t('templateEngine.previewFrame'));
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame).toHaveAttribute('srcdoc', page);
    expect(within(dialog).getByText(t('templateEngine.sampleNote'))).toBeInTheDocument();
    // (the live preview beside the editor renders too: badge-live-preview.spec.tsx)
    expect(bodiesOf(calls, 'template/preview')).toContainEqual(
      expect.objectContaining({
        data: badge.htmlData,
        count: 1,
        type: 'html',
        pageSize: 'A5-L',
        params: expect.objectContaining({ firstname: 'Jan', actionName: 'Summer fest' }),
      }),
    );

    const copies = within(dialog).getByRole('textbox', { name: t('templateEngine.copies') });
    await user.clear(copies);
    await user.type(copies, '3');
    await user.click(within(dialog).getByRole('button', { name: t('templateEngine.refresh') }));
    await waitFor(() => expect(bodiesOf(calls, 'template/preview').at(-1)).toMatchObject({ count: 3 }));
  });

  it('previews a mail body as type mail; without a current action the server samples', async () => {
    const { calls } = mockAdminApi({
      'GET actual': { id: 1, lastAction: null },
      'GET action': [],
      'GET mail-template/3': mail,
      'POST template/preview': '<p>Hi Jan</p>',
    });
    const { user } = renderWithSession(templateRoutes, '/mail-template/detail/3');
    await user.click(await screen.findByRole('button', { name: t('templateEngine.preview') }));
    const dialog = await screen.findByRole('dialog', { name: t('templateEngine.previewTitle') });
    expect(await within(dialog).findByTitle(t('templateEngine.previewFrame'))).toHaveAttribute(
      'srcdoc',
      '<p>Hi Jan</p>',
    );
    expect(within(dialog).queryByRole('textbox', { name: t('templateEngine.copies') })).not.toBeInTheDocument();
    expect(within(dialog).getByText(t('templateEngine.sampleNoteGeneric'))).toBeInTheDocument();
    const [body] = bodiesOf(calls, 'template/preview');
    expect(body).toEqual({ data: '<p>Hi {{firstname}}</p>', count: 1, type: 'mail' });
  });

  it('offers only the buttons the rights allow', async () => {
    mockAdminApi({ ...currentAction, 'GET template/4': badge });
    const session = {
      ...testSession(),
      superuser: false,
      rights: buildRights(([page, action]) => page === 'template' && action === 'get'),
    };
    renderWithSession(templateRoutes, '/template/detail/4', session);
    expect(await screen.findByRole('button', { name: t('templateEngine.preview') })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('templateEngine.validate') })).not.toBeInTheDocument();
  });
});
