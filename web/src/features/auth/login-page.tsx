import { Anchor } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { adminApi, setAdminToken } from '../../api/admin';
import { ApiError } from '../../api/client';
import { ADMIN_SESSION_KEY } from '../../app/admin-session';
import { LoginForm } from './login-form';
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

/** The dialog (with its Modal and zod) is loaded when first opened, not with the page (issue 15). */
const ForgotPasswordModal = lazy(async () => ({
  default: (await import('./forgot-password-modal')).ForgotPasswordModal,
}));

/** Admin login (spec §2): e-mail and password, Enter submits, a forgot-password dialog. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [forgotOpened, forgot] = useDisclosure(false);
  const [forgotWanted, setForgotWanted] = useState(false);
  if (forgotOpened && !forgotWanted) setForgotWanted(true);
  return (
    <LoginForm
      title={t('basics.loginTitle')}
      login={adminApi.login}
      onSession={(session) => {
        setAdminToken(session.token);
        queryClient.setQueryData(ADMIN_SESSION_KEY, session);
        navigate('/', { replace: true });
      }}
      errorKey={loginErrorKey}
      aside={(email) => (
        <>
          <Anchor component="button" type="button" size="sm" onClick={forgot.open}>
            {t('basics.forgotPassword')}
          </Anchor>
          {forgotWanted && (
            <Suspense fallback={null}>
              <ForgotPasswordModal opened={forgotOpened} onClose={forgot.close} defaultEmail={email} />
            </Suspense>
          )}
        </>
      )}
    />
  );
}
