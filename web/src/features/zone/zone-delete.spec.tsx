import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { mockAdminApi } from '../../testing/mock-api';
import { jsonResponse, t } from '../../testing/render';
import { renderWithSession } from '../../testing/session';
import { zoneRoutes } from './routes';

const zone = { id: 11, name: 'Backstage', onAccreditation: 'BS', actionId: null, groups: [] };
const routes = (extra: Record<string, unknown> = {}) =>
  mockAdminApi({ 'GET action': [], 'GET zone': [zone], 'GET zone/11': zone, ...extra });

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

describe('zone detail: Delete (issue 15)', () => {
  it('asks first, deletes and goes back to the list', async () => {
    const api = routes({ 'DELETE zone/11': { deleted: true } });
    const { user, router } = renderWithSession(zoneRoutes, '/zone/detail/11');
    await user.click(await screen.findByRole('button', { name: t('recordDelete.button') }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t('recordDelete.button') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/zone'));
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['zone/11']);
  });

  it('shows which groups still use the zone and stays', async () => {
    routes({
      'DELETE zone/11': jsonResponse(
        {
          error: {
            code: 'ZONE_USED_BY_GROUPS',
            message: 'x',
            details: { names: 'Crew, Band', usedBy: ['Crew', 'Band'] },
          },
        },
        409,
      ),
    });
    const { user, router } = renderWithSession(zoneRoutes, '/zone/detail/11');
    await user.click(await screen.findByRole('button', { name: t('recordDelete.button') }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t('recordDelete.button') }));
    expect(await screen.findByText(t('errors.ZONE_USED_BY_GROUPS', { names: 'Crew, Band' }))).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/zone/detail/11');
  });
});
