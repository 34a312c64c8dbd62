import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { t } from '../../testing/render';
import { mockAdminApi, renderWithSession } from '../../testing/session';
import {
  byActionPerDay,
  bySourcePerDay,
  formatPercent,
  PURPLE_PALETTE,
  sourceTotals,
  totalPerDay,
} from './dashboard-data';
import { DashboardPage } from './dashboard-page';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

const chart = [
  { date: '2027-01-01', actionId: 1, source: 'web' as const, count: 2 },
  { date: '2027-01-03', actionId: 1, source: 'admin' as const, count: 1 },
  { date: '2027-01-03', actionId: 2, source: 'admin' as const, count: 3 },
];
const byAction = [
  { date: '2027-01-01', actionId: 1, count: 2 },
  { date: '2027-01-03', actionId: 1, count: 1 },
  { date: '2027-01-03', actionId: 2, count: 3 },
];

const dashboard = {
  basicData: {
    actionCount: 2,
    webChannelCount: 1,
    userCount: 6,
    emailSentCount: 0,
    emailInQueue: 0,
    emailErrorCount: 0,
  },
  accreditationChartData: chart,
  accreditationByActionChartData: byAction,
  actionPieChartData: [
    { actionId: 2, name: ml('Beta'), count: 3, percent: 50 },
    { actionId: 1, name: ml('Alpha'), count: 3, percent: 50 },
  ],
  listOfAccreditation: [
    {
      id: 42,
      actionId: 2,
      actionName: ml('Beta'),
      firstname: 'Eva',
      lastname: 'Nová',
      groupName: null,
      createdAt: '2027-01-03T10:00:00.000Z',
      image: null,
    },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe('dashboard data shapes (spec §2 Dashboard)', () => {
  it('pivots by source per day (with quiet days as 0 and the action filter), by action, the total, the sources', () => {
    expect(bySourcePerDay(chart, null)).toEqual([
      { date: '2027-01-01', admin: 0, web: 2 },
      { date: '2027-01-02', admin: 0, web: 0 },
      { date: '2027-01-03', admin: 4, web: 0 },
    ]);
    expect(bySourcePerDay(chart, 2)).toEqual([{ date: '2027-01-03', admin: 3, web: 0 }]);
    expect(byActionPerDay(byAction)[2]).toEqual({ date: '2027-01-03', a1: 1, a2: 3 });
    expect(totalPerDay(byAction).map((p) => p.total)).toEqual([2, 2, 6]);
    expect(sourceTotals(chart)).toEqual({ admin: 4, web: 2 });
    expect(formatPercent(66.666, 'en')).toBe('66.67 %');
    expect(formatPercent(50, 'cs')).toBe('50,00 %');
    expect(PURPLE_PALETTE).toHaveLength(10);
  });
});

describe('dashboard charts and latest registrations', () => {
  it('shows the chart tabs (loaded lazily), the pie shares and the latest list; a click opens the detail in its action', async () => {
    const { calls } = mockAdminApi({
      'GET actual': { id: 1, name: 'Eva' },
      'GET dashboard': dashboard,
      'PUT actual/action': { lastAction: 2 },
    });
    const { user, router } = renderWithSession(
      [
        { path: 'dashboard', element: <DashboardPage /> },
        { path: 'accreditation/detail/:id', element: <p>Detail</p> },
      ],
      '/dashboard',
    );
    for (const tab of ['byType', 'byAction', 'total', 'bySource', 'pie'])
      expect(await screen.findByRole('tab', { name: t(`dashboard.charts.${tab}`) })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: t('dashboard.charts.action') })).toHaveValue('');
    // the chart's numbers as a figure with its total and a table (what the browser journey reads)
    const byType = screen.getByRole('figure', { name: t('dashboard.charts.byType') });
    expect(byType).toHaveAttribute('data-total', '6');
    const days = within(byType).getAllByRole('row');
    expect(days.map((r) => r.textContent)).toEqual([
      `${t('dashboard.charts.date')}${t('dashboard.charts.sourceAdmin')}${t('dashboard.charts.sourceWeb')}`,
      '2027-01-0102',
      '2027-01-0200',
      '2027-01-0340',
    ]);
    await user.selectOptions(screen.getByRole('combobox', { name: t('dashboard.charts.action') }), '2');
    expect(screen.getByRole('figure', { name: t('dashboard.charts.byType') })).toHaveAttribute('data-total', '3');
    await user.click(screen.getByRole('tab', { name: t('dashboard.charts.total') }));
    const total = await screen.findByRole('figure', { name: t('dashboard.charts.total') });
    expect(total).toHaveAttribute('data-total', '6');
    expect(within(total).getAllByRole('row').at(-1)?.textContent).toBe('2027-01-0346');
    await user.click(screen.getByRole('tab', { name: t('dashboard.charts.bySource') }));
    expect(await screen.findByRole('figure', { name: t('dashboard.charts.bySource') })).toHaveAttribute(
      'data-total',
      '6',
    );
    await user.click(screen.getByRole('tab', { name: t('dashboard.charts.pie') }));
    const shares = await screen.findByRole('table', { name: t('dashboard.charts.pie') });
    expect(shares).toHaveTextContent('Beta');
    expect(shares).toHaveTextContent('50,00 %');

    expect(screen.getByRole('table', { name: t('dashboard.latest.title') })).toHaveTextContent('Nová');
    expect(screen.getByRole('table', { name: t('dashboard.latest.title') })).toHaveTextContent('–');
    await user.click(screen.getByRole('button', { name: t('dashboard.latest.open', { name: 'Eva Nová' }) }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/accreditation/detail/42'));
    expect(await screen.findByText('Detail')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT' && c.path === 'actual/action')?.body).toEqual({ actionId: 2 });
  });

  it('says so when there are no registrations yet', async () => {
    mockAdminApi({
      'GET actual': { id: 1 },
      'GET dashboard': { ...dashboard, accreditationChartData: [], listOfAccreditation: [] },
    });
    renderWithSession([{ path: 'dashboard', element: <DashboardPage /> }], '/dashboard');
    expect(await screen.findAllByText(t('dashboard.charts.empty'))).not.toHaveLength(0);
  });
});
