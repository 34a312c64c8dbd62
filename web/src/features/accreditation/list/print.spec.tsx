import { buildRights, type Session } from '@accredo/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, t } from '../../../testing/render';
import { mockAdminApi, renderWithSession, testSession } from '../../../testing/session';
import { accreditationListRoute } from './routes';
import { PRINT_FRAME_SANDBOX, PRINT_SCRIPT, printDocument } from './use-print';
import { accreditationRow } from '../../../testing/fixtures';
import { STORAGE_KEYS } from '../../../api/storage';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });

const row = (id: number) => accreditationRow(id, { bc: `BC${id}` });

const base = {
  'GET actual': { id: 1, lastAction: 7 },
  'GET action': [{ id: 7, name: text('Summer fest'), days: [] }],
  'GET groups': [],
  'GET zone': [],
  'POST user/all': { paged: { data: [1, 2, 3].map(row), max: 3, customField: [] } },
};

const badges =
  '<!DOCTYPE html><html><head><title>Badges</title></head><body><h1>First1</h1><svg class="bc"></svg></body></html>';

/** The print frame the list put into the page (the only iframe of the list). */
const printFrame = () => document.querySelector<HTMLIFrameElement>('iframe[data-accredo-print]');

function renderList(session: Session = testSession()) {
  return renderWithSession([{ path: 'accreditation', children: [accreditationListRoute] }], '/accreditation', session);
}

const rowOf = (id: number) => screen.getByRole('row', { name: new RegExp(`p${id}@example\\.com`) });

let open: ReturnType<typeof vi.fn>;
beforeEach(() => {
  window.localStorage.clear();
  open = vi.fn(() => null);
  vi.stubGlobal('open', open);
});
afterEach(() => {
  vi.unstubAllGlobals();
  for (const frame of document.querySelectorAll('iframe')) frame.remove();
});

describe('printing badges from the list', () => {
  it('prints the selection in a sandboxed frame that prints itself, and reloads the list', async () => {
    const { calls } = mockAdminApi({
      ...base,
      'POST user/print': jsonResponse({ data: badges, fileName: 'badges.html', error: [], printed: 1 }),
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(rowOf(1));
    const listCalls = calls.filter((c) => c.path === 'user/all').length;
    await user.click(screen.getByRole('button', { name: t('basics.options') }));
    await user.click(await screen.findByRole('menuitem', { name: t('templateEngine.print') }));

    await waitFor(() => expect(printFrame()).not.toBeNull());
    const frame = printFrame() as HTMLIFrameElement;
    expect(open).not.toHaveBeenCalled(); // no window of this origin holds the badges
    expect(frame.getAttribute('sandbox')).toBe(PRINT_FRAME_SANDBOX);
    expect(frame.srcdoc).toContain('<h1>First1</h1>');
    expect(frame.srcdoc).toContain(
      `<head>\n<base href="${window.location.origin}/">\n<script src="${window.location.origin}${PRINT_SCRIPT}"></script>`,
    );
    expect(calls.find((c) => c.path === 'user/print')?.body).toEqual({
      actionId: 7,
      userId: [1],
      all: false,
      filterData: { text: null, groupId: null, zoneId: null, printed: null, customField: {} },
      type: 'html',
    });
    // the frame's print trigger reports back; only a message from the frame itself counts
    window.dispatchEvent(new MessageEvent('message', { data: { accredoPrint: 'done' }, source: window }));
    expect(frame).not.toHaveAttribute('data-printed');
    window.dispatchEvent(
      new MessageEvent('message', { data: { accredoPrint: 'done' }, source: frame.contentWindow as Window }),
    );
    expect(frame).toHaveAttribute('data-printed', 'true');
    await waitFor(() => expect(calls.filter((c) => c.path === 'user/all').length).toBeGreaterThan(listCalls));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('lists the people left out in a modal; with nobody printable there is no print frame', async () => {
    mockAdminApi({
      ...base,
      'POST user/print': jsonResponse({
        data: null,
        fileName: 'badges.html',
        error: [
          { user: 2, error: 'PRINT_NO_GROUP', name: 'First2 Last2' },
          { user: 3, error: 'PRINT_NO_TEMPLATE', name: 'First3 Last3' },
        ],
        printed: 0,
      }),
    });
    const { user } = renderList();
    await screen.findByText('p2@example.com');
    await user.click(rowOf(2));
    await user.click(rowOf(3));
    await user.click(screen.getByRole('button', { name: t('basics.options') }));
    await user.click(await screen.findByRole('menuitem', { name: t('templateEngine.print') }));

    const dialog = await screen.findByRole('dialog', { name: t('templateEngine.printErrorsTitle') });
    expect(within(dialog).getByText(t('templateEngine.printErrorsIntro', { printed: 0 }))).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        new RegExp(
          t('templateEngine.printErrorLine', { user: 2, error: t('errors.PRINT_NO_GROUP') }).replace(
            /[.*+?^${}()|[\]\\]/g,
            '\\$&',
          ),
        ),
      ),
    ).toHaveTextContent('(First2 Last2)');
    expect(within(dialog).getByText(new RegExp(t('errors.PRINT_NO_TEMPLATE')))).toBeInTheDocument();
    expect(printFrame()).toBeNull();
    expect(open).not.toHaveBeenCalled();
    const closers = within(dialog).getAllByRole('button', { name: t('basics.close') });
    expect(closers).toHaveLength(2); // the corner X and the footer button
    await user.click(closers[1]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks to choose users when nothing is selected, and prints the whole filter with select-all', async () => {
    const { calls } = mockAdminApi({
      ...base,
      'POST user/print': jsonResponse({ data: badges, fileName: 'badges.html', error: [], printed: 3 }),
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(screen.getByRole('button', { name: t('basics.options') }));
    await user.click(await screen.findByRole('menuitem', { name: t('templateEngine.print') }));
    expect(await screen.findByText(t('accreditation.chooseUsers'))).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
    expect(calls.some((c) => c.path === 'user/print')).toBe(false);

    await user.click(screen.getByRole('checkbox', { name: t('accreditation.selectAll', { count: 3 }) }));
    // Ctrl+P prints instead of the browser's print
    const event = fireEvent.keyDown(document.body, { key: 'p', ctrlKey: true });
    expect(event).toBe(false); // default prevented
    await waitFor(() => expect(printFrame()?.srcdoc).toContain('<h1>First1</h1>'));
    expect(calls.find((c) => c.path === 'user/print')?.body).toMatchObject({ userId: [], all: true });
  });

  it('shows a failure as a toast and prints nothing', async () => {
    mockAdminApi({
      ...base,
      'POST user/print': jsonResponse(
        { error: { code: 'NOTHING_TO_PRINT', message: 'There is nothing to print', details: {} } },
        400,
      ),
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(screen.getByRole('checkbox', { name: t('accreditation.selectAll', { count: 3 }) }));
    fireEvent.keyDown(document.body, { key: 'P', metaKey: true });
    expect(await screen.findByText(t('errors.NOTHING_TO_PRINT'))).toBeInTheDocument();
    expect(printFrame()).toBeNull();
  });

  it('leaves Ctrl+P to the browser and hides the option without the print right', async () => {
    const { calls } = mockAdminApi(base);
    const session = {
      ...testSession(),
      superuser: false,
      rights: buildRights(
        ([page, action]) =>
          (page === 'user' && action !== 'getUserPrintData') || (page === 'action' && action === 'get'),
      ),
    };
    const { user } = renderList(session);
    await screen.findByText('p1@example.com');
    await user.click(rowOf(1));
    const event = fireEvent.keyDown(document.body, { key: 'p', ctrlKey: true });
    expect(event).toBe(true); // not prevented: the browser prints the page
    await user.click(screen.getByRole('button', { name: t('basics.options') }));
    await screen.findByRole('menuitem', { name: t('accreditation.openFilter') });
    expect(screen.queryByRole('menuitem', { name: t('templateEngine.print') })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === 'user/print')).toBe(false);
    expect(printFrame()).toBeNull();
  });

  it('keeps script of a template out of this origin: only a sandboxed opaque-origin frame holds the badges', async () => {
    window.localStorage.setItem(STORAGE_KEYS.adminToken, 'secret-admin-token');
    const evil =
      '<!DOCTYPE html><html><head><title>Badges</title></head><body><h1>First1</h1>' +
      '<script>window.top.stolen = localStorage.getItem("' +
      STORAGE_KEYS.adminToken +
      '")</script><img src="x" onerror="window.top.stolen = 1"></body></html>';
    mockAdminApi({
      ...base,
      'POST user/print': jsonResponse({ data: evil, fileName: 'badges.html', error: [], printed: 1 }),
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(rowOf(1));
    await user.click(screen.getByRole('button', { name: t('basics.options') }));
    await user.click(await screen.findByRole('menuitem', { name: t('templateEngine.print') }));
    await waitFor(() => expect(printFrame()).not.toBeNull());
    const frame = printFrame() as HTMLIFrameElement;

    const sandbox = (frame.getAttribute('sandbox') ?? '').split(/\s+/);
    expect(sandbox).not.toContain('allow-same-origin'); // an opaque origin: no storage, no parent page
    expect(sandbox).not.toContain('allow-top-navigation');
    expect(sandbox).not.toContain('allow-popups');
    expect(frame.srcdoc).toContain('localStorage.getItem');
    // nothing of the template is markup of this page: the frame's srcdoc is its only copy
    const page = document.documentElement.cloneNode(true) as HTMLElement;
    for (const copy of page.querySelectorAll('iframe')) copy.removeAttribute('srcdoc');
    expect(page.innerHTML).not.toContain('stolen');
    expect([...document.scripts].some((script) => script.textContent?.includes('stolen'))).toBe(false);
    expect(open).not.toHaveBeenCalled();
    expect((window as unknown as { stolen?: unknown }).stolen).toBeUndefined();
  });

  it('places the base and the print trigger into any head, or wraps a fragment in a document', () => {
    const origin = window.location.origin;
    expect(printDocument('<html><head lang="en"><title>x</title></head><body>b</body></html>')).toContain(
      `<head lang="en">\n<base href="${origin}/">`,
    );
    const wrapped = printDocument('<p>badge</p>');
    expect(wrapped).toMatch(/^<!DOCTYPE html><html><head><base href="[^"]+\/">/);
    expect(wrapped).toContain(`<script src="${origin}${PRINT_SCRIPT}"></script></head><body><p>badge</p></body>`);
  });
});
