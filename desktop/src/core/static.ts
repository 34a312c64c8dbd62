import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { HTML_CSP } from '@accredo/domain';

/**
 * The built web app (`web/dist`, the same files the backend serves) at the station's local server,
 * with the backend's rules (backend/src/common/web-app.ts): hashed files under `assets/` cached as
 * immutable, anything else revalidated; the build's brotli or gzip copy when the browser takes it;
 * source maps never; a missing asset is a 404 (never index.html); any other path is a client-side
 * route and gets index.html (so `/gate` opens the gate screen). HTML carries the product's CSP.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Where the built web app is: WEB_DIST, else web/dist beside desktop/ in the repository. */
export function defaultWebDist(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.WEB_DIST || path.join(import.meta.dirname, '..', '..', '..', 'web', 'dist'));
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Answers a GET/HEAD of the web app from `root`; false when it is not the web app's to answer
 * (the caller sends its 404).
 */
export function serveStatic(
  root: string,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  pathname: string,
): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  if (decoded.includes('\0') || decoded.toLowerCase().endsWith('.map')) return false;
  const base = path.resolve(root);
  let file = path.resolve(base, `.${path.posix.normalize(`/${decoded}`)}`);
  if (file !== base && !file.startsWith(base + path.sep)) return false;
  if (!isFile(file)) {
    if (fs.existsSync(file) && isFile(path.join(file, 'index.html'))) file = path.join(file, 'index.html');
    else if (decoded.startsWith('/assets/') || path.extname(decoded)) return false;
    else file = path.join(base, 'index.html');
    if (!isFile(file)) return false;
  }
  const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const hashed = path.relative(base, file).split(path.sep)[0] === 'assets';
  const headers: Record<string, string | number> = {
    'content-type': type,
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    vary: 'accept-encoding',
  };
  if (type.startsWith('text/html')) headers['content-security-policy'] = HTML_CSP;
  const accepted = String(request.headers['accept-encoding'] ?? '');
  let sent = file;
  for (const [encoding, suffix] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (new RegExp(`\\b${encoding}\\b`).test(accepted) && isFile(file + suffix)) {
      sent = file + suffix;
      headers['content-encoding'] = encoding;
      break;
    }
  }
  headers['content-length'] = fs.statSync(sent).size;
  response.writeHead(200, headers);
  if (request.method === 'HEAD') {
    response.end();
    return true;
  }
  fs.createReadStream(sent)
    .on('error', () => response.destroy())
    .pipe(response);
  return true;
}
