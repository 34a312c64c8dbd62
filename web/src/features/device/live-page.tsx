import { Alert, Badge, Group, Paper, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { deviceApi } from '../../api/device';
import { LoadingState } from '../../components/loading-state';
import { PageHeader } from '../../components/page-header';
import { ActionsLoadNotice, useActionOptions, useLocalized, useTabParam } from '../groups/setup-shared';
import { useDateTime } from './shared';

/** How often the live numbers are read again. */
export const LIVE_REFRESH_MS = 5_000;

function LiveAction({ actionId }: { actionId: number }) {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const live = useQuery({
    queryKey: ['admin', 'report', 'live', actionId],
    queryFn: () => deviceApi.live(actionId),
    refetchInterval: LIVE_REFRESH_MS,
  });
  if (live.isPending) return <LoadingState />;
  if (!live.data) return <Alert color="red">{t('device.live.loadError')}</Alert>;
  const view = live.data;
  const maxHour = Math.max(1, ...view.hours.map((h) => h.entries));
  const firstHour = view.hours.findIndex((h) => h.entries || h.exits);
  const hours = firstHour < 0 ? [] : view.hours.slice(firstHour);
  return (
    <Stack>
      <Group gap="lg">
        <Text size="sm" c="dimmed">
          {t('device.live.updated', { at: dateTime(view.at) })}
        </Text>
        {live.isError && (
          <Badge color="red" variant="light" tt="none">
            {t('device.live.stale')}
          </Badge>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Paper withBorder p="md" component="section" aria-labelledby="live-zones">
          <Title order={2} size="h5" id="live-zones" mb="xs">
            {t('device.live.inside')}
          </Title>
          {view.zones.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('device.live.noPassages')}
            </Text>
          ) : (
            <Table aria-label={t('device.live.inside')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('device.rules.zone')}</Table.Th>
                  <Table.Th>{t('device.live.insideCount')}</Table.Th>
                  <Table.Th>{t('device.live.entries')}</Table.Th>
                  <Table.Th>{t('device.live.exits')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {view.zones.map((z) => (
                  <Table.Tr key={String(z.zoneId)}>
                    <Table.Td>{z.zoneId === null ? t('device.live.noZone') : (z.name ?? `#${z.zoneId}`)}</Table.Td>
                    <Table.Td fw={700}>{z.inside}</Table.Td>
                    <Table.Td>{z.entries}</Table.Td>
                    <Table.Td>{z.exits}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {view.parking.length > 0 && (
            <Table aria-label={t('device.live.carParks')} mt="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('device.live.carPark')}</Table.Th>
                  <Table.Th>{t('device.live.insideCount')}</Table.Th>
                  <Table.Th>{t('device.live.capacity')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {view.parking.map((p) => (
                  <Table.Tr key={p.areaId}>
                    <Table.Td>{p.name}</Table.Td>
                    <Table.Td fw={700}>{p.inside}</Table.Td>
                    <Table.Td>{p.capacity ?? t('device.live.unlimited')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
        <Paper withBorder p="md" component="section" aria-labelledby="live-hours">
          <Title order={2} size="h5" id="live-hours" mb="xs">
            {t('device.live.perHour')}
          </Title>
          {hours.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('device.live.noPassages')}
            </Text>
          ) : (
            <Table aria-label={t('device.live.perHour')}>
              <Table.Tbody>
                {hours.map((h) => (
                  <Table.Tr key={h.hour}>
                    <Table.Td w={70}>{`${String(h.hour).padStart(2, '0')}:00`}</Table.Td>
                    <Table.Td>
                      <div
                        aria-hidden
                        style={{
                          height: 10,
                          width: `${(h.entries / maxHour) * 100}%`,
                          minWidth: h.entries ? 2 : 0,
                          background: 'var(--mantine-color-blue-5)',
                          borderRadius: 2,
                        }}
                      />
                    </Table.Td>
                    <Table.Td w={60} ta="right">
                      {h.entries}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
        <Paper withBorder p="md" component="section" aria-labelledby="live-refusals">
          <Title order={2} size="h5" id="live-refusals" mb="xs">
            {t('device.live.refusals')}
          </Title>
          <Text size="sm" mb="xs">
            {t('device.live.scans', {
              total: view.scans.total,
              allowed: view.scans.allowed,
              refused: view.scans.refused,
            })}
          </Text>
          {view.refusals.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('device.live.noRefusals')}
            </Text>
          ) : (
            <Table aria-label={t('device.live.refusals')}>
              <Table.Tbody>
                {view.refusals.map((r) => (
                  <Table.Tr key={r.reason}>
                    <Table.Td>{r.message}</Table.Td>
                    <Table.Td w={60} ta="right">
                      {r.count}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

/** `/device/live`: per action, people inside per zone, entries per hour and refusals by reason, refreshed every few seconds. */
export function LivePage() {
  const { t } = useTranslation();
  const { actions, pending, failed } = useActionOptions();
  const localized = useLocalized();
  const [tab, setTab] = useTabParam(actions.map((a) => String(a.id)));
  return (
    <>
      <PageHeader title={t('device.live.title')} />
      <ActionsLoadNotice failed={failed} />
      {pending ? (
        <LoadingState />
      ) : actions.length === 0 ? (
        <Alert color="gray">{t('device.live.noActions')}</Alert>
      ) : (
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List aria-label={t('device.live.byAction')} mb="md">
            {actions.map((a) => (
              <Tabs.Tab key={a.id} value={String(a.id)}>
                {localized(a.name) || `#${a.id}`}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tab && (
            <Tabs.Panel value={tab}>
              <LiveAction actionId={Number(tab)} />
            </Tabs.Panel>
          )}
        </Tabs>
      )}
    </>
  );
}
