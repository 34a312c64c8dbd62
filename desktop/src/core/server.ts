import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventHub } from './events.js';
import { BridgeError, type GateBridge } from './gate-bridge.js';
import { type SettingsApiOptions, settingsApi } from './settings-api.js';
import type { Station } from './station.js';
import { serveStatic } from './static.js';

export interface StationServer {
  /** The address the gate screen is served at, e.g. `http://127.0.0.1:8090`. */
  url: string;
  close(): Promise<void>;
}

const VERSION = '0.1.0';

function send(response: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
}

/** A request body (JSON) is at most this big: codes and names, nothing more. */
const BODY_LIMIT = 64 * 1024;

function fail(response: http.ServerResponse, status: number, code: string, message: string, details: unknown = null) {
  send(response, status, { error: { code, message, details } });
}

async function readJson(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new BridgeError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BridgeError(400, 'BAD_REQUEST', 'The request body is not JSON');
  }
}

const text = (value: unknown, max: number) =>
  typeof value === 'string' && value.trim() && value.length <= max ? value.trim() : null;

function invalid(field: string): never {
  throw new BridgeError(400, 'VALIDATION_ERROR', 'The request is not valid', [
    { path: field, key: 'basics.invalidValue' },
  ]);
}

export interface StationServerOptions {
  host?: string;
  port?: number;
  /** the gate (pairing, scans, status); without it only health and settings answer */
  bridge?: GateBridge;
  events?: EventHub;
  /** the built web app (web/dist); without it no pages are served */
  webDist?: string | null;
  /** the data directory: with it the settings can be saved (PUT settings, settings-api.ts) */
  dir?: string;
  /** the settings API's hardware listings (tests hand in their own) */
  settings?: Pick<SettingsApiOptions, 'listPorts' | 'hid' | 'now'>;
}

/**
 * The station's local server: the gate screen and its API for a kiosk browser, a tablet or the
 * Electron window (docs/station.md "The local server"). Routes:
 * - `GET /health`, `GET|PUT /api/station/v1/settings` (relay passwords masked; PUT with the
 *   station PIN when one is set), `GET …/ports|hid|printers`, `POST …/relay/test|print/test`
 *   (settings-api.ts);
 * - `GET /api/station/v1/status` (online/offline, last sync, queue, readers, relay, printer),
 *   `GET /api/station/v1/events` (Server-Sent Events, see events.ts), `POST /api/station/v1/forget`
 *   (drop the pairing here only);
 * - the device protocol the gate screen calls, same paths and shapes as the server's:
 *   `POST /api/device/v1/pair`, `POST …/unpair`, `GET …/config`, `POST …/scan` (GateBridge);
 * - `GET /api/file/{key}`: a person's photo, fetched from the server with the station's token and
 *   kept in memory (GateBridge.photo), so the screen's `<img src=photoUrl>` works at the station;
 * - anything else under /api/ is a 404 in the product's error envelope; other GETs are the web app
 *   (static.ts: `/gate` is its gate screen; `/` redirects there).
 */
export async function startServer(station: Station, options: StationServerOptions = {}) {
  const host = options.host ?? station.config.http.host;
  const port = options.port ?? station.config.http.port;
  const { bridge, events, webDist, dir } = options;
  const settings = settingsApi({
    dir: dir ?? '',
    station,
    ...options.settings,
    onApplied: () => bridge?.publishStatus(true),
  });

  const route = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://station');
    const method = request.method ?? 'GET';
    const path = url.pathname;
    const isGet = method === 'GET' || method === 'HEAD';
    const only = (allowed: 'GET' | 'POST') => {
      if (allowed === 'GET' ? isGet : method === 'POST') return true;
      response.setHeader('allow', allowed === 'GET' ? 'GET, HEAD' : 'POST');
      fail(response, 405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
      return false;
    };
    if (path === '/health') {
      if (only('GET'))
        send(response, 200, {
          data: { status: 'ok', version: VERSION, readers: station.readerStatus(), relay: !!station.relay },
        });
      return;
    }
    if (path === '/api/station/v1/settings' && !isGet && !dir)
      return fail(response, 405, 'METHOD_NOT_ALLOWED', 'The settings are read-only here');
    if (await settings(request, response, path)) return;
    if (bridge && path === '/api/station/v1/status') {
      if (only('GET')) send(response, 200, { data: bridge.status() });
      return;
    }
    if (bridge && events && path === '/api/station/v1/events') {
      if (only('GET')) events.attach(request, response, [{ type: 'status', data: bridge.status() }]);
      return;
    }
    if (bridge && path === '/api/station/v1/forget') {
      if (!only('POST')) return;
      // the server revokes the station's token first; a pairing never made is simply nothing to forget
      send(response, 200, { data: bridge.status().paired ? await bridge.unpairSelf() : { unpaired: true } });
      return;
    }
    if (bridge && path.startsWith('/api/device/v1/')) {
      const what = path.slice('/api/device/v1/'.length);
      if (what === 'config') {
        if (only('GET')) send(response, 200, { data: await bridge.config() });
        return;
      }
      if (what === 'pair' || what === 'unpair' || what === 'scan') {
        if (!only('POST')) return;
        const body = ((await readJson(request)) ?? {}) as Record<string, unknown>;
        const code = text(body.code, 1000) ?? invalid('code');
        if (what === 'pair') {
          const name = typeof body.name === 'string' ? body.name.slice(0, 255) : undefined;
          send(response, 200, { data: await bridge.pair(code, name) });
        } else if (what === 'unpair') {
          send(response, 200, { data: await bridge.unpair(code) });
        } else {
          const direction = body.direction ?? 'entry';
          if (direction !== 'entry' && direction !== 'exit') invalid('direction');
          const nonce = text(body.nonce, 100) ?? invalid('nonce');
          const amount = body.amount ?? null;
          if (amount !== null && !(typeof amount === 'number' && Number.isInteger(amount) && amount >= 0))
            invalid('amount');
          send(response, 200, { data: await bridge.scan({ code, direction, nonce, amount }) });
        }
        return;
      }
    }
    if (bridge && path.startsWith('/api/file/')) {
      if (!only('GET')) return;
      let key = '';
      try {
        key = decodeURIComponent(path.slice('/api/file/'.length));
      } catch {
        // a malformed escape names no photo
      }
      const photo = await bridge.photo(key);
      if (!photo) return fail(response, 404, 'NOT_FOUND', 'No such photo here');
      response.writeHead(200, {
        'content-type': photo.type,
        'content-length': photo.body.length,
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
      });
      return void response.end(method === 'HEAD' ? undefined : photo.body);
    }
    // the station is a gate: its root (the Electron window, `chromium --app=http://127.0.0.1:8090`) is /gate
    if (isGet && path === '/' && webDist) {
      response.writeHead(302, { location: '/gate', 'cache-control': 'no-store' });
      return void response.end();
    }
    if (isGet && !path.startsWith('/api/') && webDist && serveStatic(webDist, request, response, path)) return;
    if (!isGet && !path.startsWith('/api/')) {
      response.setHeader('allow', 'GET, HEAD');
      return fail(response, 405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
    }
    fail(response, 404, 'NOT_FOUND', 'Not found');
  };

  const server = http.createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      if (error instanceof BridgeError) return fail(response, error.status, error.code, error.message, error.details);
      console.error('station server:', error);
      fail(response, 500, 'INTERNAL_ERROR', 'Internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        events?.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  } satisfies StationServer;
}
