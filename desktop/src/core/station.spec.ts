import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig, saveConfig } from './config.js';
import type { Scan } from './hardware/reader.js';
import { startStation } from './main.js';
import { hardwareAvailable, once, PtyPair } from './testing/hardware.js';

const dirs: string[] = [];
function dataDir(config?: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-station-'));
  dirs.push(dir);
  if (config !== undefined) fs.writeFileSync(path.join(dir, 'station.json'), JSON.stringify(config));
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('station settings', () => {
  it('has defaults when there is no settings file', () => {
    expect(loadConfig(dataDir())).toMatchObject({
      server: { url: null },
      http: { host: '127.0.0.1', port: 8090 },
      language: 'cs',
      direction: 'entry',
      readers: [],
      relay: null,
      printer: null,
    });
  });

  it('reads readers, relay and printer with their defaults, hex USB ids included', () => {
    const config = parseConfig({
      server: { url: 'https://accredo.example.com' },
      language: 'de',
      readers: [
        { id: 'in', type: 'serial', path: '/dev/ttyACM0', direction: 'entry' },
        { id: 'out', type: 'hid', vendorId: '0x05e0', productId: '1200', direction: 'exit' },
      ],
      relay: { type: 'serial', path: '/dev/ttyUSB0', openHex: 'A00101A2', closeHex: 'A00100A1' },
      printer: { name: 'badge' },
    });
    expect(config.readers).toEqual([
      { id: 'in', type: 'serial', path: '/dev/ttyACM0', baudRate: 9600, terminator: 'CR', direction: 'entry' },
      { id: 'out', type: 'hid', vendorId: 0x05e0, productId: 0x1200, format: 'auto', direction: 'exit' },
    ]);
    expect(config.relay).toMatchObject({ type: 'serial', pulseMs: 500, baudRate: 9600 });
    expect(config.printer).toEqual({ name: 'badge', copies: 1, printOnScan: false });
  });

  it('names the file and the field of a broken setting, and duplicate reader ids', () => {
    const dir = dataDir({ readers: [{ id: 'a', type: 'serial' }], language: 'fr' });
    expect(() => loadConfig(dir)).toThrow(ConfigError);
    expect(() => loadConfig(dir)).toThrow(/station\.json is not valid: (?=.*readers\.0\.path)(?=.*language)/);
    fs.writeFileSync(path.join(dir, 'station.json'), '{"readers": [');
    expect(() => loadConfig(dir)).toThrow(/station\.json is not JSON/);
    const twice = { id: 'a', type: 'serial', path: '/dev/ttyS0' };
    expect(() => parseConfig({ readers: [twice, twice] })).toThrow(/two readers have the id "a"/);
  });

  it('saves and reads back the same settings', () => {
    const dir = dataDir();
    const config = parseConfig({ kiosk: true, relay: { type: 'http', url: 'http://10.0.0.9/relay/0?turn=on' } });
    saveConfig(dir, config);
    expect(loadConfig(dir)).toEqual(config);
    expect(fs.readdirSync(dir)).toEqual(['station.json']);
  });
});

describe('the headless station (npm run station)', () => {
  it('serves its health and its settings (relay password masked) on the configured port', async () => {
    const dir = dataDir({
      language: 'en',
      relay: { type: 'http', url: 'http://admin:secret@10.0.0.9/relay/0?turn=on' },
    });
    const station = await startStation({ ACCREDO_STATION_DATA: dir, STATION_PORT: '0' });
    try {
      expect(station.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${station.server.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ data: { status: 'ok', version: '0.1.0', readers: [], relay: true } });

      const settings: any = await (await fetch(`${station.server.url}/api/station/v1/settings`)).json();
      expect(settings.data.language).toBe('en');
      expect(settings.data.relay.url).toBe('http://admin:***@10.0.0.9/relay/0?turn=on');
      expect(JSON.stringify(settings)).not.toContain('secret');

      // any other path outside /api/ is the web app's (gate-bridge.spec.ts)
      const missing = await fetch(`${station.server.url}/api/nothing`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found', details: null } });
    } finally {
      await station.stop();
    }
  });

  it('refuses to start on broken settings', async () => {
    const dir = dataDir({ http: { port: 'eighty' } });
    await expect(startStation({ ACCREDO_STATION_DATA: dir, STATION_PORT: '0' })).rejects.toThrow(/http\.port/);
  });

  it.skipIf(!hardwareAvailable('socat'))(
    'opens its serial readers: scans carry the reader direction, else the station direction',
    async () => {
      const left = new PtyPair();
      const right = new PtyPair();
      await left.plug();
      await right.plug();
      const dir = dataDir({
        direction: 'exit',
        readers: [
          { id: 'left', type: 'serial', path: left.station },
          { id: 'right', type: 'serial', path: right.station, terminator: 'LF', direction: 'entry' },
        ],
      });
      const station = await startStation({ ACCREDO_STATION_DATA: dir, STATION_PORT: '0' });
      try {
        const health: any = await (await fetch(`${station.server.url}/health`)).json();
        expect(health.data.readers.map((r: { readerId: string; status: string }) => [r.readerId, r.status])).toEqual([
          ['left', 'open'],
          ['right', 'open'],
        ]);
        const scans: Scan[] = [];
        station.station.onScan((scan) => scans.push(scan));
        const both = Promise.all([
          once(station.station.readers[0] as never, 'scan'),
          once(station.station.readers[1] as never, 'scan'),
        ]);
        left.write('LEFT1\r');
        right.write('RIGHT1\n');
        await both;
        expect(scans.map((s) => [s.readerId, s.code, s.direction]).sort()).toEqual([
          ['left', 'LEFT1', 'exit'],
          ['right', 'RIGHT1', 'entry'],
        ]);
      } finally {
        await station.stop();
        await left.dispose();
        await right.dispose();
      }
    },
  );
});
