import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { manageApi, setManageToken } from '../../api/manage';
import { MANAGE_SESSION_KEY } from '../../app/manage-session';
import { LoginForm } from '../auth/login-form';

/** The message key of a failed operator login: one message for any wrong login (spec §8). */
function manageLoginErrorKey(error: unknown): string {
  if (!(error instanceof ApiError)) return 'basics.unexpectedError';
  if (error.code === 'TOO_MANY_REQUESTS') return 'errors.TOO_MANY_REQUESTS';
  return error.status === 401 ? 'manage.badLogin' : 'basics.unexpectedError';
}

/** `/manage/login`: the provider operators' own login (spec §2). */
export function ManageLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <LoginForm
      title={t('manage.title')}
      login={manageApi.login}
      onSession={(session) => {
        setManageToken(session.token);
        queryClient.setQueryData(MANAGE_SESSION_KEY, session);
        navigate('/manage', { replace: true });
      }}
      errorKey={manageLoginErrorKey}
    />
  );
}
