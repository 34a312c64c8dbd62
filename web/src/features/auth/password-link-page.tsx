import { renewPasswordSchema, verifyAccountSchema } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { adminApi } from '../../api/admin';
import { isApiError } from '../../api/client';
import { FullPageLoader } from '../../app/admin-session';
import { PublicCard } from '../../app/layouts/public-layout';
import { notifyError, notifySuccess } from '../../app/notify';
import { applyFieldErrors, useFieldError } from '../../components/form';
import { WorkingButton } from '../../components/working-button';

interface PasswordValues {
  email: string;
  password: string;
  confirmPassword: string;
  link: string;
}

interface PasswordLinkPageProps {
  mode: 'renew' | 'verify';
}

const MODES = {
  renew: {
    title: 'basics.setNewPasswordTitle',
    submit: 'basics.setPassword',
    success: 'basics.passwordSuccessfullyChanged',
    schema: renewPasswordSchema,
  },
  verify: {
    title: 'basics.verifyTitle',
    submit: 'basics.confirmAccount',
    success: 'basics.accountSuccessfullyConfirmed',
    schema: verifyAccountSchema,
  },
} as const;

/** The link's key for the server: passwordLink for a renewal, confirmLink for an account confirmation. */
function toPayload(mode: PasswordLinkPageProps['mode'], values: PasswordValues) {
  const { link, ...rest } = values;
  return mode === 'renew' ? { ...rest, passwordLink: link } : { ...rest, confirmLink: link };
}

/** The reaction to a link that cannot be used (spec §8), then back to login. */
export function linkErrorKey(mode: PasswordLinkPageProps['mode'], error: unknown): string {
  if (mode === 'verify' && isApiError(error, 'ADMIN_USER_ALREADY_VERIFIED')) return 'basics.adminUserAlreadyVerified';
  return 'basics.enteredLinkNotExist';
}

/**
 * /forgot-password/:link and /verify/:link (spec §2): the link is checked on load, then the
 * e-mail, a password and its confirmation are sent with it.
 */
export function PasswordLinkPage({ mode }: PasswordLinkPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const link = useParams().link ?? '';
  const config = MODES[mode];

  const check = useQuery({
    queryKey: ['public', mode, link],
    queryFn: () => (mode === 'renew' ? adminApi.passLinkAuthorize(link) : adminApi.verifyAuthorize(link)),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const form = useForm<PasswordValues>({
    resolver: async (values, context, options) => {
      const result = await zodResolver(config.schema)(toPayload(mode, values) as never, context, options as never);
      return result.errors && Object.keys(result.errors).length > 0
        ? { values: {}, errors: result.errors as never }
        : { values, errors: {} };
    },
    defaultValues: { email: '', password: '', confirmPassword: '', link },
  });
  const fieldError = useFieldError(form.formState.errors);

  const { reset } = form;
  const email = check.data?.email;
  useEffect(() => {
    if (email !== undefined) reset({ email, password: '', confirmPassword: '', link });
  }, [email, link, reset]);

  const checkError = check.error;
  useEffect(() => {
    if (!checkError) return;
    notifyError(linkErrorKey(mode, checkError));
    navigate('/login', { replace: true });
  }, [checkError, mode, navigate]);

  const save = useMutation({
    mutationFn: (values: PasswordValues) =>
      mode === 'renew'
        ? adminApi.renewPassword({ ...toPayload(mode, values), passwordLink: link })
        : adminApi.verifyAccount({ ...toPayload(mode, values), confirmLink: link }),
    onSuccess: () => {
      notifySuccess(config.success);
      navigate('/login', { replace: true });
    },
    onError: (error) => {
      if (isApiError(error, 'LINK_INVALID') || isApiError(error, 'ADMIN_USER_ALREADY_VERIFIED')) {
        notifyError(linkErrorKey(mode, error));
        navigate('/login', { replace: true });
      } else if (!applyFieldErrors(error, form.setError)) {
        notifyError('basics.unexpectedError');
      }
    },
  });

  if (!check.data) return <FullPageLoader />;

  return (
    <PublicCard title={t(config.title)}>
      <form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <Stack gap="sm">
          <TextInput
            label={t('basics.email')}
            type="email"
            autoComplete="username"
            required
            {...form.register('email')}
            error={fieldError('email')}
          />
          <PasswordInput
            label={t('basics.newPassword')}
            autoComplete="new-password"
            required
            autoFocus
            {...form.register('password')}
            error={fieldError('password')}
          />
          <PasswordInput
            label={t('basics.confirmPassword')}
            autoComplete="new-password"
            required
            {...form.register('confirmPassword')}
            error={fieldError('confirmPassword')}
          />
          <WorkingButton type="submit" busy={save.isPending} mt="xs">
            {t(config.submit)}
          </WorkingButton>
        </Stack>
      </form>
    </PublicCard>
  );
}
