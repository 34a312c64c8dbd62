import { buildRights, type Session } from '@accredo/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { jsonResponse, t } from '../../testing/render';
import { zoneRoutes } from '../zone/routes';
import { groupsRoutes } from './routes';
import { bodyOf, mockAdminApi } from '../../testing/mock-api';
import { renderWithSession } from '../../testing/session';

const session = (patch: Partial<Session> = {}): Session => ({
  token: 'tok',
  rights: buildRights(true),
  superuser: false,
  manageuser: false,
  subject: { id: 1, name: 'Demo', key: 'demo', multiLanguage: false, extensions: [1], timeZone: 'Europe/Prague' },
  ...patch,
});

const name = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const actions = [
  { id: 1, name: name('Festival') },
  { id: 2, name: name('Konference') },
];

const group = (id: number, actionId: number | null, patch: Record<string, unknown> = {}) => ({
  id,
  name: `Group ${id}`,
  displayName: name(`Shown ${id}`),
  label: `L${id}`,
  htmlData: '',
  adminTemplateId: null,
  adminTemplateName: null,
  zoneId: [],
  zones: [],
  actionId,
  actionName: actionId ? actions.find((a) => a.id === actionId)?.name : null,
  assignDefaultMeal: false,
  assignDefaultParking: false,
  ...patch,
});

const zones = [
  { id: 11, name: 'Main hall', onAccreditation: 'MH', actionId: 1, groups: [] },
  { id: 12, name: 'Backstage', onAccreditation: 'BS', actionId: 1, groups: [] },
  { id: 21, name: 'VIP lounge', onAccreditation: 'VIP', actionId: 2, groups: [] },
  { id: 31, name: 'Car park', onAccreditation: 'P', actionId: null, groups: [] },
];

const setup = (path: string, routes: RouteObject[] = groupsRoutes, sess = session()) =>
  renderWithSession(routes, path, sess);

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

describe('groups list', () => {
  it('tabs the groups by action, with a not-assigned tab for groups without one', async () => {
    mockAdminApi({
      'GET action': actions,
      'GET groups': [
        group(1, 1, { zones: [{ id: 11, name: 'Main hall' }], adminTemplateName: 'Badge A6' }),
        group(2, 2),
        group(3, null),
      ],
    });
    const { user, router } = setup('/groups');

    const tablist = await screen.findByRole('tablist', { name: t('groups.byAction') });
    const tabs = within(tablist).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Festival1', 'Konference1', `${t('groups.notAssigned')}1`]);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');

    // the first action's groups, with display name, label, template and zones
    const row = screen.getByRole('row', { name: /Group 1/ });
    expect(within(row).getByText('Shown 1')).toBeInTheDocument();
    expect(within(row).getByText('L1')).toBeInTheDocument();
    expect(within(row).getByText('Badge A6')).toBeInTheDocument();
    expect(within(row).getByText('Main hall')).toBeInTheDocument();
    expect(screen.queryByRole('row', { name: /Group 2/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('basics.add') })).toHaveAttribute('href', '/groups/create?actionId=1');

    await user.click(screen.getByRole('tab', { name: new RegExp(t('groups.notAssigned')) }));
    expect(await screen.findByRole('row', { name: /Group 3/ })).toBeInTheDocument();
    expect(screen.queryByRole('row', { name: /Group 1/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('basics.add') })).toHaveAttribute('href', '/groups/create');
    expect(router.state.location.search).toBe('?action=none');

    await user.click(screen.getByRole('tab', { name: /Konference/ }));
    expect(await screen.findByRole('row', { name: /Group 2/ })).toBeInTheDocument();
  });

  it('shows the not-assigned tab even without actions, and a message when the list fails', async () => {
    mockAdminApi({
      'GET action': [],
      'GET groups': new Response(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'x' } }), { status: 500 }),
    });
    setup('/groups');
    expect(await screen.findByRole('tab', { name: new RegExp(t('groups.notAssigned')) })).toBeInTheDocument();
    expect(await screen.findByText(t('groups.loadListError'))).toBeInTheDocument();
  });
});

describe('group form', () => {
  const openSelect = async (user: ReturnType<typeof setup>['user'], label: string) => {
    await user.click(screen.getByLabelText(label, { selector: 'input:not([type="hidden"])' }));
    return screen.findByRole('listbox');
  };

  it('offers only the zones of the chosen action and drops the others when the action changes', async () => {
    const { calls } = mockAdminApi({
      'GET action': actions,
      'GET zone': zones,
      'GET template': [
        { type: 'mail', items: [] },
        { type: 'accreditation', items: [{ id: 5, name: 'Badge A6', type: 1, pageSize: 'A6', htmlData: '' }] },
      ],
      'POST groups': group(7, 2, { name: 'Press', zoneId: [21] }),
      'GET groups/7': group(7, 2, { name: 'Press', zoneId: [21], zones: [{ id: 21, name: 'VIP lounge' }] }),
    });
    const { user, router } = setup('/groups/create');

    await user.type(await screen.findByRole('textbox', { name: new RegExp(t('basics.name')) }), 'Press');
    // no action: only the zones without an action
    let listbox = await openSelect(user, t('groups.zones'));
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Car park']);
    await user.keyboard('{Escape}');

    listbox = await openSelect(user, t('groups.action'));
    await user.click(within(listbox).getByRole('option', { name: 'Festival' }));
    listbox = await openSelect(user, t('groups.zones'));
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Main hall', 'Backstage']);
    await user.click(within(listbox).getByRole('option', { name: 'Main hall' }));
    await user.keyboard('{Escape}');

    // another action: the chosen zone of the first one is dropped, its own zones are offered
    listbox = await openSelect(user, t('groups.action'));
    await user.click(within(listbox).getByRole('option', { name: 'Konference' }));
    listbox = await openSelect(user, t('groups.zones'));
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['VIP lounge']);
    await user.click(within(listbox).getByRole('option', { name: 'VIP lounge' }));
    await user.keyboard('{Escape}');

    // the meal extension is on for the subject, parking is not
    expect(screen.getByRole('switch', { name: t('groups.assignDefaultMeal') })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: t('groups.assignDefaultParking') })).not.toBeInTheDocument();
    // single language: only the Czech display name
    expect(screen.getAllByRole('textbox', { name: t('groups.displayName') })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/groups/detail/7'));
    expect(bodyOf(calls, 'POST', 'groups')).toMatchObject({
      name: 'Press',
      actionId: 2,
      zoneId: [21],
      adminTemplateId: null,
      assignDefaultMeal: false,
    });
    // the detail of the new group is loaded and shown (its own heading, its saved name)
    await waitFor(() => expect(calls.some((c) => c.method === 'GET' && c.path === 'groups/7')).toBe(true));
    expect(
      await screen.findByRole('heading', { name: new RegExp(`${t('groups.detail')}: Press`) }),
    ).toBeInTheDocument();
    expect(screen.getByDisplayValue('Press')).toBeInTheDocument();
  });

  it('shows the server error of a zone from another action on the zones input', async () => {
    mockAdminApi({
      'GET action': actions,
      'GET zone': zones,
      'GET template': [
        { type: 'mail', items: [] },
        { type: 'accreditation', items: [] },
      ],
      'GET groups/3': group(3, 1, { zoneId: [11], zones: [{ id: 11, name: 'Main hall' }] }),
      'PUT groups/3': jsonResponse(
        {
          error: {
            code: 'VALIDATION_ERROR',
            message: 'invalid',
            details: { fields: [{ path: 'zoneId', key: 'groups.zoneOfOtherAction' }] },
          },
        },
        400,
      ),
    });
    const { user } = setup(
      '/groups/detail/3',
      groupsRoutes,
      session({ subject: { ...session().subject, multiLanguage: true } }),
    );
    const nameInput = await screen.findByDisplayValue('Group 3');
    // multi-language subject: a display name per language
    expect(screen.getAllByRole('textbox', { name: new RegExp(t('groups.displayName')) })).toHaveLength(4);
    await user.type(nameInput, '!');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await screen.findByText(t('groups.zoneOfOtherAction'))).toBeInTheDocument();
  });

  it('goes back to the list when the group cannot be loaded', async () => {
    mockAdminApi({
      'GET action': actions,
      'GET groups': [],
      'GET groups/9': new Response(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'x' } }), {
        status: 500,
      }),
    });
    const { router } = setup('/groups/detail/9');
    await waitFor(() => expect(router.state.location.pathname).toBe('/groups'));
    expect(await screen.findByText(t('groups.loadError'))).toBeInTheDocument();
  });
});

describe('zones', () => {
  it('lists zones by action and shows the groups of a zone on its detail', async () => {
    mockAdminApi({
      'GET action': actions,
      'GET zone': [{ ...zones[0], groups: [{ id: 1, name: 'Group 1' }] }, zones[2], zones[3]],
      'GET zone/11': { ...zones[0], groups: [{ id: 1, name: 'Group 1' }] },
    });
    const { user, router } = setup('/zone', zoneRoutes);
    const row = await screen.findByRole('row', { name: /Main hall/ });
    expect(within(row).getByText('Group 1')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: new RegExp(t('groups.notAssigned')) })).toBeInTheDocument();
    await user.dblClick(row);
    await waitFor(() => expect(router.state.location.pathname).toBe('/zone/detail/11'));
    expect(await screen.findByDisplayValue('Main hall')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Group 1' })).toHaveAttribute('href', '/groups/detail/1');
  });

  it('shows a zone read-only to a user who may look but not change', async () => {
    mockAdminApi({ 'GET action': actions, 'GET zone/11': zones[0] });
    const lookOnly = session({ rights: buildRights(([page, action]) => !(page === 'zone' && action === 'update')) });
    setup('/zone/detail/11', zoneRoutes, lookOnly);
    const name = await screen.findByDisplayValue('Main hall');
    expect(name).toBeDisabled();
    expect(screen.getByText(t('basics.readOnly'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('basics.save') })).not.toBeInTheDocument();
  });
});
