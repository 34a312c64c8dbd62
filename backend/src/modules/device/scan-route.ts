import { deviceScanSchema, ERRORS, type ErrorCode } from '@accredo/domain';
import { translate } from '@accredo/i18n';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { acceptLanguage } from '@accredo/i18n';
import type { INestApplicationContext } from '@nestjs/common';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { AppError } from '../../common/app-error.js';
import { type ErrorFilter, validationMessage } from '../../common/error.filter.js';
import { type LeanHandler, takeOverRoute } from '../../common/lean-route.js';
import { type RawTaker, rawFailure, rawSend } from '../../common/raw-front.js';
import { toFieldErrors } from '../../common/zod.js';
import { DeviceSessions } from './device-sessions.service.js';
import { GateService } from './gate.service.js';

/** The one route that takes the lean path (issue 11 "speed", issue 16 "a lean request path"). */
export const LEAN_SCAN_ROUTE = { method: 'POST', url: '/api/device/v1/scan' } as const;

/** A scan's body is a few hundred bytes; a bigger one (or one of unknown length) goes through Fastify. */
const RAW_BODY_MAX = 16 * 1024;
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

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
  let core: LeanCore | null = null;
  return {
    /** For the adapter's `onRoute` hook: takes over the scan route once the app is bound. */
    onRoute(route: RouteOptions): void {
      takeOverRoute(route, [LEAN_SCAN_ROUTE], () => handler);
    },
    /**
     * Called with the created app, before `app.init()` registers the routes. ACCREDO_SCAN_PATH=nest
     * leaves the Nest handler in place (bench/gate.mjs measures both paths with it).
     */
    bind(app: INestApplicationContext): void {
      if (process.env.ACCREDO_SCAN_PATH === 'nest') return;
      core = createLeanScanCore(app.get(DeviceSessions, { strict: false }), app.get(GateService, { strict: false }));
      handler = leanScanHandler(core);
    },
    /**
     * The same route one level lower, on Node's HTTP server in front of Fastify (issue 11 "speed",
     * common/raw-front.ts): a well-formed scan — POST to exactly the route's URL,
     * `application/json`, a Content-Length of at most 16 kB, no chunked body — is read, parsed by
     * Fastify's own JSON parser (the same prototype-poisoning refusals), decided and answered here,
     * with the headers Fastify's hooks would add (the security headers). Anything else goes to
     * Fastify. Errors are ErrorFilter's envelope. Null when the Nest or Fastify path is measured.
     */
    raw(fastify: FastifyInstance, filter: ErrorFilter): RawTaker | null {
      if (!core || process.env.ACCREDO_SCAN_PATH === 'fastify') return null;
      const parse = fastify.getDefaultJsonParser('error', 'error');
      const lean = core;
      const messages = routeMessages();
      return (req, res) => {
        if (!takesRaw(req)) return false;
        rawScan(req, res, lean, parse, filter, messages);
        return true;
      };
    },
  };
}

/** What the raw path takes; everything else is Fastify's. */
function takesRaw(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.url !== LEAN_SCAN_ROUTE.url) return false;
  const h = req.headers;
  if (h['transfer-encoding'] !== undefined || !JSON_TYPE.test(h['content-type'] ?? '')) return false;
  const length = Number(h['content-length']);
  return length > 0 && length <= RAW_BODY_MAX;
}

type JsonParser = ReturnType<FastifyInstance['getDefaultJsonParser']>;

function rawScan(
  req: IncomingMessage,
  res: ServerResponse,
  core: LeanCore,
  parse: JsonParser,
  filter: ErrorFilter,
  messages: ErrorMessages,
) {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('error', () => res.destroy());
  req.on('end', () => {
    const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
    parse(req as never, text as never, (err: Error | null, body?: unknown) => {
      if (err) {
        rawError(req, res, err, filter, messages);
        return;
      }
      core(req.headers, body).then(
        (answer) => rawAnswer(res, 200, answer),
        (error: unknown) => rawError(req, res, error, filter, messages),
      );
    });
  });
}

/** Answers sent by the raw path in this process (its spec tells which way a request went). */
export const rawScanAnswers = { count: 0 };

function rawAnswer(res: ServerResponse, status: number, text: string): void {
  if (rawSend(res, status, text)) rawScanAnswers.count++;
}

/**
 * The route's refusals as the Fastify handler words them; anything else (an unparsable body, the
 * unexpected) as ErrorFilter answers it (its envelope, language and logging, with a request id).
 */
function rawError(
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
  filter: ErrorFilter,
  messages: ErrorMessages,
): void {
  if (error instanceof AppError) {
    const body = refusal(acceptLanguage(req.headers['accept-language']), error, messages);
    rawAnswer(res, error.status, JSON.stringify(body));
    return;
  }
  if (rawFailure(req, res, error, filter)) rawScanAnswers.count++;
}

const LANGS = ['cs', 'sk', 'en', 'de'] as const;
const CODES = ['UNAUTHORIZED', 'TOKEN_INVALID', 'VALIDATION_ERROR', 'NONCE_CONFLICT', 'CREDIT_NOT_ENOUGH'] as const;

/** The route's work from its headers and parsed body: the answer's JSON text, or an error to answer. */
type LeanCore = (headers: IncomingMessage['headers'], body: unknown) => Promise<string>;

export function createLeanScanHandler(sessions: DeviceSessions, gate: GateService): LeanHandler {
  return leanScanHandler(createLeanScanCore(sessions, gate));
}

/** The Fastify handler around the core (the route as Nest declared it; requests the raw path leaves). */
function leanScanHandler(core: LeanCore): LeanHandler {
  const messages = routeMessages();
  return async (req, reply) => {
    try {
      const answer = await core(req.headers, req.body);
      reply.header('content-type', 'application/json; charset=utf-8');
      return answer;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      reply
        .code(error.status)
        .header('content-type', 'application/json; charset=utf-8')
        .send(refusal(acceptLanguage(req.headers['accept-language']), error, messages));
      return reply;
    }
  };
}

function createLeanScanCore(sessions: DeviceSessions, gate: GateService): LeanCore {
  return async (headers, body) => {
    const raw = headers.authorization;
    const token = (Array.isArray(raw) ? raw[0] : raw)?.replace(/^Bearer\s+/i, '').trim() || undefined;
    const auth = await sessions.resolve(token);
    const parsed = deviceScanSchema.safeParse(body ?? {});
    if (!parsed.success) throw AppError.validation(toFieldErrors(parsed.error));
    // `{"data": …}` as JSON text: the answer's stored serialisation, sent as it is
    return gate.scanEnvelope(auth, parsed.data, acceptLanguage(headers['accept-language']));
  };
}

type ErrorMessages = (lang: string, code: ErrorCode) => string;

/** A refusal of this route in the envelope; a VALIDATION_ERROR names its fields as ErrorFilter does. */
function refusal(lang: string, error: AppError, messages: ErrorMessages) {
  const base = messages(lang, error.code);
  const message = error.code === 'VALIDATION_ERROR' ? validationMessage(lang, base, error.details.fields) : base;
  return { error: { code: error.code, message, details: error.details } };
}

let shared: ErrorMessages | undefined;
/** The route's messages, made on first use and shared by the raw path and the Fastify handler. */
const routeMessages = (): ErrorMessages => {
  shared ??= errorMessages();
  return shared;
};

/** The messages of the errors this route gives, per language, translated once. */
function errorMessages(): ErrorMessages {
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

  return message;
}
