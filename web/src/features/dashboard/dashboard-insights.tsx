import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { DASHBOARD_KEY, dashboardApi } from '../../api/mail';
import { LoadingState } from '../../components/loading-state';
import { DASHBOARD_REFRESH_MS } from './dashboard-tiles';
import type { DashboardData } from './dashboard-data';
import { DashboardLatestList } from './dashboard-latest';

// recharts is big: the charts are their own chunk, so the first load of the app does not grow
const DashboardCharts = lazy(() => import('./dashboard-charts').then((m) => ({ default: m.DashboardCharts })));

/** The charts and the latest registrations, from the same GET dashboard as the tiles (spec §3 Dashboard data). */
export function DashboardInsights() {
  const query = useQuery({
    queryKey: DASHBOARD_KEY,
    queryFn: dashboardApi.get,
    refetchInterval: DASHBOARD_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  // the tiles show the loading and error states of this query
  if (!query.data) return null;
  const data = query.data as DashboardData;
  return (
    <>
      <Suspense fallback={<LoadingState />}>
        <DashboardCharts data={data} />
      </Suspense>
      <DashboardLatestList rows={data.listOfAccreditation ?? []} />
    </>
  );
}
