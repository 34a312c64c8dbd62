import type { AuthorizationType } from '@accredo/domain';

/** Authorization types of spec §3 with their catalogue labels: 1 password, 2 login users, 3 external codes. */
export const AUTHORIZATION_LABELS: Record<AuthorizationType, string> = {
  1: 'webChannel.authPassword',
  2: 'webChannel.authLogin',
  3: 'webChannel.authCode',
};

/** How a channel's authorization is shown in lists (spec §2): its type, or a dash without one. */
export function authorizationLabel(type: AuthorizationType | null | undefined): string {
  return type ? AUTHORIZATION_LABELS[type] : 'basics.dash';
}
