import type { DashboardBasicData } from '@accredo/domain';
import { Alert, Group, Paper, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCalendarEvent, IconClock, IconId, IconMailCheck, IconWorld } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DASHBOARD_KEY, dashboardApi } from '../../api/mail';
import { LoadingState } from '../../components/loading-state';

/** How often the counts refresh (an admin watches a mass mail drain). */
export const DASHBOARD_REFRESH_MS = 30_000;

interface Tile {
  key: keyof DashboardBasicData;
  label: string;
  icon: ReactNode;
  to: string;
  color?: string;
}

const TILES: Tile[] = [
  { key: 'actionCount', label: 'mail.tiles.actions', icon: <IconCalendarEvent size={22} />, to: '/action' },
  { key: 'webChannelCount', label: 'mail.tiles.webChannels', icon: <IconWorld size={22} />, to: '/web-channel' },
  { key: 'userCount', label: 'mail.tiles.users', icon: <IconId size={22} />, to: '/accreditation' },
  { key: 'emailSentCount', label: 'mail.tiles.emailSent', icon: <IconMailCheck size={22} />, to: '/accreditation' },
  { key: 'emailInQueue', label: 'mail.tiles.emailInQueue', icon: <IconClock size={22} />, to: '/accreditation' },
  {
    key: 'emailErrorCount',
    label: 'mail.tiles.emailError',
    icon: <IconAlertTriangle size={22} />,
    to: '/accreditation',
    color: 'red',
  },
];

/**
 * The dashboard's count tiles (spec §2 Dashboard, §3 basicData): actions, web channels,
 * accreditations, and e-mails sent, waiting and failed; each leads to its list. Refreshed every
 * 30 seconds.
 */
export function DashboardTiles() {
  const { t, i18n } = useTranslation();
  const query = useQuery({
    queryKey: DASHBOARD_KEY,
    queryFn: dashboardApi.get,
    refetchInterval: DASHBOARD_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  if (query.isPending) return <LoadingState />;
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {t('mail.tiles.loadError')}
      </Alert>
    );
  const data = query.data.basicData;
  const format = new Intl.NumberFormat(i18n.language);
  return (
    <section aria-labelledby="dashboard-tiles">
      <Group justify="space-between" mb="xs">
        <Text id="dashboard-tiles" fw={600}>
          {t('mail.tiles.label')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('mail.tiles.refreshHint')}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
        {TILES.map((tile) => {
          const value = data[tile.key];
          const alert = tile.color && value > 0;
          return (
            <UnstyledButton key={tile.key} component={Link} to={tile.to} data-testid={`tile-${tile.key}`}>
              <Paper withBorder p="md" radius="md">
                <Group justify="space-between" wrap="nowrap">
                  <div>
                    <Text size="sm" c="dimmed">
                      {t(tile.label)}
                    </Text>
                    <Text fz={28} fw={700} c={alert ? tile.color : undefined}>
                      {format.format(value)}
                    </Text>
                  </div>
                  <Text c={alert ? tile.color : 'dimmed'} aria-hidden>
                    {tile.icon}
                  </Text>
                </Group>
              </Paper>
            </UnstyledButton>
          );
        })}
      </SimpleGrid>
    </section>
  );
}
