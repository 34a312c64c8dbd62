import { buildRights } from '@accredo/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { mockAdminApi } from '../../testing/mock-api';
import { jsonResponse, t } from '../../testing/render';
import { renderWithSession, testSession } from '../../testing/session';
import { groupsRoutes } from './routes';

const name = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const group = {
  id: 3,
  name: 'Crew',
  displayName: name('Crew'),
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

const routes = (extra: Record<string, unknown> = {}) =>
  mockAdminApi({
    'GET action': [],
    'GET zone': [],
    'GET template': [],
    'GET groups': [group],
    'GET groups/3': group,
    ...extra,
  });

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

describe('group detail: Delete (issue 15)', () => {
  it('asks first, deletes and goes back to the list', async () => {
    const api = routes({ 'DELETE groups/3': { deleted: true } });
    const { user, router } = renderWithSession(groupsRoutes, '/groups/detail/3');
    await user.click(await screen.findByRole('button', { name: t('recordDelete.button') }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(t('recordDelete.text', { name: 'Crew' }))).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: t('recordDelete.button') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/groups'));
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['groups/3']);
    expect(await screen.findByText(t('recordDelete.deleted'))).toBeInTheDocument();
  });

  it('shows the refusal (people in the group) and stays on the page', async () => {
    routes({
      'DELETE groups/3': jsonResponse(
        { error: { code: 'GROUP_HAS_PEOPLE', message: 'x', details: { count: 12 } } },
        409,
      ),
    });
    const { user, router } = renderWithSession(groupsRoutes, '/groups/detail/3');
    await user.click(await screen.findByRole('button', { name: t('recordDelete.button') }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t('recordDelete.button') }));
    expect(await screen.findByText(t('errors.GROUP_HAS_PEOPLE', { count: 12 }))).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/groups/detail/3');
  });

  it('offers no Delete without the right', async () => {
    routes();
    const session = {
      ...testSession(),
      superuser: false,
      rights: buildRights(([page, action]) => page === 'groups' && action !== 'delete'),
    };
    renderWithSession(groupsRoutes, '/groups/detail/3', session);
    expect(await screen.findByRole('heading', { name: `${t('groups.detail')}: Crew` })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('recordDelete.button') })).not.toBeInTheDocument();
  });
});
