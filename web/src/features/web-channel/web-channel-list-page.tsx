import { hasRight, type WebChannelListItem, type WebChannelState } from '@accredo/domain';
import { Alert, Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { WEB_CHANNEL_KEY, webChannelApi } from '../../api/web-channel';
import { useAdminSession } from '../../app/admin-session';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { LoadingState } from '../../components/loading-state';
import { OnlineLinkButtons } from '../../components/online-link-buttons';
import { PageHeader } from '../../components/page-header';
import {
  ActionsLoadNotice,
  ActionTabs,
  tabActionId,
  useActionOptions,
  useActionTabs,
  useTabParam,
} from '../groups/setup-shared';
import { authorizationLabel } from './authorization';

const channelActionId = (c: WebChannelListItem) => c.actionId;

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
  const session = useAdminSession();
  const navigate = useNavigate();
  const channels = useQuery({ queryKey: WEB_CHANNEL_KEY, queryFn: webChannelApi.list });
  const { actions, pending, failed } = useActionOptions();
  const items = channels.data ?? [];
  const tabs = useActionTabs({ items, actions, getActionId: channelActionId, unassigned: 'whenAny' });
  const [tab, setTab] = useTabParam(tabs.map((x) => x.value));
  const actionId = tabActionId(tab);
  const rows = items.filter((c) => c.actionId === actionId);
  const dash = t('basics.dash');

  const columns: DataTableColumn<WebChannelListItem>[] = [
    { key: 'name', header: t('basics.name'), render: (c) => c.name },
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
    {
      key: 'options',
      header: t('basics.options'),
      render: (c) => (
        <Group gap="xs" wrap="nowrap">
          <Anchor
            component={Link}
            to={`/web-channel/detail/${c.id}`}
            size="sm"
            aria-label={`${t('basics.edit')}: ${c.name}`}
          >
            {t('basics.edit')}
          </Anchor>
          <OnlineLinkButtons channelKey={c.channelKey} compact />
        </Group>
      ),
    },
  ];

  const createPath = actionId === null ? '/web-channel/create' : `/web-channel/create?actionId=${actionId}`;

  return (
    <>
      <PageHeader title={t('webChannel.title')}>
        {hasRight(session, 'webChannel', 'create') && (
          <Button component={Link} to={createPath} leftSection={<IconPlus size={16} />}>
            {t('basics.add')}
          </Button>
        )}
      </PageHeader>
      <ActionsLoadNotice failed={failed} />
      {channels.isPending || pending ? (
        <LoadingState />
      ) : channels.isError ? (
        <Alert color="red" role="alert">
          {t('webChannel.loadListError')}
        </Alert>
      ) : tabs.length === 0 ? (
        <Text c="dimmed">{t('webChannel.noActions')}</Text>
      ) : (
        <ActionTabs label={t('webChannel.byAction')} tabs={tabs} value={tab} onChange={setTab}>
          <DataTable
            label={t('webChannel.title')}
            columns={columns}
            rows={rows}
            getRowId={(c) => c.id}
            onOpen={(c) => navigate(`/web-channel/detail/${c.id}`)}
            emptyText={t('webChannel.empty')}
          />
        </ActionTabs>
      )}
    </>
  );
}
