import { deviceScanSchema, ERRORS, type ErrorCode } from '@accredo/domain';
import { translate } from '@accredo/i18n';
import type { INestApplicationContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../../common/app-error.js';
import { toFieldErrors } from '../../common/zod.js';
import { DeviceSessions } from './device-sessions.service.js';
import { acceptLanguage } from '@accredo/i18n';
import { GateService } from './gate.service.js';

/** The one route that takes the lean path (issue 11 "speed", issue 16 "a lean request path"). */
export const LEAN_SCAN_ROUTE = { method: 'POST', url: '/api/device/v1/scan' } as const;

type LeanHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * POST api/device/v1/scan without Nest's per-request pipeline (guard, pipes, interceptors, the
 * tenant's AsyncLocalStorage, the exception zone). The route stays declared in
 * DeviceProtocolController (OpenAPI, the route walk of routes.spec.ts, its access marking
 * `@DeviceSession()`); `leanScan` swaps the handler Nest registers on Fastify for this one in the
 * `onRoute` hook, so Fastify's own hooks (security headers, body parser, the error handler with
 * ErrorFilter) still apply and the answers are the same:
 * - token: `Authorization: Bearer …` resolved by DeviceSessions' in-process cache (revocation
 *   clears it), missing 401 UNAUTHORIZED, unknown/revoked 401 TOKEN_INVALID (before validation, as
 *   the guard ran before the pipe);
 * - body: the same zod schema of libs/domain, 400 VALIDATION_ERROR with the field errors;
 * - decision: GateService.scan (prepared statements held once, one short transaction, the nonce
 *   semantics D16/D17), answered as `{data}`;
 * - a client error: the envelope `{error: {code, message, details}}` in the Accept-Language; an
 *   unexpected error goes to Fastify's error handler, i.e. ErrorFilter (logged, 500 with the id).
 * Nothing is built per request but the answer: schema, services and messages are held here.
 */
export function leanScan() {
  let handler: LeanHandler | null = null;
  return {
    /** For the adapter's `onRoute` hook: takes over the scan route once the app is bound. */
    onRoute(route: RouteOptions): void {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.url !== LEAN_SCAN_ROUTE.url || !methods.includes(LEAN_SCAN_ROUTE.method)) return;
      const nest = route.handler;
      // Until bind() ran (it runs before Nest registers its routes) the Nest handler answers.
      route.handler = function (this: unknown, req, reply) {
        return handler ? handler(req, reply) : nest.call(this as never, req, reply);
      };
    },
    /**
     * Called with the created app, before `app.init()` registers the routes. ACCREDO_SCAN_PATH=nest
     * leaves the Nest handler in place (bench/gate.mjs measures both paths with it).
     */
    bind(app: INestApplicationContext): void {
      if (process.env.ACCREDO_SCAN_PATH === 'nest') return;
      handler = createLeanScanHandler(
        app.get(DeviceSessions, { strict: false }),
        app.get(GateService, { strict: false }),
      );
    },
  };
}

const LANGS = ['cs', 'sk', 'en', 'de'] as const;
const CODES = ['UNAUTHORIZED', 'TOKEN_INVALID', 'VALIDATION_ERROR', 'NONCE_CONFLICT', 'CREDIT_NOT_ENOUGH'] as const;

export function createLeanScanHandler(sessions: DeviceSessions, gate: GateService): LeanHandler {
  // the messages of the errors this route gives, per language, translated once
  const messages = new Map<string, string>();
  for (const lang of LANGS)
    for (const code of CODES) messages.set(`${lang}:${code}`, translate(lang, ERRORS[code].key));
  const message = (lang: string, code: ErrorCode) => {
    const key = `${lang}:${code}`;
    let m = messages.get(key);
    if (m === undefined) {
      m = translate(lang, ERRORS[code].key);
      if (messages.size < 1000) messages.set(key, m);
    }
    return m;
  };

  return async (req, reply) => {
    // the error filter's language (acceptLanguage, as every other answer)
    const header = req.headers['accept-language'];
    const errorLang = acceptLanguage(header);
    try {
      const raw = req.headers.authorization;
      const token = (Array.isArray(raw) ? raw[0] : raw)?.replace(/^Bearer\s+/i, '').trim() || undefined;
      const auth = await sessions.resolve(token);
      const parsed = deviceScanSchema.safeParse(req.body ?? {});
      if (!parsed.success) throw AppError.validation(toFieldErrors(parsed.error));
      // `{"data": …}` as JSON text: the answer's stored serialisation, sent as it is
      const answer = await gate.scanEnvelope(auth, parsed.data, acceptLanguage(header as string | undefined));
      reply.header('content-type', 'application/json; charset=utf-8');
      return answer;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      reply
        .code(error.status)
        .header('content-type', 'application/json; charset=utf-8')
        .send({ error: { code: error.code, message: message(errorLang, error.code), details: error.details } });
      return reply;
    }
  };
}
