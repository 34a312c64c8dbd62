import { ActionIcon, Button, CopyButton, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { onlineLink } from '../api/web-channel';

/** The whole address of a channel's public page, for copying. */
export const onlineUrl = (channelKey: string) => `${window.location.origin}${onlineLink(channelKey)}`;

/**
 * 'Open' and 'copy link' for a channel's public registration page (spec §2: the web channel
 * detail, and the web channel lists of the admin and the manage module). `compact` shows icons
 * with tooltips (table rows), otherwise labelled buttons.
 */
export function OnlineLinkButtons({ channelKey, compact = false }: { channelKey: string; compact?: boolean }) {
  const { t } = useTranslation();
  const href = onlineLink(channelKey);
  const openLabel = `${t('webChannel.openLink')}: ${channelKey}`;
  const copyLabel = `${t('webChannel.copyLink')}: ${channelKey}`;
  if (compact)
    return (
      <Group gap={4} wrap="nowrap">
        <Tooltip label={t('webChannel.openLink')}>
          <ActionIcon
            component="a"
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            variant="subtle"
            aria-label={openLabel}
          >
            <IconExternalLink size={16} />
          </ActionIcon>
        </Tooltip>
        <CopyButton value={onlineUrl(channelKey)}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('basics.copied') : t('webChannel.copyLink')}>
              <ActionIcon variant="subtle" color={copied ? 'teal' : undefined} onClick={copy} aria-label={copyLabel}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    );
  return (
    <Group gap="sm" wrap="nowrap">
      <CopyButton value={onlineUrl(channelKey)}>
        {({ copied, copy }) => (
          <Button
            variant="default"
            color={copied ? 'teal' : undefined}
            leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            onClick={copy}
          >
            {copied ? t('basics.copied') : t('webChannel.copyLink')}
          </Button>
        )}
      </CopyButton>
      <Button
        component="a"
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        variant="default"
        leftSection={<IconExternalLink size={16} />}
      >
        {t('webChannel.openLink')}
      </Button>
    </Group>
  );
}
