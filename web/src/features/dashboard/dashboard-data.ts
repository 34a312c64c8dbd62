import type {
  DashboardActionRow,
  DashboardBasicData,
  DashboardChartRow,
  DashboardLatest,
  DashboardPieRow,
  MultiText,
} from '@accredo/domain';

/** GET dashboard (spec §3 Dashboard data). */
export interface DashboardData {
  basicData: DashboardBasicData;
  accreditationChartData?: DashboardChartRow[];
  accreditationByActionChartData?: DashboardActionRow[];
  actionPieChartData?: DashboardPieRow[];
  listOfAccreditation?: DashboardLatest[];
}

/** The line palette: 10 shades of purple (spec §2 Dashboard). */
export const PURPLE_PALETTE = [
  '#3b0764',
  '#581c87',
  '#6b21a8',
  '#7e22ce',
  '#9333ea',
  '#a855f7',
  '#5b21b6',
  '#7c3aed',
  '#8b5cf6',
  '#a78bfa',
] as const;

export const CHART_HEIGHT = 500;

export const paletteColor = (index: number) => PURPLE_PALETTE[index % PURPLE_PALETTE.length];

export const textOf = (text: Partial<MultiText> | undefined, language: string) =>
  text?.[language as keyof MultiText] || text?.cs || '';

/** Every day from the first to the last registration, so a quiet day shows as 0 rather than a gap. */
export function daysBetween(dates: string[]): string[] {
  if (!dates.length) return [];
  const sorted = [...dates].sort();
  const out: string[] = [];
  const end = Date.parse(`${sorted[sorted.length - 1]}T00:00:00Z`);
  for (let t = Date.parse(`${sorted[0]}T00:00:00Z`); t <= end && out.length < 3660; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export type ChartPoint = { date: string } & Record<string, number | string>;

/** By type (source) per day, for one action or all (null): `{date, admin, web}`. */
export function bySourcePerDay(rows: DashboardChartRow[], actionId: number | null): ChartPoint[] {
  const picked = rows.filter((r) => actionId === null || r.actionId === actionId);
  const points = new Map<string, ChartPoint>(
    daysBetween(picked.map((r) => r.date)).map((d) => [d, { date: d, admin: 0, web: 0 }]),
  );
  for (const r of picked) {
    const p = points.get(r.date);
    if (p) p[r.source] = Number(p[r.source] ?? 0) + r.count;
  }
  return [...points.values()];
}

/** By action per day: `{date, a{actionId}: count}`. */
export function byActionPerDay(rows: DashboardActionRow[]): ChartPoint[] {
  const actions = [...new Set(rows.map((r) => r.actionId))];
  const points = new Map<string, ChartPoint>(
    daysBetween(rows.map((r) => r.date)).map((d) => [
      d,
      Object.fromEntries([['date', d], ...actions.map((a) => [`a${a}`, 0])]) as ChartPoint,
    ]),
  );
  for (const r of rows) {
    const p = points.get(r.date);
    if (p) p[`a${r.actionId}`] = Number(p[`a${r.actionId}`] ?? 0) + r.count;
  }
  return [...points.values()];
}

/** The total: registrations per day and the running sum. */
export function totalPerDay(rows: DashboardActionRow[]): ChartPoint[] {
  const perDay = new Map<string, number>();
  for (const r of rows) perDay.set(r.date, (perDay.get(r.date) ?? 0) + r.count);
  let sum = 0;
  return daysBetween([...perDay.keys()]).map((date) => {
    const count = perDay.get(date) ?? 0;
    sum += count;
    return { date, count, total: sum };
  });
}

/** All the registrations of rows. */
export const totalOf = (rows: { count: number }[]) => rows.reduce((n, r) => n + r.count, 0);

/** By source in all: administration and web channel. */
export function sourceTotals(rows: DashboardChartRow[]): { admin: number; web: number } {
  const out = { admin: 0, web: 0 };
  for (const r of rows) out[r.source] += r.count;
  return out;
}

/** A percentage with 2 decimals in the page's language (spec §2: the pie). */
export const formatPercent = (percent: number, language: string) =>
  `${new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(percent)} %`;
