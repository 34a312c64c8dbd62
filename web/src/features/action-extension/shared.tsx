import { ERRORS, EXTENSION_MEAL, EXTENSION_PARKING, type ExtensionType, LANGUAGES } from '@accredo/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useAdminSession } from '../../app/admin-session';
import { notifyError } from '../../app/notify';
import { ErrorPage } from '../not-found/error-page';

/** The address part of each extension type (spec §2: /action-extension/meal, /parking). */
export const EXTENSION_SLUGS = { meal: EXTENSION_MEAL, parking: EXTENSION_PARKING } as const;
export type ExtensionSlug = keyof typeof EXTENSION_SLUGS;

export const slugOf = (type: ExtensionType): ExtensionSlug => (type === EXTENSION_MEAL ? 'meal' : 'parking');

export function typeOfSlug(slug: string | undefined): ExtensionType | null {
  return slug === 'meal' || slug === 'parking' ? EXTENSION_SLUGS[slug] : null;
}

/** The extension type the route names (`:type` or a fixed slug); null for an unknown one. */
export function useRouteExtensionType(fixed?: ExtensionSlug): ExtensionType | null {
  const params = useParams();
  return typeOfSlug(fixed ?? params.type);
}

/** Whether the subject has the extension switched on (spec §6 extension gating). */
export function useSubjectHasExtension(type: ExtensionType | null): boolean {
  const session = useAdminSession();
  return type !== null && session.subject.extensions.includes(type);
}

/**
 * Extension gating in route mode (spec §6): an unknown type or one the subject does not have shows
 * the error page instead of the screen.
 */
export function RequireExtension({ fixed, children }: { fixed?: ExtensionSlug; children: ReactNode }) {
  const { t } = useTranslation();
  const type = useRouteExtensionType(fixed);
  const allowed = useSubjectHasExtension(type);
  if (type === null) return <ErrorPage />;
  if (!allowed) return <ErrorPage code={403} message={t('extension.notEnabled')} />;
  return <>{children}</>;
}

/** Query keys of the extension screens, all under the admin prefix (cleared at logout). */
export const EXTENSION_KEY = ['admin', 'action-extension'] as const;
export const extensionKey = (type: ExtensionType, ...rest: (string | number)[]) => [...EXTENSION_KEY, type, ...rest];

/** The extension errors with their own toast (spec §8 Extensions); the others get the fallback. */
const OWN_TOAST = [
  'ACTION_EXTENSION_DOESNT_EXIST',
  'ACTION_DOESNT_HAVE_EXTENSION',
  'EXTENSION_CAPACITY_FULL',
  'EXTENSION_MEAL_USED',
  'EXTENSION_ITEM_INVALID',
] as const;

/** The toast of a failed extension call: the code's own message, or the fallback key. */
export function extensionErrorKey(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 0) return 'basics.unexpectedError';
  if (error instanceof ApiError && (OWN_TOAST as readonly string[]).includes(error.code))
    return ERRORS[error.code as (typeof OWN_TOAST)[number]].key;
  return fallback;
}

export function notifyExtensionError(error: unknown, fallback: string): void {
  notifyError(extensionErrorKey(error, fallback));
}

/** The languages texts are edited in: all four with multi-language, else cs only (spec §1). */
export function useEditLanguages() {
  const session = useAdminSession();
  return session.subject.multiLanguage ? LANGUAGES : (['cs'] as const);
}
