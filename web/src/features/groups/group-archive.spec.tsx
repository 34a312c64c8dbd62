import { buildRights } from '@accredo/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { mockAdminApi } from '../../testing/mock-api';
import { jsonResponse, t } from '../../testing/render';
import { renderWithSession, testSession } from '../../testing/session';
import { groupsRoutes } from './routes';

const name = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const group = (id: number, groupName: string, archivedAt: string | null = null) => ({
  id,
  name: groupName,
  displayName: name(groupName),
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
  archivedAt,
});
const ARCHIVED_AT = '2026-11-25T10:00:00.000Z';

const routes = (extra: Record<string, unknown> = {}) =>
  mockAdminApi({
    'GET action': [],
    'GET zone': [],
    'GET template': [],
    'GET groups': [group(3, 'Crew'), group(4, 'Old crew', ARCHIVED_AT)],
    'GET groups/3': group(3, 'Crew'),
    'GET groups/4': group(4, 'Old crew', ARCHIVED_AT),
    ...extra,
  });

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

describe('groups: archive instead of delete (issue 15)', () => {
  it('Archive asks first, then archives; the page says the group is archived', async () => {
    let archived = false;
    const api = routes({
      'GET groups/3': () => group(3, 'Crew', archived ? ARCHIVED_AT : null),
      'POST groups/3/archive': () => {
        archived = true;
        return group(3, 'Crew', ARCHIVED_AT);
      },
    });
    const { user } = renderWithSession(groupsRoutes, '/groups/detail/3');
    await user.click(await screen.findByRole('button', { name: t('recordArchive.button') }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(t('recordArchive.text', { name: 'Crew' }))).toBeInTheDocument();
    expect(api.calls.some((c) => c.path === 'groups/3/archive')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: t('recordArchive.button') }));
    expect(await screen.findByText(t('recordArchive.banner'))).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['groups/3/archive']);
    expect(await screen.findByRole('button', { name: t('recordArchive.restore') })).toBeInTheDocument();
  });

  it('Restore on an archived group restores it at once', async () => {
    const api = routes({ 'POST groups/4/restore': group(4, 'Old crew') });
    const { user } = renderWithSession(groupsRoutes, '/groups/detail/4');
    expect(await screen.findByText(t('recordArchive.banner'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('recordArchive.restore') }));
    await waitFor(() => expect(api.calls.some((c) => c.path === 'groups/4/restore')).toBe(true));
    expect(await screen.findByText(t('recordArchive.restored'))).toBeInTheDocument();
  });

  it('a delete refused because people are in the group offers to archive it instead', async () => {
    const api = routes({
      'DELETE groups/3': jsonResponse(
        { error: { code: 'GROUP_HAS_PEOPLE', message: 'x', details: { count: 12 } } },
        409,
      ),
      'POST groups/3/archive': group(3, 'Crew', ARCHIVED_AT),
    });
    const { user, router } = renderWithSession(groupsRoutes, '/groups/detail/3');
    await user.click(await screen.findByRole('button', { name: t('recordDelete.button') }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t('recordDelete.button') }));
    const offer = await screen.findByRole('dialog', { name: t('recordArchive.refusedTitle') });
    expect(within(offer).getByText(t('errors.GROUP_HAS_PEOPLE', { count: 12 }))).toBeInTheDocument();
    expect(within(offer).getByText(t('recordArchive.insteadHint'))).toBeInTheDocument();
    await user.click(within(offer).getByRole('button', { name: t('recordArchive.instead') }));
    await waitFor(() => expect(api.calls.some((c) => c.path === 'groups/3/archive')).toBe(true));
    expect(router.state.location.pathname).toBe('/groups/detail/3');
  });

  it('the list hides archived groups until "Show archived" is on', async () => {
    routes();
    const { user } = renderWithSession(groupsRoutes, '/groups');
    expect((await screen.findAllByText('Crew')).length).toBeGreaterThan(0);
    expect(screen.queryAllByText('Old crew')).toEqual([]);
    await user.click(screen.getByRole('switch', { name: t('recordArchive.showArchived') }));
    expect((await screen.findAllByText('Old crew')).length).toBeGreaterThan(0);
    expect(screen.getByText(t('recordArchive.archived'))).toBeInTheDocument();
  });

  it('offers neither Archive nor Restore without the delete right', async () => {
    routes();
    const session = {
      ...testSession(),
      superuser: false,
      rights: buildRights(([page, action]) => page === 'groups' && action !== 'delete'),
    };
    renderWithSession(groupsRoutes, '/groups/detail/4', session);
    expect(await screen.findByText(t('recordArchive.banner'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('recordArchive.restore') })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('recordArchive.button') })).not.toBeInTheDocument();
  });
});
