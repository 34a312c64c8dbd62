import { buildRights, type Session } from '@accredo/domain';
import { Outlet, type RouteObject } from 'react-router';
import { AdminSessionProvider } from '../app/admin-session';
import { renderRoutes } from './render';

/** A signed-in admin session for component tests (not part of the app bundle). */
export const testSession = (patch: Partial<Session['subject']> = {}): Session => ({
  token: 'tok',
  rights: buildRights(false),
  superuser: true,
  manageuser: false,
  subject: {
    id: 1,
    name: 'Demo',
    key: 'demo',
    multiLanguage: false,
    extensions: [],
    timeZone: 'Europe/Prague',
    ...patch,
  },
});

export { type ApiCall, mockAdminApi } from './mock-api';

/** Renders `routes` under `/` with a signed-in session; `/` itself shows 'Home page'. */
export function renderWithSession(routes: RouteObject[], path: string, session: Session = testSession()) {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <AdminSessionProvider session={session}>
            <Outlet />
          </AdminSessionProvider>
        ),
        children: [{ index: true, element: <p>Home page</p> }, ...routes],
      },
    ],
    [path],
  );
}
