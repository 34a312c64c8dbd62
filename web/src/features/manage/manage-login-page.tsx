import { type LoginInput, loginSchema } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { manageApi, setManageToken } from '../../api/manage';
import { PublicCard } from '../../app/layouts/public-layout';
import { MANAGE_SESSION_KEY } from '../../app/manage-session';
import { notifyError } from '../../app/notify';
import { applyFieldErrors, useFieldError } from '../../components/form';
import { WorkingButton } from '../../components/working-button';

/** `/manage/login`: the provider operators' own login (spec §2). */
export function ManageLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { login: '', password: '' } });
  const fieldError = useFieldError(form.formState.errors);
  const login = useMutation({
    mutationFn: manageApi.login,
    onSuccess: (session) => {
      setManageToken(session.token);
      queryClient.setQueryData(MANAGE_SESSION_KEY, session);
      navigate('/manage', { replace: true });
    },
    onError: (error) => {
      applyFieldErrors(error, form.setError);
      const key =
        error instanceof ApiError && error.code === 'TOO_MANY_REQUESTS'
          ? 'errors.TOO_MANY_REQUESTS'
          : error instanceof ApiError && error.status === 401
            ? 'manage.badLogin'
            : 'basics.unexpectedError';
      setFailure(key);
      notifyError(key);
    },
  });

  return (
    <PublicCard title={t('manage.title')}>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => {
          setFailure(null);
          login.mutate(values);
        })}
      >
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
          <WorkingButton type="submit" busy={login.isPending} mt="xs">
            {t('basics.login')}
          </WorkingButton>
        </Stack>
      </form>
    </PublicCard>
  );
}
