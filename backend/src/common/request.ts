import type { FastifyRequest } from 'fastify';
import type { AdminUserEntity } from '../modules/admin-user/admin-user.entity.js';
import type { OperatorEntity } from '../modules/manage/operator.entity.js';
import type { SessionTokenEntity } from '../modules/session/session-token.entity.js';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

export type AdminAuth = {
  kind: 'admin';
  user: AdminUserEntity;
  token: SessionTokenEntity;
  rawToken: string;
  subjectId: number;
};
export type ManageAuth = { kind: 'manage'; operator: OperatorEntity; token: SessionTokenEntity; rawToken: string };

/** A paired gate device (issue 11): the cached device row of its token. */
export type DeviceAuth = { kind: 'device'; deviceId: number; subjectId: number; tokenHash: string };

export type AppRequest = FastifyRequest & { auth?: AdminAuth | ManageAuth | DeviceAuth; requestId?: string };

/** The signed-in admin of the request (routes marked @Right, @AdminSession or @ManageUserOnly). */
export const CurrentAdmin = createParamDecorator((_: unknown, ctx: ExecutionContext): AdminAuth => {
  const auth = ctx.switchToHttp().getRequest<AppRequest>().auth;
  if (auth?.kind !== 'admin') throw new Error('CurrentAdmin used on a route without an admin session');
  return auth;
});

/** The signed-in operator of the manage module. */
export const CurrentOperator = createParamDecorator((_: unknown, ctx: ExecutionContext): ManageAuth => {
  const auth = ctx.switchToHttp().getRequest<AppRequest>().auth;
  if (auth?.kind !== 'manage') throw new Error('CurrentOperator used on a route without a manage session');
  return auth;
});

/** The caller's address, for rate limits. */
export const ClientIp = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  return ctx.switchToHttp().getRequest<AppRequest>().ip ?? 'unknown';
});

/** The paired device of a device-protocol request (routes marked @DeviceSession). */
export const CurrentDevice = createParamDecorator((_: unknown, ctx: ExecutionContext): DeviceAuth => {
  const auth = ctx.switchToHttp().getRequest<AppRequest>().auth;
  if (auth?.kind !== 'device') throw new Error('CurrentDevice used on a route without a device session');
  return auth;
});
