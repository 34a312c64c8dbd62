import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './axe';
import { adminApi, provisionAdmin, useEnglish } from './support';

/**
 * The headless gate station (issue 12) in a real Chromium: the station's core (desktop/dist, built
 * by `npm run build`) runs against this e2e server with a serial scanner and a serial relay board
 * on pseudo-terminal pairs (socat, installed by .ci/hardware.sh). The gate screen is opened from the
 * station's own local server; it is paired by typing the subject's `bc` code; a code written into
 * the scanner's pty is decided, shown on the screen, and the relay's open/close bytes arrive on the
 * relay's pty.
 */

const STATION_MAIN = path.join(import.meta.dirname, '..', '..', 'desktop', 'dist', 'core', 'main.js');
const OPEN_HEX = 'a00101a2';
const CLOSE_HEX = 'a00100a1';

function hasSocat(): boolean {
  try {
    execFileSync('socat', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A virtual serial cable: `station` is the port the station opens, `far` the scanner's/board's end. */
class PtyPair {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-e2e-pty-'));
  readonly station = path.join(this.dir, 'station');
  readonly far = path.join(this.dir, 'far');
  #socat: ChildProcess | null = null;
  #fd: number | null = null;

  async plug(): Promise<void> {
    const socat = spawn(
      'socat',
      ['-d', '-d', `pty,raw,echo=0,link=${this.station}`, `pty,raw,echo=0,link=${this.far}`],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    this.#socat = socat;
    await new Promise<void>((resolve, reject) => {
      let log = '';
      socat.stderr?.on('data', (chunk) => {
        log += chunk;
        if (/starting data transfer loop/.test(log)) resolve();
      });
      socat.once('exit', (code) => reject(new Error(`socat exited (${code}): ${log}`)));
    });
    this.#fd = fs.openSync(this.far, fs.constants.O_RDWR | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
  }

  write(text: string) {
    fs.writeSync(this.#fd!, Buffer.from(text, 'latin1'));
  }

  /** What has arrived at the far end so far (non-blocking). */
  readAvailable(): Buffer {
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(256);
    for (;;) {
      let n = 0;
      try {
        n = fs.readSync(this.#fd!, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
        throw error;
      }
      if (n <= 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    }
    return Buffer.concat(chunks);
  }

  dispose() {
    if (this.#fd !== null) fs.closeSync(this.#fd);
    this.#fd = null;
    this.#socat?.kill('SIGTERM');
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Starts `node desktop/dist/core/main.js` and resolves with the gate screen's address it prints. */
async function startStation(dir: string): Promise<{ url: string; process: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, [STATION_MAIN], {
    env: { ...process.env, ACCREDO_STATION_DATA: dir, STATION_PORT: '0', STATION_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk;
      const m = /gate screen at (http:\/\/\S+)/.exec(log);
      if (m) resolve(m[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the station exited (${code}): ${log}`)));
  });
  return { url, process: child, log: () => log };
}

const ml = (text: string) => ({ cs: text, sk: '', en: text, de: '' });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test.describe('gate station (headless)', () => {
  test.skip(!hasSocat() && !process.env.CI, 'socat is not installed: run .ci/hardware.sh');
  test.skip(!fs.existsSync(STATION_MAIN), 'desktop/ is not built: npm run build');

  const cleanups: (() => void)[] = [];
  test.afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });

  test('pair by code, scan on a serial reader, see the decision, the relay opens', async ({
    page,
    request,
    baseURL,
  }) => {
    // the event over the admin API: an action running now, a group, a person in it, an entry template
    const admin = await provisionAdmin(request);
    const api = await adminApi(request, admin);
    const action = await api.post('action', {
      name: ml('Station fest'),
      dateFrom: `${day(-1)}T00:00`,
      dateTo: `${day(30)}T23:59`,
    });
    const group = await api.post('groups', { name: 'Visitors', actionId: action.id });
    const person = await api.post('user', {
      actionId: action.id,
      firstname: 'Petra',
      lastname: 'Brana',
      email: `petra-${Date.now()}@e2e.test`,
      groupIds: [group.id],
    });
    const template = await api.post('device-template', {
      name: 'Station entrance',
      actionId: action.id,
      data: {
        mode: 1,
        rules: [{ groupId: group.id, entrances: 0, daily: false, levelId: 0, info: false, customRule: [] }],
        globalRule: null,
      },
    });
    const key = (await (await api.get('device/key')).json()).data as { bc: string; bcClear: string };

    // the station: a scanner and a relay board on pseudo-terminals, the server this e2e runs
    const reader = new PtyPair();
    const relay = new PtyPair();
    cleanups.push(
      () => reader.dispose(),
      () => relay.dispose(),
    );
    await reader.plug();
    await relay.plug();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-e2e-station-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(
      path.join(dir, 'station.json'),
      JSON.stringify({
        server: { url: baseURL },
        language: 'en',
        direction: 'entry',
        readers: [{ id: 'desk', type: 'serial', path: reader.station, terminator: 'CR' }],
        relay: { type: 'serial', path: relay.station, openHex: OPEN_HEX, closeHex: CLOSE_HEX, pulseMs: 50 },
      }),
    );
    const station = await startStation(dir);
    cleanups.push(() => station.process.kill('SIGTERM'));

    // the gate screen from the station, paired by typing the subject's code
    await useEnglish(page);
    await page.goto(`${station.url}/gate`);
    const bar = page.getByRole('region', { name: 'Station status' });
    await expect(bar.getByText('Station not paired')).toBeVisible();
    await expect(bar.getByText('Reader desk: ready')).toBeVisible();
    await page.getByRole('textbox', { name: /Pairing code/ }).fill(key.bc);
    await page.getByRole('textbox', { name: /Pairing code/ }).press('Enter');
    await expect(page.getByRole('textbox', { name: /Badge code/ })).toBeVisible();
    // the device token lives in the station's data directory, not in the browser
    const pairing = JSON.parse(fs.readFileSync(path.join(dir, 'pairing.json'), 'utf8'));
    expect(pairing.token).toMatch(/.{20,}/);
    const stored = await page.evaluate(() => JSON.stringify(window.localStorage));
    expect(stored).not.toContain(pairing.token);

    // the new device gets the template; the screen shows it after a reload
    const devices = (await (await api.get('device')).json()).data as { id: number; uid: string; name: string }[];
    const device = devices.find((d) => d.uid === pairing.uid)!;
    expect(device).toBeTruthy();
    const put = await request.put(`/api/admin/v1/device/${device.id}`, {
      headers: api.headers,
      data: { name: device.name, uid: device.uid, deviceTemplateId: template.id },
    });
    expect(put.ok()).toBe(true);
    await page.getByRole('button', { name: 'Reload configuration' }).click();
    await expect(page.getByText('Station entrance')).toBeVisible();
    await expect(bar.getByText('Online')).toBeVisible();

    // a badge at the serial scanner: allowed on the screen, the relay pulses
    reader.write(`${person.bc}\r`);
    const decision = page.getByRole('status');
    await expect(decision).toContainText('Allowed');
    await expect(decision).toContainText('Petra Brana');
    let relayBytes = Buffer.alloc(0);
    await expect
      .poll(() => {
        relayBytes = Buffer.concat([relayBytes, relay.readAvailable()]);
        return relayBytes.toString('hex');
      })
      .toBe(OPEN_HEX + CLOSE_HEX);

    // an unknown code: refused, and the relay stays shut (nothing more arrives before the next pulse)
    reader.write('NOBODY0001\r');
    await expect(decision).toContainText('Refused');
    reader.write(`${person.bc}\r`);
    await expect(page.getByText(/Scans this session: 3 \(allowed 2, refused 1\)/)).toBeVisible();
    relayBytes = Buffer.alloc(0);
    await expect
      .poll(() => {
        relayBytes = Buffer.concat([relayBytes, relay.readAvailable()]);
        return relayBytes.toString('hex');
      })
      .toBe(OPEN_HEX + CLOSE_HEX);
  });
});
