import type { WebChannelSummary } from '@accredo/domain';
import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { manageApi } from '../../api/manage';
import { DataTable, type DataTableColumn } from '../../components/data-table';

export const onlineLink = (channelKey: string) => `/app/online/${encodeURIComponent(channelKey)}`;

/** The authorization of a channel as the manage screen shows it (spec §2): password, login or a dash. */
export function authorizationLabel(type: WebChannelSummary['authorizationType']): string {
  if (type === 1) return 'manage.authPassword';
  if (type === 2) return 'manage.authLogin';
  return 'basics.dash';
}

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
      render: (c) => {
        const url = `${window.location.origin}${onlineLink(c.channelKey)}`;
        return (
          <Group gap="xs" wrap="nowrap">
            <Tooltip label={t('manage.openLink')}>
              <ActionIcon
                component="a"
                href={onlineLink(c.channelKey)}
                target="_blank"
                rel="noopener noreferrer"
                variant="subtle"
                aria-label={`${t('manage.openLink')}: ${c.channelKey}`}
              >
                <IconExternalLink size={16} />
              </ActionIcon>
            </Tooltip>
            <CopyButton value={url}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t('basics.copied') : t('manage.copyLink')}>
                  <ActionIcon
                    variant="subtle"
                    color={copied ? 'teal' : undefined}
                    onClick={copy}
                    aria-label={`${t('manage.copyLink')}: ${c.channelKey}`}
                  >
                    {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
            <Text size="xs" c="dimmed">
              {onlineLink(c.channelKey)}
            </Text>
          </Group>
        );
      },
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
