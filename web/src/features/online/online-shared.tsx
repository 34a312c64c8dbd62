import { Alert, Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';

/** The channel states that replace the form with their message (spec §4, §8 Online). */
export const CHANNEL_STATE_CODES = [
  'WEB_CHANNEL_NOT_ACTIVE',
  'WEB_CHANNEL_NOT_ACTIVE_YET',
  'WEB_CHANNEL_IS_CLOSED',
  'WEB_CHANNEL_DOESNT_EXIST',
] as const;

export const isChannelStateError = (error: unknown): error is ApiError =>
  error instanceof ApiError && (CHANNEL_STATE_CODES as readonly string[]).includes(error.code);

/** Answers after which the online token is dropped and the visitor signs in again (spec §8 Online). */
const AUTH_LOST = ['AUTH_INVALID', 'TOKEN_EXPIRED', 'TOKEN_INVALID', 'USED_WEB_CHANNEL_CODE'];
export const isAuthLost = (error: unknown): error is ApiError =>
  error instanceof ApiError && (error.status === 401 || AUTH_LOST.includes(error.code));

/** The tab's title names the page (issue 15); the route's title comes back when the page goes. */
export { useDocumentTitle } from '../../app/document-title';

export const ONLINE_KEY = (channelKey: string) => ['online', channelKey] as const;

/** The message shown instead of the form (spec §8 Online: channel codes; anything else 'no data'). */
export function ChannelUnavailable({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const message = isChannelStateError(error) ? t(`errors.${error.code}`) : t('online.noData');
  return (
    <OnlineCard>
      <Alert
        color={isChannelStateError(error) ? 'yellow' : 'red'}
        role="alert"
        title={
          // the page's heading when there is no form to head (axe's page-has-heading-one)
          <Title order={1} fz="inherit" fw="inherit" lh="inherit" c="inherit">
            {t('online.unavailableTitle')}
          </Title>
        }
      >
        {message}
      </Alert>
    </OnlineCard>
  );
}

/** A card of the public page. */
export function OnlineCard({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'xl' }} radius="md">
      {children}
    </Paper>
  );
}
