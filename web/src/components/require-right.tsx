import { hasAnyRight, hasRight, type RightPage, type RightPair } from '@accredo/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminSession } from '../app/admin-session';
import { ErrorPage } from '../features/not-found/error-page';

/** Route mode of the access check (spec §6): without any of the rights the error page is shown. */
export function RequireRight({ rights, children }: { rights: RightPair[]; children: ReactNode }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  if (!hasAnyRight(session, rights)) return <ErrorPage code={403} message={t('errors.FORBIDDEN')} />;
  return <>{children}</>;
}

/** Whether an existing record is for looking only: the user lacks the page's update right (spec §6). */
export function useViewOnly(page: RightPage, existing: boolean): boolean {
  const session = useAdminSession();
  return existing && !hasRight(session, page, 'update');
}
