import type { MultiText } from './schemas/setup.js';

/**
 * The dashboard's charts and latest registrations (spec §2 Dashboard, §3 Dashboard data), beside the
 * tiles' `basicData`. Days are the UTC calendar days of the registrations (YYYY-MM-DD).
 */
export type DashboardSource = 'admin' | 'web';

/** accreditationChartData: registrations per day, action and source (the charts by type and total pivot these). */
export interface DashboardChartRow {
  date: string;
  actionId: number;
  source: DashboardSource;
  count: number;
}

/** accreditationByActionChartData: registrations per day and action. */
export interface DashboardActionRow {
  date: string;
  actionId: number;
  count: number;
}

/** actionPieChartData: each action's share of all registrations (percent to 2 decimals). */
export interface DashboardPieRow {
  actionId: number;
  name: MultiText;
  count: number;
  percent: number;
}

/** listOfAccreditation: the latest registrations. */
export interface DashboardLatest {
  id: number;
  actionId: number;
  actionName: MultiText;
  firstname: string;
  lastname: string;
  groupName: string | null;
  /** ISO date-time */
  createdAt: string;
  /** address of the photo, or null */
  image: string | null;
}

/** How many latest registrations the dashboard lists. */
export const DASHBOARD_LATEST = 10;

/** Shares in percent rounded to 2 decimals (spec §2: the pie's percentages). */
export function sharePercent(count: number, total: number): number {
  return total > 0 ? Math.round((count / total) * 10_000) / 100 : 0;
}
