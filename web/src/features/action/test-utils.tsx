import { buildRights, type Session } from '@accredo/domain';
import { vi } from 'vitest';
import { Outlet, type RouteObject } from 'react-router';
import { AdminSessionProvider } from '../../app/admin-session';
import { jsonResponse, renderRoutes } from '../../testing/render';

/** Test helpers of the action and user-field screens (not part of the app bundle). */
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

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

/** A fake admin API: `METHOD path` → answer (a Response is returned as is); records every call. */
export function mockAdminApi(routes: Record<string, unknown>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = url.replace('/api/admin/v1/', '');
    calls.push({ method, path, body: init?.body ? JSON.parse(init.body as string) : undefined });
    const key = `${method} ${path}`;
    if (key in routes) {
      const answer = routes[key];
      if (answer instanceof Response) return answer;
      return jsonResponse(
        answer && typeof answer === 'object' && 'paged' in answer
          ? (answer as { paged: unknown }).paged
          : { data: answer },
      );
    }
    return jsonResponse({ error: { code: 'NOT_FOUND', message: key } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

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
