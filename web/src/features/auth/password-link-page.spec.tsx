import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoutes, t } from '../../testing/render';
import { PasswordLinkPage } from './password-link-page';

function setup(path: string) {
  return renderRoutes(
    [
      { path: '/forgot-password/:link', element: <PasswordLinkPage mode="renew" /> },
      { path: '/verify/:link', element: <PasswordLinkPage mode="verify" /> },
      { path: '/login', element: <p>Login page</p> },
    ],
    [path],
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('PasswordLinkPage', () => {
  it('checks the verify link, then confirms the account and goes to login', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.endsWith('verify-authorize')
        ? jsonResponse({ data: { email: 'new@example.com' } })
        : jsonResponse({ data: true }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { user } = setup('/verify/abc');
    expect(await screen.findByDisplayValue('new@example.com')).toBeInTheDocument();
    await user.type(
      screen.getByLabelText(t('basics.newPassword'), { exact: false, selector: 'input' }),
      'long-password',
    );
    await user.type(
      screen.getByLabelText(t('basics.confirmPassword'), { exact: false, selector: 'input' }),
      'other-password',
    );
    await user.click(screen.getByRole('button', { name: t('basics.confirmAccount') }));
    expect(await screen.findByText(t('basics.passwordsNotSame'))).toBeInTheDocument();

    await user.clear(screen.getByLabelText(t('basics.confirmPassword'), { exact: false, selector: 'input' }));
    await user.type(
      screen.getByLabelText(t('basics.confirmPassword'), { exact: false, selector: 'input' }),
      'long-password',
    );
    await user.click(screen.getByRole('button', { name: t('basics.confirmAccount') }));
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(url).toBe('/api/admin/v1/login/verify-account');
    expect(JSON.parse(init.body as string)).toEqual({
      email: 'new@example.com',
      password: 'long-password',
      confirmPassword: 'long-password',
      confirmLink: 'abc',
    });
    expect(screen.getByText(t('basics.accountSuccessfullyConfirmed'))).toBeInTheDocument();
  });

  it('reports an already verified account and returns to login', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ error: { code: 'ADMIN_USER_ALREADY_VERIFIED', message: 'x' } }, 409)),
    );
    setup('/verify/used');
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(screen.getByText(t('basics.adminUserAlreadyVerified'))).toBeInTheDocument();
  });

  it('reports an unknown password link and returns to login', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ error: { code: 'LINK_INVALID', message: 'x' } }, 404)),
    );
    setup('/forgot-password/nope');
    await waitFor(() => expect(screen.getByText('Login page')).toBeInTheDocument());
    expect(screen.getByText(t('basics.enteredLinkNotExist'))).toBeInTheDocument();
  });
});
