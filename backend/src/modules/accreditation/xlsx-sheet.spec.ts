import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { TextStore } from '../../common/text-store.js';
import {
  chunkedFile,
  MAX_TEXT,
  readSheet,
  type SheetRow,
  stringsHandler,
  warmUp,
  type XmlHandler,
  xmlScanner,
} from './xlsx-sheet.js';

// The reader itself, in this thread (the worker's protocol and the cells' meanings are
// accreditation-import.spec.ts): what a chunk's end may cut must not change what is read.

/** Every event of a scan, as text. */
function scan(chunks: string[]): string[] {
  const events: string[] = [];
  const h: XmlHandler = {
    open: (name, s, from, to) => events.push(`<${name}${s.slice(from, to)}>`),
    close: (name) => events.push(`</${name}>`),
    // texts may come in pieces: joined, so that only their content counts
    text: (s, from, to) => {
      const last = events.length - 1;
      if (events[last]?.startsWith('#')) events[last] += s.slice(from, to);
      else events.push(`#${s.slice(from, to)}`);
    },
    cdata: (text) => events.push(`[${text}]`),
  };
  const write = xmlScanner(h);
  for (const chunk of chunks) write(chunk);
  return events;
}

const XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<!-- a comment with <tags> -->' +
  '<x:sst xmlns:x="urn:x" count="3"><x:si><x:t xml:space="preserve"> a &amp; b </x:t></x:si>' +
  '<si><r><rPr><b/></rPr><t>Žluťoučký</t></r><t a=\'q>"\' b="x>\'y">kůň</t></si>' +
  '<si><t><![CDATA[<not a tag> & ]]></t><empty/><e2 a="1" /></si></x:sst>';

describe('the sheet reader (issue 16)', () => {
  it('scans XML to the same tags and texts wherever its chunks are cut', () => {
    const whole = scan([XML]);
    expect(whole).toContain('<t a=\'q>"\' b="x>\'y">');
    expect(whole).toContain('[<not a tag> & ]');
    expect(whole).toContain('</empty>');
    expect(whole.filter((e) => e.includes('comment'))).toEqual([]);
    for (let cut = 1; cut < XML.length; cut++) expect(scan([XML.slice(0, cut), XML.slice(cut)])).toEqual(whole);
    expect(scan([...XML])).toEqual(whole);
  });

  it('refuses a tag that never ends instead of holding it without bound', () => {
    const write = xmlScanner({ open() {}, close() {}, text() {}, cdata() {} });
    write('<sheetData><row r="1" a="');
    expect(() => write('x'.repeat(MAX_TEXT + 1))).toThrow(/a tag longer than/);
  });

  it('reads a workbook the same from one chunk and from chunks of a few bytes', async () => {
    const chunks: Buffer[] = [];
    const out = new PassThrough().on('data', (c: Buffer) => chunks.push(c));
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true });
    const ws = wb.addWorksheet('import');
    for (let r = 1; r <= 300; r++)
      ws.addRow([`Jméno ${r}`, `p${r}@example.com`, r, new Date(Date.UTC(2026, 0, r))]).commit();
    ws.commit();
    await wb.commit();
    const file = Buffer.concat(chunks);
    const read = async (pieces: Buffer[]) => {
      const rows: SheetRow[] = [];
      await readSheet(chunkedFile(pieces), (row) => rows.push(row));
      return rows;
    };
    const whole = await read([file]);
    expect(whole).toHaveLength(300);
    expect(whole[299]).toEqual([300, ['Jméno 300', 'p300@example.com', '300', '2026-10-27']]);
    const small: Buffer[] = [];
    for (let at = 0; at < file.length; at += 7) small.push(file.subarray(at, at + 7));
    expect(await read(small)).toEqual(whole);
  });

  it('keeps the shared strings in order, each whole, and warms up on a sheet of its own', () => {
    const store = new TextStore();
    const write = xmlScanner(stringsHandler(store));
    write(XML);
    expect([0, 1, 2].map((i) => store.text(i))).toEqual([' a & b ', 'Žluťoučkýkůň', '<not a tag> & ']);
    expect(warmUp(50)).toBe(50);
  });
});
