import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { type ErrorFilter, retryAfter } from './error.filter.js';
import type { AppRequest } from './request.js';
import { RAW_SECURITY_HEADER_LIST } from './web-app.js';

/**
 * A route answered on Node's HTTP server in front of Fastify: given every request, it answers the
 * ones it takes (and returns true) and leaves the rest to Fastify (false), before reading anything.
 */
export type RawTaker = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The hottest routes one level below Fastify (issue 11 "speed": the gate's scan; issue 16: the
 * signed-in admin reads of session/lean-admin.ts). Fastify's routing, hook chain, reply object and
 * request id cost about as much CPU as these routes' own work, and on this 2-core machine every
 * microsecond of a request's own work also makes its answer's write dearer (the client's core has
 * gone idle meanwhile and must be woken: docs/architecture.md "The lean admin routes"). A taker
 * answers only the well-formed requests it recognises exactly (method, URL, headers), with the
 * headers Fastify's hooks would add (the security headers, rawSend) and errors in ErrorFilter's
 * envelope (rawFailure); anything else, and every request once the app starts closing, goes to
 * Fastify as before, so an unusual request still gets exactly Fastify's answer.
 */
export function attachRawFront(fastify: FastifyInstance, takers: readonly (RawTaker | null)[]): void {
  const active = takers.filter((t): t is RawTaker => t !== null);
  if (!active.length) return;
  const server: Server = fastify.server;
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (listeners.length !== 1) return; // not the server Fastify made: leave it alone
  const fastifyListener = listeners[0];
  let open = true;
  fastify.addHook('preClose', (done) => {
    open = false;
    done();
  });
  server.removeListener('request', fastifyListener);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (open) for (const take of active) if (take(req, res)) return;
    fastifyListener.call(server, req, res);
  });
}

/** A JSON answer with the security headers of an API answer (and `extra`, name, value, …); false once sent or gone. */
export function rawSend(res: ServerResponse, status: number, text: string, extra: readonly string[] = []): boolean {
  if (res.headersSent || res.destroyed) return false;
  res.writeHead(status, [
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(Buffer.byteLength(text)),
    ...RAW_SECURITY_HEADER_LIST,
    ...extra,
  ]);
  res.end(text);
  return true;
}

/**
 * An error as ErrorFilter answers it through Fastify: its envelope in the Accept-Language, the
 * unexpected logged with a request id (500), a Retry-After where the error gives one.
 */
export function rawFailure(req: IncomingMessage, res: ServerResponse, error: unknown, filter: ErrorFilter): boolean {
  const appReq = { method: req.method, url: req.url, headers: req.headers, id: randomUUID() } as unknown as AppRequest;
  const { status, body } = filter.toBody(error, appReq);
  const retry = retryAfter(status, body);
  return rawSend(res, status, JSON.stringify(body), retry === null ? [] : ['retry-after', retry]);
}
