import { buildRights } from '@accredo/domain';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, t } from '../../testing/render';
import { mockAdminApi, renderWithSession, testSession } from '../../testing/session';
import { DashboardPage } from './dashboard-page';
import { DASHBOARD_REFRESH_MS } from './dashboard-tiles';

const counts = (patch: Record<string, number> = {}) => ({
  basicData: {
    actionCount: 2,
    webChannelCount: 1,
    userCount: 1234,
    emailSentCount: 40,
    emailInQueue: 460,
    emailErrorCount: 0,
    ...patch,
  },
});

const renderDashboard = (session = testSession()) =>
  renderWithSession([{ path: 'dashboard', element: <DashboardPage /> }], '/dashboard', session);

const tile = (key: string) => screen.getByTestId(`tile-${key}`);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('dashboard tiles', () => {
  it('shows the counts as links to their lists', async () => {
    mockAdminApi({ 'GET actual': { id: 1, name: 'Eva' }, 'GET dashboard': counts() });
    renderDashboard();
    const users = await screen.findByRole('link', {
      name: `${t('mail.tiles.users')} ${new Intl.NumberFormat('cs').format(1234)}`,
    });
    expect(users).toHaveAttribute('href', '/accreditation');
    expect(screen.getByRole('link', { name: `${t('mail.tiles.actions')} 2` })).toHaveAttribute('href', '/action');
    expect(screen.getByRole('link', { name: `${t('mail.tiles.webChannels')} 1` })).toHaveAttribute(
      'href',
      '/web-channel',
    );
    expect(tile('emailSentCount')).toHaveTextContent('40');
    expect(tile('emailInQueue')).toHaveTextContent('460');
    expect(tile('emailErrorCount')).toHaveTextContent('0');
  });

  it('refreshes every 30 seconds, so a mass mail can be watched draining', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer = counts();
    const { calls } = mockAdminApi({ 'GET actual': { id: 1 } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = url.replace('/api/admin/v1/', '');
        calls.push({ method: 'GET', path, body: undefined });
        return jsonResponse({ data: path === 'dashboard' ? answer : { id: 1 } });
      }),
    );
    renderDashboard();
    await waitFor(() => expect(tile('emailInQueue')).toHaveTextContent('460'));
    answer = counts({ emailSentCount: 500, emailInQueue: 0, emailErrorCount: 3 });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS + 100);
    });
    await waitFor(() => expect(tile('emailInQueue')).toHaveTextContent('0'));
    expect(tile('emailSentCount')).toHaveTextContent('500');
    expect(tile('emailErrorCount')).toHaveTextContent('3');
    expect(calls.filter((c) => c.path === 'dashboard').length).toBeGreaterThanOrEqual(2);
  });

  it('says when the counts cannot be loaded, and shows nothing without the right', async () => {
    mockAdminApi({
      'GET actual': { id: 1 },
      'GET dashboard': jsonResponse({ error: { code: 'INTERNAL_ERROR', message: 'x' } }, 500),
    });
    const { unmount } = renderDashboard();
    expect(await screen.findByText(t('mail.tiles.loadError'))).toBeInTheDocument();
    unmount();

    const { calls } = mockAdminApi({ 'GET actual': { id: 1 } });
    renderDashboard({ ...testSession(), superuser: false, rights: buildRights(false) });
    expect(await screen.findByText(t('dashboard.noRights'))).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'dashboard')).toBe(false);
  });
});
