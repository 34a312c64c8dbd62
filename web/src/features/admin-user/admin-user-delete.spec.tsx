import { type AdminUser, buildRights } from '@accredo/domain';
import type { RouteObject } from 'react-router';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectDeleteGoesBack, expectDeleteRefusal } from '../../testing/delete-record';
import { mockAdminApi } from '../../testing/mock-api';
import { t } from '../../testing/render';
import { renderWithSession } from '../../testing/session';
import { AdminUserDetailPage } from './admin-user-detail-page';

const user: AdminUser = {
  id: 4,
  login: 'user4@example.com',
  name: 'User 4',
  active: true,
  verified: true,
  superuser: false,
  manageuser: false,
  lastAction: null,
  actionId: null,
  language: 'cs',
  rights: buildRights(false),
  subjectId: 1,
  dateCreate: '2026-01-01T10:00',
} as AdminUser;
const routes: RouteObject[] = [
  {
    path: 'admin-user',
    children: [
      { index: true, element: <p>List</p> },
      { path: 'detail/:id', element: <AdminUserDetailPage /> },
    ],
  },
];
const api = { 'GET action': [], 'GET admin-user': [user], 'GET admin-user/4': user };

afterEach(() => vi.unstubAllGlobals());

describe('admin user detail: Delete (issue 15)', () => {
  it('asks, deletes and goes back to the list', () =>
    expectDeleteGoesBack({
      routes,
      path: '/admin-user/detail/4',
      api,
      deletePath: 'admin-user/4',
      listPath: '/admin-user',
    }));

  it('offers no Delete on one’s own account, and offers it on another’s', async () => {
    const mine = mockAdminApi({ ...api, 'GET actual': user });
    const own = renderWithSession(routes, '/admin-user/detail/4');
    expect(await screen.findByRole('button', { name: t('adminUser.sendPasswordChange') })).toBeInTheDocument();
    await vi.waitFor(() => expect(mine.calls.some((c) => c.path === 'actual')).toBe(true));
    expect(screen.queryByRole('button', { name: t('recordDelete.button') })).toBeNull();
    own.unmount();

    mockAdminApi({ ...api, 'GET actual': { ...user, id: 9, login: 'me@example.com' } });
    renderWithSession(routes, '/admin-user/detail/4');
    expect(await screen.findByRole('button', { name: t('recordDelete.button') })).toBeInTheDocument();
  });

  it('says that one’s own account cannot be deleted when the server refuses, and stays', () =>
    expectDeleteRefusal({
      routes,
      path: '/admin-user/detail/4',
      api,
      deletePath: 'admin-user/4',
      code: 'ADMIN_USER_DELETE_SELF',
      details: {},
    }));
});
