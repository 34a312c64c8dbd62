import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OfflineStore, type QueuedScan } from '../store/store.js';
import { FakeClock } from './clock.js';
import { GateClient } from './gate.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The sync loop and the upload's edge cases with a scripted server (the real one: station-sync.spec.ts). */
describe('gate client: rounds, backoff and a refused upload', () => {
  let dir: string;
  let store: OfflineStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-gate-'));
    store = OfflineStore.open(path.join(dir, 'store.db'));
  });
  afterEach(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('start() polls on the clock, backs off to the cap while the server is away, and stop() ends it', async () => {
    const clock = new FakeClock(1_000_000);
    const calls: string[] = [];
    let up = false;
    const fetch = async (url: string | URL | Request) => {
      calls.push(String(url).replace(/^.*\/api\/device\/v1\//, ''));
      if (!up) throw new TypeError('fetch failed');
      if (String(url).includes('snapshot'))
        return json(200, {
          data: { template: null, action: null, timeZone: 'UTC', people: [], next: null, cursor: '0.0' },
        });
      return json(200, { data: { people: [], cursor: '0.0', more: false } });
    };
    const gate = new GateClient({
      server: 'http://station.test',
      token: 't',
      store,
      clock,
      fetch,
      pollMs: 1000,
      maxBackoffMs: 8000,
    });
    const flush = () => new Promise((r) => setImmediate(r));
    gate.start();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      clock.advance(i === 0 ? 0 : gate.nextDelay());
      await flush();
      waits.push(gate.nextDelay());
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect(gate.status()).toMatchObject({ mode: 'offline', lastSyncAt: null });
    up = true;
    clock.advance(8000);
    await flush();
    expect(gate.status()).toMatchObject({ mode: 'online', lastSyncAt: clock.now() });
    expect(gate.nextDelay()).toBe(1000);
    const before = calls.length;
    await gate.stop();
    clock.advance(60_000);
    await flush();
    expect(calls.length).toBe(before);
    expect(clock.pending()).toBe(0);
  });

  it('a batch refused as invalid is sent scan by scan; the one refused scan is reported, not retried forever', async () => {
    const clock = new FakeClock(1_000_000);
    const scan = (nonce: string): QueuedScan => ({
      nonce,
      code: 'CODE1234',
      direction: 'entry',
      scanTime: clock.now(),
      amount: null,
      allowed: false,
      reason: 'NOT_FOUND',
    });
    for (const n of ['a', 'bad', 'c']) store.recordOffline(scan(n), []);
    const uploads: string[][] = [];
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      if (!String(url).endsWith('/upload'))
        return String(url).includes('snapshot')
          ? json(200, {
              data: { template: null, action: null, timeZone: 'UTC', people: [], next: null, cursor: '0.0' },
            })
          : json(200, { data: { people: [], cursor: '0.0', more: false } });
      const nonces = (JSON.parse(String(init?.body)) as { scans: QueuedScan[] }).scans.map((s) => s.nonce);
      uploads.push(nonces);
      if (nonces.includes('bad'))
        return json(400, { error: { code: 'VALIDATION', message: 'Invalid', details: null } });
      return json(200, {
        data: {
          results: nonces.map((nonce) => ({
            nonce,
            allowed: false,
            reason: 'NOT_FOUND',
            person: null,
            violation: false,
          })),
          violations: 0,
          failed: nonces.length,
        },
      });
    };
    const gate = new GateClient({ server: 'http://station.test', token: 't', store, clock, fetch });
    await gate.sync();
    expect(uploads).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
    expect(gate.status()).toMatchObject({ mode: 'online', queue: 0, violations: 1 });
    expect(gate.violations).toEqual([expect.objectContaining({ nonce: 'bad', serverReason: 'VALIDATION' })]);
  });
});
