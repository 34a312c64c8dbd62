import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type SheetRow,
  type SpillRow,
  Spill,
  sheetRows,
  stopParser,
  TextSet,
  WARM_ROWS,
  waitingParser,
  warmParser,
} from './accreditation-import.js';

/** A sheet written by exceljs's streaming writer (shared strings, as Excel saves), as bytes. */
async function xlsx(rows: unknown[][], useSharedStrings = true): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new PassThrough();
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings });
  const ws = wb.addWorksheet('import');
  for (const r of rows) ws.addRow(r).commit();
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

async function readAll(file: Buffer, batch?: number): Promise<{ rows: SheetRow[]; batches: number }> {
  const rows: SheetRow[] = [];
  let batches = 0;
  for await (const b of sheetRows(Readable.from([file.subarray(0, 1000), file.subarray(1000)]), batch)) {
    rows.push(...b);
    batches++;
  }
  return { rows, batches };
}

describe('the import parser worker (issue 16)', () => {
  it('reads shared strings (kept as UTF-8 bytes in the worker) as exceljs reads them: diacritics, rich text, entities, spaces', async () => {
    const sheet = [
      ['firstname', 'lastname', 'email'],
      ['Žluťoučký kůň', { richText: [{ text: 'Bold ', font: { bold: true } }, { text: 'part' }] }, 'a & <b> "q"'],
      ['  spaced  ', 12, null, '', '日本語 😀'],
      ['Žluťoučký kůň', 'again', 'a & <b> "q"'],
    ];
    const { rows } = await readAll(await xlsx(sheet));
    expect(rows).toEqual([
      [1, ['firstname', 'lastname', 'email']],
      [2, ['Žluťoučký kůň', 'Bold part', 'a & <b> "q"']],
      [3, ['spaced', '12', '', '', '日本語 😀']],
      [4, ['Žluťoučký kůň', 'again', 'a & <b> "q"']],
    ]);
    // inline strings (no shared strings part) read the same (exceljs reads an inline rich text's
    // last run only, so none here)
    const inline = await readAll(await xlsx([sheet[0], ['Žluťoučký kůň', 'a & <b> "q"', '  x ']], false));
    expect(inline.rows).toEqual([
      [1, ['firstname', 'lastname', 'email']],
      [2, ['Žluťoučký kůň', 'a & <b> "q"', 'x']],
    ]);
  });

  it('hands over every row of a larger sheet in batches, in order', async () => {
    const sheet = Array.from({ length: 2000 }, (_, i) => [`First${i}`, `Last${i}`, `p${i}@example.com`, `Co ${i % 7}`]);
    const { rows, batches } = await readAll(await xlsx(sheet), 250);
    expect(batches).toBe(8);
    expect(rows.length).toBe(2000);
    expect(rows[0]).toEqual([1, ['First0', 'Last0', 'p0@example.com', 'Co 0']]);
    expect(rows[1999]).toEqual([2000, ['First1999', 'Last1999', 'p1999@example.com', 'Co 4']]);
  });

  it('keeps the next file a parser ready: taken by the next parse, replaced when it dies, ended on stop', async () => {
    const file = await xlsx([['firstname'], ['Jana'], ['Petr']]);
    const expected = [
      [1, ['firstname']],
      [2, ['Jana']],
      [3, ['Petr']],
    ];
    warmParser();
    const first = waitingParser();
    expect(first).not.toBeNull();
    warmParser(); // one at most
    expect(waitingParser()).toBe(first);
    // it reads a sheet of its own first (made in the worker, as Excel orders its parts), every row
    const warmed = await new Promise((resolve) =>
      first?.on('message', (m: { warmed?: number }) => m.warmed !== undefined && resolve(m.warmed)),
    );
    expect(warmed).toBe(WARM_ROWS);
    expect((await readAll(file)).rows).toEqual(expected);
    // the waiting one parsed that file and ended with it; the import starts the next (see the service)
    expect(first?.threadId).toBe(-1);
    expect(waitingParser()).toBeNull();
    warmParser();
    const second = waitingParser();
    // taken at once, while it still parses its own warm-up sheet: the file's rows only
    expect((await readAll(file)).rows).toEqual(expected);
    expect(second?.threadId).toBe(-1);
    warmParser();
    const third = waitingParser();
    expect(third).not.toBeNull();
    expect(third).not.toBe(second);
    // one that dies while waiting is dropped, and the next parse starts its own
    await third?.terminate();
    await new Promise((r) => setImmediate(r));
    expect(waitingParser()).toBeNull();
    expect((await readAll(file)).rows).toEqual(expected);
    warmParser();
    expect(waitingParser()).not.toBeNull();
    await stopParser();
    expect(waitingParser()).toBeNull();
  });

  describe('leaves no temporary file behind', () => {
    // exceljs keeps the sheet in a temporary file until the shared strings are read; the landed
    // parser left every import's sheet there. The parsers' files go to the temporary folder of the
    // moment they are started, so each case has a folder of its own.
    let dir = '';
    const saved = process.env.TMPDIR;
    beforeEach(async () => {
      await stopParser();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-parse-'));
      process.env.TMPDIR = dir;
    });
    afterEach(async () => {
      await stopParser();
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const sheet = Array.from({ length: 2000 }, (_, i) => [`First${i}`, `Last${i}`, `p${i}@example.com`]);
    const source = (file: Buffer) => Readable.from([file.subarray(0, 1000), file.subarray(1000)]);

    it('after a sheet read whole, from a warmed parser: the sheet waited in a file of ours, gone after', async () => {
      warmParser();
      const seen: string[][] = [];
      let rows = 0;
      for await (const b of sheetRows(source(await xlsx(sheet)), 250)) {
        seen.push(fs.readdirSync(dir));
        rows += b.length;
      }
      expect(rows).toBe(2000);
      // named as the application's temporary files (the hourly sweep's pattern, common/scratch.ts)
      expect(seen[0].length).toBeGreaterThan(0);
      for (const name of seen[0]) expect(name).toMatch(/^accredo-[0-9a-f-]{36}-sheet-\d+\.xml$/);
      expect(fs.readdirSync(dir)).toEqual([]);
    });

    it('after a read stopped at its first batch (an import with too many row errors)', async () => {
      for await (const b of sheetRows(source(await xlsx(sheet)), 250)) {
        expect(b.length).toBe(250);
        expect(fs.readdirSync(dir).length).toBeGreaterThan(0);
        break;
      }
      expect(fs.readdirSync(dir)).toEqual([]);
    });

    it('after a file that is no readable sheet, and after a parser stopped while it warms up', async () => {
      const file = await xlsx(sheet);
      await expect(readAll(file.subarray(0, Math.floor(file.length * 0.6)))).rejects.toThrow();
      expect(fs.readdirSync(dir)).toEqual([]);
      warmParser();
      await stopParser();
      expect(fs.readdirSync(dir)).toEqual([]);
    });
  });
});

describe('the spill file between the import phases', () => {
  const row = (i: number, note = ''): SpillRow => [
    `Jméno${i}`,
    `Příjmení${i}`,
    `p${i}@example.com`,
    `jmeno${i} prijmeni${i}`,
    `CODE${i}`,
    JSON.stringify({ 1: note || `note ${i}` }),
    i % 2 ? i : null,
    i % 2 ? `photo${i}.jpg` : null,
    'cs',
    i % 3 ? 7 : null,
    [1, 2],
    [1, note || `note ${i}`],
  ];

  it('gives back every batch as written, across read chunks and with a line longer than a chunk', () => {
    const spill = new Spill();
    try {
      const written: SpillRow[][] = [];
      let i = 0;
      // ~3,000 batches of a few rows: many 256 kB reads, lines cut at every place
      for (let b = 0; b < 3000; b++) {
        const batch = Array.from({ length: 1 + (b % 5) }, () => row(i++));
        written.push(batch);
        spill.write(batch);
      }
      // one line of ~600 kB (longer than the read buffer), then a short one
      const long = [row(i++, 'ž'.repeat(300_000))];
      written.push(long);
      spill.write(long);
      written.push([row(i++)]);
      spill.write([row(i - 1)]);
      expect(spill.count).toBe(i);
      const read = [...spill.batches()];
      expect(read.length).toBe(written.length);
      expect(read).toEqual(written);
      // and again: the file is read from its start each time
      expect([...spill.batches()].length).toBe(written.length);
    } finally {
      spill.close();
    }
  });
});

describe('the set of e-mails seen in a sheet', () => {
  it('tells a text seen before exactly as a Set of strings does, through its growth', () => {
    const set = new TextSet();
    const plain = new Set<string>();
    const texts: string[] = ['', 'a', 'ž@příklad.cz', '日本@例え.jp', 'x'.repeat(2000)];
    for (let i = 0; i < 30_000; i++) texts.push(`p${i}@example.com`, `p${i % 977}@example.com`, `P${i}@example.com`);
    for (const t of texts) {
      expect(set.add(t)).toBe(!plain.has(t));
      plain.add(t);
    }
    expect(set.size).toBe(plain.size);
    for (const t of ['p1@example.com', 'P29999@example.com', 'ž@příklad.cz', '']) expect(set.add(t)).toBe(false);
    for (const t of ['p30000@example.com', 'ž@priklad.cz', 'x'.repeat(1999)]) expect(set.add(t)).toBe(true);
  });
});
