import type { ManageSession } from '@accredo/domain';
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect } from 'react';
import { Navigate } from 'react-router';
import { getManageToken, manageApi, setManageToken } from '../api/manage';
import { FullPageLoader } from './admin-session';

export const MANAGE_SESSION_KEY = ['manage', 'session'] as const;

const ManageSessionContext = createContext<ManageSession | null>(null);

export function useManageSession(): ManageSession {
  const session = useContext(ManageSessionContext);
  if (!session) throw new Error('useManageSession outside RequireManageSession');
  return session;
}

/** The manage module's own session (spec §2): checked with POST authorize, else /manage/login. */
export function RequireManageSession({ children }: { children: ReactNode }) {
  const token = getManageToken();
  const query = useQuery({ queryKey: MANAGE_SESSION_KEY, queryFn: manageApi.authorize, enabled: Boolean(token) });
  const failed = query.isError;
  useEffect(() => {
    if (failed) setManageToken(null);
  }, [failed]);
  if (!token || failed) return <Navigate to="/manage/login" replace />;
  if (!query.data) return <FullPageLoader />;
  return <ManageSessionContext.Provider value={query.data}>{children}</ManageSessionContext.Provider>;
}
