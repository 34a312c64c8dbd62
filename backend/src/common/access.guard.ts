import { hasRight } from '@accredo/domain';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AdminUserEntity } from '../modules/admin-user/admin-user.entity.js';
import { DeviceSessions } from '../modules/device/device-sessions.service.js';
import { OperatorEntity } from '../modules/manage/operator.entity.js';
import { TokenService } from '../modules/session/token.service.js';
import { ACCESS_KEY, type Access } from './access.js';
import { AppError } from './app-error.js';
import type { AppRequest } from './request.js';

function headerToken(req: AppRequest, name: string): string | undefined {
  const value = req.headers[name];
  const raw = Array.isArray(value) ? value[0] : value;
  return raw?.replace(/^Bearer\s+/i, '').trim() || undefined;
}

/**
 * The one guard of every route: resolves the session named by the route's access marking and
 * enforces the right of spec §6. A route with no marking is refused (and fails the route test).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly devices: DeviceSessions,
    @InjectRepository(AdminUserEntity) private readonly users: Repository<AdminUserEntity>,
    @InjectRepository(OperatorEntity) private readonly operators: Repository<OperatorEntity>,
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
      const token = await this.tokens.resolve('manage', rawToken);
      const operator = await this.operators.findOneBy({ id: token.principalId });
      if (!operator) throw new AppError('TOKEN_INVALID');
      req.auth = { kind: 'manage', operator, token, rawToken: rawToken! };
      return true;
    }

    const rawToken = headerToken(req, 'authorization');
    const token = await this.tokens.resolve('admin', rawToken);
    const user = await this.users.findOneBy({ id: token.principalId });
    if (!user?.active || !user.verified) {
      await this.tokens.revoke(token.id);
      throw new AppError('TOKEN_INVALID');
    }
    // Only a manageuser works in a subject other than their own (the switcher of spec §2).
    const subjectId = user.manageuser ? (token.subjectId ?? user.subjectId) : user.subjectId;
    req.auth = { kind: 'admin', user, token, rawToken: rawToken!, subjectId };
    if (access.manageuser && !user.manageuser) throw new AppError('FORBIDDEN');
    if (access.right && !hasRight(user, access.right[0], access.right[1])) throw new AppError('FORBIDDEN');
    if (access.anyRight && !access.anyRight.some(([page, action]) => hasRight(user, page, action)))
      throw new AppError('FORBIDDEN');
    return true;
  }
}
