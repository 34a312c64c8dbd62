import { screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { expect } from 'vitest';
import { mockAdminApi } from './mock-api';
import { jsonResponse, t } from './render';
import { renderWithSession } from './session';

/** Opens a detail page, clicks Delete and confirms in the modal; returns the recorded calls and the router. */
async function deleteThrough(routes: RouteObject[], path: string, api: Record<string, unknown>) {
  const mock = mockAdminApi(api);
  const { user, router } = renderWithSession(routes, path);
  await user.click(await screen.findByRole('button', { name: t('recordDelete.button') }));
  const dialog = await screen.findByRole('dialog');
  expect(mock.calls.some((c) => c.method === 'DELETE')).toBe(false);
  await user.click(within(dialog).getByRole('button', { name: t('recordDelete.button') }));
  return { mock, router };
}

/** The detail page's Delete asks, sends DELETE `deletePath` and goes back to `listPath` (issue 15). */
export async function expectDeleteGoesBack(o: {
  routes: RouteObject[];
  path: string;
  api: Record<string, unknown>;
  deletePath: string;
  listPath: string;
}) {
  const { mock, router } = await deleteThrough(o.routes, o.path, {
    ...o.api,
    [`DELETE ${o.deletePath}`]: { deleted: true },
  });
  await waitFor(() => expect(router.state.location.pathname).toBe(o.listPath));
  expect(mock.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([o.deletePath]);
}

/** A refused delete (409 `code` with `details`) shows its message in the UI language and the page stays. */
export async function expectDeleteRefusal(o: {
  routes: RouteObject[];
  path: string;
  api: Record<string, unknown>;
  deletePath: string;
  code: string;
  details: Record<string, unknown>;
}) {
  const refusal = jsonResponse({ error: { code: o.code, message: o.code, details: o.details } }, 409);
  const { router } = await deleteThrough(o.routes, o.path, { ...o.api, [`DELETE ${o.deletePath}`]: refusal });
  expect(await screen.findByText(t(`errors.${o.code}`, o.details))).toBeInTheDocument();
  expect(router.state.location.pathname).toBe(o.path);
}
