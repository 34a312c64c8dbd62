import type { INestApplicationContext } from '@nestjs/common';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { DataSource } from 'typeorm';
import { ACCESS_KEY, type Access } from '../../common/access.js';
import { adminAccess } from '../../common/access.guard.js';
import { type LeanHandler, takeOverRoute } from '../../common/lean-route.js';
import type { AdminAuth } from '../../common/request.js';
import { AccreditationController } from '../accreditation/accreditation.controller.js';
import { CheckByCode } from '../accreditation/check-by-code.js';
import { SessionController } from './session.controller.js';
import { SessionService } from './session.service.js';
import { TokenService } from './token.service.js';

type AdminAccess = Extract<Access, { kind: 'admin' }>;

interface LeanAdminRoute {
  method: 'GET';
  url: string;
  /** the Nest handler whose access marking (`@Right`, `@AdminSession` …) the lean route enforces */
  marked: () => object;
  answer: (app: INestApplicationContext) => (auth: AdminAuth, req: FastifyRequest) => Promise<unknown>;
}

/**
 * The signed-in admin calls that take the lean path (issue 16 "a lean request path"): a cheap one
 * every page makes (GET authorization) and the check by code of the badge check page, read by
 * prepared statements on the driver (CheckByCode).
 */
export const LEAN_ADMIN_ROUTES: LeanAdminRoute[] = [
  {
    method: 'GET',
    url: '/api/admin/v1/authorization',
    marked: () => SessionController.prototype.authorization,
    answer: (app) => {
      const sessions = app.get(SessionService, { strict: false });
      // The answer's JSON (rights are most of it) is made once per cached user object, token and
      // subject summary: any change of them gives new objects (SessionCache), hence a new text.
      const texts = new WeakMap<object, { token: string; parts: object[]; json: Serialized }>();
      return async (auth) => {
        const session = await sessions.session(auth.user, auth.rawToken, auth.subjectId);
        const parts = [session.rights, session.subject];
        const hit = texts.get(auth.user);
        if (hit && hit.token === auth.rawToken && hit.parts.every((p, i) => p === parts[i])) return hit.json;
        const json = new Serialized(JSON.stringify({ data: session }));
        texts.set(auth.user, { token: auth.rawToken, parts, json });
        return json;
      };
    },
  },
  {
    method: 'GET',
    url: '/api/admin/v1/user/check/:bc',
    marked: () => AccreditationController.prototype.check,
    answer: (app) => {
      const checker = new CheckByCode(app.get(DataSource, { strict: false }));
      return (auth, req) => checker.check(auth.subjectId, (req.params as { bc: string }).bc);
    },
  },
];

/** An answer already serialised as the whole `{"data": …}` text. */
class Serialized {
  constructor(readonly text: string) {}
}

/**
 * These routes answer without Nest's per-request pipeline (guard, interceptors, the tenant's
 * AsyncLocalStorage, the exception zone), as the gate's scan route does (device/scan-route.ts).
 * They stay declared on their controllers (OpenAPI, the route walk of routes.spec.ts, their access
 * marking); `onRoute` swaps the handler Nest registers on Fastify, so Fastify's hooks (security
 * headers) and its error handler (Nest's, i.e. ErrorFilter: the envelope in the caller's language)
 * still apply and the answers are the same:
 * - access: `adminAccess`, the guard's own function, with the handler's marking (the session from
 *   TokenService's cache, the right of spec §6);
 * - answer: `{data: …}` serialised here (DataEnvelopeInterceptor's shape);
 * - errors: thrown, so ErrorFilter answers them as for every other route.
 * ACCREDO_ADMIN_PATH=nest leaves Nest's handlers in place (the benches measure both paths).
 */
export function leanAdminRoutes() {
  const handlers = new Map<string, LeanHandler>();
  const key = (method: string, url: string) => `${method} ${url}`;
  return {
    onRoute(route: RouteOptions): void {
      takeOverRoute(route, LEAN_ADMIN_ROUTES, (r) => handlers.get(key(r.method, r.url)) ?? null);
    },
    /** Called with the created app, before `app.init()` registers the routes. */
    bind(app: INestApplicationContext): void {
      if (process.env.ACCREDO_ADMIN_PATH === 'nest') return;
      const tokens = app.get(TokenService, { strict: false });
      for (const route of LEAN_ADMIN_ROUTES) {
        const access = Reflect.getMetadata(ACCESS_KEY, route.marked()) as Access | undefined;
        if (access?.kind !== 'admin') throw new Error(`lean route ${route.url}: its handler is not an admin route`);
        handlers.set(key(route.method, route.url), leanHandler(tokens, access, route.answer(app)));
      }
    },
  };
}

function leanHandler(
  tokens: TokenService,
  access: AdminAccess,
  answer: (auth: AdminAuth, req: FastifyRequest) => Promise<unknown>,
): LeanHandler {
  return async (req, reply) => {
    const auth = await adminAccess(tokens, req, access);
    const data = await answer(auth, req);
    reply.header('content-type', 'application/json; charset=utf-8');
    return data instanceof Serialized ? data.text : JSON.stringify({ data: data ?? null });
  };
}
