import type { LoginInput } from '@accredo/domain';
import { Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { dismissNotification, notifyError } from '../../app/notify';
import { PublicCard } from '../../app/layouts/public-layout';
import { lazyZodResolver } from '../../app/lazy-resolver';
import { applyFieldErrors, useFieldError } from '../../components/form';
import { WorkingButton } from '../../components/working-button';

/**
 * The e-mail and password form of a login (the admins' and the provider operators', spec §2):
 * Enter submits; a failure is said once, as a toast (spec §8) that the next attempt, a success or
 * leaving the page takes away; field errors on the fields.
 */
const LOGIN_FAILURE = 'login-failure';

/** zod and the schema come with the first validation, not with the login page (issue 15) */
const loginResolver = lazyZodResolver<LoginInput>(async () => (await import('./login-schema')).loginSchema);

export function LoginForm<S>({
  title,
  login,
  onSession,
  errorKey,
  aside,
}: {
  title: string;
  login: (values: LoginInput) => Promise<S>;
  onSession: (session: S) => void;
  /** the message key of a failed login */
  errorKey: (error: unknown) => string;
  /** shown left of the login button, given the e-mail typed so far (the forgot-password link) */
  aside?: (email: string) => ReactNode;
}) {
  const { t } = useTranslation();
  useEffect(() => () => dismissNotification(LOGIN_FAILURE), []);
  const form = useForm<LoginInput>({ resolver: loginResolver, defaultValues: { login: '', password: '' } });
  const fieldError = useFieldError(form.formState.errors);
  const email = useWatch({ control: form.control, name: 'login' });
  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (session) => {
      dismissNotification(LOGIN_FAILURE);
      onSession(session);
    },
    onError: (error) => {
      applyFieldErrors(error, form.setError);
      notifyError(errorKey(error), undefined, LOGIN_FAILURE);
    },
  });

  const submit = form.handleSubmit((values) => {
    dismissNotification(LOGIN_FAILURE);
    mutation.mutate(values);
  });

  return (
    <PublicCard title={title}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('basics.email')}
            type="email"
            autoComplete="username"
            required
            autoFocus
            {...form.register('login')}
            error={fieldError('login')}
          />
          <PasswordInput
            label={t('basics.password')}
            autoComplete="current-password"
            required
            {...form.register('password')}
            error={fieldError('password')}
          />
          <Group justify={aside ? 'space-between' : 'flex-start'} mt="xs">
            {aside?.(email)}
            <WorkingButton type="submit" busy={mutation.isPending}>
              {t('basics.login')}
            </WorkingButton>
          </Group>
        </Stack>
      </form>
    </PublicCard>
  );
}
