import type { IncomingMessage } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import type { RouteOptions } from 'fastify';
import { DataSource } from 'typeorm';
import { ACCESS_KEY, type Access } from '../../common/access.js';
import { adminAccess } from '../../common/access.guard.js';
import type { ErrorFilter } from '../../common/error.filter.js';
import { type LeanHandler, takeOverRoute } from '../../common/lean-route.js';
import { type RawTaker, rawFailure, rawSend } from '../../common/raw-front.js';
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
  /** the answer's `data` for the session and the URL's parameters (`:name` in `url`) */
  answer: (app: INestApplicationContext) => (auth: AdminAuth, params: Record<string, string>) => Promise<unknown>;
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
      return (auth, params) => checker.check(auth.subjectId, params.bc ?? '');
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
 * `raw` answers the same routes one level lower, in front of Fastify (common/raw-front.ts): a GET
 * of exactly a route's URL (no query string, each parameter 1–64 of `[A-Za-z0-9_-]`, so nothing
 * to decode) with no body; anything else goes through Fastify to the handler above.
 * ACCREDO_ADMIN_PATH=nest leaves Nest's handlers in place, =fastify the raw path out (the benches
 * measure the paths with it).
 */
export function leanAdminRoutes() {
  const cores = new Map<string, LeanCore>();
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
        const core = leanCore(tokens, access, route.answer(app));
        cores.set(key(route.method, route.url), core);
        handlers.set(key(route.method, route.url), fastifyHandler(core));
      }
    },
    /** The routes' raw path (after bind; null when the Nest or Fastify path is measured). */
    raw(filter: ErrorFilter): RawTaker | null {
      if (!cores.size || process.env.ACCREDO_ADMIN_PATH === 'fastify') return null;
      const routes = LEAN_ADMIN_ROUTES.map((r) => ({ ...urlPattern(r.url), core: cores.get(key(r.method, r.url))! }));
      return (req, res) => {
        if (req.method !== 'GET' || !req.url?.startsWith(PREFIX) || hasBody(req)) return false;
        for (const route of routes) {
          const match = route.pattern.exec(req.url);
          if (!match) continue;
          const params = Object.fromEntries(route.names.map((name, i) => [name, match[i + 1]]));
          route.core(req.headers, params).then(
            (text) => {
              if (rawSend(res, 200, text)) rawAdminAnswers.count++;
            },
            (error: unknown) => {
              if (rawFailure(req, res, error, filter)) rawAdminAnswers.count++;
            },
          );
          return true;
        }
        return false;
      };
    },
  };
}

/** Answers sent by the raw path in this process (its spec tells which way a request went). */
export const rawAdminAnswers = { count: 0 };

const PREFIX = '/api/admin/v1/';

/** A route's URL as an exact pattern: each `:name` one to 64 of `[A-Za-z0-9_-]`, nothing to decode. */
function urlPattern(url: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = url
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([A-Za-z0-9_-]{1,64})';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

/** A GET that says it carries a body (a length above 0, or chunked) is Fastify's to answer. */
function hasBody(req: IncomingMessage): boolean {
  const h = req.headers;
  return h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0');
}

/** A route's work from the request's headers and URL parameters: the answer's `{"data": …}` text. */
type LeanCore = (headers: IncomingMessage['headers'], params: Record<string, string>) => Promise<string>;

function leanCore(
  tokens: TokenService,
  access: AdminAccess,
  answer: (auth: AdminAuth, params: Record<string, string>) => Promise<unknown>,
): LeanCore {
  return async (headers, params) => {
    const auth = await adminAccess(tokens, { headers }, access);
    const data = await answer(auth, params);
    return data instanceof Serialized ? data.text : JSON.stringify({ data: data ?? null });
  };
}

/** The Fastify handler around a core (the requests the raw path leaves to Fastify). */
function fastifyHandler(core: LeanCore): LeanHandler {
  return async (req, reply) => {
    const text = await core(req.headers, req.params as Record<string, string>);
    reply.header('content-type', 'application/json; charset=utf-8');
    return text;
  };
}
