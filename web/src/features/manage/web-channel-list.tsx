import type { WebChannelSummary } from '@accredo/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { manageApi } from '../../api/manage';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { OnlineLinkButtons } from '../../components/online-link-buttons';
import { authorizationLabel } from '../web-channel/authorization';

/** The subject's web channels with their public links (spec §2 Manage module screens). */
export function WebChannelList({ subjectId }: { subjectId: number }) {
  const { t } = useTranslation();
  const channels = useQuery({
    queryKey: ['manage', 'web-channel', subjectId],
    queryFn: () => manageApi.webChannels(subjectId),
  });
  const columns: DataTableColumn<WebChannelSummary>[] = [
    { key: 'name', header: t('basics.name'), render: (c) => c.name },
    { key: 'channelKey', header: t('manage.channelKey'), render: (c) => c.channelKey },
    {
      key: 'authorization',
      header: t('manage.authorization'),
      render: (c) => t(authorizationLabel(c.authorizationType)),
    },
    {
      key: 'options',
      header: t('basics.options'),
      render: (c) => <OnlineLinkButtons channelKey={c.channelKey} compact />,
    },
  ];
  return (
    <DataTable
      label={t('manage.tabWebChannels')}
      columns={columns}
      rows={channels.data}
      getRowId={(c) => c.id}
      loading={channels.isPending}
      error={channels.isError ? t('manage.webChannelsLoadError') : undefined}
    />
  );
}
