import { type WebChannelListItem, type WebChannelState } from '@accredo/domain';
import { Badge, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { WEB_CHANNEL_KEY, webChannelApi } from '../../api/web-channel';
import { ArchivedBadge, useArchivedFilter } from '../../components/archive-record-button';
import type { DataTableColumn } from '../../components/data-table';
import { OnlineLinkButtons } from '../../components/online-link-buttons';
import { ByActionListPage } from '../groups/setup-shared';
import { authorizationLabel } from './authorization';

/** A date-time of the wire (`YYYY-MM-DDTHH:mm`, the venue's clock) as shown in lists, or a dash. */
export function formatDateTime(value: string | null | undefined, dash: string): string {
  return value ? value.replace('T', ' ') : dash;
}

const STATE_COLORS: Record<WebChannelState, string> = {
  open: 'teal',
  notActive: 'gray',
  notActiveYet: 'yellow',
  closed: 'red',
};

/** Whether the public form is open now (spec §4 Web channel). */
export function ChannelStateBadge({ state }: { state: WebChannelState }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLORS[state]} variant="light" tt="none">
      {t(`webChannel.state.${state}`)}
    </Badge>
  );
}

/** `/web-channel` (spec §2): the channels tabbed by action. */
export function WebChannelListPage() {
  const { t } = useTranslation();
  const channels = useQuery({ queryKey: WEB_CHANNEL_KEY, queryFn: webChannelApi.list });
  // archived channels (issue 15) only with "Show archived"
  const archived = useArchivedFilter(channels.data);
  const dash = t('basics.dash');
  const columns: DataTableColumn<WebChannelListItem>[] = [
    {
      key: 'name',
      header: t('basics.name'),
      render: (c) => (
        <>
          {c.name}
          <ArchivedBadge archivedAt={c.archivedAt} />
        </>
      ),
    },
    { key: 'channelKey', header: t('webChannel.channelKey'), render: (c) => c.channelKey },
    {
      key: 'active',
      header: t('basics.active'),
      render: (c) => (
        <Group gap={6} wrap="nowrap">
          {c.active ? t('basics.yes') : t('basics.no')}
          {c.active && c.state !== 'open' && <ChannelStateBadge state={c.state} />}
        </Group>
      ),
    },
    { key: 'dateFrom', header: t('webChannel.dateFrom'), render: (c) => formatDateTime(c.dateFrom, dash) },
    { key: 'dateTo', header: t('webChannel.dateTo'), render: (c) => formatDateTime(c.dateTo, dash) },
    {
      key: 'authorization',
      header: t('webChannel.authorization'),
      render: (c) => t(authorizationLabel(c.withAuthorization ? c.authorizationType : null)),
    },
  ];
  return (
    <ByActionListPage
      path="/web-channel"
      page="webChannel"
      query={{ ...channels, data: archived.visible } as typeof channels}
      headerExtra={archived.toggle}
      columns={columns}
      rowLinks={(c) => <OnlineLinkButtons channelKey={c.channelKey} compact />}
      unassigned="whenAny"
      texts={{
        title: 'webChannel.title',
        byAction: 'webChannel.byAction',
        loadError: 'webChannel.loadListError',
        empty: 'webChannel.empty',
        noTabs: 'webChannel.noActions',
      }}
    />
  );
}
