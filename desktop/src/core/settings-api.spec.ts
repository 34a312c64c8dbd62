import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configPath } from './config.js';
import type { HidDeviceInfo } from './hardware/hid-reader.js';
import type { SerialPortLike } from './hardware/serial-port.js';
import { type StartOptions, startStation } from './main.js';
import { PIN_THROTTLE, testPagePdf, verifyPin } from './settings-api.js';
import { hardwareAvailable, PtyPair, until } from './testing/hardware.js';

/** A serial port in memory (the scanner's side is `feed`). */
class FakePort extends EventEmitter {
  isOpen = false;
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
  write(_data: Buffer, callback?: (error: Error | null | undefined) => void) {
    callback?.(null);
    return true;
  }
  drain(callback: (error: Error | null) => void) {
    callback(null);
  }
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function station(options: StartOptions = {}, initial?: unknown) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-settings-'));
  if (initial) fs.writeFileSync(configPath(dir), JSON.stringify(initial));
  const core = await startStation({ ACCREDO_STATION_DATA: dir, STATION_HOST: '127.0.0.1', STATION_PORT: '0' }, options);
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  cleanup.push(() => core.stop());
  const call = async (method: string, what: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${core.server.url}/api/station/v1/${what}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const saved = () => JSON.parse(fs.readFileSync(configPath(dir), 'utf8'));
  return { core, dir, call, saved };
}

const settings = (over: Record<string, unknown> = {}) => ({
  server: { url: 'https://accredo.example.com' },
  language: 'de',
  direction: 'exit',
  kiosk: true,
  readers: [],
  relay: null,
  printer: null,
  ...over,
});

describe('the settings API', () => {
  it('saves the settings atomically and applies them without a restart (readers reopened)', async () => {
    const ports = new Map<string, FakePort>();
    const openSerialPort = ({ path: file }: { path: string }) => {
      const port = new FakePort(file);
      ports.set(file, port);
      return port as unknown as SerialPortLike;
    };
    const { core, call, saved, dir } = await station({ openSerialPort });
    const before = await call('GET', 'settings');
    expect(before.body.data).toMatchObject({ language: 'cs', readers: [], pinSet: false });
    expect(before.body.data.pin).toBeUndefined();

    const reader = {
      id: 'in',
      type: 'serial',
      path: '/dev/fake-in',
      baudRate: 115200,
      terminator: 'LF',
      prefix: ']C1',
    };
    const put = await call('PUT', 'settings', settings({ readers: [reader] }));
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ language: 'de', direction: 'exit', kiosk: true, pinSet: false });
    expect(saved()).toMatchObject({ language: 'de', readers: [reader], pin: null });
    // no temporary file left behind
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // in force now: the reader is open, the status says the new direction
    expect(core.station.readers.map((r) => r.id)).toEqual(['in']);
    await until(() => ports.get('/dev/fake-in')?.isOpen === true, 'the new reader to open');
    const status = await call('GET', 'status');
    expect(status.body.data).toMatchObject({ direction: 'exit', language: 'de' });
    expect(status.body.data.readers).toEqual([expect.objectContaining({ readerId: 'in' })]);

    // the reader removed: its port is closed
    await call('PUT', 'settings', settings({ readers: [] }));
    expect(core.station.readers).toEqual([]);
    expect(ports.get('/dev/fake-in')?.isOpen).toBe(false);
  });

  it('answers invalid settings with one error per field and keeps the saved file', async () => {
    const { call, saved } = await station({}, { language: 'en' });
    const bad = await call(
      'PUT',
      'settings',
      settings({
        language: 'fr',
        readers: [{ id: 'in', type: 'serial', path: '/dev/x', baudRate: -1 }],
        relay: { type: 'http', url: 'ftp://relay.local/open' },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const paths = bad.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['language', 'readers.0.baudRate', 'relay.url']));
    expect(saved()).toEqual({ language: 'en' });

    const twice = await call(
      'PUT',
      'settings',
      settings({
        readers: [
          { id: 'in', type: 'serial', path: '/dev/a' },
          { id: 'in', type: 'hid', vendorId: '0x0c2e', productId: '0x0b61' },
        ],
      }),
    );
    expect(twice.body.error.details).toEqual([expect.objectContaining({ path: 'readers.1.id' })]);
    const hex = await call('PUT', 'settings', settings({ relay: { type: 'serial', path: '/dev/r', openHex: 'ZZ' } }));
    expect(hex.body.error.details).toEqual([expect.objectContaining({ path: 'relay.openHex' })]);
    expect(saved()).toEqual({ language: 'en' });
  });

  it('keeps a masked relay password when the screen sends the settings back', async () => {
    const { call, saved } = await station();
    const relay = { type: 'http', url: 'http://admin:s3cret@relay.local/open', method: 'POST' };
    await call('PUT', 'settings', settings({ relay }));
    const shown = (await call('GET', 'settings')).body.data;
    expect(shown.relay.url).toBe('http://admin:***@relay.local/open');
    expect((await call('PUT', 'settings', { ...shown, language: 'sk' })).status).toBe(200);
    expect(saved().relay.url).toBe('http://admin:s3cret@relay.local/open');
    expect(saved().language).toBe('sk');
  });

  it('protects the writes with the station PIN once one is set', async () => {
    const { call, saved } = await station({}, { relay: { type: 'http', url: 'http://127.0.0.1:9/open' } });
    const short = await call('PUT', 'settings', settings({ newPin: '12' }));
    expect(short.body.error.details).toEqual([expect.objectContaining({ path: 'newPin' })]);

    const set = await call('PUT', 'settings', settings({ newPin: '4711' }));
    expect(set.body.data.pinSet).toBe(true);
    expect(set.body.data.pin).toBeUndefined();
    const stored = saved().pin as string;
    expect(stored).toMatch(/^scrypt\$/);
    expect(stored).not.toContain('4711');
    expect(await verifyPin('4711', stored)).toBe(true);

    const without = await call('PUT', 'settings', settings({ language: 'en' }));
    expect(without.status).toBe(401);
    expect(without.body.error).toMatchObject({ code: 'UNAUTHORIZED', details: [{ path: 'pin' }] });
    const wrong = await call('PUT', 'settings', settings({ language: 'en' }), { 'x-station-pin': '1111' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('FORBIDDEN');
    expect((await call('POST', 'relay/test')).status).toBe(401);
    expect((await call('POST', 'print/test', {})).status).toBe(401);
    expect(saved().language).toBe('de');
    // reading needs no PIN
    expect((await call('GET', 'settings')).status).toBe(200);

    const right = await call('PUT', 'settings', settings({ language: 'en' }), { 'x-station-pin': '4711' });
    expect(right.status).toBe(200);
    expect(saved().pin).toBe(stored);
    const cleared = await call('PUT', 'settings', settings({ newPin: null }), { 'x-station-pin': '4711' });
    expect(cleared.body.data.pinSet).toBe(false);
    expect((await call('PUT', 'settings', settings())).status).toBe(200);
  });

  it('throttles wrong PINs with growing waits; the right PIN ends the series', async () => {
    let now = 1_000_000;
    const { call } = await station({ settings: { now: () => now } });
    expect((await call('PUT', 'settings', settings({ newPin: '4711' }))).status).toBe(200);
    const put = (pin: string) => call('PUT', 'settings', settings({ language: 'en' }), { 'x-station-pin': pin });
    for (let i = 0; i < PIN_THROTTLE.free; i++) expect((await put('0000')).status).toBe(403);
    // now even the right PIN waits: a guesser gets one try a second, then two, four, ...
    const held = await put('4711');
    expect(held.status).toBe(429);
    expect(held.body.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', details: { retryAfter: 1 } });
    now += PIN_THROTTLE.firstWaitMs;
    expect((await put('0001')).status).toBe(403);
    now += PIN_THROTTLE.firstWaitMs;
    expect((await put('4711')).status).toBe(429);
    now += PIN_THROTTLE.firstWaitMs;
    expect((await put('4711')).status).toBe(200);
    // the series is over: a slip of the finger is not punished
    expect((await put('0000')).status).toBe(403);
    expect((await put('4711')).status).toBe(200);
  });

  it('lists the serial ports and the HID devices (one row per device, POS interface noted)', async () => {
    const devices: HidDeviceInfo[] = [
      { vendorId: 0x0c2e, productId: 0x0b61, product: 'Scanner', usagePage: 0x01, path: 'a' },
      { vendorId: 0x0c2e, productId: 0x0b61, product: 'Scanner', usagePage: 0x8c, path: 'b' },
      { vendorId: 0x046d, productId: 0xc31c, product: 'Keyboard', usagePage: 0x01, path: 'c' },
    ];
    const { call } = await station({
      settings: {
        listPorts: async () => [
          { path: '/dev/ttyACM0', manufacturer: 'Honeywell', vendorId: '0c2e', productId: '0b61' },
        ],
        hid: () => ({ devicesAsync: async () => devices }),
      },
    });
    expect((await call('GET', 'ports')).body.data).toEqual([
      { path: '/dev/ttyACM0', manufacturer: 'Honeywell', serialNumber: null, vendorId: '0c2e', productId: '0b61' },
    ]);
    expect((await call('GET', 'hid')).body.data).toEqual([
      { vendorId: 0x0c2e, productId: 0x0b61, product: 'Scanner', pos: true },
      { vendorId: 0x046d, productId: 0xc31c, product: 'Keyboard', pos: false },
    ]);

    const broken = await station({
      settings: {
        hid: () => {
          throw new Error('libusb missing');
        },
      },
    });
    const answer = await broken.call('GET', 'hid');
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ code: 'HID_UNAVAILABLE', message: expect.stringContaining('libusb') });
    // the real serialport enumeration answers a list
    const real = await broken.call('GET', 'ports');
    expect(real.status).toBe(200);
    expect(Array.isArray(real.body.data)).toBe(true);
  });

  it('says when there is no relay or printer to test', async () => {
    const { call } = await station();
    const relay = await call('POST', 'relay/test');
    expect(relay.status).toBe(400);
    expect(relay.body.error.details).toEqual([expect.objectContaining({ path: 'relay' })]);
    const print = await call('POST', 'print/test', {});
    expect(print.body.error.details).toEqual([expect.objectContaining({ path: 'printer.name' })]);
    expect((await call('GET', 'relay/test')).status).toBe(405);
  });

  it('makes a test page that is a PDF', () => {
    const pdf = testPagePdf(['Printer: desk (1)']).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf).toContain('(Printer: desk \\(1\\)) Tj');
    const xref = Number(/startxref\n(\d+)/.exec(pdf)?.[1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
  });
});

describe.skipIf(!hardwareAvailable('socat'))('the relay test button (serial relay on a pty pair)', () => {
  it('pulses the saved relay and reports a missing board', async () => {
    const pty = new PtyPair();
    await pty.plug();
    cleanup.push(() => pty.dispose());
    const { call } = await station();
    const relay = { type: 'serial', path: pty.station, openHex: 'A0 01 01 A2', closeHex: 'A0 01 00 A1', pulseMs: 0 };
    expect((await call('PUT', 'settings', settings({ relay }))).status).toBe(200);
    const test = await call('POST', 'relay/test');
    expect(test.body.data).toEqual({ ok: true, message: null });
    expect([...(await pty.read(8))]).toEqual([0xa0, 0x01, 0x01, 0xa2, 0xa0, 0x01, 0x00, 0xa1]);

    await call('PUT', 'settings', settings({ relay: { ...relay, path: path.join(pty.dir, 'gone') } }));
    const missing = await call('POST', 'relay/test');
    expect(missing.status).toBe(200);
    expect(missing.body.data.ok).toBe(false);
    expect(missing.body.data.message).toEqual(expect.any(String));
  });
});

/** The PDFs cups-pdf has written (its Out directory from cups-pdf.conf, ~/PDF for root). */
function printedPdfs(): Set<string> {
  let conf = '';
  try {
    conf = fs.readFileSync('/etc/cups/cups-pdf.conf', 'utf8');
  } catch {}
  const home = os.userInfo().homedir;
  const out = (/^Out\s+(.+)$/m.exec(conf)?.[1]?.trim() ?? `/var/spool/cups-pdf/${os.userInfo().username}`)
    .replace('$' + '{HOME}', home)
    .replace('$' + '{USER}', os.userInfo().username);
  const found = new Set<string>();
  for (const dir of [out, '/var/spool/cups-pdf/ANONYMOUS', path.join(home, 'PDF')])
    if (fs.existsSync(dir))
      for (const name of fs.readdirSync(dir)) if (name.endsWith('.pdf')) found.add(path.join(dir, name));
  return found;
}

function pdfText(file: string): string {
  try {
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return ''; // still being written
  }
}

describe.skipIf(!hardwareAvailable('cups'))('printers and the test print (CUPS)', () => {
  const queue = process.env.ACCREDO_TEST_PRINTER ?? 'accredo-pdf';
  it('lists the CUPS printers and prints a test page on the chosen one', async () => {
    const { call } = await station();
    const printers = await call('GET', 'printers');
    expect(printers.body.data.map((p: { name: string }) => p.name)).toContain(queue);
    const before = printedPdfs();
    const job = await call('POST', 'print/test', { printer: queue });
    expect(job.status).toBe(200);
    expect(job.body.data).toMatchObject({ ok: true, printer: queue, jobId: expect.stringMatching(/-\d+$/) });
    // cups-pdf wrote the test page: it says what it is and which printer
    const fresh = () => [...printedPdfs()].filter((file) => !before.has(file));
    const text = () =>
      fresh()
        .map((file) => pdfText(file))
        .join('\n');
    try {
      await until(() => text().includes('Accredo Station: test page'), 'cups-pdf to write the test page', 30_000);
      expect(text()).toContain(`Printer: ${queue}`);
    } finally {
      for (const file of fresh()) fs.rmSync(file, { force: true });
    }
    const missing = await call('POST', 'print/test', { printer: 'no-such-printer' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('PRINTER_NOT_FOUND');
  });
});
