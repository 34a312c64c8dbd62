import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import yazl from 'yazl';
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

/** A zip of the given parts (name, text, deflated or stored), as other programs write a sheet. */
async function zipOf(parts: [string, string, boolean?][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text, compress = true] of parts) zip.addBuffer(Buffer.from(text), name, { compress });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
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

  it('reads what a workbook holds as its cells show it: numbers, dates, booleans, formulas, links, errors', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('import');
    ws.addRow(['firstname', 'lastname', 'email']);
    const row = ws.addRow([
      new Date(Date.UTC(1987, 4, 21)),
      0.1 + 0.2,
      420777123456,
      true,
      false,
      { formula: 'A2&"x"', result: 'joined' },
      { formula: '1+1', result: 2 },
      { text: 'Web', hyperlink: 'https://example.com' },
      { error: '#N/A' },
      { richText: [{ text: 'Rich ' }, { text: 'text', font: { italic: true } }] },
      -1.5e-7,
    ]);
    row.getCell(1).numFmt = 'd. m. yyyy';
    ws.getCell('A4').value = 'after a gap';
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    expect((await readAll(file)).rows).toEqual([
      [1, ['firstname', 'lastname', 'email']],
      [
        2,
        [
          '1987-05-21',
          '0.30000000000000004',
          '420777123456',
          'true',
          'false',
          'joined',
          '2',
          'Web',
          '',
          'Rich text',
          '-1.5e-7',
        ],
      ],
      [4, ['after a gap']],
    ]);
  });

  it('reads sheets other programs write: prefixed names, parts in any order, stored parts, escapes, a hidden first sheet', async () => {
    const ns = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const rel = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    const parts: [string, string, boolean][] = [
      // the sheet first, as some writers store it; the shared strings after it
      [
        'xl/worksheets/sheet2.xml',
        `<?xml version="1.0"?>\n<x:worksheet ${ns}><x:sheetData>` +
          '<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="s"><x:v>1</x:v></x:c></x:row>' +
          // no r on the row or its cells: the next ones; a date in 1904's count; a style with a '>' in its format
          '<x:row><x:c t="s"><x:v>2</x:v></x:c><x:c s="1"><x:v>0</x:v></x:c><x:c s="2"><x:v>1234.5</x:v></x:c></x:row>' +
          '<!-- a comment <x:row r="9"> --><x:row r="5" spans="1:3"><x:c r="C5" t="inlineStr"><x:is><x:r><x:t>Two </x:t></x:r><x:r><x:t xml:space="preserve">runs</x:t></x:r></x:is></x:c>' +
          '<x:c r="D5" t="str"><x:f>A1</x:f><x:v><![CDATA[a <cdata> & more]]></x:v></x:c><x:c r="E5" t="d"><x:v>2026-11-29T00:00:00</x:v></x:c></x:row>' +
          '<x:row r="6"/></x:sheetData><x:mergeCells count="0"/></x:worksheet>',
        true,
      ],
      [
        'xl/sharedStrings.xml',
        `<x:sst ${ns}><x:si><x:t>Jméno</x:t></x:si><x:si><x:t>漢字</x:t><x:rPh sb="0" eb="2"><x:t>かんじ</x:t></x:rPh></x:si>` +
          '<x:si><x:t>line_x000D_break &amp;&#x20;&#269;</x:t></x:si></x:sst>',
        false,
      ],
      [
        'xl/styles.xml',
        `<x:styleSheet ${ns}><x:numFmts count="2"><x:numFmt numFmtId="164" formatCode="[&gt;=100]0.0;&quot;d&quot;0"/><x:numFmt numFmtId="165" formatCode="[$-405]d\\.\\ mmmm\\ yyyy"/></x:numFmts>` +
          '<x:cellStyleXfs count="1"><x:xf numFmtId="14"/></x:cellStyleXfs>' +
          '<x:cellXfs count="3"><x:xf numFmtId="0"/><x:xf numFmtId="165"/><x:xf numFmtId="164"/></x:cellXfs></x:styleSheet>',
        true,
      ],
      [
        'xl/workbook.xml',
        `<x:workbook ${ns} ${rel}><x:workbookPr date1904="1"/><x:sheets>` +
          '<x:sheet name="lists" sheetId="1" state="hidden" r:id="rId1"/><x:sheet name="people" sheetId="2" r:id="rId2"/></x:sheets></x:workbook>',
        true,
      ],
      [
        'xl/_rels/workbook.xml.rels',
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="worksheet" Target="/xl/worksheets/sheet2.xml"/></Relationships>',
        true,
      ],
      [
        'xl/worksheets/sheet1.xml',
        `<x:worksheet ${ns}><x:sheetData><x:row r="1"><x:c r="A1"><x:v>7</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
        true,
      ],
    ];
    expect((await readAll(await zipOf(parts))).rows).toEqual([
      [1, ['Jméno', '漢字']],
      [2, ['line\rbreak & č', '1904-01-01', '1234.5']],
      [5, ['', '', 'Two runs', 'a <cdata> & more', '2026-11-29']],
      [6, []],
    ]);
  });

  it('finds the workbook and its parts where the relations of the package name them', async () => {
    const rels = (items: string[]) =>
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.join('')}</Relationships>`;
    const file = await zipOf([
      ['_rels/.rels', rels(['<Relationship Id="r1" Type="http://x/officeDocument" Target="book/main.xml"/>'])],
      ['book/main.xml', '<workbook><sheets><sheet name="a" r:id="s"/></sheets></workbook>'],
      [
        'book/_rels/main.xml.rels',
        rels([
          '<Relationship Id="s" Type="http://x/worksheet" Target="../sheets/one.xml"/>',
          '<Relationship Id="t" Type="http://x/sharedStrings" Target="texts.xml"/>',
        ]),
      ],
      ['book/texts.xml', '<sst><si><t>Jana</t></si></sst>'],
      ['sheets/one.xml', '<worksheet><sheetData><row r="1"><c r="B1" t="s"><v>0</v></c></row></sheetData></worksheet>'],
    ]);
    expect((await readAll(file)).rows).toEqual([[1, ['', 'Jana']]]);
    // a workbook without relations: its first worksheet part
    const bare = await zipOf([
      ['xl/workbook.xml', '<workbook><sheets><sheet name="a" r:id="s"/></sheets></workbook>'],
      ['xl/worksheets/data.xml', '<worksheet><sheetData><row r="2"><c><v>5</v></c></row></sheetData></worksheet>'],
    ]);
    expect((await readAll(bare)).rows).toEqual([[2, ['5']]]);
  });

  it('refuses what is no spreadsheet: a zip without a workbook, a cut or damaged file, a bomb of rows', async () => {
    await expect(readAll(await zipOf([['readme.txt', 'hello']]))).rejects.toThrow(/workbook/);
    const file = await xlsx([['a'], ['b']]);
    await expect(readAll(file.subarray(0, file.length - 30))).rejects.toThrow(/zip/);
    // a stored part with a changed byte: refused by its CRC, not read as another text
    const stored = await zipOf([
      ['xl/workbook.xml', '<workbook><sheets><sheet name="a" r:id="rId1"/></sheets></workbook>', false],
      [
        'xl/_rels/workbook.xml.rels',
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
        false,
      ],
      [
        'xl/worksheets/sheet1.xml',
        '<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>Anna</t></is></c></row></sheetData></worksheet>',
        false,
      ],
    ]);
    expect((await readAll(stored)).rows).toEqual([[1, ['Anna']]]);
    const at = stored.indexOf('Anna');
    stored[at] = 'E'.charCodeAt(0);
    await expect(readAll(stored)).rejects.toThrow(/CRC/);
    // rows past Excel's last (1,048,576; numbered, or a million empty ones deflated to a few kB)
    const rows = '<row r="7"/><row r="1048577"/>';
    const bomb = await zipOf([
      ['xl/workbook.xml', '<workbook><sheets><sheet name="a" r:id="rId1"/></sheets></workbook>'],
      [
        'xl/_rels/workbook.xml.rels',
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      ],
      ['xl/worksheets/sheet1.xml', `<worksheet><sheetData>${rows}</sheetData></worksheet>`],
    ]);
    await expect(readAll(bomb)).rejects.toThrow(/rows/);
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
    // exceljs's reader kept the sheet in a temporary file until the shared strings were read, and
    // the landed parser left every import's sheet there; ours reads the parts from the zip's
    // directory and writes nothing. The parsers' files would go to the temporary folder of the
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

    it('while a sheet is read and after, from a warmed parser and from a read stopped at its first batch', async () => {
      warmParser();
      let rows = 0;
      for await (const b of sheetRows(source(await xlsx(sheet)), 250)) {
        expect(fs.readdirSync(dir)).toEqual([]);
        rows += b.length;
      }
      expect(rows).toBe(2000);
      for await (const b of sheetRows(source(await xlsx(sheet)), 250)) {
        expect(b.length).toBe(250);
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
