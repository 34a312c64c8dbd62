import type { RightPair } from '@accredo/domain';
import { SetMetadata } from '@nestjs/common';

/**
 * How a route is reached. Every route declares exactly one; the access guard enforces it and a test
 * walks every registered route and fails on one without (spec §6, ARCHITECTURE Rights).
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'admin'; right?: RightPair; anyRight?: RightPair[]; manageuser?: boolean }
  | { kind: 'manage' }
  | { kind: 'device' };

export const ACCESS_KEY = 'accredo:access';

/** Anyone, no session (login, password links, health). */
export const Public = () => SetMetadata(ACCESS_KEY, { kind: 'public' } satisfies Access);
/** An admin session holding rights[page][action] (superuser and manageuser hold all). */
export const Right = <P extends RightPair>(...pair: P) =>
  SetMetadata(ACCESS_KEY, { kind: 'admin', right: pair } satisfies Access);
/** An admin session holding at least one of these rights (spec §6: lists of pairs, any match). */
export const AnyRight = (...pairs: RightPair[]) =>
  SetMetadata(ACCESS_KEY, { kind: 'admin', anyRight: pairs } satisfies Access);
/** Any signed-in admin (logout, session info, the subject list of the switcher). */
export const AdminSession = () => SetMetadata(ACCESS_KEY, { kind: 'admin' } satisfies Access);
/** Only holders of manageuser (spec §6: switch subjects, verify manually). */
export const ManageUserOnly = () => SetMetadata(ACCESS_KEY, { kind: 'admin', manageuser: true } satisfies Access);
/** A provider operator of the manage module. */
export const OperatorSession = () => SetMetadata(ACCESS_KEY, { kind: 'manage' } satisfies Access);
/** A paired gate device (api/device/v1): its own bearer token, resolved from an in-process cache. */
export const DeviceSession = () => SetMetadata(ACCESS_KEY, { kind: 'device' } satisfies Access);
