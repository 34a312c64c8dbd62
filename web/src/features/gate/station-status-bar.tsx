import { ActionIcon, Badge, Group, Paper, Text } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { StationStatus } from './station-events';

/** How long ago, in the largest whole unit (s, min, h). */
export function syncAge(t: TFunction, ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return t('gate.station.age.seconds', { count: seconds });
  if (seconds < 3600) return t('gate.station.age.minutes', { count: Math.floor(seconds / 60) });
  return t('gate.station.age.hours', { count: Math.floor(seconds / 3600) });
}

const readerColor = (state: string | null) =>
  state === 'open' || state === 'reopened' ? 'green' : state === 'error' || state === 'closed' ? 'red' : 'gray';

/**
 * The station's status bar (issue 12), shown when the gate screen is served by a station: online
 * or offline, the last sync and its age (ticking), scans waiting for upload, each reader's state,
 * the relay and the printer; its gear opens the station's settings (`/gate/settings`).
 */
export function StationStatusBar({ status, connected }: { status: StationStatus; connected: boolean }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const lastSync = status.lastSyncAt ? Date.parse(status.lastSyncAt) : null;

  return (
    <Paper
      component="section"
      aria-label={t('gate.station.status')}
      withBorder
      radius={0}
      px="md"
      py={6}
      bg="var(--mantine-color-gray-light)"
    >
      <Group gap="sm" wrap="wrap">
        {!connected ? (
          <Badge color="red" variant="filled">
            {t('gate.station.disconnected')}
          </Badge>
        ) : !status.paired ? (
          <Badge color="gray">{t('gate.station.notPaired')}</Badge>
        ) : status.mode === 'online' ? (
          <Badge color="green" variant="filled">
            {t('gate.station.online')}
          </Badge>
        ) : (
          <Badge color="orange" variant="filled">
            {t('gate.station.offline')}
          </Badge>
        )}
        {status.paired && (
          <Text size="sm">
            {lastSync === null
              ? t('gate.station.neverSynced')
              : t('gate.station.lastSync', {
                  time: new Date(lastSync).toLocaleTimeString(),
                  age: syncAge(t, now - lastSync),
                })}
          </Text>
        )}
        {status.paired && (
          <Badge color={status.queue ? 'orange' : 'gray'} variant="light">
            {t('gate.station.queue', { count: status.queue })}
          </Badge>
        )}
        {status.readers.map((reader) => (
          <Badge key={reader.readerId} color={readerColor(reader.status)} variant="light" title={reader.message ?? ''}>
            {t('gate.station.reader', {
              id: reader.readerId,
              state: t(`gate.station.readerState.${reader.status ?? 'starting'}`),
            })}
          </Badge>
        ))}
        {status.relay && (
          <Badge
            color={status.relay.state === 'ready' ? 'green' : 'red'}
            variant="light"
            title={status.relay.message ?? ''}
          >
            {t('gate.station.relay', { state: t(`gate.station.relayState.${status.relay.state}`) })}
          </Badge>
        )}
        {status.printer && (
          <Badge
            color={status.printer.state === 'error' ? 'red' : status.printer.state === 'unavailable' ? 'gray' : 'green'}
            variant="light"
            title={status.printer.message ?? ''}
          >
            {t('gate.station.printer', {
              name: status.printer.name,
              state: t(`gate.station.printerState.${status.printer.state}`),
            })}
          </Badge>
        )}
        <ActionIcon
          component={Link}
          to="/gate/settings"
          variant="subtle"
          color="gray"
          ml="auto"
          aria-label={t('gate.settings.open')}
          title={t('gate.settings.open')}
        >
          <IconSettings size={18} />
        </ActionIcon>
      </Group>
    </Paper>
  );
}
