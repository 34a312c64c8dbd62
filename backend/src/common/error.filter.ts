import fs from 'node:fs';
import path from 'node:path';
import { type ErrorBody, ERRORS, type ErrorCode } from '@accredo/domain';
import { translate } from '@accredo/i18n';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppError } from './app-error.js';
import type { AppRequest } from './request.js';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

/** The language of the caller for the human-readable message (codes are what clients act on). */
function requestLanguage(req: AppRequest): string {
  const header = String(req.headers['accept-language'] ?? '');
  return header.slice(0, 2).toLowerCase() || 'cs';
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

  constructor(webDist: string | null) {
    const file = webDist ? path.join(webDist, 'index.html') : null;
    this.indexHtml = file && fs.existsSync(file) ? file : null;
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<AppRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    const { status, body } = this.toBody(exception, req);

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
    if (status === 429 && typeof body.error.details?.retryAfter === 'number')
      reply.header('retry-after', String(body.error.details.retryAfter));
    reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  toBody(exception: unknown, req: AppRequest): { status: number; body: ErrorBody } {
    const lang = requestLanguage(req);
    const make = (code: ErrorCode, details: Record<string, unknown> = {}) => ({
      status: ERRORS[code].status,
      body: { error: { code, message: translate(lang, ERRORS[code].key), details } },
    });

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

    const requestId = String(req.id ?? '');
    this.logger.error(
      `Unexpected error in ${req.method} ${req.url} [request ${requestId}]`,
      (exception as Error)?.stack ?? String(exception),
    );
    return make('INTERNAL_ERROR', { requestId });
  }
}
