import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { entryRules, type GateWorld, gateWorld } from './device-testing.js';

/*
 * Print on scan at a gate station (issue 12 "Printers") against the real backend: the station's
 * core (desktop/src/core, loaded by path like station-sync.spec.ts) pairs with the test app, a scan
 * at its local API is allowed, the station fetches GET api/device/v1/badge/{id} with its token and
 * prints it through CUPS on the cups-pdf queue; the PDF cups-pdf writes holds the person's name,
 * and the server logged the print. Needs CUPS with the queue (.ci/hardware.sh); skipped without it
 * outside CI.
 */
const QUEUE = process.env.ACCREDO_TEST_PRINTER ?? 'accredo-pdf';
const here = path.dirname(fileURLToPath(import.meta.url));
const coreDir = path.resolve(here, '../../../../desktop/src/core');

function cupsRunning(): boolean {
  try {
    return /is running/.test(execFileSync('lpstat', ['-r'], { encoding: 'utf8', env: { ...process.env, LANG: 'C' } }));
  } catch {
    return false;
  }
}
const cups = cupsRunning() || process.env.CI === 'true';
if (!cups) console.warn('! skipping the station print test: CUPS is not installed or not running; run .ci/hardware.sh');

/** The PDFs cups-pdf has written (its Out directory from cups-pdf.conf, ~/PDF for root). */
function printedPdfs(): Set<string> {
  let conf = '';
  try {
    conf = fs.readFileSync('/etc/cups/cups-pdf.conf', 'utf8');
  } catch {}
  const home = os.userInfo().homedir;
  const user = os.userInfo().username;
  const out = (/^Out\s+(.+)$/m.exec(conf)?.[1]?.trim() ?? `/var/spool/cups-pdf/${user}`)
    .replace('$' + '{HOME}', home)
    .replace('$' + '{USER}', user);
  const found = new Set<string>();
  for (const dir of [out, '/var/spool/cups-pdf/ANONYMOUS', path.join(home, 'PDF')])
    if (fs.existsSync(dir))
      for (const name of fs.readdirSync(dir)) if (name.endsWith('.pdf')) found.add(path.join(dir, name));
  return found;
}

/**
 * The codes of a printed PDF's QR codes (pdftoppm, then zbarimg). cups-pdf rewrites the PDF with
 * Ghostscript, which drops the text mapping of Chromium's embedded fonts (pdftotext reads other
 * glyphs), so the badge is recognised by the person's own code on it.
 */
const pdfCodes = (file: string): string[] => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-printed-'));
  try {
    execFileSync('pdftoppm', ['-r', '150', '-png', file, path.join(dir, 'page')], { stdio: 'ignore' });
    return fs
      .readdirSync(dir)
      .sort()
      .flatMap((page) => {
        try {
          return execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', path.join(dir, page)], {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'ignore'],
          })
            .trim()
            .split('\n');
        } catch {
          return [];
        }
      });
  } catch {
    return []; // still being written
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

interface StartedStation {
  server: { url: string };
  bridge: {
    printDone: Promise<unknown> | null;
    status(): { printer: { state: string; message: string | null } | null };
  };
  stop(): Promise<void>;
}

describe.skipIf(!cups)('a station prints the badge on scan from the real badge endpoint (issue 12)', () => {
  let t: TestApp;
  let w: GateWorld;
  let dir: string;
  let started: StartedStation | null = null;

  beforeAll(async () => {
    t = await createTestApp();
    w = await gateWorld(t);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-station-print-'));
  });
  afterAll(async () => {
    await started?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('an allowed entry prints the person’s badge on the cups-pdf queue, logged on the server', async () => {
    const badge = (
      await w.post('template', {
        name: 'Desk badge',
        pageSize: 'A6',
        htmlData: '<h1>{{firstname}} {{lastname}}</h1><div>{{bc}}</div>',
      })
    ).body.data;
    const press = (await w.post('groups', { name: 'Press', actionId: w.action.id, adminTemplateId: badge.id })).body
      .data;
    const tpl = await w.template(entryRules(press.id, 0));
    const person = await w.person(1, { firstname: 'Bohumila', lastname: 'Tiskova', groupIds: [press.id] });

    fs.writeFileSync(
      path.join(dir, 'station.json'),
      JSON.stringify({ server: { url: t.url }, language: 'en', printer: { name: QUEUE, printOnScan: true } }),
    );
    const { startStation } = (await import(/* @vite-ignore */ path.join(coreDir, 'main.ts'))) as {
      startStation(env: NodeJS.ProcessEnv): Promise<StartedStation>;
    };
    started = await startStation({ ACCREDO_STATION_DATA: dir, STATION_PORT: '0', WEB_DIST: path.join(dir, 'none') });
    const local = async (what: string, body: unknown) => {
      const res = await fetch(`${started?.server.url}/api/device/v1/${what}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const key = (await w.get('device/key')).body.data;
    const paired = await local('pair', { code: key.bc, name: 'Print desk' });
    expect(paired.status, JSON.stringify(paired.body)).toBe(200);
    await w.put(`device/${paired.body.data.device.id}`, {
      name: 'Print desk',
      uid: paired.body.data.device.uid,
      deviceTemplateId: tpl.id,
    });

    const before = printedPdfs();
    const scan = await local('scan', { code: person.bc, direction: 'entry', nonce: 'print-1' });
    expect(scan.body.data).toMatchObject({ allowed: true, offline: false, person: { id: person.id } });
    await started.bridge.printDone;
    expect(started.bridge.status().printer).toMatchObject({ state: 'printed' });
    // the server logged it as a print of the device
    const [row] = await t.ds.query('SELECT printCount FROM accreditation WHERE id = ?', [person.id]);
    expect(Number(row.printCount)).toBe(1);

    // cups-pdf writes the job's PDF (named after the job's title): this person's badge, one page
    const fresh = () => [...printedPdfs()].filter((file) => !before.has(file));
    const deadline = Date.now() + 30_000;
    let codes: string[] = [];
    try {
      while (!codes.length) {
        if (Date.now() > deadline) throw new Error(`no badge read back from ${fresh().join(', ') || 'no file'}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        codes = fresh().flatMap(pdfCodes);
      }
      expect(fresh().map((file) => path.basename(file))).toEqual([`badge-${person.id}.pdf`]);
    } finally {
      for (const file of fresh()) fs.rmSync(file, { force: true });
    }
    expect(codes).toEqual([person.bc]);
  }, 60_000);
});
