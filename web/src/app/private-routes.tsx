import type { RightPair } from '@accredo/domain';
import { ModalsProvider } from '@mantine/modals';
import type { ReactNode } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { RequireRight } from '../components/require-right';
import { accreditationCheckRoutes, accreditationDetailRoutes } from '../features/accreditation/detail/routes';
import { accreditationImportRoute } from '../features/accreditation/import/routes';
import { accreditationListRoute } from '../features/accreditation/list/routes';
import { actionRoutes } from '../features/action/routes';
import { actionExtensionRoutes } from '../features/action-extension/routes';
import { galleryRoutes } from '../features/gallery/routes';
import { groupsRoutes } from '../features/groups/routes';
import { templateRoutes } from '../features/template/routes';
import { zoneRoutes } from '../features/zone/routes';
import { webChannelRoutes } from '../features/web-channel/routes';
import { customFieldRoutes } from '../features/custom-field/routes';
import { deviceRoutes } from '../features/device/routes';
import { AdminUserDetailPage } from '../features/admin-user/admin-user-detail-page';
import { AdminUserListPage } from '../features/admin-user/admin-user-list-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { ManageAdminUserDetailPage } from '../features/manage/manage-admin-user-detail-page';
import { ManageAdminUserListPage } from '../features/manage/manage-admin-user-list-page';
import { ManageSubjectDetailPage } from '../features/manage/manage-subject-detail-page';
import { ManageSubjectListPage } from '../features/manage/manage-subject-list-page';
import { ErrorPage, NotFoundPage } from '../features/not-found/error-page';
import { RouteError } from '../features/not-found/route-error';
import { ProfilePage } from '../features/profile/profile-page';
import { SubjectPage } from '../features/subject/subject-page';
import { RequireAdminSession } from './admin-session';
import { AdminLayout } from './layouts/admin-layout';
import { ManageLayout } from './layouts/manage-layout';
import { RequireManageSession } from './manage-session';
import type { RouteHandle } from './route-handle';

const gated = (rights: RightPair[], element: ReactNode) => <RequireRight rights={rights}>{element}</RequireRight>;
const crumb = (key: string): RouteHandle => ({ crumb: key });

/** The admin application's pages (spec §2), each gated by its page/action rights (spec §6). */
export const adminRoutes: RouteObject[] = [
  { index: true, element: <DashboardPage /> },
  {
    path: 'admin-user',
    handle: crumb('menu.adminUsers'),
    element: <Outlet />,
    children: [
      { index: true, element: gated([['adminUser', 'get']], <AdminUserListPage />) },
      {
        path: 'create',
        handle: crumb('adminUser.create'),
        element: gated([['adminUser', 'create']], <AdminUserDetailPage />),
      },
      {
        path: 'detail/:id',
        handle: crumb('adminUser.detail'),
        element: gated([['adminUser', 'get']], <AdminUserDetailPage />),
      },
    ],
  },
  {
    path: 'user-profile',
    handle: crumb('menu.profile'),
    element: gated([['adminUser', 'getActualAdminUser']], <ProfilePage />),
  },
  { path: 'subject', handle: crumb('menu.subject'), element: gated([['subject', 'get']], <SubjectPage />) },
  {
    path: 'accreditation',
    handle: crumb('accreditation.title'),
    element: <Outlet />,
    children: [
      accreditationListRoute,
      accreditationImportRoute,
      ...accreditationDetailRoutes,
      {
        path: 'check',
        handle: crumb('menu.accreditationCheck'),
        element: <Outlet />,
        children: accreditationCheckRoutes,
      },
    ],
  },
  ...actionRoutes,
  ...actionExtensionRoutes,
  ...galleryRoutes,
  ...groupsRoutes,
  ...zoneRoutes,
  ...customFieldRoutes,
  ...deviceRoutes,
  ...webChannelRoutes,
  ...templateRoutes,
  { path: '*', handle: { title: 'basics.notFoundTitle' } satisfies RouteHandle, element: <NotFoundPage /> },
];

export const manageRoutes: RouteObject[] = [
  { index: true, element: <ManageSubjectListPage /> },
  {
    path: 'subject',
    handle: crumb('manage.subjects'),
    element: <Outlet />,
    children: [
      { index: true, element: <ManageSubjectListPage /> },
      { path: 'create', handle: crumb('manage.subjectCreate'), element: <ManageSubjectDetailPage /> },
      { path: 'detail/:id', handle: crumb('manage.subjectDetail'), element: <ManageSubjectDetailPage /> },
    ],
  },
  {
    path: 'admin-user',
    handle: crumb('manage.adminUsers'),
    element: <Outlet />,
    children: [
      { index: true, element: <ManageAdminUserListPage /> },
      { path: 'create', handle: crumb('adminUser.create'), element: <ManageAdminUserDetailPage /> },
      { path: 'detail/:id', handle: crumb('adminUser.detail'), element: <ManageAdminUserDetailPage /> },
    ],
  },
  {
    path: '*',
    handle: { title: 'basics.notFoundTitle' } satisfies RouteHandle,
    element: <ErrorPage homePath="/manage" />,
  },
];

/**
 * The signed-in parts (the provider operators' manage module and the admin application): loaded on
 * the first navigation into them (see createAppRouter), so the login page, the public form and the
 * gate screen do not download them. The modals' provider (the confirmations of modals.open*) is
 * around these parts only, for the same reason.
 */
export const privateRoutes: RouteObject[] = [
  {
    path: 'manage',
    errorElement: <RouteError homePath="/manage" />,
    element: (
      <ModalsProvider>
        <RequireManageSession>
          <ManageLayout />
        </RequireManageSession>
      </ModalsProvider>
    ),
    children: manageRoutes,
  },
  {
    path: '/',
    errorElement: <RouteError />,
    element: (
      <ModalsProvider>
        <RequireAdminSession>
          <AdminLayout />
        </RequireAdminSession>
      </ModalsProvider>
    ),
    children: adminRoutes,
  },
];
