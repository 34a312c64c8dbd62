import { ModalsProvider } from '@mantine/modals';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { i18n } from '../app/i18n';
import { AppProviders } from '../app/providers';

export const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);

/** A day `YYYY-MM-DD` as a date field shows it in Czech, the tests' UI language ('9. 7. 2026'). */
export const shownDay = (iso: string) => {
  const [year, month, day] = iso.split('-').map(Number);
  return `${day}. ${month}. ${year}`;
};

export function testQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** Renders a component inside the app's providers (theme, toasts, modals, queries, translations). */
export function renderUi(ui: ReactElement) {
  const user = userEvent.setup();
  return {
    user,
    ...render(
      <AppProviders queryClient={testQueryClient()} env="test">
        <ModalsProvider>{ui}</ModalsProvider>
      </AppProviders>,
    ),
  };
}

/** Renders routes in a memory data router (so useBlocker works) inside the app's providers. */
export function renderRoutes(routes: RouteObject[], initialEntries: string[] = ['/']) {
  const user = userEvent.setup();
  const router = createMemoryRouter(routes, { initialEntries });
  const queryClient = testQueryClient();
  const utils = render(
    <AppProviders queryClient={queryClient} env="test">
      {/* the app has it around the signed-in parts (private-routes.tsx); a test renders pages alone */}
      <ModalsProvider>
        <RouterProvider router={router} />
      </ModalsProvider>
    </AppProviders>,
  );
  return { user, router, queryClient, ...utils };
}

/** A fetch answering with the given JSON body and status. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
