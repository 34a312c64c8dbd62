import { hasRight } from '@accredo/domain';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DeviceSessions } from '../modules/device/device-sessions.service.js';
import { TokenService } from '../modules/session/token.service.js';
import { ACCESS_KEY, type Access } from './access.js';
import { AppError } from './app-error.js';
import type { AdminAuth, AppRequest } from './request.js';

function headerToken(req: Pick<AppRequest, 'headers'>, name: string): string | undefined {
  const value = req.headers[name];
  const raw = Array.isArray(value) ? value[0] : value;
  return raw?.replace(/^Bearer\s+/i, '').trim() || undefined;
}

/**
 * An admin route's access (its `@Right`, `@AnyRight`, `@AdminSession` or `@ManageUserOnly` marking)
 * for the request's `authorization` token: the session from TokenService's in-process cache (an
 * inactive or unverified user's token is revoked: TOKEN_INVALID), then the right. Shared by the
 * guard and the lean admin routes (modules/session/lean-admin.ts), so both answer alike.
 */
export async function adminAccess(
  tokens: TokenService,
  req: Pick<AppRequest, 'headers'>,
  access: Extract<Access, { kind: 'admin' }>,
): Promise<AdminAuth> {
  const rawToken = headerToken(req, 'authorization');
  const { token, user } = await tokens.resolveAdmin(rawToken);
  // Only a manageuser works in a subject other than their own (the switcher of spec §2).
  const subjectId = user.manageuser ? (token.subjectId ?? user.subjectId) : user.subjectId;
  if (access.manageuser && !user.manageuser) throw new AppError('FORBIDDEN');
  if (access.right && !hasRight(user, access.right[0], access.right[1])) throw new AppError('FORBIDDEN');
  if (access.anyRight && !access.anyRight.some(([page, action]) => hasRight(user, page, action)))
    throw new AppError('FORBIDDEN');
  return { kind: 'admin', user, token, rawToken: rawToken!, subjectId };
}

/**
 * The one guard of every route: resolves the session named by the route's access marking and
 * enforces the right of spec §6. Admin and manage sessions come from TokenService's in-process
 * cache (no statement per request; see SessionCache for what invalidates it). A route with no
 * marking is refused (and fails the route test).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly devices: DeviceSessions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!access) throw new AppError('FORBIDDEN');
    if (access.kind === 'public') return true;
    const req = context.switchToHttp().getRequest<AppRequest>();

    if (access.kind === 'device') {
      req.auth = await this.devices.resolve(headerToken(req, 'authorization'));
      return true;
    }

    if (access.kind === 'manage') {
      const rawToken = headerToken(req, 'authorization-manage');
      const { token, operator } = await this.tokens.resolveManage(rawToken);
      req.auth = { kind: 'manage', operator, token, rawToken: rawToken! };
      return true;
    }

    req.auth = await adminAccess(this.tokens, req, access);
    return true;
  }
}
