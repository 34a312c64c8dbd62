import { buildRights, type Session } from '@accredo/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, t } from '../../../testing/render';
import { mockAdminApi, renderWithSession, testSession } from '../../../testing/session';
import { accreditationListRoute } from './routes';
import { PRINT_DELAY_MS } from './use-print';
import { accreditationRow } from '../../../testing/fixtures';

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

/** A stand-in for the print window: records what is written and whether it printed. */
function fakeWindow() {
  let written = '';
  const win = {
    closed: false,
    document: {
      open: vi.fn(() => {
        written = '';
      }),
      write: vi.fn((html: string) => {
        written += html;
      }),
      close: vi.fn(),
    },
    focus: vi.fn(),
    print: vi.fn(),
    close: vi.fn(() => {
      win.closed = true;
    }),
    written: () => written,
  };
  return win;
}

function renderList(session: Session = testSession()) {
  return renderWithSession([{ path: 'accreditation', children: [accreditationListRoute] }], '/accreditation', session);
}

const rowOf = (id: number) => screen.getByRole('row', { name: new RegExp(`p${id}@example\\.com`) });

let win: ReturnType<typeof fakeWindow>;
let open: ReturnType<typeof vi.fn>;
beforeEach(() => {
  window.localStorage.clear();
  win = fakeWindow();
  open = vi.fn(() => win);
  vi.stubGlobal('open', open);
});
afterEach(() => vi.unstubAllGlobals());

describe('printing badges from the list', () => {
  it('prints the selection in a window that prints itself after 500 ms, and reloads the list', async () => {
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

    await waitFor(() => expect(win.written()).toContain('<h1>First1</h1>'));
    expect(open).toHaveBeenCalledTimes(1);
    expect(win.written()).toContain(`<head>\n<base href="${window.location.origin}/">`);
    expect(calls.find((c) => c.path === 'user/print')?.body).toEqual({
      actionId: 7,
      userId: [1],
      all: false,
      filterData: { text: null, groupId: null, zoneId: null, printed: null, customField: {} },
      type: 'html',
    });
    expect(win.print).not.toHaveBeenCalled();
    await waitFor(() => expect(win.print).toHaveBeenCalledTimes(1), { timeout: PRINT_DELAY_MS + 1000 });
    await waitFor(() => expect(calls.filter((c) => c.path === 'user/all').length).toBeGreaterThan(listCalls));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('lists the people left out in a modal; with nobody printable the window closes', async () => {
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
    expect(win.close).toHaveBeenCalled();
    expect(win.print).not.toHaveBeenCalled();
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
    await waitFor(() => expect(win.written()).toContain('<h1>First1</h1>'));
    expect(calls.find((c) => c.path === 'user/print')?.body).toMatchObject({ userId: [], all: true });
  });

  it('shows a failure as a toast and closes the window', async () => {
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
    expect(win.close).toHaveBeenCalled();
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
    expect(open).not.toHaveBeenCalled();
  });
});
