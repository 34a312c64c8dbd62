import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hardwareAvailable, until } from '../testing/hardware.js';
import { CupsPrinter, parseDestinations, parseJobId, PrinterError } from './printer.js';

const QUEUE = process.env.ACCREDO_TEST_PRINTER ?? 'accredo-pdf';

/** A one-page PDF with the given text (Helvetica), small enough to write by hand. */
function pdfWithText(text: string): Buffer {
  const stream = `BT /F1 24 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 298 420] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** Where cups-pdf puts a job's output: its `Out` directory (with ${HOME}) or the anonymous one. */
function cupsPdfDirs(): string[] {
  let conf = '';
  try {
    conf = fs.readFileSync('/etc/cups/cups-pdf.conf', 'utf8');
  } catch {}
  const setting = (name: string) => new RegExp(`^${name}\\s+(.+)$`, 'm').exec(conf)?.[1]?.trim();
  const home = os.userInfo().homedir;
  // cups-pdf's own variables, `$` `{HOME}` and `$` `{USER}`, written so they are not template placeholders
  const out = (setting('Out') ?? '/var/spool/cups-pdf/$' + '{USER}')
    .replace('$' + '{HOME}', home)
    .replace('$' + '{USER}', os.userInfo().username);
  return [out, setting('AnonDirName') ?? '/var/spool/cups-pdf/ANONYMOUS', path.join(home, 'PDF')];
}

function pdfsIn(dirs: string[]): Set<string> {
  const found = new Set<string>();
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir)) if (name.endsWith('.pdf')) found.add(path.join(dir, name));
  }
  return found;
}

describe('lp and lpstat output', () => {
  it('parses destinations with the default one and a job id', () => {
    expect(parseDestinations('badge\naccredo-pdf\n', 'system default destination: accredo-pdf\n')).toEqual([
      { name: 'badge', isDefault: false },
      { name: 'accredo-pdf', isDefault: true },
    ]);
    expect(parseDestinations('', 'no system default destination')).toEqual([]);
    expect(parseJobId('request id is accredo-pdf-12 (1 file(s))\n')).toBe('accredo-pdf-12');
  });

  it('says clearly that CUPS is missing', async () => {
    const printer = new CupsPrinter({ lp: '/nonexistent/lp', lpstat: '/nonexistent/lpstat' });
    const error = await printer.list().catch((e) => e);
    expect(error).toBeInstanceOf(PrinterError);
    expect(error.code).toBe('CUPS_MISSING');
    expect(error.message).toMatch(/CUPS is not installed.*apt-get install/);
    await expect(printer.print(Buffer.from('%PDF'), { printer: 'x' })).rejects.toMatchObject({ code: 'CUPS_MISSING' });
  });
});

describe.skipIf(!hardwareAvailable('cups'))('printing through CUPS (cups-pdf queue)', () => {
  const printer = new CupsPrinter();

  it('lists the system printers', async () => {
    const printers = await printer.list();
    expect(printers.map((p) => p.name)).toContain(QUEUE);
  });

  it('prints a PDF buffer and a PDF file, and the printed PDFs hold the text', async () => {
    const dirs = cupsPdfDirs();
    const before = pdfsIn(dirs);
    const marker = `BADGE-${process.pid}-${Date.now()}`;
    const job = await printer.print(pdfWithText(marker), { printer: QUEUE, title: `accredo-${marker}` });
    expect(job.jobId).toMatch(new RegExp(`^${QUEUE}-\\d+$`));

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-print-')), 'badge.pdf');
    fs.writeFileSync(file, pdfWithText(`${marker}-FILE`));
    const second = await printer.print(file, { printer: QUEUE, copies: 1, title: `accredo-${marker}-file` });
    expect(second.jobId).not.toBe(job.jobId);

    const printed = () => [...pdfsIn(dirs)].filter((f) => !before.has(f));
    const texts = () =>
      printed().map((f) => {
        try {
          return execFileSync('pdftotext', [f, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
        } catch {
          return ''; // still being written
        }
      });
    const fromBuffer = (t: string) => t.includes(marker) && !t.includes(`${marker}-FILE`);
    try {
      await until(
        () => texts().some(fromBuffer) && texts().some((t) => t.includes(`${marker}-FILE`)),
        'cups-pdf to write both PDFs',
        30_000,
      );
    } finally {
      await until(() => texts().every(Boolean), 'the PDFs to be complete', 30_000).catch(() => {});
      for (const f of printed()) fs.rmSync(f, { force: true });
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it('names a printer that does not exist', async () => {
    const error = await printer.print(pdfWithText('x'), { printer: 'no-such-printer' }).catch((e) => e);
    expect(error).toBeInstanceOf(PrinterError);
    expect(error.code).toBe('PRINTER_NOT_FOUND');
    expect(error.message).toContain('no-such-printer');
  });
});
