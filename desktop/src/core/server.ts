import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { publicConfig } from './config.js';
import type { Station } from './station.js';

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

/**
 * The station's local server: the gate screen and its API for a kiosk browser, a tablet or the
 * Electron window. For now the health and the settings; the gate screen comes with the gate.
 * Routes: `GET /health`, `GET /api/station/v1/settings`; anything else is a 404 in the product's
 * error envelope.
 */
export async function startServer(station: Station, options: { host?: string; port?: number } = {}) {
  const host = options.host ?? station.config.http.host;
  const port = options.port ?? station.config.http.port;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://station');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(response, 405, {
        error: { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed', details: null },
      });
    if (url.pathname === '/health')
      return send(response, 200, {
        data: { status: 'ok', version: VERSION, readers: station.readerStatus(), relay: !!station.relay },
      });
    if (url.pathname === '/api/station/v1/settings') return send(response, 200, { data: publicConfig(station.config) });
    send(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found', details: null } });
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
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  } satisfies StationServer;
}
