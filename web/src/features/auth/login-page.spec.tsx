import type { Session } from '@accredo/domain';
import { buildRights } from '@accredo/domain';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { jsonResponse, renderRoutes, t } from '../../testing/render';
import { LoginPage } from './login-page';

const session: Session = {
  token: 'tok-123',
  rights: buildRights(false),
  superuser: true,
  manageuser: false,
  subject: { id: 1, name: 'Demo', key: 'demo', multiLanguage: false, extensions: [], timeZone: 'Europe/Prague' },
};

function setup() {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/', element: <p>Home page</p> },
    ],
    ['/login'],
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LoginPage', () => {
  it('submits on Enter and shows basics.nonValidLoginData on INVALID_LOGIN', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse({ error: { code: 'INVALID_LOGIN', message: 'Invalid login', details: {} } }, 401),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { user, router } = setup();

    await user.type(screen.getByLabelText(new RegExp(t('basics.email'))), 'admin@example.com');
    await user.type(screen.getByLabelText(new RegExp(`^${t('basics.password')}`)), 'wrong-password{Enter}');

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/admin/v1/login');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({ login: 'admin@example.com', password: 'wrong-password' });
    expect((init.headers as Record<string, string>).authorization).toBeUndefined();

    // said once, as the toast of spec §8; a second failure replaces it instead of stacking
    await waitFor(() => expect(screen.getAllByText(t('basics.nonValidLoginData'))).toHaveLength(1));
    await user.type(screen.getByLabelText(new RegExp(`^${t('basics.password')}`)), '2{Enter}');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.getAllByText(t('basics.nonValidLoginData'))).toHaveLength(1));
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem(STORAGE_KEYS.adminToken)).toBeNull();
  });

  it('keeps the token and goes home on success', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ data: session })),
    );
    const { user } = setup();
    await user.type(screen.getByLabelText(new RegExp(t('basics.email'))), 'admin@example.com');
    await user.type(screen.getByLabelText(new RegExp(`^${t('basics.password')}`)), 'secret-password');
    await user.click(screen.getByRole('button', { name: t('basics.login') }));
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.adminToken)).toBe('tok-123');
  });

  it('validates the required fields without calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: t('basics.login') }));
    expect(await screen.findAllByText(t('basics.requireField'))).toHaveLength(2);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a password link from the forgot-password dialog', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ data: true }));
    vi.stubGlobal('fetch', fetchMock);
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: t('basics.forgotPassword') }));
    const dialog = await screen.findByRole('dialog');
    const email = (await screen.findAllByLabelText(new RegExp(t('basics.email')))).find((el) => dialog.contains(el));
    await user.type(email as HTMLElement, 'admin@example.com{Enter}');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/admin/v1/login/forgot-password');
    expect(JSON.parse(init.body as string)).toEqual({ login: 'admin@example.com', language: 'cs' });
    expect(await screen.findByText(t('basics.forgotPasswordEmailSend'))).toBeInTheDocument();
  });
});
