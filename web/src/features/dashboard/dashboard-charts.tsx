import '@mantine/charts/styles.css';
import { BarChart, LineChart, PieChart } from '@mantine/charts';
import { Group, NativeSelect, Paper, Stack, Table, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  byActionPerDay,
  bySourcePerDay,
  CHART_HEIGHT,
  type DashboardData,
  formatPercent,
  paletteColor,
  sourceTotals,
  textOf,
  totalOf,
  totalPerDay,
} from './dashboard-data';

/**
 * A chart as a figure named by its tab, carrying its total (`data-total`) and its numbers as a
 * table for screen readers (the drawing itself is an SVG they cannot read); the browser tests read
 * both to see the charts move.
 */
function ChartFigure(props: {
  label: string;
  total: number;
  columns: string[];
  rows: (string | number)[][];
  children: ReactNode;
}) {
  return (
    <figure aria-label={props.label} data-total={props.total} style={{ margin: 0 }}>
      {props.children}
      <VisuallyHidden>
        <table>
          <caption>{props.label}</caption>
          <thead>
            <tr>
              {props.columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((r) => (
              <tr key={String(r[0])}>
                {r.map((v, i) =>
                  i === 0 ? (
                    <th key={props.columns[i]} scope="row">
                      {v}
                    </th>
                  ) : (
                    <td key={props.columns[i]}>{v}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </figure>
  );
}

/**
 * The dashboard's charts (spec §2 Dashboard), loaded as their own chunk (recharts is big): tabs with
 * registrations by type per day (with an action filter, all actions included), by action per day,
 * the total, by source (administration or web channel) and the pie by action with percentages to
 * 2 decimals; lines in 10 purple shades, 500 px high.
 */
export function DashboardCharts({ data }: { data: DashboardData }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const [actionFilter, setActionFilter] = useState('');
  const chart = data.accreditationChartData ?? [];
  const byAction = data.accreditationByActionChartData ?? [];
  const pie = data.actionPieChartData ?? [];
  const actionName = (id: number) => textOf(pie.find((p) => p.actionId === id)?.name, language) || `#${id}`;
  const sources = [
    { name: 'admin', label: t('dashboard.charts.sourceAdmin'), color: paletteColor(3) },
    { name: 'web', label: t('dashboard.charts.sourceWeb'), color: paletteColor(8) },
  ];
  const totals = sourceTotals(chart);
  const actionIds = [...new Set(byAction.map((r) => r.actionId))];
  const byType = bySourcePerDay(chart, actionFilter ? Number(actionFilter) : null);
  const perAction = byActionPerDay(byAction);
  const perDayTotal = totalPerDay(byAction);

  if (!chart.length)
    return (
      <Paper withBorder p="md" radius="md">
        <Text c="dimmed">{t('dashboard.charts.empty')}</Text>
      </Paper>
    );

  return (
    <Paper withBorder p="md" radius="md">
      <Tabs defaultValue="byType" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="byType">{t('dashboard.charts.byType')}</Tabs.Tab>
          <Tabs.Tab value="byAction">{t('dashboard.charts.byAction')}</Tabs.Tab>
          <Tabs.Tab value="total">{t('dashboard.charts.total')}</Tabs.Tab>
          <Tabs.Tab value="bySource">{t('dashboard.charts.bySource')}</Tabs.Tab>
          <Tabs.Tab value="pie">{t('dashboard.charts.pie')}</Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="byType">
          <Stack gap="sm">
            <NativeSelect
              label={t('dashboard.charts.action')}
              value={actionFilter}
              onChange={(e) => setActionFilter(e.currentTarget.value)}
              data={[
                { value: '', label: t('dashboard.charts.allActions') },
                ...actionIds.map((id) => ({ value: String(id), label: actionName(id) })),
              ]}
              maw={360}
            />
            <ChartFigure
              label={t('dashboard.charts.byType')}
              total={byType.reduce((n, p) => n + Number(p.admin) + Number(p.web), 0)}
              columns={[t('dashboard.charts.date'), ...sources.map((s) => s.label)]}
              rows={byType.map((p) => [p.date, Number(p.admin), Number(p.web)])}
            >
              <LineChart h={CHART_HEIGHT} data={byType} dataKey="date" series={sources} withLegend curveType="linear" />
            </ChartFigure>
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="byAction">
          <ChartFigure
            label={t('dashboard.charts.byAction')}
            total={totalOf(byAction)}
            columns={[t('dashboard.charts.date'), ...actionIds.map(actionName)]}
            rows={perAction.map((p) => [p.date, ...actionIds.map((id) => Number(p[`a${id}`] ?? 0))])}
          >
            <LineChart
              h={CHART_HEIGHT}
              data={perAction}
              dataKey="date"
              series={actionIds.map((id, i) => ({ name: `a${id}`, label: actionName(id), color: paletteColor(i) }))}
              withLegend
              curveType="linear"
            />
          </ChartFigure>
        </Tabs.Panel>

        <Tabs.Panel value="total">
          <ChartFigure
            label={t('dashboard.charts.total')}
            total={totalOf(byAction)}
            columns={[t('dashboard.charts.date'), t('dashboard.charts.perDay'), t('dashboard.charts.runningTotal')]}
            rows={perDayTotal.map((p) => [p.date, Number(p.count), Number(p.total)])}
          >
            <LineChart
              h={CHART_HEIGHT}
              data={perDayTotal}
              dataKey="date"
              series={[
                { name: 'count', label: t('dashboard.charts.perDay'), color: paletteColor(8) },
                { name: 'total', label: t('dashboard.charts.runningTotal'), color: paletteColor(1) },
              ]}
              withLegend
              curveType="linear"
            />
          </ChartFigure>
        </Tabs.Panel>

        <Tabs.Panel value="bySource">
          <ChartFigure
            label={t('dashboard.charts.bySource')}
            total={totals.admin + totals.web}
            columns={[t('dashboard.charts.bySource'), t('dashboard.charts.count')]}
            rows={[
              [t('dashboard.charts.sourceAdmin'), totals.admin],
              [t('dashboard.charts.sourceWeb'), totals.web],
            ]}
          >
            <BarChart
              h={CHART_HEIGHT}
              data={[
                { source: t('dashboard.charts.sourceAdmin'), count: totals.admin },
                { source: t('dashboard.charts.sourceWeb'), count: totals.web },
              ]}
              dataKey="source"
              series={[{ name: 'count', label: t('dashboard.charts.count'), color: paletteColor(4) }]}
            />
          </ChartFigure>
        </Tabs.Panel>

        <Tabs.Panel value="pie">
          <Group
            component="figure"
            aria-label={t('dashboard.charts.pie')}
            data-total={totalOf(pie)}
            m={0}
            align="flex-start"
            gap="xl"
            wrap="wrap"
          >
            <PieChart
              size={CHART_HEIGHT - 40}
              h={CHART_HEIGHT}
              data={pie.map((p, i) => ({ name: actionName(p.actionId), value: p.count, color: paletteColor(i) }))}
              withTooltip
              tooltipDataSource="segment"
            />
            <Table aria-label={t('dashboard.charts.pie')} maw={420}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('dashboard.charts.action')}</Table.Th>
                  <Table.Th>{t('dashboard.charts.count')}</Table.Th>
                  <Table.Th>{t('dashboard.charts.share')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {pie.map((p) => (
                  <Table.Tr key={p.actionId}>
                    <Table.Td>{actionName(p.actionId)}</Table.Td>
                    <Table.Td>{p.count}</Table.Td>
                    <Table.Td>{formatPercent(p.percent, language)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Group>
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
