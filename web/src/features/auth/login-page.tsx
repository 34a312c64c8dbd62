import { type LoginInput, loginSchema } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { adminApi, setAdminToken } from '../../api/admin';
import { ApiError } from '../../api/client';
import { ADMIN_SESSION_KEY } from '../../app/admin-session';
import { notifyError } from '../../app/notify';
import { PublicCard } from '../../app/layouts/public-layout';
import { applyFieldErrors, useFieldError } from '../../components/form';
import { WorkingButton } from '../../components/working-button';
import { ForgotPasswordModal } from './forgot-password-modal';

/** The message key of a failed login (spec §8). */
export function loginErrorKey(error: unknown): string {
  if (!(error instanceof ApiError)) return 'basics.unexpectedError';
  switch (error.code) {
    case 'INVALID_LOGIN':
      return 'basics.nonValidLoginData';
    case 'ADMIN_USER_NOT_VERIFIED':
      return 'errors.ADMIN_USER_NOT_VERIFIED';
    case 'TOO_MANY_REQUESTS':
      return 'errors.TOO_MANY_REQUESTS';
    case 'VALIDATION_ERROR':
      return 'errors.VALIDATION_ERROR';
    default:
      return 'basics.unexpectedError';
  }
}

/** Admin login (spec §2): e-mail and password, Enter submits, a forgot-password dialog. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [forgotOpened, forgot] = useDisclosure(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { login: '', password: '' } });
  const fieldError = useFieldError(form.formState.errors);

  const login = useMutation({
    mutationFn: adminApi.login,
    onSuccess: (session) => {
      setAdminToken(session.token);
      queryClient.setQueryData(ADMIN_SESSION_KEY, session);
      navigate('/', { replace: true });
    },
    onError: (error) => {
      applyFieldErrors(error, form.setError);
      const key = loginErrorKey(error);
      setFailure(key);
      notifyError(key);
    },
  });

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    login.mutate(values);
  });

  return (
    <PublicCard title={t('basics.loginTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {failure && (
            <Alert color="red" role="alert">
              {t(failure)}
            </Alert>
          )}
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
          <Group justify="space-between" mt="xs">
            <Anchor component="button" type="button" size="sm" onClick={forgot.open}>
              {t('basics.forgotPassword')}
            </Anchor>
            <WorkingButton type="submit" busy={login.isPending}>
              {t('basics.login')}
            </WorkingButton>
          </Group>
        </Stack>
      </form>
      <ForgotPasswordModal opened={forgotOpened} onClose={forgot.close} defaultEmail={form.watch('login')} />
    </PublicCard>
  );
}
