import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Gate } from './gate-bridge.js';
import type { Printer } from './hardware/printer.js';
import type { SerialPortLike } from './hardware/serial-port.js';
import { startStation } from './main.js';
import type { GateResult, GateStatus } from './sync/index.js';

// ---- fakes at the boundaries: the serial ports, the Accredo server, the gate client, CUPS ----

/** A serial port in memory: `feed` is the scanner sending bytes, `written` what the station sent. */
class FakePort extends EventEmitter {
  isOpen = false;
  readonly written: Buffer[] = [];
  constructor(readonly path: string) {
    super();
  }
  open(callback: (error: Error | null) => void) {
    this.isOpen = true;
    callback(null);
  }
  close(callback?: (error?: Error | null) => void) {
    this.isOpen = false;
    callback?.(null);
  }
  write(data: Buffer, callback?: (error: Error | null | undefined) => void) {
    this.written.push(Buffer.from(data));
    callback?.(null);
    return true;
  }
  drain(callback: (error: Error | null) => void) {
    callback(null);
  }
  feed(text: string) {
    this.emit('data', Buffer.from(text, 'latin1'));
  }
}

function fakePorts() {
  const ports = new Map<string, FakePort>();
  const open = ({ path: file }: { path: string }) => {
    const port = new FakePort(file);
    ports.set(file, port);
    return port as unknown as SerialPortLike;
  };
  return { ports, open };
}

interface Seen {
  method: string;
  path: string;
  authorization?: string;
  body: unknown;
}

/** The server's device protocol as far as the station forwards it. */
async function fakeServer(options: { badge?: 'missing' | 'pdf' } = {}) {
  const seen: Seen[] = [];
  let up = true;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString();
    const body = text ? JSON.parse(text) : undefined;
    const path = (req.url ?? '').replace(/^\/api\/device\/v1\//, '');
    seen.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
    const json = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (!up) return json(503, { error: { code: 'INTERNAL_ERROR', message: 'down', details: null } });
    const authed = req.headers.authorization === 'Bearer server-token-1';
    if (path === 'pair') {
      if (body.code !== 'ACCREDO-PAIR.1.secret')
        return json(400, { error: { code: 'DEVICE_PAIR_CODE_INVALID', message: 'Invalid code', details: null } });
      return json(200, { data: { token: 'server-token-1', device: { id: 7, name: body.name, uid: body.uid } } });
    }
    if (!authed) return json(401, { error: { code: 'UNAUTHORIZED', message: 'Not paired', details: null } });
    if (path === 'config')
      return json(200, { data: { device: { id: 7, name: 'Desk 1' }, screen: { configured: true } } });
    if (path === 'unpair') return json(200, { data: { unpaired: true } });
    if (path === '/api/file/photo-key-1') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      return res.end('JPEG photo bytes');
    }
    if (path.startsWith('badge/')) {
      if (options.badge !== 'pdf')
        return json(404, { error: { code: 'NOT_FOUND', message: 'Not found', details: null } });
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end('%PDF-1.4 badge');
    }
    json(404, { error: { code: 'NOT_FOUND', message: 'Not found', details: null } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    setUp: (value: boolean) => {
      up = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The gate client, scripted: codes starting with OK are let in, anything else refused. */
class FakeGate implements Gate {
  readonly scans: [string, string, number | null][] = [];
  /** what a decision says it was (the scripted decisions are offline unless told) */
  offline = true;
  /** the store's sealed photos, by code */
  readonly photos = new Map<string, { url: string; photo: { type: string; body: Buffer } }>();
  started = false;
  discarded = false;
  paired = true;
  constructor(readonly pairing: { server: string; token: string }) {}
  async scan(code: string, direction: 'entry' | 'exit', amount: number | null): Promise<GateResult> {
    this.scans.push([code, direction, amount]);
    const allowed = code.startsWith('OK');
    return {
      nonce: `n-${this.scans.length}`,
      allowed,
      reason: allowed ? 'OK' : 'NOT_FOUND',
      data: {},
      info: false,
      effects: [],
      direction,
      at: Date.UTC(2026, 5, 1, 10),
      person: allowed
        ? {
            id: 42,
            customId: 1,
            firstname: 'Eva',
            lastname: 'Gate',
            bc: code,
            imageId: null,
            photoUrl: code.startsWith('OKP') ? '/api/file/photo-key-1' : null,
            groupIds: [],
            zoneIds: [],
            credit: 0,
            isUnlimited: false,
          }
        : null,
      offline: this.offline,
    };
  }
  status(): GateStatus {
    return {
      mode: 'offline',
      paired: this.paired,
      lastSyncAt: Date.UTC(2026, 5, 1, 9),
      lastSyncAgeMs: 1000,
      queue: this.scans.length,
      people: 3,
      lastError: 'no answer in 1500 ms',
      violations: 0,
    };
  }
  start() {
    this.started = true;
  }
  async stop() {}
  async discard() {
    this.discarded = true;
  }
  savePhoto(code: string, url: string, photo: { type: string; body: Buffer }) {
    this.photos.set(code, { url, photo });
  }
  loadPhoto(code: string, url: string) {
    const kept = this.photos.get(code);
    return kept?.url === url ? kept.photo : null;
  }
}

class FakePrinter implements Printer {
  readonly jobs: { pdf: string; printer: string; copies?: number }[] = [];
  async list() {
    return [];
  }
  async print(pdf: string | Buffer, options: { printer: string; copies?: number }) {
    this.jobs.push({ pdf: pdf.toString(), printer: options.printer, copies: options.copies });
    return { jobId: `job-${this.jobs.length}`, printer: options.printer };
  }
}

/** Reads a Server-Sent Events stream; `next(type)` resolves with the next event of that type. */
async function eventStream(url: string) {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const queue: { type: string; data: any }[] = [];
  const waiting: (() => void)[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (type && data) queue.push({ type, data: JSON.parse(data) });
          for (const wake of waiting.splice(0)) wake();
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    async next(type: string): Promise<any> {
      for (;;) {
        const index = queue.findIndex((event) => event.type === type);
        if (index >= 0) return queue.splice(index, 1)[0].data;
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    close: () => abort.abort(),
  };
}

// ---- set-up ----

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function station(config: Record<string, unknown>, extra: { webDist?: string } = {}) {
  const dir = tempDir('accredo-station-');
  fs.writeFileSync(path.join(dir, 'station.json'), JSON.stringify(config));
  const serial = fakePorts();
  const printer = new FakePrinter();
  const gates: FakeGate[] = [];
  const started = await startStation(
    { ACCREDO_STATION_DATA: dir, STATION_PORT: '0', WEB_DIST: extra.webDist ?? path.join(dir, 'no-web') },
    {
      openSerialPort: serial.open,
      printer,
      createGate: (pairing) => {
        const gate = new FakeGate(pairing);
        gates.push(gate);
        return gate;
      },
    },
  );
  cleanups.push(() => started.stop());
  const api = async (method: string, what: string, body?: unknown) => {
    const response = await fetch(`${started.server.url}${what}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  return { ...started, dir, serial, printer, gates, api };
}

async function server(options?: Parameters<typeof fakeServer>[0]) {
  const s = await fakeServer(options);
  cleanups.push(() => s.close());
  return s;
}

const pairBody = { code: 'ACCREDO-PAIR.1.secret', uid: 'browser-uid', name: 'Desk 1', appVersion: 'web-gate' };

// ---- tests ----

describe('the station serves the gate screen (web/dist)', () => {
  it('answers /gate with the app, assets compressed and cached, and no maps or stray files', async () => {
    const web = tempDir('accredo-web-');
    fs.mkdirSync(path.join(web, 'assets'));
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(web, 'assets', 'index-abc.js'), 'console.log(1)');
    fs.writeFileSync(path.join(web, 'assets', 'index-abc.js.br'), 'brotli bytes');
    fs.writeFileSync(path.join(web, 'assets', 'index-abc.js.map'), '{}');
    const s = await station({}, { webDist: web });

    const root = await fetch(`${s.server.url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/gate']);
    const page = await fetch(`${s.server.url}/gate`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('<div id="root">');

    const script = await fetch(`${s.server.url}/assets/index-abc.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-encoding')).toBe('br');
    expect(script.headers.get('cache-control')).toContain('immutable');
    const plain = await fetch(`${s.server.url}/assets/index-abc.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(await plain.text()).toBe('console.log(1)');

    for (const missing of ['/assets/index-abc.js.map', '/assets/gone.js', '/api/nothing', '/api/device/v1/upload'])
      expect((await fetch(`${s.server.url}${missing}`)).status, missing).toBe(404);
    const outside = await fetch(`${s.server.url}/..%2f..%2fetc%2fpasswd`);
    expect(await outside.text()).not.toContain('root:');
  });
});

describe('pairing through the station', () => {
  it('forwards the bc code with the station uid, keeps the token in its data dir, forwards config and caches it', async () => {
    const remote = await server();
    const s = await station({ server: { url: remote.url } });
    expect((await s.api('GET', '/api/device/v1/config')).status).toBe(401);

    const wrong = await s.api('POST', '/api/device/v1/pair', { ...pairBody, code: 'ACCREDO-PAIR.1.wrong' });
    expect(wrong).toEqual({
      status: 400,
      body: { error: { code: 'DEVICE_PAIR_CODE_INVALID', message: 'Invalid code', details: null } },
    });

    const paired = await s.api('POST', '/api/device/v1/pair', pairBody);
    expect(paired.status).toBe(200);
    expect(paired.body.data.token).toBe('station');
    expect(JSON.stringify(paired.body)).not.toContain('server-token-1');
    const pairCall = remote.seen.findLast((call) => call.path === 'pair')!;
    const pairing = JSON.parse(fs.readFileSync(path.join(s.dir, 'pairing.json'), 'utf8'));
    expect(pairCall.body).toMatchObject({ code: 'ACCREDO-PAIR.1.secret', uid: pairing.uid, name: 'Desk 1' });
    expect(pairing.uid).toMatch(/^station-/);
    expect(pairing).toMatchObject({ server: remote.url, token: 'server-token-1', deviceId: 7 });
    expect(fs.statSync(path.join(s.dir, 'pairing.json')).mode & 0o077).toBe(0);
    expect(s.gates).toHaveLength(1);
    expect(s.gates[0]).toMatchObject({ started: true, pairing: { server: remote.url, token: 'server-token-1' } });

    const config = await s.api('GET', '/api/device/v1/config');
    expect(config).toEqual({
      status: 200,
      body: { data: { device: { id: 7, name: 'Desk 1' }, screen: { configured: true } } },
    });
    expect(remote.seen.findLast((call) => call.path === 'config')?.authorization).toBe('Bearer server-token-1');
    remote.setUp(false);
    expect((await s.api('GET', '/api/device/v1/config')).body).toEqual(config.body);

    const status = (await s.api('GET', '/api/station/v1/status')).body.data;
    expect(status).toMatchObject({ paired: true, device: { id: 7 }, mode: 'offline', people: 3, server: remote.url });
  });

  it('unpairs with bcClear (forwarded), forgets locally, and a restarted station is still paired', async () => {
    const remote = await server();
    const s = await station({ server: { url: remote.url } });
    await s.api('POST', '/api/device/v1/pair', pairBody);
    const unpaired = await s.api('POST', '/api/device/v1/unpair', { code: 'ACCREDO-CLEAR.1.abc' });
    expect(unpaired).toEqual({ status: 200, body: { data: { unpaired: true } } });
    expect(remote.seen.findLast((call) => call.path === 'unpair')).toMatchObject({
      authorization: 'Bearer server-token-1',
      body: { code: 'ACCREDO-CLEAR.1.abc' },
    });
    expect(s.gates[0].discarded).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(s.dir, 'pairing.json'), 'utf8')).token).toBeNull();
    expect((await s.api('POST', '/api/device/v1/scan', { code: 'OK1', nonce: 'x' })).status).toBe(401);

    // the screen's Unpair button: the server revokes the station's own token first (no code)
    await s.api('POST', '/api/device/v1/pair', pairBody);
    const forgot = await s.api('POST', '/api/station/v1/forget');
    expect(forgot).toEqual({ status: 200, body: { data: { unpaired: true, revoked: true } } });
    expect(remote.seen.findLast((call) => call.path === 'unpair')).toMatchObject({ body: {} });
    expect((await s.api('GET', '/api/station/v1/status')).body.data.paired).toBe(false);
    expect((await s.api('POST', '/api/station/v1/forget')).body).toEqual({ data: { unpaired: true } });

    await s.api('POST', '/api/device/v1/pair', pairBody);
    await s.stop();
    cleanups.pop();
    const again = await startStation(
      { ACCREDO_STATION_DATA: s.dir, STATION_PORT: '0', WEB_DIST: s.dir },
      { createGate: (p) => new FakeGate(p) },
    );
    cleanups.push(() => again.stop());
    expect(again.bridge.status()).toMatchObject({ paired: true, device: { id: 7 } });
  });

  it('says so when the station has no server address', async () => {
    const s = await station({});
    const answer = await s.api('POST', '/api/device/v1/pair', pairBody);
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('STATION_NO_SERVER');
  });
});

describe('scans from the screen', () => {
  it('are decided by the gate client; a retry of the same nonce gets the same answer, another body NONCE_CONFLICT', async () => {
    const remote = await server();
    const s = await station({ server: { url: remote.url }, language: 'en' });
    await s.api('POST', '/api/device/v1/pair', pairBody);
    const body = {
      code: 'OK1',
      direction: 'exit',
      nonce: 'nonce-1',
      deviceTime: new Date().toISOString(),
      amount: null,
    };
    const first = await s.api('POST', '/api/device/v1/scan', body);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      allowed: true,
      reason: 'OK',
      direction: 'exit',
      at: '2026-06-01T10:00:00.000Z',
      person: { id: 42 },
      offline: true,
      replay: false,
    });
    expect(typeof first.body.data.message).toBe('string');
    const again = await s.api('POST', '/api/device/v1/scan', body);
    expect(again.body.data).toEqual({ ...first.body.data, replay: true });
    expect(s.gates[0].scans).toEqual([['OK1', 'exit', null]]);
    const conflict = await s.api('POST', '/api/device/v1/scan', { ...body, code: 'OK2' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('NONCE_CONFLICT');

    const invalid = await s.api('POST', '/api/device/v1/scan', { code: 'OK3', nonce: 'n2', direction: 'up' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'direction' }] });
    const broken = await fetch(`${s.server.url}/api/device/v1/scan`, { method: 'POST', body: '{' });
    expect(broken.status).toBe(400);
  });

  it('a token the server refuses unpairs the station (the screen goes back to pairing)', async () => {
    const remote = await server();
    const s = await station({ server: { url: remote.url } });
    await s.api('POST', '/api/device/v1/pair', pairBody);
    s.gates[0].paired = false;
    s.gates[0].scan = async (code, direction) => ({
      ...(await new FakeGate(s.gates[0].pairing).scan(code, direction, null)),
      offline: false,
      allowed: false,
      reason: 'UNAUTHORIZED',
    });
    const answer = await s.api('POST', '/api/device/v1/scan', { code: 'OK1', nonce: 'n' });
    expect(answer.status).toBe(401);
    expect((await s.api('GET', '/api/station/v1/status')).body.data.paired).toBe(false);
  });
});

describe('readers -> decision -> relay', () => {
  const config = (url: string, extra: Record<string, unknown> = {}) => ({
    server: { url },
    direction: 'entry',
    readers: [
      { id: 'in', type: 'serial', path: '/dev/fake-in' },
      { id: 'out', type: 'serial', path: '/dev/fake-out', terminator: 'LF', direction: 'exit' },
    ],
    relay: { type: 'serial', path: '/dev/fake-relay', openHex: 'A0 01 01 A2', closeHex: 'A0 01 00 A1', pulseMs: 0 },
    ...extra,
  });

  it('a code read by a reader is decided, pushed to the screens and opens the relay only when allowed', async () => {
    const remote = await server();
    const s = await station(config(remote.url));
    await s.api('POST', '/api/device/v1/pair', pairBody);
    const events = await eventStream(`${s.server.url}/api/station/v1/events`);
    cleanups.push(() => events.close());
    const first = await events.next('status');
    expect(first).toMatchObject({
      paired: true,
      readers: [
        { readerId: 'in', status: 'open' },
        { readerId: 'out', direction: 'exit' },
      ],
    });

    s.serial.ports.get('/dev/fake-in')!.feed('OK-100\r');
    expect(await events.next('scan')).toEqual({ readerId: 'in', code: 'OK-100', direction: 'entry' });
    const decision = await events.next('decision');
    expect(decision).toMatchObject({ readerId: 'in', code: 'OK-100', answer: { allowed: true, person: { id: 42 } } });
    await s.bridge.relayDone;
    expect(Buffer.concat(s.serial.ports.get('/dev/fake-relay')!.written).toString('hex')).toBe('a00101a2a00100a1');

    s.serial.ports.get('/dev/fake-out')!.feed('STRANGER\n');
    const refused = await events.next('decision');
    expect(refused).toMatchObject({
      readerId: 'out',
      answer: { allowed: false, reason: 'NOT_FOUND', direction: 'exit' },
    });
    await s.bridge.relayDone;
    expect(s.serial.ports.get('/dev/fake-relay')!.written).toHaveLength(2);
    expect(s.gates[0].scans).toEqual([
      ['OK-100', 'entry', null],
      ['STRANGER', 'exit', null],
    ]);
    // the queue grew: the status bar hears of it
    expect((await events.next('status')).queue).toBeGreaterThan(0);
  });

  it('a pairing code read by a reader pairs the station, a clearing code unpairs it; an unpaired station reports the scan failed', async () => {
    const remote = await server();
    const s = await station(config(remote.url));
    const events = await eventStream(`${s.server.url}/api/station/v1/events`);
    cleanups.push(() => events.close());
    const reader = s.serial.ports.get('/dev/fake-in')!;

    reader.feed('OK-1\r');
    expect(await events.next('failed')).toMatchObject({ readerId: 'in', code: 'OK-1', error: 'UNAUTHORIZED' });
    reader.feed('ACCREDO-PAIR.1.secret\r');
    expect(await events.next('paired')).toMatchObject({ device: { id: 7 } });
    expect(s.bridge.status().paired).toBe(true);
    reader.feed('ACCREDO-CLEAR.1.abc\r');
    await events.next('unpaired');
    expect(s.bridge.status().paired).toBe(false);
    expect(s.serial.ports.get('/dev/fake-relay')?.written ?? []).toHaveLength(0);
  });

  it('prints the badge on an allowed entry when the settings say so, through the server badge PDF hook', async () => {
    const missing = await server();
    const s = await station(config(missing.url, { printer: { name: 'desk-printer', copies: 2, printOnScan: true } }));
    await s.api('POST', '/api/device/v1/pair', pairBody);
    expect(await s.bridge.printBadge(42)).toBe('unavailable');
    expect(s.printer.jobs).toEqual([]);
    expect(s.bridge.status().printer).toMatchObject({ name: 'desk-printer', state: 'unavailable' });

    const withBadges = await server({ badge: 'pdf' });
    const p = await station(
      config(withBadges.url, { printer: { name: 'desk-printer', copies: 2, printOnScan: true } }),
    );
    await p.api('POST', '/api/device/v1/pair', pairBody);
    expect(await p.bridge.printBadge(42)).toBe('printed');
    expect(p.printer.jobs).toEqual([{ pdf: '%PDF-1.4 badge', printer: 'desk-printer', copies: 2 }]);
    expect(withBadges.seen.findLast((call) => call.path.startsWith('badge/'))).toMatchObject({
      path: 'badge/42',
      authorization: 'Bearer server-token-1',
    });
    // and from a scan: the allowed entry asks for the badge of its person
    const before = withBadges.seen.length;
    await p.api('POST', '/api/device/v1/scan', { code: 'OK-7', direction: 'entry', nonce: 'p1' });
    await p.bridge.printDone;
    expect(p.printer.jobs).toHaveLength(2);
    expect(withBadges.seen.slice(before).map((call) => call.path)).toContain('badge/42');
  });
});

describe('photos at the station', () => {
  it('proxies a photoUrl from the server with the station token, keeps it for offline, and refuses anything else', async () => {
    const remote = await server();
    const s = await station({ server: { url: remote.url } });
    const photo = (key: string) => fetch(`${s.server.url}/api/file/${key}`);
    expect((await photo('photo-key-1')).status).toBe(404); // not paired: nothing to ask
    await s.api('POST', '/api/device/v1/pair', pairBody);

    const first = await photo('photo-key-1');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/jpeg');
    expect(first.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(await first.text()).toBe('JPEG photo bytes');
    // the token went to the server, never to the browser
    expect(remote.seen.findLast((call) => call.path.startsWith('/api/file/'))).toMatchObject({
      method: 'GET',
      path: '/api/file/photo-key-1',
      authorization: 'Bearer server-token-1',
    });
    expect(JSON.stringify([...first.headers])).not.toContain('server-token-1');

    // the server is away: a photo seen once is still shown
    remote.setUp(false);
    const asked = remote.seen.length;
    const offline = await photo('photo-key-1');
    expect([offline.status, await offline.text()]).toEqual([200, 'JPEG photo bytes']);
    expect(remote.seen.length).toBe(asked);
    remote.setUp(true);

    // unknown, malformed or foreign keys: a 404 in the envelope, nothing else is fetched through it
    for (const key of ['unknown-key', '..%2F..%2Fapi%2Fdevice%2Fv1%2Fconfig', '%E0%A4%A', 'a%20b'])
      expect(await (await photo(key)).json(), key).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(remote.seen.slice(asked).map((call) => call.path)).toEqual(['/api/file/unknown-key']);
    const post = await fetch(`${s.server.url}/api/file/photo-key-1`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('keeps the photo of an online decision in the store, and offline after a restart opens it with the code', async () => {
    const remote = await server();
    const s = await station({ server: { url: remote.url } });
    await s.api('POST', '/api/device/v1/pair', pairBody);
    s.gates[0].offline = false;
    const online = await s.api('POST', '/api/device/v1/scan', { code: 'OKP-1', direction: 'entry', nonce: 'ph-1' });
    expect(online.body.data.person.photoUrl).toBe('/api/file/photo-key-1');
    await s.bridge.photoDone;
    const kept = s.gates[0].photos.get('OKP-1');
    expect(kept?.url).toBe('/api/file/photo-key-1');
    expect(kept?.photo.body.toString()).toBe('JPEG photo bytes');

    // another station process (nothing in memory) with that store; then the server goes away
    const again = await station({ server: { url: remote.url } });
    await again.api('POST', '/api/device/v1/pair', pairBody);
    remote.setUp(false);
    const gate = again.gates.at(-1)!;
    gate.photos.set('OKP-1', kept!);
    const asked = remote.seen.length;
    // before the decision the photo is nowhere: the server does not answer
    expect((await fetch(`${again.server.url}/api/file/photo-key-1`)).status).toBe(404);
    const offline = await again.api('POST', '/api/device/v1/scan', {
      code: 'OKP-1',
      direction: 'entry',
      nonce: 'ph-2',
    });
    expect(offline.body.data).toMatchObject({ offline: true, person: { photoUrl: '/api/file/photo-key-1' } });
    const photo = await fetch(`${again.server.url}/api/file/photo-key-1`);
    expect([photo.status, await photo.text()]).toEqual([200, 'JPEG photo bytes']);
    // the server was asked only before the decision (in vain); the photo came from the store
    expect(remote.seen.slice(asked).filter((call) => call.path.startsWith('/api/file/'))).toHaveLength(1);
  });
});
