import type { OnlineChannelInfo, OnlineLoginInput } from '@accredo/domain';
import { Alert, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { onlineApi } from '../../api/online';
import { lazyZodResolver } from '../../app/lazy-resolver';
import { sanitizeHtml } from '../../components/sanitize-html';
import { useFieldError } from '../../components/form';
import { WorkingButton } from '../../components/working-button';
import { channelText, hasHtml } from './online-form-values';
import { isChannelStateError, OnlineCard } from './online-shared';

/** Sign-in failures with their own message (spec §8 Online login errors); every other one is authError. */
const LOGIN_ERRORS: Record<string, string> = {
  USER_DOESNT_EXIST: 'errors.USER_DOESNT_EXIST',
  USED_WEB_CHANNEL_CODE: 'errors.USED_WEB_CHANNEL_CODE',
  INVALID_WEB_CHANNEL_CODE: 'errors.INVALID_WEB_CHANNEL_CODE',
  AUTH_INVALID: 'errors.AUTH_INVALID',
  TOO_MANY_REQUESTS: 'errors.TOO_MANY_REQUESTS',
};

export function loginErrorKey(error: unknown): string {
  if (!(error instanceof ApiError) || error.status === 0) return 'online.defaultLoginError';
  return LOGIN_ERRORS[error.code] ?? 'online.authError';
}

interface LoginValues {
  channelKey: string;
  login: string;
  password: string;
  code: string;
}

/**
 * The authorization step (spec §2, §5): by password only a password, by code only a code, for
 * login users a login and a password; the channel's authorization text above.
 */
export function OnlineLogin({
  channel,
  channelKey,
  notice,
  onSignedIn,
  onClosed,
}: {
  channel: OnlineChannelInfo;
  channelKey: string;
  /** why the visitor is asked again (an ended sign-in, a used-up code) */
  notice: string | null;
  onSignedIn: (token: string) => void;
  onClosed: (error: ApiError) => void;
}) {
  const { t, i18n } = useTranslation();
  const type = channel.authorizationType ?? 2;
  const [failure, setFailure] = useState<string | null>(null);
  // zod and the schema come with the first validation, not with the page (issue 15)
  const resolver = useMemo(
    () =>
      lazyZodResolver<LoginValues, OnlineLoginInput>(async () =>
        (await import('./online-form-schema')).onlineLoginSchemaFor(type),
      ),
    [type],
  );
  const form = useForm<LoginValues, unknown, OnlineLoginInput>({
    resolver,
    defaultValues: { channelKey, login: '', password: '', code: '' },
  });
  const fieldError = useFieldError(form.formState.errors);
  const text = channelText(channel.authorizationText, i18n.language);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const body: OnlineLoginInput = { channelKey };
    if (type === 1) body.password = values.password;
    else if (type === 3) body.code = values.code;
    else Object.assign(body, { login: values.login, password: values.password });
    try {
      const answer = await onlineApi.login(body);
      onSignedIn(answer.token);
    } catch (error) {
      if (isChannelStateError(error)) onClosed(error);
      else setFailure(loginErrorKey(error));
    }
  });

  return (
    <OnlineCard>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm" maw={420} mx="auto">
          <Title order={2} size="h3">
            {t('online.signInTitle')}
          </Title>
          {hasHtml(text) ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the channel's own text, sanitised
            <div dangerouslySetInnerHTML={{ __html: sanitizeHtml(text) }} />
          ) : null}
          {notice && (
            <Alert color="yellow" role="status">
              {t(notice)}
            </Alert>
          )}
          {type === 2 && (
            <TextInput
              label={t('online.login')}
              required
              autoComplete="username"
              {...form.register('login')}
              error={fieldError('login')}
            />
          )}
          {type === 3 ? (
            <TextInput
              label={t('online.code')}
              required
              autoComplete="off"
              {...form.register('code')}
              error={fieldError('code')}
            />
          ) : (
            <PasswordInput
              label={t('online.password')}
              required
              autoComplete="current-password"
              {...form.register('password')}
              error={fieldError('password')}
            />
          )}
          {failure && (
            <Alert color="red" role="alert">
              {t(failure)}
            </Alert>
          )}
          <WorkingButton type="submit" busy={form.formState.isSubmitting}>
            {t('online.signIn')}
          </WorkingButton>
        </Stack>
      </form>
    </OnlineCard>
  );
}
