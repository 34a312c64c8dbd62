import type { Session } from '@accredo/domain';
import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { adminApi, getAdminToken } from '../api/admin';
import { clearAdminSession } from '../api/storage';

export const ADMIN_SESSION_KEY = ['admin', 'session'] as const;

const AdminSessionContext = createContext<Session | null>(null);

/** The signed-in admin's session; only below RequireAdminSession. */
export function useAdminSession(): Session {
  const session = useContext(AdminSessionContext);
  if (!session) throw new Error('useAdminSession outside RequireAdminSession');
  return session;
}

export function AdminSessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <AdminSessionContext.Provider value={session}>{children}</AdminSessionContext.Provider>;
}

export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Center h="100vh" role="status" aria-label={t('basics.loading')}>
      <Loader />
    </Center>
  );
}

/**
 * Checks the stored token (GET authorization) before any admin page. Without a token, or when the
 * check fails, the token is removed and the user goes to /login (spec §8).
 */
export function RequireAdminSession({ children }: { children: ReactNode }) {
  const token = getAdminToken();
  const query = useQuery({ queryKey: ADMIN_SESSION_KEY, queryFn: adminApi.authorization, enabled: Boolean(token) });
  const failed = query.isError;
  useEffect(() => {
    if (failed) clearAdminSession();
  }, [failed]);

  if (!token || failed) return <Navigate to="/login" replace />;
  if (!query.data) return <FullPageLoader />;
  return <AdminSessionProvider session={query.data}>{children}</AdminSessionProvider>;
}
