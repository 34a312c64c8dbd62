import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { type ErrorBody, ERRORS, type ErrorCode, type FieldError } from '@accredo/domain';
import { acceptLanguage, translate } from '@accredo/i18n';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { AppError } from './app-error.js';
import type { AppRequest } from './request.js';
import { RAW_SECURITY_HEADERS } from './web-app.js';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  431: 'HEADERS_TOO_LARGE',
};

/** The language before any header is known (a request Node could not parse). */
const DEFAULT_LANGUAGE = 'cs';

/** The language of the caller for the human-readable message (codes are what clients act on). */
const requestLanguage = (req: AppRequest): string => acceptLanguage(req.headers['accept-language']);

/** How many refused fields the top-level message names (all of them are in `details.fields`). */
const FIELDS_NAMED = 5;

/**
 * The top-level message of a refused body names its fields, so a client that shows only `message`
 * (or a person reading a log) learns what to fix: "The form contains errors: email: Enter a valid
 * e-mail; lastname: Required field".
 */
export function validationMessage(lang: string, base: string, fields: unknown): string {
  if (!Array.isArray(fields) || fields.length === 0) return base;
  const named = (fields as FieldError[])
    .slice(0, FIELDS_NAMED)
    .map((f) => `${f.path || '(body)'}: ${translate(lang, f.key)}`);
  const more = fields.length > FIELDS_NAMED ? ` (+${fields.length - FIELDS_NAMED})` : '';
  return `${base}: ${named.join('; ')}${more}`;
}

/** Does a route path of Fastify (`/api/x/:id`, `/docs/*`) match the segments of a request path? */
function routeMatches(pattern: string[], segments: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i];
    if (part === '*') return true;
    if (i >= segments.length) return false;
    if (part.includes(':') || part.includes('*')) {
      if (!segments[i]) return false;
    } else if (part !== segments[i]) return false;
  }
  return pattern.length === segments.length;
}

/**
 * Every error leaves as `{error: {code, message, details}}`. Client mistakes get their code and
 * status; anything unexpected is logged with the request id and answered 500 with that id only.
 * Unknown non-API paths fall back to the web app's index.html (client-side routes).
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');
  private readonly indexHtml: string | null;
  /** Every route's path and methods, to tell a wrong method (405) from an unknown path (404). */
  private readonly routes = new Map<string, { pattern: string[]; methods: Set<string> }>();

  constructor(webDist: string | null) {
    const file = webDist ? path.join(webDist, 'index.html') : null;
    this.indexHtml = file && fs.existsSync(file) ? file : null;
  }

  /** Called from Fastify's onRoute hook for every route (Nest's, the docs', the static files'). */
  addRoute(method: string | string[], url: string): void {
    const entry = this.routes.get(url) ?? { pattern: url.split('/'), methods: new Set<string>() };
    for (const m of Array.isArray(method) ? method : [method]) {
      entry.methods.add(m.toUpperCase());
      if (m.toUpperCase() === 'GET') entry.methods.add('HEAD');
    }
    this.routes.set(url, entry);
  }

  /** The methods some route answers on this path (none: the path is unknown). */
  allowedMethods(url: string): string[] {
    const segments = url.split('?')[0].split('/');
    const methods = new Set<string>();
    for (const route of this.routes.values())
      if (routeMatches(route.pattern, segments)) for (const m of route.methods) methods.add(m);
    return [...methods].sort();
  }

  /**
   * Fastify's options for what it answers itself, before any route, hook or Nest: a malformed URL,
   * an over-long path parameter (its router) and requests Node cannot parse (bad content-length,
   * headers too large, timeouts). All of them get the envelope too. `beforeSend` runs what the
   * request hooks would have (e.g. security headers); it may throw, the answer goes out anyway.
   */
  fastifyOptions(
    beforeSend?: (request: FastifyRequest, reply: FastifyReply) => void,
  ): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
    return {
      frameworkErrors: (error, request, reply) => {
        try {
          beforeSend?.(request as unknown as FastifyRequest, reply as unknown as FastifyReply);
        } catch {
          /* the request is refused either way */
        }
        const { status, body } = this.toBody(error, request as unknown as AppRequest);
        (reply as unknown as FastifyReply)
          .status(status)
          .header('content-type', 'application/json; charset=utf-8')
          .send(body);
      },
      clientErrorHandler: (error: Error & { code?: string }, socket: Duplex) => {
        // A reset connection has nobody to answer (as Fastify's own handler).
        if (error.code === 'ECONNRESET' || socket.destroyed) return;
        const code: ErrorCode =
          error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? 'REQUEST_TIMEOUT'
            : error.code === 'HPE_HEADER_OVERFLOW'
              ? 'HEADERS_TOO_LARGE'
              : 'BAD_REQUEST';
        const { status, key } = ERRORS[code];
        const body = JSON.stringify({ error: { code, message: translate(DEFAULT_LANGUAGE, key), details: {} } });
        if (socket.writable)
          socket.write(
            `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
              `Content-Type: application/json; charset=utf-8\r\n${RAW_SECURITY_HEADERS}` +
              `Content-Length: ${Buffer.byteLength(body)}\r\n` +
              `Connection: close\r\n\r\n${body}`,
          );
        socket.destroy(error);
      },
    };
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<AppRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    let { status, body } = this.toBody(exception, req);

    if (
      status === 404 &&
      this.indexHtml &&
      req.method === 'GET' &&
      !req.url.startsWith('/api/') &&
      body.error.code === 'NOT_FOUND'
    ) {
      reply
        .status(200)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(fs.createReadStream(this.indexHtml));
      return;
    }
    // No route for this method, but one for another: 405 with the methods there are.
    if (status === 404 && body.error.code === 'NOT_FOUND' && !(exception instanceof AppError)) {
      const allow = this.allowedMethods(req.url);
      if (allow.length && !allow.includes(req.method)) {
        ({ status, body } = this.toBody(new AppError('METHOD_NOT_ALLOWED'), req));
        reply.header('allow', allow.join(', '));
      }
    }
    const retry = retryAfter(status, body);
    if (retry !== null) reply.header('retry-after', retry);
    reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  toBody(exception: unknown, req: AppRequest): { status: number; body: ErrorBody } {
    const lang = requestLanguage(req);
    const make = (code: ErrorCode, details: Record<string, unknown> = {}) => {
      // Details fill the message's placeholders (a refused delete says what still uses the record).
      const base = translate(lang, ERRORS[code].key, details);
      const message = code === 'VALIDATION_ERROR' ? validationMessage(lang, base, details.fields) : base;
      return { status: ERRORS[code].status, body: { error: { code, message, details } } };
    };

    if (exception instanceof AppError) return make(exception.code, exception.details);

    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = STATUS_CODES[status];
      if (code) return make(code);
    }

    // Errors raised by Fastify before the handler: body parsing, size, content type.
    const fst = exception as { statusCode?: number; code?: string };
    if (typeof fst?.statusCode === 'number' && fst.statusCode < 500) {
      return make(STATUS_CODES[fst.statusCode] ?? 'BAD_REQUEST', fst.code ? { reason: fst.code } : {});
    }

    // A multipart body that is malformed or ends before its closing boundary (busboy, under
    // @fastify/multipart, throws plain Errors while a route reads the parts): the client's mistake
    // or a connection cut short.
    if (malformedMultipart(exception)) return make('BAD_REQUEST', { reason: 'MULTIPART_MALFORMED' });

    // A value the database cannot hold (MariaDB: data too long, out of range) is the client's
    // value, so a 400 naming the column, never a 500; logged, since a schema should have bounded it.
    const tooBig = columnOverflow(exception);
    if (tooBig) {
      this.logger.warn(
        `A value did not fit column ${tooBig.column} in ${req.method} ${req.url}: bound it in its schema`,
      );
      return make('VALIDATION_ERROR', { fields: [{ path: tooBig.column, key: 'basics.tooLong' }] });
    }

    const requestId = String(req.id ?? '');
    this.logger.error(
      `Unexpected error in ${req.method} ${req.url} [request ${requestId}]`,
      (exception as Error)?.stack ?? String(exception),
    );
    return make('INTERNAL_ERROR', { requestId });
  }
}

/** The Retry-After header of an answer (a 429 or 503 whose details say when), or null. */
export function retryAfter(status: number, body: ErrorBody): string | null {
  const after = body.error.details?.retryAfter;
  return (status === 429 || status === 503) && typeof after === 'number' ? String(after) : null;
}

/** MySQL/MariaDB's refusals of a value too big for its column (ER_DATA_TOO_LONG, ER_WARN_DATA_OUT_OF_RANGE). */
export function columnOverflow(exception: unknown): { column: string } | null {
  const driver = (exception as { driverError?: { code?: string; sqlMessage?: string } })?.driverError;
  if (driver?.code !== 'ER_DATA_TOO_LONG' && driver?.code !== 'ER_WARN_DATA_OUT_OF_RANGE') return null;
  const column = /column '([^']{1,64})'/.exec(driver.sqlMessage ?? '')?.[1] ?? '';
  return { column };
}

/** What busboy throws for a malformed or cut-off multipart body (its messages; plain Errors). */
const MALFORMED_MULTIPART =
  /^(Unexpected end of (form|multipart data)|Malformed part header|Part terminated early|Multipart: Boundary not found|Malformed urlencoded form)/i;

/** (AppErrors are answered before this is asked.) */
function malformedMultipart(exception: unknown): boolean {
  return exception instanceof Error && MALFORMED_MULTIPART.test(exception.message);
}
