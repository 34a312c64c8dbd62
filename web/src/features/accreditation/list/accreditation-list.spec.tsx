import { buildRights, type Session } from '@accredo/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActionField } from '../../../api/accreditation-list';
import { STORAGE_KEYS } from '../../../api/storage';
import { i18n } from '../../../app/i18n';
import { jsonResponse, t } from '../../../testing/render';
import { renderWithSession, testSession } from '../../../testing/session';
import { accreditationListRoute } from './routes';
import { mockAdminApi } from '../../../testing/mock-api';
import { accreditationRow } from '../../../testing/fixtures';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });

const row = (id: number) =>
  accreditationRow(
    id,
    id === 1 ? { groups: [{ id: 3, name: 'VIP' }], image: { id: 50, path: '/files/demo/50.png' }, printCount: 2 } : {},
  );

const fields: ActionField[] = [
  { id: 4, name: 'Vegan', label: text('Vegan'), customFieldType: 7, options: [] },
  { id: 5, name: 'Company', label: text('Firma'), customFieldType: 1, options: [] },
  {
    id: 6,
    name: 'tricko',
    label: text('Tričko'),
    customFieldType: 4,
    options: [
      { id: 'a', value: 'S' },
      { id: 'b', value: 'XL' },
    ],
  },
];

/** POST user/all and user/filter: `total` rows paged by the request. */
const pagedRows = (total: number) => (body: Record<string, unknown> | undefined) => {
  const page = Number(body?.page ?? 1);
  const size = Number(body?.pageSize ?? 10);
  const from = (page - 1) * size + 1;
  const ids = Array.from({ length: Math.max(0, Math.min(size, total - from + 1)) }, (_, i) => from + i);
  return { paged: { data: ids.map(row), max: total, customField: fields } };
};

const base = {
  'GET actual': { id: 1, lastAction: 7 },
  'GET action': [{ id: 7, name: text('Summer fest'), days: [] }],
  'GET groups': [
    { id: 3, name: 'VIP', actionId: 7 },
    { id: 9, name: 'Other action group', actionId: 8 },
  ],
  'GET zone': [{ id: 2, name: 'Backstage', actionId: 7 }],
};

const emptyFilter = { text: null, groupId: null, zoneId: null, printed: null, customField: {} };

function DetailStub() {
  return <p>Detail {useParams().id}</p>;
}

function renderList(session: Session = testSession()) {
  return renderWithSession(
    [
      {
        path: 'accreditation',
        children: [
          accreditationListRoute,
          { path: 'detail/:id', element: <DetailStub /> },
          { path: 'create', element: <p>Create page</p> },
        ],
      },
    ],
    '/accreditation',
    session,
  );
}

const bodyRows = () =>
  within(screen.getByRole('table', { name: t('accreditation.listLabel') }))
    .getAllByRole('row')
    .slice(1);
const rowOf = (id: number) => screen.getByRole('row', { name: new RegExp(`p${id}@example\\.com`) });

async function openMenuItem(user: ReturnType<typeof renderList>['user'], label: string) {
  await user.click(screen.getByRole('button', { name: t('basics.options') }));
  await user.click(await screen.findByRole('menuitem', { name: t(label) }));
}

beforeEach(() => {
  window.localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('accreditation list', () => {
  it('past the count cap shows "10,000+" and counts exactly on request (issue 16)', async () => {
    const { bodies } = mockAdminApi({
      ...base,
      'POST user/all': (body: Record<string, unknown> | undefined) => {
        const page = pagedRows(25)(body);
        return body?.exactCount
          ? { paged: { ...page.paged, max: 1_234_567, maxCapped: false } }
          : { paged: { ...page.paged, max: 10_000, maxCapped: true } };
      },
    });
    const { user } = renderList();

    // "10,000+" in the UI language's digits (cs: "10 000+"; its no-break space read as a space)
    const raw = `${new Intl.NumberFormat(i18n.language).format(10_000)}+`;
    const atLeast = raw.replace(/\s/g, ' ');
    expect(await screen.findByText(t('basics.total', { count: atLeast }))).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: t('accreditation.selectAll', { count: raw }) })).toBeInTheDocument();
    expect(bodies('user/all')[0]).toEqual({ actionId: 7, page: 1, pageSize: 10 });
    await user.click(screen.getByRole('button', { name: t('accreditation.countExactly') }));
    expect(await screen.findByText(t('basics.total', { count: 1_234_567 }))).toBeInTheDocument();
    expect(bodies('user/all').at(-1)).toEqual({ actionId: 7, page: 1, pageSize: 10, exactCount: true });
    expect(screen.queryByRole('button', { name: t('accreditation.countExactly') })).not.toBeInTheDocument();
  });

  it('requests page 1, then page 2 and a new page size, with 1-based pages; double-click opens', async () => {
    const { bodies } = mockAdminApi({ ...base, 'POST user/all': pagedRows(25) });
    const { user } = renderList();

    expect(await screen.findByText('p1@example.com')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(10);
    expect(bodies('user/all')[0]).toEqual({ actionId: 7, page: 1, pageSize: 10 });
    expect(screen.getByText(t('basics.total', { count: 25 }))).toBeInTheDocument();
    expect(screen.getByRole('img', { name: t('accreditation.photoOf', { name: 'First1 Last1' }) })).toHaveAttribute(
      'src',
      '/files/demo/50.png',
    );
    expect(within(rowOf(1)).getByText('VIP')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t('basics.page_next') }));
    expect(await screen.findByText('p11@example.com')).toBeInTheDocument();
    expect(bodies('user/all').at(-1)).toEqual({ actionId: 7, page: 2, pageSize: 10 });

    await user.click(screen.getByRole('combobox', { name: t('basics.pageSize') }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: '20' }));
    await waitFor(() => expect(bodies('user/all').at(-1)).toEqual({ actionId: 7, page: 1, pageSize: 20 }));
    await waitFor(() => expect(bodyRows()).toHaveLength(20));

    await user.dblClick(rowOf(4));
    expect(await screen.findByText('Detail 4')).toBeInTheDocument();
  });

  it('filters from page 1 with the filter data, remembers it, and shows all again', async () => {
    const { bodies } = mockAdminApi({ ...base, 'POST user/all': pagedRows(25), 'POST user/filter': pagedRows(3) });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(screen.getByRole('button', { name: t('basics.page_next') }));
    await screen.findByText('p11@example.com');

    await user.click(screen.getByRole('button', { name: t('accreditation.filter') }));
    const panel = await screen.findByRole('form', { name: t('accreditation.filter') });
    await user.type(within(panel).getByLabelText(t('accreditation.filterText')), 'Nov');
    await user.click(within(panel).getByRole('combobox', { name: t('accreditation.group') }));
    await user.click(await screen.findByRole('option', { name: 'VIP' }));
    expect(screen.queryByRole('option', { name: 'Other action group' })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('combobox', { name: 'Vegan' }));
    await user.click(await screen.findByRole('option', { name: t('basics.yes') }));
    await user.type(within(panel).getByLabelText('Firma'), 'Acme');
    // a choice field offers its options instead of a text box
    await user.click(within(panel).getByRole('combobox', { name: 'Tričko' }));
    expect(
      within(await screen.findByRole('listbox'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['S', 'XL']);
    await user.click(screen.getByRole('option', { name: 'XL' }));
    await user.click(within(panel).getByRole('button', { name: t('accreditation.applyFilter') }));

    const filterData = {
      text: 'Nov',
      groupId: 3,
      zoneId: null,
      printed: null,
      entrance: null,
      entranceDate: null,
      customField: { '4': 1, '5': 'Acme', '6': 'XL' },
    };
    await waitFor(() => expect(bodies('user/filter')).toHaveLength(1));
    expect(bodies('user/filter')[0]).toEqual({ actionId: 7, page: 1, pageSize: 10, filterData });
    expect(await screen.findByText(t('basics.total', { count: 3 }))).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.userFilter) ?? '{}')).toEqual({
      actionId: 7,
      filter: filterData,
    });

    const allCalls = bodies('user/all').length;
    await user.click(screen.getByRole('button', { name: t('accreditation.showAll') }));
    await waitFor(() => expect(bodies('user/all')).toHaveLength(allCalls + 1));
    expect(bodies('user/all').at(-1)).toEqual({ actionId: 7, page: 1, pageSize: 10 });
    expect(window.localStorage.getItem(STORAGE_KEYS.userFilter)).toBeNull();
  });

  it('assigns a group to the whole filter with select-all (Ctrl+A) and reloads the list', async () => {
    const stored = { ...emptyFilter, text: 'Nov' };
    window.localStorage.setItem(STORAGE_KEYS.userFilter, JSON.stringify({ actionId: 7, filter: stored }));
    const { bodies } = mockAdminApi({
      ...base,
      'POST user/filter': pagedRows(30),
      'POST user/assign-groups': { changed: 30 },
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    expect(bodies('user/filter')[0]).toEqual({ actionId: 7, page: 1, pageSize: 10, filterData: stored });

    fireEvent.keyDown(document.body, { key: 'a', ctrlKey: true });
    expect(screen.getByRole('checkbox', { name: t('accreditation.selectAll', { count: 30 }) })).toBeChecked();
    expect(screen.getByText(t('basics.selected', { count: 30 }))).toBeInTheDocument();
    expect(bodyRows().every((r) => r.getAttribute('aria-selected') === 'true')).toBe(true);

    await openMenuItem(user, 'accreditation.assignGroup');
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: t('accreditation.assign') }));
    expect(within(dialog).getByText(t('accreditation.chooseGroup'))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: t('accreditation.groups') }));
    await user.click(await screen.findByRole('option', { name: 'VIP' }));
    // adding is the default; replacing is offered and says what it takes away
    expect(within(dialog).getByRole('radio', { name: t('accreditation.groupsAdd') })).toBeChecked();
    expect(within(dialog).queryByText(t('accreditation.groupsReplaceWarning'))).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: t('accreditation.groupsReplace') }));
    expect(within(dialog).getByText(t('accreditation.groupsReplaceWarning'))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: t('accreditation.assign') }));

    await waitFor(() => expect(bodies('user/assign-groups')).toHaveLength(1));
    expect(bodies('user/assign-groups')[0]).toEqual({
      actionId: 7,
      userId: [],
      all: true,
      filterData: stored,
      groupsId: [3],
      mode: 'replace',
    });
    expect(await screen.findByText(t('accreditation.rowsChanged', { count: 30 }))).toBeInTheDocument();
    await waitFor(() => expect(bodies('user/filter')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('deletes a ctrl-click range after choosing the type and confirming', async () => {
    const { bodies } = mockAdminApi({
      ...base,
      'POST user/all': pagedRows(12),
      'POST user/delete': { changed: 5 },
      'POST user/delete/preview': {
        count: 5,
        actions: [
          { id: 7, name: { cs: 'Festival', sk: '', en: '', de: '' }, count: 3 },
          { id: 8, name: { cs: 'Konference', sk: '', en: '', de: '' }, count: 2 },
        ],
      },
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');

    await user.click(rowOf(2));
    await user.keyboard('{Control>}');
    await user.click(rowOf(4));
    await user.keyboard('{/Control}');
    expect(screen.getByText(t('basics.selected', { count: 3 }))).toBeInTheDocument();

    await openMenuItem(user, 'accreditation.delete');
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: t('accreditation.continue') }));
    expect(within(dialog).getByText(t('basics.requireField'))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: t('accreditation.deleteFromSystem') }));
    await user.click(within(dialog).getByRole('button', { name: t('accreditation.continue') }));
    // from the system: everyone with these e-mails, in every action, is counted and named first
    expect(await within(dialog).findByText(t('accreditation.deleteConfirmSystem', { count: 5 }))).toBeInTheDocument();
    expect(within(dialog).getByText('Festival: 3')).toBeInTheDocument();
    expect(within(dialog).getByText('Konference: 2')).toBeInTheDocument();
    expect(bodies('user/delete/preview')[0]).toMatchObject({ userId: [2, 3, 4], type: 2 });
    expect(bodies('user/delete')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: t('accreditation.deleteConfirm') }));

    await waitFor(() => expect(bodies('user/delete')).toHaveLength(1));
    expect(bodies('user/delete')[0]).toEqual({
      actionId: 7,
      userId: [2, 3, 4],
      all: false,
      filterData: emptyFilter,
      type: 2,
    });
    expect(await screen.findByText(t('accreditation.rowsChanged', { count: 5 }))).toBeInTheDocument();
    await waitFor(() => expect(bodies('user/all').length).toBeGreaterThanOrEqual(2));
    await waitFor(() => expect(screen.getByText(t('basics.total', { count: 12 }))).toBeInTheDocument());
  });

  it('asks to choose users first and toasts a failed change', async () => {
    const { bodies } = mockAdminApi({
      ...base,
      'POST user/all': pagedRows(2),
      'POST user/assign-zone': jsonResponse({ error: { code: 'INTERNAL_ERROR', message: 'boom' } }, 500),
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');

    await openMenuItem(user, 'accreditation.assignZones');
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(t('accreditation.chooseUsers'));
    // the dialog's own Close button (its × in the corner is named Close too)
    await user.click(
      within(dialog)
        .getAllByRole('button', { name: t('basics.close') })
        .at(-1)!,
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(rowOf(1));
    await openMenuItem(user, 'accreditation.assignZones');
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('combobox', { name: t('accreditation.zones') }));
    await user.click(await screen.findByRole('option', { name: 'Backstage' }));
    await user.click(within(dialog).getByRole('button', { name: t('accreditation.assign') }));
    expect(await screen.findByText(t('accreditation.zoneAssignError'))).toBeInTheDocument();
    expect(bodies('user/assign-zone')[0]).toMatchObject({ userId: [1], all: false, zones: [2] });
  });

  it('assigns days of the action', async () => {
    const { bodies } = mockAdminApi({
      ...base,
      'POST user/all': pagedRows(2),
      'GET action/7': {
        id: 7,
        days: [
          { id: '2026-05-01', name: text('Friday'), onAccreditation: '01.05' },
          { id: '2026-05-02', name: text('Saturday'), onAccreditation: '02.05' },
        ],
      },
      'POST user/assign-days': { changed: 1 },
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(rowOf(2));
    await openMenuItem(user, 'accreditation.assignDays');
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Saturday' }));
    await user.click(within(dialog).getByRole('button', { name: t('accreditation.assign') }));
    await waitFor(() => expect(bodies('user/assign-days')).toHaveLength(1));
    expect(bodies('user/assign-days')[0]).toEqual({
      actionId: 7,
      userId: [2],
      all: false,
      filterData: emptyFilter,
      days: ['2026-05-02'],
    });
  });

  it('duplicates the selection into another action', async () => {
    const { bodies } = mockAdminApi({
      ...base,
      'GET action': [
        { id: 7, name: text('Summer fest'), days: [] },
        { id: 8, name: text('Winter fest'), days: [] },
      ],
      'POST user/all': pagedRows(2),
      'POST user/copy': { changed: 1, skipped: 0 },
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(rowOf(1));
    await openMenuItem(user, 'accreditation.copy');
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: t('accreditation.copy') }));
    expect(await within(dialog).findByText(t('accreditation.chooseAction'))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: t('accreditation.targetAction') }));
    await user.click(await screen.findByRole('option', { name: 'Winter fest' }));
    await user.click(within(dialog).getByRole('button', { name: t('accreditation.copy') }));
    await waitFor(() => expect(bodies('user/copy')).toHaveLength(1));
    expect(bodies('user/copy')[0]).toEqual({
      actualAction: 7,
      actionId: 8,
      userId: [1],
      all: false,
      filterData: emptyFilter,
    });
  });

  it('shows the empty states, the load error and hides what the rights do not allow', async () => {
    mockAdminApi({ ...base, 'GET action': [] });
    const first = renderList();
    expect(await screen.findByText(t('accreditation.noAction'))).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: t('basics.add') })).not.toBeInTheDocument();
    first.unmount();

    mockAdminApi({ ...base, 'POST user/all': pagedRows(0) });
    const second = renderList();
    expect(await screen.findByText(t('basics.noData'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('basics.add') })).toHaveAttribute('href', '/accreditation/create');
    second.unmount();

    mockAdminApi({ ...base, 'POST user/all': jsonResponse({ error: { code: 'INTERNAL_ERROR', message: 'x' } }, 500) });
    const rights = buildRights(false);
    rights.user.getUser.is = true;
    rights.user.deleteUser.is = true;
    rights.action.get.is = true;
    const { user } = renderList({ ...testSession(), superuser: false, rights });
    expect(await screen.findByRole('alert')).toHaveTextContent(t('accreditation.loadError'));
    expect(screen.queryByRole('link', { name: t('basics.add') })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('basics.options') }));
    expect(await screen.findByRole('menuitem', { name: t('accreditation.delete') })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: t('accreditation.assignGroup') })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: t('accreditation.openFilter') })).not.toBeInTheDocument();
  });

  it('says the export is being prepared while the server makes it, then offers the file', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:export'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { bodies } = mockAdminApi({
      ...base,
      'POST user/all': pagedRows(3),
      'POST user/export': async () => {
        await gate;
        return new Response('xlsx-bytes', {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="accreditations-7.xlsx"' },
        });
      },
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(rowOf(1));
    await openMenuItem(user, 'accreditationImport.menuExport');
    expect(await screen.findByText(t('accreditationImport.exporting'))).toBeInTheDocument();
    expect(click).not.toHaveBeenCalled();
    release();
    await waitFor(() => expect(click).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByText(t('accreditationImport.exporting'))).not.toBeInTheDocument());
    expect(bodies('user/export')[0]).toMatchObject({ actionId: 7, userId: [1], all: false });
    expect(bodies('user/export')[0]).not.toHaveProperty('form');

    // the machine form for re-import is its own entry
    await openMenuItem(user, 'accreditationImport.menuExportForImport');
    await waitFor(() => expect(bodies('user/export')).toHaveLength(2));
    expect(bodies('user/export')[1]).toMatchObject({ actionId: 7, userId: [1], form: 'import' });
    click.mockRestore();
  });
});
