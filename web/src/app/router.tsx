import type { RightPair } from '@accredo/domain';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { setAdminUnauthorizedHandler } from '../api/admin';
import { setManageUnauthorizedHandler, setManageToken } from '../api/manage';
import { clearAdminSession } from '../api/storage';
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
import { onlineRoutes } from '../features/online/routes';
import { previewRoutes } from '../features/preview/routes';
import { gateRoutes } from '../features/gate/routes';
import { customFieldRoutes } from '../features/custom-field/routes';
import { deviceRoutes } from '../features/device/routes';
import { AdminUserDetailPage } from '../features/admin-user/admin-user-detail-page';
import { AdminUserListPage } from '../features/admin-user/admin-user-list-page';
import { LoginPage } from '../features/auth/login-page';
import { PasswordLinkPage } from '../features/auth/password-link-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { ManageAdminUserDetailPage } from '../features/manage/manage-admin-user-detail-page';
import { ManageAdminUserListPage } from '../features/manage/manage-admin-user-list-page';
import { ManageLoginPage } from '../features/manage/manage-login-page';
import { ManageSubjectDetailPage } from '../features/manage/manage-subject-detail-page';
import { ManageSubjectListPage } from '../features/manage/manage-subject-list-page';
import { ErrorPage, NotFoundPage } from '../features/not-found/error-page';
import { RouteError } from '../features/not-found/route-error';
import { ProfilePage } from '../features/profile/profile-page';
import { SubjectPage } from '../features/subject/subject-page';
import { RequireAdminSession } from './admin-session';
import { AdminLayout } from './layouts/admin-layout';
import { ManageLayout } from './layouts/manage-layout';
import { PublicLayout } from './layouts/public-layout';
import { RequireManageSession } from './manage-session';
import { notifyError } from './notify';
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
  { path: '*', element: <NotFoundPage /> },
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
  { path: '*', element: <ErrorPage homePath="/manage" /> },
];

export const appRoutes: RouteObject[] = [
  ...onlineRoutes,
  ...previewRoutes,
  ...gateRoutes,
  {
    element: <PublicLayout />,
    errorElement: <RouteError />,
    children: [
      { path: 'login', element: <LoginPage /> },
      { path: 'forgot-password/:link', element: <PasswordLinkPage mode="renew" /> },
      { path: 'verify/:link', element: <PasswordLinkPage mode="verify" /> },
      { path: 'manage/login', element: <ManageLoginPage /> },
    ],
  },
  {
    path: 'manage',
    errorElement: <RouteError homePath="/manage" />,
    element: (
      <RequireManageSession>
        <ManageLayout />
      </RequireManageSession>
    ),
    children: manageRoutes,
  },
  {
    path: '/',
    errorElement: <RouteError />,
    element: (
      <RequireAdminSession>
        <AdminLayout />
      </RequireAdminSession>
    ),
    children: adminRoutes,
  },
];

/** Several calls can fail with 401 at once; the user is told only once. */
let lastUnauthorized = 0;
function tellUnauthorized() {
  const now = Date.now();
  if (now - lastUnauthorized > 2000) notifyError('basics.unauthorized');
  lastUnauthorized = now;
}

/** The browser router, with the reactions to an ended session (spec §7) wired to it. */
export function createAppRouter(queryClient: QueryClient) {
  const router = createBrowserRouter(appRoutes);
  setAdminUnauthorizedHandler(() => {
    clearAdminSession();
    queryClient.removeQueries({ queryKey: ['admin'] });
    tellUnauthorized();
    void router.navigate('/login', { replace: true });
  });
  setManageUnauthorizedHandler(() => {
    setManageToken(null);
    queryClient.removeQueries({ queryKey: ['manage'] });
    tellUnauthorized();
    void router.navigate('/manage/login', { replace: true });
  });
  return router;
}
