import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { setAdminUnauthorizedHandler } from '../api/admin';
import { setManageUnauthorizedHandler, setManageToken } from '../api/manage';
import { clearAdminSession } from '../api/storage';
import { onlineRoutes } from '../features/online/routes';
import { previewRoutes } from '../features/preview/routes';
import { gateRoutes } from '../features/gate/routes';
import { RouteError } from '../features/not-found/route-error';
import { PublicLayout } from './layouts/public-layout';
import { notifyError } from './notify';

async function passwordLinkPage(mode: 'renew' | 'verify') {
  const { PasswordLinkPage } = await import('../features/auth/password-link-page');
  return <PasswordLinkPage mode={mode} />;
}

/** What anyone may open without signing in: the public form, the gate screen, login and the password links. */
export const publicRoutes: RouteObject[] = [
  ...onlineRoutes,
  ...previewRoutes,
  ...gateRoutes,
  {
    element: <PublicLayout />,
    errorElement: <RouteError />,
    children: [
      // each page a chunk of its own (issue 15, a light first load)
      { path: 'login', lazy: async () => ({ Component: (await import('../features/auth/login-page')).LoginPage }) },
      { path: 'forgot-password/:link', lazy: async () => ({ element: await passwordLinkPage('renew') }) },
      { path: 'verify/:link', lazy: async () => ({ element: await passwordLinkPage('verify') }) },
      {
        path: 'manage/login',
        lazy: async () => ({ Component: (await import('../features/manage/manage-login-page')).ManageLoginPage }),
      },
    ],
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
  let privateLoaded: Promise<void> | null = null;
  const router = createBrowserRouter(publicRoutes, {
    // The signed-in parts are their own chunk, added the first time a path is not a public one.
    // React Router also asks on a path a public route matches through a parameter (`/app/online/:key`),
    // in case a more specific route is yet to come: those stay public and load nothing more.
    patchRoutesOnNavigation: ({ patch, matches }) => {
      if (matches.length > 0) return;
      privateLoaded ??= import('./private-routes').then(({ privateRoutes }) => patch(null, privateRoutes));
      return privateLoaded;
    },
  });
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
