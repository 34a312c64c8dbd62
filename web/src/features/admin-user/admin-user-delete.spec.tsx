import { type AdminUser, buildRights } from '@accredo/domain';
import type { RouteObject } from 'react-router';
import { afterEach, describe, it, vi } from 'vitest';
import { expectDeleteGoesBack, expectDeleteRefusal } from '../../testing/delete-record';
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

  it('says that one’s own account cannot be deleted, and stays', () =>
    expectDeleteRefusal({
      routes,
      path: '/admin-user/detail/4',
      api,
      deletePath: 'admin-user/4',
      code: 'ADMIN_USER_DELETE_SELF',
      details: {},
    }));
});
