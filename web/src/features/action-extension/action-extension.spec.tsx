import {
  buildRights,
  type ExtensionData,
  type ExtensionItemView,
  type ExtensionUserRow,
  type RightPair,
  type Session,
} from '@accredo/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { bodyOf, mockAdminApi } from '../../testing/mock-api';
import { jsonResponse, shownDay, t } from '../../testing/render';
import { renderWithSession } from '../../testing/session';
import { AdminMenu } from '../layout/admin-menu';
import { groupsRoutes } from '../groups/routes';
import { actionExtensionRoutes } from './routes';

const name = (cs: string) => ({ cs, sk: '', en: '', de: '' });

const session = (extensions: (1 | 2)[] = [1, 2], rights = buildRights(true)): Session => ({
  token: 'tok',
  rights,
  superuser: false,
  manageuser: false,
  subject: { id: 1, name: 'Demo', key: 'demo', multiLanguage: false, extensions, timeZone: 'Europe/Prague' },
});
const without = (...pairs: RightPair[]) =>
  buildRights(([page, action]) => !pairs.some(([p, a]) => p === page && a === action));

const DAYS = ['2026-07-01', '2026-07-02', '2026-07-03'];
const option = (id: number, cs: string, patch: Partial<ExtensionItemView['options'][number]> = {}) => ({
  id,
  name: name(cs),
  note: '',
  capacity: null,
  taken: 0,
  full: false,
  ...patch,
});
const lunch = (id: number, date: string, patch: Partial<ExtensionItemView> = {}): ExtensionItemView => ({
  id,
  label: name('Lunch'),
  date,
  timeFrom: '12:00',
  timeTo: '13:00',
  capacity: null,
  active: true,
  taken: 0,
  used: 0,
  full: false,
  options: [],
  ...patch,
});
const mealData = (items: ExtensionItemView[], multiDay = true): ExtensionData => ({
  type: 1,
  actionId: 5,
  active: true,
  action: {
    id: 5,
    name: name('Festival'),
    dateFrom: '2026-07-01T08:00',
    dateTo: '2026-07-03T22:00',
    multiDay,
    days: multiDay ? DAYS : [],
    dayNames: multiDay
      ? { '2026-07-01': name('Day one'), '2026-07-02': name('Day two'), '2026-07-03': name('Day three') }
      : {},
  },
  days: [],
  items,
});

const setup = (path: string, sess = session(), routes = actionExtensionRoutes) => renderWithSession(routes, path, sess);
const lbl = (key: string, params?: Record<string, unknown>) =>
  new RegExp(`^${t(key, params).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);
type User = ReturnType<typeof renderWithSession>['user'];
/** Types a value at once (a paste): the rules are under test here, not the keyboard. */
const fill = async (user: User, field: HTMLElement, text: string) => {
  await user.click(field);
  await user.paste(text);
};
const input = (label: string | RegExp) => screen.getByLabelText(label, { selector: 'input:not([type="hidden"])' });

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('extension overview and gating', () => {
  it('shows a card per extension the subject has, and the report card', async () => {
    mockAdminApi({});
    setup('/action-extension', session([1]));
    expect(await screen.findByRole('link', { name: t('extension.meal.title') })).toHaveAttribute(
      'href',
      '/action-extension/meal',
    );
    expect(screen.getByRole('link', { name: t('extension.report.title') })).toHaveAttribute(
      'href',
      '/action-extension/report',
    );
    expect(screen.queryByRole('link', { name: t('extension.parking.title') })).not.toBeInTheDocument();
  });

  it('says so when the subject has no extension, and refuses a type the subject lacks', async () => {
    mockAdminApi({});
    const { unmount } = setup('/action-extension', session([]));
    expect(await screen.findByText(t('extension.noneEnabled'))).toBeInTheDocument();
    unmount();
    setup('/action-extension/parking', session([1]));
    expect(await screen.findByText(t('extension.notEnabled'))).toBeInTheDocument();
  });

  it('shows the menu entry disabled with the not-allowed tooltip without the right', async () => {
    mockAdminApi({});
    const rights = without(['actionExtension', 'get']);
    setup('/menu', session([1], rights), [{ path: 'menu', element: <AdminMenu holder={session([1], rights)} /> }]);
    const entry = await screen.findByRole('link', { name: t('menu.actionExtension') });
    expect(entry).toHaveAttribute('aria-disabled', 'true');
    expect(entry).not.toHaveAttribute('href');
  });
});

describe('extension action list', () => {
  it('activates an action and reloads the list', async () => {
    let active = false;
    const api = mockAdminApi({
      'GET action-extension/1': () => [
        { id: 5, name: name('Festival'), dateFrom: '2026-07-01', dateTo: '2026-07-03', multiDay: true, active },
      ],
      'POST action-extension/1/5': (body: { active: boolean }) => {
        active = body.active;
        return { actionId: 5, type: 1, active };
      },
    });
    const { user } = setup('/action-extension/meal');
    const toggle = await screen.findByRole('switch', { name: `${t('extension.active')}: Festival` });
    expect(toggle).not.toBeChecked();
    expect(screen.queryByRole('link', { name: `${t('extension.editItems')}: Festival` })).not.toBeInTheDocument();
    await user.click(toggle);
    await waitFor(() => expect(bodyOf(api.calls, 'POST', 'action-extension/1/5')).toEqual({ active: true }));
    expect(await screen.findByRole('link', { name: `${t('extension.editItems')}: Festival` })).toHaveAttribute(
      'href',
      '/action-extension/meal/detail/5',
    );
    expect(screen.getByRole('switch', { name: `${t('extension.active')}: Festival` })).toBeChecked();
    expect(api.calls.filter((c) => c.path === 'action-extension/1').length).toBe(2);
  });

  it('cannot switch without the activate right', async () => {
    mockAdminApi({
      'GET action-extension/2': [
        { id: 5, name: name('Festival'), dateFrom: null, dateTo: null, multiDay: false, active: false },
      ],
    });
    setup('/action-extension/parking', session([2], without(['actionExtension', 'active'])));
    expect(await screen.findByRole('switch', { name: `${t('extension.active')}: Festival` })).toBeDisabled();
  });

  it('toasts ACTION_DOESNT_HAVE_EXTENSION with its own message', async () => {
    mockAdminApi({
      'GET action-extension/2': [
        { id: 5, name: name('Festival'), dateFrom: null, dateTo: null, multiDay: false, active: false },
      ],
      'POST action-extension/2/5': jsonResponse(
        { error: { code: 'ACTION_DOESNT_HAVE_EXTENSION', message: 'x', details: {} } },
        403,
      ),
    });
    const { user } = setup('/action-extension/parking');
    await user.click(await screen.findByRole('switch', { name: `${t('extension.active')}: Festival` }));
    expect(await screen.findByText(t('errors.ACTION_DOESNT_HAVE_EXTENSION'))).toBeInTheDocument();
  });
});

describe('extension edit', () => {
  it('has a tab per day and shows every rule on its field', async () => {
    const saved = mealData([lunch(1, DAYS[0])]);
    const api = mockAdminApi({
      'GET action-extension/1/5': mealData([]),
      'PUT action-extension/5/1': () => saved,
    });
    const { user } = setup('/action-extension/meal/detail/5');
    const tabs = within(await screen.findByRole('tablist', { name: t('extension.days') })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Day one', 'Day two', 'Day three']);

    // two slots on the first day: blank label, a bad time, then an overlap
    await user.click(screen.getByRole('button', { name: t('extension.meal.addItem') }));
    await user.click(screen.getByRole('button', { name: t('extension.meal.addItem') }));
    const first = screen.getByRole('group', { name: t('extension.meal.item', { number: 1 }) });
    const second = screen.getByRole('group', { name: t('extension.meal.item', { number: 2 }) });
    // a multi-day action's meal takes its day from the tab
    expect(within(first).queryByLabelText(t('extension.date'))).not.toBeInTheDocument();
    await fill(user, within(first).getByLabelText(lbl('extension.timeFrom')), '12:00');
    await fill(user, within(first).getByLabelText(lbl('extension.timeTo')), '13:00');
    await fill(user, within(first).getByLabelText(lbl('extension.capacity')), '0');
    await user.click(within(first).getByRole('button', { name: t('extension.meal.addOption') }));
    await fill(user, within(second).getByLabelText(lbl('extension.label')), 'Late lunch');
    await fill(user, within(second).getByLabelText(lbl('extension.timeFrom')), '12:30');
    await fill(user, within(second).getByLabelText(lbl('extension.timeTo')), '12:00');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));

    expect(await within(first).findByText(t('basics.requireField'))).toBeInTheDocument();
    expect(within(first).getByText(t('actionExtension.capacityPositive'))).toBeInTheDocument();
    expect(within(first).getByText(t('mealExtension.mealNameRequired'))).toBeInTheDocument();
    expect(within(second).getByText(t('basics.timeSlotNotValid'))).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);

    // fix the second to overlap the first: both slots are marked, the list says the slots are not valid
    const secondTo = within(second).getByLabelText(lbl('extension.timeTo'));
    await user.clear(secondTo);
    await fill(user, secondTo, '13:30');
    await fill(user, within(first).getByLabelText(lbl('extension.label')), 'Lunch');
    await user.clear(within(first).getAllByLabelText(lbl('extension.capacity'))[0]);
    await user.click(
      within(first).getByRole('button', {
        name: `${t('extension.removeOption')}: ${t('extension.meal.option', { number: 1 })}`,
      }),
    );
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await within(first).findByText(t('mealExtension.timeSlotsOverlap'))).toBeInTheDocument();
    expect(within(second).getByText(t('mealExtension.timeSlotsOverlap'))).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(t('basics.timeSlotNotValid'));
  });

  it("copies a day's items to other days and saves them", async () => {
    const api = mockAdminApi({
      'GET action-extension/1/5': mealData([lunch(1, DAYS[0])]),
      'PUT action-extension/5/1': () => mealData([lunch(1, DAYS[0])]),
    });
    const { user } = setup('/action-extension/meal/detail/5');
    await user.click(await screen.findByRole('button', { name: t('extension.copy.button') }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Day two' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Day three' }));
    await user.click(within(dialog).getByRole('button', { name: t('extension.copy.confirm') }));
    await user.click(screen.getByRole('tab', { name: 'Day three' }));
    expect(await screen.findByRole('group', { name: t('extension.meal.item', { number: 1 }) })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() => expect(bodyOf(api.calls, 'PUT', 'action-extension/5/1')).toBeDefined());
    const body = bodyOf(api.calls, 'PUT', 'action-extension/5/1') as { items: Record<string, unknown>[] };
    expect(body.items.map((i) => [i.date, i.timeFrom, i.timeTo, (i.label as { cs: string }).cs])).toEqual([
      ['2026-07-01', '12:00', '13:00', 'Lunch'],
      ['2026-07-02', '12:00', '13:00', 'Lunch'],
      ['2026-07-03', '12:00', '13:00', 'Lunch'],
    ]);
    expect(body.items.map((i) => i.id)).toEqual([1, null, null]);
    expect(body.items[1]).toMatchObject({ capacity: null, active: true, options: [] });
    expect(await screen.findByText(t('actionExtension.saved'))).toBeInTheDocument();
  });

  it("is one 'For whole event' tab on a one-day action, with a date that must lie in the action", async () => {
    const api = mockAdminApi({ 'GET action-extension/1/5': mealData([lunch(1, '2026-07-09')], false) });
    const { user } = setup('/action-extension/meal/detail/5');
    const tabs = within(await screen.findByRole('tablist', { name: t('extension.days') })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([t('extension.wholeEvent')]);
    const card = screen.getByRole('group', { name: t('extension.meal.item', { number: 1 }) });
    expect(within(card).getByLabelText(lbl('extension.date'))).toHaveValue(shownDay('2026-07-09'));
    await fill(user, within(card).getByLabelText(lbl('extension.label')), ' 2');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await within(card).findByText(t('actionExtension.dateIsNotActionDateArray'))).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('edits parking areas with places and shows the save error', async () => {
    const data: ExtensionData = {
      ...mealData([], false),
      type: 2,
      items: [
        {
          ...lunch(3, '', { label: name('North'), timeFrom: '', timeTo: '', capacity: 20 }),
          date: null,
          options: [option(31, 'A1', { capacity: 1 })],
        },
      ],
    };
    const api = mockAdminApi({
      'GET action-extension/2/5': data,
      'PUT action-extension/5/2': jsonResponse({ error: { code: 'INTERNAL_ERROR', message: 'x', details: {} } }, 500),
    });
    const { user } = setup('/action-extension/parking/detail/5');
    const card = await screen.findByRole('group', { name: t('extension.parking.item', { number: 1 }) });
    expect(within(card).queryByLabelText(lbl('extension.timeFrom'))).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: t('extension.parking.addPlace') }));
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await within(card).findByText(t('basics.requireField'))).toBeInTheDocument();
    const place = within(card).getByRole('group', { name: new RegExp(t('extension.parking.place', { number: 2 })) });
    await fill(user, within(place).getByLabelText(lbl('extension.optionName')), 'A2');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await screen.findByText(t('actionExtension.saveError'))).toBeInTheDocument();
    expect(bodyOf(api.calls, 'PUT', 'action-extension/5/2')).toEqual({
      items: [
        {
          id: 3,
          label: name('North'),
          date: null,
          capacity: 20,
          active: true,
          places: [
            { id: 31, name: name('A1'), capacity: 1 },
            { id: null, name: name('A2'), capacity: null },
          ],
        },
      ],
    });
  });
  it("puts the server's errors of a place on the place's field", async () => {
    const data: ExtensionData = {
      ...mealData([], false),
      type: 2,
      items: [
        {
          ...lunch(3, '', { label: name('North'), timeFrom: '', timeTo: '' }),
          date: null,
          options: [option(31, 'A1')],
        },
      ],
    };
    mockAdminApi({
      'GET action-extension/2/5': data,
      'PUT action-extension/5/2': jsonResponse(
        {
          error: {
            code: 'VALIDATION_ERROR',
            message: 'x',
            details: { fields: [{ path: 'items.0.places.0.name.cs', key: 'basics.tooLong' }] },
          },
        },
        400,
      ),
    });
    const { user } = setup('/action-extension/parking/detail/5');
    const card = await screen.findByRole('group', { name: t('extension.parking.item', { number: 1 }) });
    await fill(user, within(card).getByLabelText(lbl('extension.label')), ' 2');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    const place = within(card).getByRole('group', { name: new RegExp(t('extension.parking.place', { number: 1 })) });
    expect(await within(place).findByText(t('basics.tooLong'))).toBeInTheDocument();
  });
});

describe('extension users', () => {
  const vegetarian = option(11, 'Vegetarian', { capacity: 1, taken: 1, full: true });
  const meat = option(12, 'Meat');
  const data = mealData([lunch(1, DAYS[0], { options: [vegetarian, meat] }), lunch(2, DAYS[1], { options: [meat] })]);
  const person = (id: number, patch: Partial<ExtensionUserRow> = {}): ExtensionUserRow => ({
    id,
    customId: id,
    firstname: `First${id}`,
    lastname: `Last${id}`,
    email: `p${id}@example.com`,
    bc: `BC${id}`,
    groupName: null,
    items: [],
    ...patch,
  });

  it('shows the day items, locks a used meal, disables a full option and assigns one person', async () => {
    const api = mockAdminApi({
      'GET action-extension/1/5': data,
      'POST action-extension/1/5/users': {
        data: [
          person(1, {
            items: [{ itemId: 1, option: 12, have: true, dateUsed: '2026-07-01T12:10', licencePlate: null }],
          }),
          person(2),
        ],
        max: 2,
      },
      'PUT action-extension/1/5/users': { changed: 1 },
    });
    const { user } = setup('/action-extension/meal/5/users');
    const row1 = await screen.findByRole('row', { name: /First1 Last1/ });
    expect(within(row1).getByText(`Lunch · Meat (${t('extension.used')})`)).toBeInTheDocument();
    expect(bodyOf(api.calls, 'POST', 'action-extension/1/5/users')).toMatchObject({ day: DAYS[0], page: 1 });

    // the used meal cannot be changed
    await user.click(within(row1).getByRole('button', { name: `${t('extension.users.assignOne')}: First1 Last1` }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(t('actionExtension.used'))).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: t('extension.users.save') })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: t('basics.cancel') }));

    // the other person: vegetarian is full, meat can be chosen
    const row2 = screen.getByRole('row', { name: /First2 Last2/ });
    await user.click(within(row2).getByRole('button', { name: `${t('extension.users.assignOne')}: First2 Last2` }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: t('extension.users.assign') }));
    await user.click(
      within(dialog).getByLabelText(lbl('extension.meal.optionSelect'), { selector: 'input:not([type="hidden"])' }),
    );
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox).getByRole('option', { name: `Vegetarian (${t('actionExtension.capacityFull')})` }),
    ).toHaveAttribute('data-combobox-disabled', 'true');
    await user.click(within(listbox).getByRole('option', { name: 'Meat' }));
    await user.click(within(dialog).getByRole('button', { name: t('extension.users.save') }));
    await waitFor(() =>
      expect(bodyOf(api.calls, 'PUT', 'action-extension/1/5/users')).toEqual({
        items: [{ itemId: 1, option: 12, have: true }],
        usersIds: [2],
        actionId: 5,
      }),
    );
    expect(await screen.findByText(t('actionExtension.assigned'))).toBeInTheDocument();
  });

  it('assigns a selection on another day and reports a full capacity', async () => {
    const api = mockAdminApi({
      'GET action-extension/1/5': data,
      'POST action-extension/1/5/users': { data: [person(1), person(2), person(3)], max: 3 },
      'PUT action-extension/1/5/users': jsonResponse(
        { error: { code: 'EXTENSION_CAPACITY_FULL', message: 'x', details: { itemId: 2 } } },
        409,
      ),
    });
    const { user } = setup('/action-extension/meal/5/users');
    await user.click(await screen.findByRole('tab', { name: 'Day two' }));
    await waitFor(() => expect(api.bodies('action-extension/1/5/users').at(-1)).toMatchObject({ day: DAYS[1] }));
    await user.click(await screen.findByRole('cell', { name: 'p1@example.com' }));
    await user.click(screen.getByRole('cell', { name: 'p3@example.com' }));
    await user.click(screen.getByRole('button', { name: t('extension.users.assignSelected', { count: 2 }) }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByText('Vegetarian')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: t('extension.users.assign') }));
    await user.click(within(dialog).getByRole('button', { name: t('extension.users.save') }));
    await waitFor(() =>
      expect(bodyOf(api.calls, 'PUT', 'action-extension/1/5/users')).toMatchObject({
        items: [{ itemId: 2, option: null, have: true }],
        usersIds: [1, 3],
      }),
    );
    expect(await screen.findByText(t('actionExtension.capacityFull'))).toBeInTheDocument();
  });

  it('gives a parking place with a licence plate', async () => {
    const parking: ExtensionData = {
      ...mealData([], false),
      type: 2,
      items: [
        {
          ...lunch(3, '', { label: name('North'), timeFrom: '', timeTo: '' }),
          date: null,
          options: [option(31, 'A1')],
        },
      ],
    };
    const api = mockAdminApi({
      'GET action-extension/2/5': parking,
      'POST action-extension/2/5/users': { data: [person(1)], max: 1 },
      'PUT action-extension/2/5/users': { changed: 1 },
    });
    const { user } = setup('/action-extension/parking/5/users');
    await user.click(await screen.findByRole('button', { name: `${t('extension.users.assignOne')}: First1 Last1` }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: t('extension.users.assign') }));
    await fill(user, within(dialog).getByRole('textbox', { name: t('extension.parking.licencePlate') }), '1AB2345');
    await user.click(within(dialog).getByRole('button', { name: t('extension.users.save') }));
    await waitFor(() =>
      expect(bodyOf(api.calls, 'PUT', 'action-extension/2/5/users')).toEqual({
        items: [{ itemId: 3, option: null, have: true, licencePlate: '1AB2345' }],
        usersIds: [1],
        actionId: 5,
      }),
    );
  });

  it("sets a group's default lunch", async () => {
    const api = mockAdminApi({
      'GET action-extension/1/5': data,
      'POST action-extension/1/5/users': { data: [], max: 0 },
      'GET groups': [
        {
          id: 7,
          name: 'Crew',
          displayName: name(''),
          actionId: 5,
          assignDefaultMeal: true,
          assignDefaultParking: false,
        },
        {
          id: 8,
          name: 'Other',
          displayName: name(''),
          actionId: 6,
          assignDefaultMeal: true,
          assignDefaultParking: false,
        },
      ],
      'GET action-extension/1/5/groups/7': {
        groupId: 7,
        assignDefault: true,
        items: [{ itemId: 2, option: 12, have: true, licencePlate: null }],
      },
      'PUT action-extension/1/5/groups/7': { groupId: 7, assignDefault: true, items: [] },
    });
    const { user } = setup('/action-extension/meal/5/users');
    await user.click(await screen.findByRole('tab', { name: t('extension.groups.title') }));
    expect(await screen.findByRole('row', { name: /Crew/ })).toBeInTheDocument();
    expect(screen.queryByRole('row', { name: /Other/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `${t('extension.groups.edit')}: Crew` }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: t('extension.users.assign') }));
    await user.click(within(dialog).getByRole('switch', { name: t('extension.groups.applyToMembers') }));
    await user.click(within(dialog).getByRole('button', { name: t('extension.users.save') }));
    await waitFor(() =>
      expect(bodyOf(api.calls, 'PUT', 'action-extension/1/5/groups/7')).toEqual({
        // the first day's lunch is added, the second day's default is kept
        items: [
          { itemId: 1, option: null, have: true },
          { itemId: 2, option: 12, have: true },
        ],
        actionId: 5,
        applyToMembers: true,
      }),
    );
  });
});

describe('extension report', () => {
  it('shows the counts and downloads the xlsx', async () => {
    const createObjectURL = vi.fn((_: Blob) => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const api = mockAdminApi({
      'GET action-extension/1': [
        { id: 5, name: name('Festival'), dateFrom: null, dateTo: null, multiDay: false, active: true },
        { id: 6, name: name('Inactive'), dateFrom: null, dateTo: null, multiDay: false, active: false },
      ],
      'POST action-extension/1/5/report': (body: { responseType: string }) =>
        body.responseType === 'xlsx'
          ? new Response('x', { headers: { 'content-disposition': 'attachment; filename="meals.xlsx"' } })
          : {
              type: 1,
              actionId: 5,
              rows: [
                {
                  date: DAYS[0],
                  itemId: 1,
                  label: name('Lunch'),
                  timeFrom: '12:00',
                  timeTo: '13:00',
                  capacity: 50,
                  chose: 12,
                  used: 7,
                  options: [{ option: 11, name: name('Vegetarian'), chose: 3, used: 2 }],
                },
              ],
            },
    });
    const { user } = setup('/action-extension/report', session([1]));
    const show = await screen.findByRole('button', { name: t('extension.report.show') });
    expect(show).toBeDisabled();
    await user.click(input(lbl('extension.report.action')));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).queryByRole('option', { name: 'Inactive' })).not.toBeInTheDocument();
    await user.click(within(listbox).getByRole('option', { name: 'Festival' }));
    await user.click(show);
    const table = await screen.findByRole('table', { name: t('extension.report.result') });
    expect(
      within(table).getByRole('row', { name: /Lunch 12:00–13:00\s*50\s*12\s*7\s*Vegetarian: 3\/2/ }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('extension.report.download') }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(api.bodies('action-extension/1/5/report')).toEqual([
      { responseType: 'json', day: null },
      { responseType: 'xlsx', day: null },
    ]);
  });
});

describe('group defaults switch', () => {
  it('saves assignDefaultMeal and assignDefaultParking on the group form', async () => {
    const group = {
      id: 7,
      name: 'Crew',
      displayName: name(''),
      label: '',
      htmlData: '',
      adminTemplateId: null,
      adminTemplateName: null,
      zoneId: [],
      zones: [],
      actionId: null,
      actionName: null,
      assignDefaultMeal: false,
      assignDefaultParking: false,
    };
    const api = mockAdminApi({
      'GET action': [],
      'GET zone': [],
      'GET template': [],
      'GET groups/7': group,
      'PUT groups/7': { ...group, assignDefaultMeal: true, assignDefaultParking: true },
    });
    const { user } = setup('/groups/detail/7', session([1, 2]), groupsRoutes);
    await user.click(await screen.findByRole('switch', { name: t('groups.assignDefaultMeal') }));
    await user.click(screen.getByRole('switch', { name: t('groups.assignDefaultParking') }));
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() =>
      expect(bodyOf(api.calls, 'PUT', 'groups/7')).toMatchObject({
        assignDefaultMeal: true,
        assignDefaultParking: true,
      }),
    );
  });
});
