import { effectiveLanguage, type Language, type OnlineChannelInfo } from '@accredo/domain';
import { Button, Group, Image, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { ApiError } from '../../api/client';
import { getOnlineToken, onlineApi, setOnlineToken } from '../../api/online';
import { applyLanguage, browserLanguage, rememberedLanguage } from '../../app/i18n';
import { notifyError, notifySuccess } from '../../app/notify';
import { LoadingState } from '../../components/loading-state';
import { WorkingButton } from '../../components/working-button';
import { LanguageSwitcher } from '../layout/language-switcher';
import { OnlineLogin } from './online-login';
import { channelText } from './online-form-values';
import { OnlineRegistration } from './online-registration';
import { ChannelUnavailable, isAuthLost, ONLINE_KEY, OnlineCard, useDocumentTitle } from './online-shared';

/**
 * The languages of the channel's page (spec §1): its own languages when multi-language applies,
 * otherwise Czech only. A visitor starts in the language they chose before, else in their
 * browser's language when the channel offers it, else in Czech.
 */
function useChannelLanguages(info: OnlineChannelInfo | undefined): Language[] {
  const languages: Language[] = info?.multiLanguage && info.languages.length > 0 ? info.languages : ['cs'];
  const key = languages.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-applied when the channel's languages change
  useEffect(() => {
    if (!info) return;
    const wanted = effectiveLanguage(rememberedLanguage() ?? browserLanguage(languages) ?? 'cs', info.multiLanguage);
    applyLanguage(languages.includes(wanted) ? wanted : 'cs', false);
  }, [info, key]);
  return languages;
}

/**
 * `/app/online/:channelKey` (spec §2 Public online registration, §4 Online flow): loads the
 * channel; a closed, inactive or missing channel shows its message instead of the form; with
 * authorization the visitor signs in first (the token is kept per channel in the browser); then
 * the form, and after a registration the thank-you view.
 */
export function OnlinePage() {
  const { channelKey = '' } = useParams();
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const info = useQuery({
    queryKey: [...ONLINE_KEY(channelKey), 'info'],
    queryFn: () => onlineApi.info(channelKey),
    staleTime: 60_000,
  });
  const languages = useChannelLanguages(info.data);
  const [token, setToken] = useState(() => getOnlineToken(channelKey));
  const [notice, setNotice] = useState<string | null>(null);
  const [closedBy, setClosedBy] = useState<ApiError | null>(null);
  const [loggingOut, setLoggingOut] = useState(false);
  const [thanked, setThanked] = useState(false);
  const heading = info.data ? channelText(info.data.actionName, i18n.language) || info.data.name : '';
  useDocumentTitle(
    info.data && !closedBy
      ? `${t(thanked ? 'online.thankYouTitle' : 'online.pageTitle')} · ${heading}`
      : info.isPending
        ? t('online.pageTitle')
        : t('online.unavailableTitle'),
  );

  /** Spec §8: the token is removed and the channel starts again from the sign-in. */
  const dropToken = (key: string | null) => {
    setOnlineToken(channelKey, null);
    queryClient.removeQueries({ queryKey: [...ONLINE_KEY(channelKey), 'data'] });
    setNotice(key);
    setToken(null);
    setThanked(false);
  };

  const logout = async () => {
    setLoggingOut(true);
    try {
      await onlineApi.logout(channelKey);
      notifySuccess('online.logoutSuccess');
      dropToken(null);
    } catch (error) {
      if (isAuthLost(error)) dropToken(null);
      else notifyError('online.logoutError');
    } finally {
      setLoggingOut(false);
    }
  };

  if (info.isPending) return <LoadingState />;
  if (closedBy) return <ChannelUnavailable error={closedBy} />;
  if (!info.data) return <ChannelUnavailable error={info.error} />;

  const channel = info.data;
  const needsAuth = channel.withAuthorization && channel.authorizationType !== null;
  const signedIn = !needsAuth || token !== null;

  return (
    <Stack gap="md">
      <Paper withBorder p={{ base: 'sm', sm: 'md' }} radius="md">
        <Group justify="space-between" align="center" wrap="wrap" gap="sm">
          <Group gap="md" wrap="nowrap">
            {channel.logo && <Image src={channel.logo} alt={t('online.logo')} h={56} w="auto" fit="contain" />}
            <Title order={1} size="h2">
              {heading}
            </Title>
          </Group>
          <Group gap="sm" align="flex-end">
            {languages.length > 1 && <LanguageSwitcher languages={languages} />}
            {needsAuth && token && (
              <WorkingButton
                variant="default"
                busy={loggingOut}
                leftSection={<IconLogout size={16} />}
                onClick={() => void logout()}
              >
                {t('online.logout')}
              </WorkingButton>
            )}
          </Group>
        </Group>
      </Paper>
      {signedIn ? (
        <OnlineRegistration
          key={token ?? 'public'}
          channelKey={channelKey}
          withAuthorization={needsAuth}
          onAuthLost={(error) =>
            dropToken(error.code === 'USED_WEB_CHANNEL_CODE' ? 'errors.USED_WEB_CHANNEL_CODE' : 'online.signInAgain')
          }
          onClosed={setClosedBy}
          onThanked={setThanked}
        />
      ) : (
        <OnlineLogin
          channel={channel}
          channelKey={channelKey}
          notice={notice}
          onSignedIn={(next) => {
            setOnlineToken(channelKey, next);
            setNotice(null);
            setToken(next);
          }}
          onClosed={setClosedBy}
        />
      )}
    </Stack>
  );
}

/** `/app/online`: the visitor types the channel code from an invitation. */
export function ChannelCodeEntry() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  useDocumentTitle(t('online.enterCodeTitle'));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('basics.requireField'));
      return;
    }
    navigate(`/app/online/${encodeURIComponent(code.trim())}`);
  };
  return (
    <OnlineCard>
      <form noValidate onSubmit={submit}>
        <Stack gap="sm" maw={420} mx="auto">
          <Title order={1} size="h3">
            {t('online.enterCodeTitle')}
          </Title>
          <Text size="sm">{t('online.enterCodeText')}</Text>
          <TextInput
            label={t('online.channelCode')}
            required
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={error}
          />
          <Button type="submit">{t('online.openForm')}</Button>
        </Stack>
      </form>
    </OnlineCard>
  );
}
