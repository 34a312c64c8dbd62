import '@mantine/charts/styles.css';
import { BarChart, LineChart, PieChart } from '@mantine/charts';
import { Group, NativeSelect, Paper, Stack, Table, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
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
  totalPerDay,
} from './dashboard-data';

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
            <LineChart
              h={CHART_HEIGHT}
              data={bySourcePerDay(chart, actionFilter ? Number(actionFilter) : null)}
              dataKey="date"
              series={sources}
              withLegend
              curveType="linear"
            />
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="byAction">
          <LineChart
            h={CHART_HEIGHT}
            data={byActionPerDay(byAction)}
            dataKey="date"
            series={actionIds.map((id, i) => ({ name: `a${id}`, label: actionName(id), color: paletteColor(i) }))}
            withLegend
            curveType="linear"
          />
        </Tabs.Panel>

        <Tabs.Panel value="total">
          <LineChart
            h={CHART_HEIGHT}
            data={totalPerDay(byAction)}
            dataKey="date"
            series={[
              { name: 'count', label: t('dashboard.charts.perDay'), color: paletteColor(8) },
              { name: 'total', label: t('dashboard.charts.runningTotal'), color: paletteColor(1) },
            ]}
            withLegend
            curveType="linear"
          />
        </Tabs.Panel>

        <Tabs.Panel value="bySource">
          <BarChart
            h={CHART_HEIGHT}
            data={[
              { source: t('dashboard.charts.sourceAdmin'), count: totals.admin },
              { source: t('dashboard.charts.sourceWeb'), count: totals.web },
            ]}
            dataKey="source"
            series={[{ name: 'count', label: t('dashboard.charts.count'), color: paletteColor(4) }]}
          />
        </Tabs.Panel>

        <Tabs.Panel value="pie">
          <Group align="flex-start" gap="xl" wrap="wrap">
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
