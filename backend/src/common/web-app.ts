import path from 'node:path';
import { DATA_CSP, ERRORS, HTML_CSP } from '@accredo/domain';
import { translate } from '@accredo/i18n';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const HASHED_DIR = 'assets';

/**
 * To be added before any route. Security headers on every answer: no MIME sniffing, no framing, the referrer only as an origin
 * to other sites, and a content security policy by kind (HTML pages, API data). Static files of
 * the web app (scripts, styles, images) need no policy of their own (issue 10 items 6 and 11).
 */
export function addWebHooks(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (req, reply) => {
    const pathname = (req.url.split('?')[0] ?? '').toLowerCase();
    if (pathname.startsWith('/api/')) return;
    // Source maps never leave, even if a build left one; a missing hashed file is a 404, not the
    // app's index.html (a stale page must not get HTML for a script).
    if (pathname.endsWith('.map') || (req.is404 && pathname.startsWith(`/${HASHED_DIR}/`))) return notFound(req, reply);
  });
  fastify.addHook('onSend', async (req, reply, payload) => {
    setSecurityHeaders(req.url, reply);
    return payload;
  });
}

/**
 * The security headers of one answer, by its kind. Also called for what Fastify answers before any
 * hook runs (a malformed URL, an over-long parameter: see ErrorFilter.fastifyOptions).
 */
export function setSecurityHeaders(url: string, reply: Pick<FastifyReply, 'header' | 'getHeader' | 'hasHeader'>): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  const type = String(reply.getHeader('content-type') ?? '');
  if (type.startsWith('text/html')) reply.header('content-security-policy', HTML_CSP);
  else if (url.startsWith('/api/') && !reply.hasHeader('content-security-policy'))
    reply.header('content-security-policy', DATA_CSP);
}

/** The headers of an API answer as name, value, name, value… (`res.writeHead` of the raw scan path). */
export const RAW_SECURITY_HEADER_LIST: readonly string[] = [
  'X-Content-Type-Options',
  'nosniff',
  'X-Frame-Options',
  'DENY',
  'Referrer-Policy',
  'strict-origin-when-cross-origin',
  'Content-Security-Policy',
  DATA_CSP,
];

/** The same headers written by hand, for answers made on the raw socket (ErrorFilter). */
export const RAW_SECURITY_HEADERS = RAW_SECURITY_HEADER_LIST.map((x, i) => (i % 2 ? `${x}\r\n` : `${x}: `)).join('');

/**
 * Serves the built web app (issue 10 item 11): hashed files under assets/ cached for a year as
 * immutable, everything else (index.html, print-frame.js) revalidated on every use; the brotli or
 * gzip copy the build wrote is sent when Accept-Encoding takes it (Vary: Accept-Encoding). Maps
 * and missing assets: see addWebHooks.
 */
export async function serveWebApp(app: NestFastifyApplication, webDist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    // The compressed copies are chosen by Accept-Encoding, not asked for by name; maps never leave.
    globIgnore: ['**/*.map', '**/*.br', '**/*.gz'],
    setHeaders: (res, file) => {
      const hashed = path.relative(webDist, file).split(path.sep)[0] === HASHED_DIR;
      res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

function notFound(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const lang =
    String(req.headers['accept-language'] ?? '')
      .slice(0, 2)
      .toLowerCase() || 'cs';
  return reply
    .code(404)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-cache')
    .send({ error: { code: 'NOT_FOUND', message: translate(lang, ERRORS.NOT_FOUND.key), details: {} } });
}
