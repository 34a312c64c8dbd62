import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { scratchPath } from '../../common/scratch.js';
import { type Core, type CoreEnv, runCore, sqliteConnection, sqliteStatement } from '../../database/core-runner.js';
import { groupDefaultsCore } from '../action-extension/extension-core.js';
import { isSqlite } from '../device/sql.js';
import { searchText } from './accreditation.entity.js';

/**
 * The streaming spreadsheet import (issue 16): the helpers of AccreditationFilesService.import*.
 *
 * Phase 1 reads the sheet as it arrives (a multipart upload, or the base64 body of spec §7),
 * checks every row, checks each batch of rows against the database (e-mails of the action, codes
 * of the system, photos waiting) and appends the rows that passed to a spill file on the disk, so
 * memory stays flat whatever the size. Phase 2 runs only when no row failed: it reads the spill
 * file back and writes every row by multi-row INSERTs in one transaction (all or nothing), as a
 * generator of SQL steps run by `runCore` — on SQLite synchronously on the raw connection inside
 * BEGIN IMMEDIATE (no other request's statements interleave), on MariaDB in a READ COMMITTED
 * transaction under the action's row lock (the customId order of concurrent creates).
 */

/** The largest spreadsheet the upload route takes (as the web app's picker, spec §9 / accreditationImport.fileHint). */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/**
 * Rows per batch: a parsed batch crossing from the parser, the checks of phase 1 against the
 * database, a spilled line and an INSERT of phase 2. 250 keeps each batch's JSON text (~60 kB)
 * below V8's large-object size, so it is collected young, not left for a full collection.
 */
export const IMPORT_BATCH = 250;

/**
 * Sheets one server reads at once, and imports that may wait for their turn (issue 16: memory
 * bounded whatever the callers do). Each sheet being read holds a parser worker and its batches,
 * ~50 MiB at 100,000 rows (its upload, its shared strings, its heap; measured 2026-11-29), so a dozen admins importing at the same moment would otherwise need
 * a dozen times that. A waiting import has not read its upload yet (the request's stream stays
 * paused, so its bytes wait in the network, not in memory); past the queue the answer is
 * 503 IMPORT_BUSY with `retryAfter` (and a Retry-After header), and nothing is stored. A spec
 * lowers the numbers.
 */
export const IMPORT_SLOTS = { running: 2, waiting: 8, retryAfterSeconds: 30 };

class ImportSlots {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  /** A slot (its release, to call once), now or after the imports ahead; IMPORT_BUSY when the queue is full. */
  async acquire(): Promise<() => void> {
    if (this.running < IMPORT_SLOTS.running) this.running++;
    else if (this.queue.length < IMPORT_SLOTS.waiting) await new Promise<void>((turn) => this.queue.push(turn));
    else throw new AppError('IMPORT_BUSY', { retryAfter: IMPORT_SLOTS.retryAfterSeconds });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // the slot passes to the next in line, or is given back
      if (next) next();
      else this.running--;
    };
  }

  /** Imports reading a sheet now and waiting (for specs and diagnosis). */
  get state(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queue.length };
  }
}

/** This process's import slots (every import route takes one, AccreditationFilesService.importSheet). */
export const importSlots = new ImportSlots();

/** A row that passed every check, as spilled to the disk between the two phases. */
export interface ReadyRow {
  line: number;
  firstname: string;
  lastname: string;
  email: string;
  groupId: number | null;
  zoneIds: number[];
  bc: string | null;
  imageName: string | null;
  imageId: number | null;
  /** the language every mail to the person is written in (issue 15) */
  language: string;
  values: Record<string, unknown>;
  texts: { fieldId: number; value: string }[];
}

/**
 * A row that passed, as spilled between the phases: what its INSERTs need and nothing else, in
 * column order, computed in phase 1 (which waits for the parser anyway) so that the write phase,
 * which holds the database's write lock, only binds values:
 * [firstname, lastname, email, search, bc, fieldValues (JSON), imageId, imageName, language,
 *  groupId, zoneIds, texts as fieldId, value, fieldId, value, …].
 */
export type SpillRow = [
  string,
  string,
  string,
  string,
  string,
  string,
  number | null,
  string | null,
  string,
  number | null,
  number[],
  (number | string)[],
];

/** The spilled form of a checked row; `bc` is the row's code or a new one. */
export function spillRow(r: ReadyRow, bc: string): SpillRow {
  const texts: (number | string)[] = [];
  for (const t of r.texts) texts.push(t.fieldId, t.value);
  return [
    r.firstname,
    r.lastname,
    r.email,
    searchText({ firstname: r.firstname, lastname: r.lastname, email: r.email, bc }),
    bc,
    JSON.stringify(r.values),
    r.imageId,
    r.imageName,
    r.language ?? 'cs',
    r.groupId,
    [...new Set(r.zoneIds)],
    texts,
  ];
}

/**
 * The rows that passed, one JSON line per batch, in a temporary file removed by `close`. Written
 * in batches during phase 1, read back a line at a time (synchronously, a chunk at a time) in
 * phase 2, so neither phase holds more than a batch.
 */
export class Spill {
  private readonly file = scratchPath('import.ndjson');
  private fd: number | null = fs.openSync(this.file, 'w+', 0o600);
  count = 0;

  write(rows: SpillRow[]): void {
    if (!rows.length || this.fd === null) return;
    fs.writeSync(this.fd, `${JSON.stringify(rows)}\n`);
    this.count += rows.length;
  }

  /**
   * The spilled batches again, in the order written. Each line is decoded from the bytes on its
   * own (a batch's line is some 40 kB, so its text is a young object that dies with the batch):
   * decoding the whole read chunk made a string of a megabyte per read, allocated in V8's
   * large-object space, which only a full collection frees (about 40 MiB of them at 100,000 rows).
   */
  *batches(): Generator<SpillRow[]> {
    if (this.fd === null) return;
    let chunk = Buffer.alloc(1 << 18);
    let position = 0;
    /** bytes at the start of `chunk` carried over from the last read: a line not yet complete */
    let carried = 0;
    for (;;) {
      if (carried === chunk.length) {
        // a line longer than the buffer: a bigger one
        const bigger = Buffer.alloc(chunk.length * 2);
        chunk.copy(bigger, 0, 0, carried);
        chunk = bigger;
      }
      const n = fs.readSync(this.fd, chunk, carried, chunk.length - carried, position);
      const size = carried + n;
      position += n;
      let start = 0;
      for (let end = chunk.indexOf(10, start); end >= 0 && end < size; end = chunk.indexOf(10, start)) {
        if (end > start) yield JSON.parse(chunk.toString('utf8', start, end)) as SpillRow[];
        start = end + 1;
      }
      if (n === 0) {
        if (size > start) yield JSON.parse(chunk.toString('utf8', start, size)) as SpillRow[];
        return;
      }
      chunk.copy(chunk, 0, start, size);
      carried = size - start;
    }
  }

  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
    fs.rmSync(this.file, { force: true });
  }
}

/**
 * A set of texts (the e-mails seen so far in a sheet) kept as UTF-8 bytes in one buffer, with an
 * open-addressing table of their indexes: exact, like a Set of strings, but outside V8's heap and
 * about a third of its size (a Set of 200,000 e-mails is ~18 MiB of heap that the garbage
 * collector walks on every full collection while the import runs).
 */
export class TextSet {
  private bytes = Buffer.alloc(1 << 16);
  private ends = new Uint32Array(1 << 10);
  private table = new Int32Array(1 << 11);
  private scratch = Buffer.alloc(1024);
  size = 0;

  /** Adds `text`; false when it was there already. */
  add(text: string): boolean {
    if (text.length * 3 > this.scratch.length) this.scratch = Buffer.alloc(text.length * 3);
    const n = this.scratch.write(text);
    const hash = hashOf(this.scratch, 0, n);
    const mask = this.table.length - 1;
    let slot = hash & mask;
    for (let at = this.table[slot]; at !== 0; slot = (slot + 1) & mask, at = this.table[slot]) {
      const start = at > 1 ? this.ends[at - 2] : 0;
      const end = this.ends[at - 1];
      if (end - start === n && this.scratch.compare(this.bytes, start, end, 0, n) === 0) return false;
    }
    const start = this.size ? this.ends[this.size - 1] : 0;
    if (start + n > this.bytes.length) {
      const bigger = Buffer.alloc(Math.max(this.bytes.length * 2, start + n));
      this.bytes.copy(bigger, 0, 0, start);
      this.bytes = bigger;
    }
    this.scratch.copy(this.bytes, start, 0, n);
    if (this.size === this.ends.length) {
      const bigger = new Uint32Array(this.ends.length * 2);
      bigger.set(this.ends);
      this.ends = bigger;
    }
    this.ends[this.size++] = start + n;
    this.table[slot] = this.size;
    if (this.size * 2 > this.table.length) this.grow();
    return true;
  }

  private grow(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let i = 0; i < this.size; i++) {
      let slot = hashOf(this.bytes, i ? this.ends[i - 1] : 0, this.ends[i]) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = i + 1;
    }
    this.table = table;
  }
}

/** FNV-1a of bytes[start, end). */
function hashOf(bytes: Buffer, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/**
 * The first `n` bytes of a stream (to tell an .xlsx from an old .xls before parsing) and a stream
 * of the whole content again, head included.
 */
export async function peek(source: Readable, n: number): Promise<{ head: Buffer; stream: Readable }> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < n) {
    const next = await it.next();
    if (next.done) break;
    chunks.push(next.value);
    size += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* all() {
    if (head.length) yield head;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, stream: Readable.from(all(), { objectMode: false }) };
}

/** A sheet's row as read: its number and each cell's text. */
export type SheetRow = [number, string[]];

/**
 * The parse itself, in a worker thread of its own: the parse makes most of an import's garbage, and
 * a worker's heap is small (capped) and given back whole when it ends, so the server's memory stays
 * flat and returns after the import; it also parses on the second core while this thread checks
 * rows and talks to the database. Each batch crosses as one transferred buffer of JSON, read by
 * this thread only when it checks that batch. Plain JavaScript evaluated in the worker, so the same
 * code runs from the build and from the sources.
 *
 * The reader is our own, not exceljs's (issue 16, 2026-11-29): an .xlsx is a zip of XML parts, and
 * the import needs only the first sheet's cell texts. The upload (at most IMPORT_MAX_BYTES) is
 * collected as it arrives; its zip directory then gives every part at once, so the shared strings
 * are read before the sheet whatever order the file stores them in (exceljs's streaming reader
 * kept the sheet in a temporary file until then, and left it there), and the sheet is inflated
 * and scanned a chunk at a time, so memory stays flat whatever its rows. What a cell gives is what
 * exceljs's reader gave (texts trimmed; numbers as JavaScript prints them; a number in a date
 * format as its ISO day; booleans true/false; errors empty), with a few of its slips mended: a
 * phonetic guide is not read as the text, an inline rich text gives all its runs, a formula's date
 * result is a day too, `_x000D_` escapes are decoded, and the first sheet is the workbook's first
 * visible one, not the first stored. The worker loads no package: ~8 MiB of heap, started in
 * ~20 ms, where exceljs's reader and its dependencies held some 60 MiB at 100,000 rows.
 */
const PARSER = `
const { parentPort, workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
const { StringDecoder } = require('node:string_decoder');

// ---- limits: a file may be anything; none of these is near a real sheet
const MAX_STRINGS_BYTES = 256 * 1024 * 1024; // the shared strings, as UTF-8
const MAX_TEXT = 1 << 20; // one cell's text or one tag (Excel's cell holds 32,767 characters)
const MAX_ROWS = 1048576; // Excel's rows per sheet
const MAX_COLUMNS = 16384; // Excel's columns

// ---- the upload, kept as the chunks it arrived in (not copied into one buffer, so it is held once)
function chunkedFile(chunks) {
  const starts = [];
  let length = 0;
  for (const c of chunks) { starts.push(length); length += c.length; }
  // the chunk that holds a byte
  function chunkAt(at) {
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= at) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  // [at, at + n) in pieces of the chunks, without copying
  function* pieces(at, n) {
    if (at < 0 || n <= 0 || at + n > length) return;
    for (let k = chunkAt(at); n > 0; k++) {
      const from = at - starts[k];
      const piece = chunks[k].subarray(from, Math.min(chunks[k].length, from + n));
      yield piece;
      at += piece.length;
      n -= piece.length;
    }
  }
  // a copy of [at, at + n) (a header, the directory), cut short at the file's end
  function read(at, n) {
    const out = [];
    for (const piece of pieces(at, Math.min(n, length - at))) out.push(piece);
    return out.length === 1 ? out[0] : Buffer.concat(out);
  }
  return { length, pieces, read };
}

// ---- the zip: its parts from the central directory (zip64 included)
function zipEntries(file) {
  const tailAt = Math.max(0, file.length - 65557);
  const tail = file.read(tailAt, file.length - tailAt);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) { end = i; break; }
  }
  if (end < 0) throw new Error('not a zip file (no central directory)');
  let count = tail.readUInt16LE(end + 10);
  let size = tail.readUInt32LE(end + 12);
  let at = tail.readUInt32LE(end + 16);
  if ((at === 0xffffffff || count === 0xffff) && end >= 20 && tail.readUInt32LE(end - 20) === 0x07064b50) {
    const record = file.read(Number(tail.readBigUInt64LE(end - 12)), 56);
    if (record.length === 56 && record.readUInt32LE(0) === 0x06064b50) {
      count = Number(record.readBigUInt64LE(32));
      size = Number(record.readBigUInt64LE(40));
      at = Number(record.readBigUInt64LE(48));
    }
  }
  const dir = file.read(at, size);
  const parts = new Map();
  at = 0;
  for (let k = 0; k < count; k++) {
    if (at + 46 > dir.length || dir.readUInt32LE(at) !== 0x02014b50) throw new Error('a broken zip directory');
    const method = dir.readUInt16LE(at + 10);
    const crc = dir.readUInt32LE(at + 16);
    let packed = dir.readUInt32LE(at + 20);
    let size = dir.readUInt32LE(at + 24);
    const nameLength = dir.readUInt16LE(at + 28);
    const extraLength = dir.readUInt16LE(at + 30);
    const commentLength = dir.readUInt16LE(at + 32);
    let offset = dir.readUInt32LE(at + 42);
    const name = dir.toString('utf8', at + 46, at + 46 + nameLength);
    const extraEnd = Math.min(dir.length, at + 46 + nameLength + extraLength);
    for (let e = at + 46 + nameLength; e + 4 <= extraEnd; e += 4 + dir.readUInt16LE(e + 2)) {
      if (dir.readUInt16LE(e) !== 1) continue;
      let p = e + 4;
      const next = () => { const v = p + 8 <= extraEnd ? Number(dir.readBigUInt64LE(p)) : 0; p += 8; return v; };
      if (size === 0xffffffff) size = next();
      if (packed === 0xffffffff) packed = next();
      if (offset === 0xffffffff) offset = next();
    }
    parts.set(name.replace(/^\\//, '').toLowerCase(), { name, method, crc, packed, size, offset });
    at = extraEnd + commentLength;
  }
  return parts;
}
// a part's text, a chunk at a time (inflated as it is read, never whole); a part read to its end
// is checked against its CRC-32, so a damaged file is refused rather than read as other texts
async function* partText(file, part) {
  const header = file.read(part.offset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw new Error('a broken zip entry: ' + part.name);
  const start = part.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (start + part.packed > file.length) throw new Error('a zip entry cut short: ' + part.name);
  const decoder = new StringDecoder('utf8');
  let crc = 0;
  if (part.method === 0) {
    for (const piece of file.pieces(start, part.packed)) {
      crc = zlib.crc32(piece, crc);
      yield decoder.write(piece);
    }
  } else if (part.method === 8) {
    const inflate = zlib.createInflateRaw({ chunkSize: 1 << 16 });
    for (const piece of file.pieces(start, part.packed)) inflate.write(piece);
    inflate.end();
    for await (const chunk of inflate) {
      crc = zlib.crc32(chunk, crc);
      yield decoder.write(chunk);
    }
  } else {
    throw new Error('an unknown compression in ' + part.name);
  }
  if (crc !== part.crc) throw new Error('a damaged zip entry (its CRC differs): ' + part.name);
  const rest = decoder.end();
  if (rest) yield rest;
}

// ---- XML: a scanner of tags and texts, fed chunk after chunk; a tag cut by a chunk's end waits
// for the next. Names lose their prefix (x:row is row); comments, CDATA, declarations understood.
function xmlScanner(h) {
  let rest = '';
  function tagEnd(s, from) {
    // the '>' that ends the tag, past any quoted attribute value (which may hold a '>')
    for (let i = from; ; ) {
      const gt = s.indexOf('>', i);
      if (gt < 0) return -1;
      let quote = -1;
      for (let k = i; k < gt; k++) {
        const c = s.charCodeAt(k);
        if (c === 34 || c === 39) { quote = k; break; }
      }
      if (quote < 0) return gt;
      const closing = s.indexOf(s[quote], quote + 1);
      if (closing < 0) return -1;
      i = closing + 1;
    }
  }
  // a tag's name without its prefix; nameEnd: where the full name ends
  let nameEnd = 0;
  function nameOf(s, from, to) {
    let end = from;
    let colon = -1;
    for (; end < to; end++) {
      const c = s.charCodeAt(end);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62) break;
      if (c === 58) colon = end;
    }
    nameEnd = end;
    return s.slice(colon >= 0 ? colon + 1 : from, end);
  }
  return function write(chunk) {
    const s = rest ? rest + chunk : chunk;
    const n = s.length;
    let i = 0;
    while (i < n) {
      const lt = s.indexOf('<', i);
      if (lt < 0) { h.text(s, i, n); i = n; break; }
      if (lt > i) h.text(s, i, lt);
      i = lt;
      if (lt + 1 >= n) break;
      const c1 = s.charCodeAt(lt + 1);
      if (c1 === 33) { // <!
        if (s.startsWith('<![CDATA[', lt)) {
          const e = s.indexOf(']]>', lt + 9);
          if (e < 0) break;
          h.cdata(s.slice(lt + 9, e));
          i = e + 3;
          continue;
        }
        if (s.startsWith('<!--', lt)) {
          const e = s.indexOf('-->', lt + 4);
          if (e < 0) break;
          i = e + 3;
          continue;
        }
        if (n - lt < 9) break;
        const e = s.indexOf('>', lt);
        if (e < 0) break;
        i = e + 1;
        continue;
      }
      const gt = tagEnd(s, lt + 1);
      if (gt < 0) break;
      if (c1 === 63) { i = gt + 1; continue; } // <?xml ...?>
      if (c1 === 47) h.close(nameOf(s, lt + 2, gt));
      else {
        const name = nameOf(s, lt + 1, gt);
        const empty = s.charCodeAt(gt - 1) === 47;
        h.open(name, s, nameEnd, empty ? gt - 1 : gt);
        if (empty) h.close(name);
      }
      i = gt + 1;
    }
    rest = i < n ? s.slice(i) : '';
    if (rest.length > MAX_TEXT) throw new Error('a tag longer than ' + MAX_TEXT + ' characters');
  };
}
// a tag's attributes (from, to: after its name, before its end) by their names without prefix
function attributes(s, from, to) {
  const out = {};
  let i = from;
  for (;;) {
    const eq = s.indexOf('=', i);
    if (eq < 0 || eq >= to) return out;
    let q = eq + 1;
    while (q < to && s.charCodeAt(q) !== 34 && s.charCodeAt(q) !== 39) q++;
    if (q >= to) return out;
    const close = s.indexOf(s[q], q + 1);
    if (close < 0 || close > to) return out;
    const name = s.slice(i, eq).trim();
    const colon = name.lastIndexOf(':');
    out[colon >= 0 ? name.slice(colon + 1) : name] = decode(s.slice(q + 1, close));
    i = close + 1;
  }
}
const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
function decode(t) {
  if (t.indexOf('&') < 0) return t;
  return t.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (m, e) => {
    if (e[0] !== '#') return ENTITIES[e];
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}
// OOXML's escapes of characters XML cannot carry (_x000D_ a carriage return; _x005F_ the underscore)
function unescapeText(t) {
  if (t.indexOf('_x') < 0) return t;
  return t.replace(/_x([0-9a-fA-F]{4})_/g, (m, hex) => String.fromCharCode(parseInt(hex, 16)));
}
// a part scanned until its handler is done, and read to its end all the same (its CRC checked)
async function scanPart(file, part, h) {
  const write = xmlScanner(h);
  for await (const text of partText(file, part)) if (!h.done) write(text);
}

// ---- the workbook: its first visible sheet, whether its dates count from 1904, date styles
// a path inside the zip: target relative to dir (a folder ending in / or ''), or absolute
function resolvePath(dir, target) {
  const resolved = [];
  for (const seg of (target.startsWith('/') ? target : dir + target).split('/')) {
    if (seg === '..') resolved.pop();
    else if (seg !== '.' && seg !== '') resolved.push(seg);
  }
  return resolved.join('/');
}
// the relations of a part (name: '' for the package's own): Id to { path, type }
async function relationsOf(file, parts, name) {
  const dir = name.slice(0, name.lastIndexOf('/') + 1);
  const rels = new Map();
  const part = parts.get((dir + '_rels/' + name.slice(dir.length) + '.rels').toLowerCase());
  if (part)
    await scanPart(file, part, {
      text() {}, cdata() {}, close() {},
      open(tag, s, from, to) {
        if (tag !== 'Relationship') return;
        const a = attributes(s, from, to);
        if (a.Id && a.Target) rels.set(a.Id, { path: resolvePath(dir, a.Target), type: a.Type || '' });
      },
    });
  return rels;
}
async function workbookOf(file, parts) {
  const part = (name) => parts.get(name.toLowerCase());
  // the workbook the package names (xl/workbook.xml as Excel saves it)
  const office = [...(await relationsOf(file, parts, '')).values()].find((r) => r.type.endsWith('/officeDocument'));
  const bookName = office && part(office.path) ? office.path : 'xl/workbook.xml';
  const book = part(bookName);
  if (!book) throw new Error('not a spreadsheet (no workbook)');
  const dir = bookName.slice(0, bookName.lastIndexOf('/') + 1);
  const info = { sheets: [], date1904: false };
  await scanPart(file, book, {
    text() {}, cdata() {}, close() {},
    open(name, s, from, to) {
      if (name === 'workbookPr') {
        const a = attributes(s, from, to);
        info.date1904 = a.date1904 === '1' || a.date1904 === 'true';
      } else if (name === 'sheet') info.sheets.push(attributes(s, from, to));
    },
  });
  const rels = await relationsOf(file, parts, bookName);
  const related = (type, fallback) => {
    for (const r of rels.values()) if (r.type.endsWith(type) && part(r.path)) return part(r.path);
    return part(dir + fallback);
  };
  const visible = info.sheets.filter((x) => !x.state || x.state === 'visible');
  let sheet = null;
  for (const x of visible.length ? visible : info.sheets) {
    const rel = rels.get(x.id);
    sheet = rel ? part(rel.path) : null;
    if (sheet) break;
  }
  // a workbook without relations: its first worksheet part
  if (!sheet)
    for (const [name, p] of parts)
      if (name.startsWith(dir.toLowerCase()) && /^worksheets\\/[^/]+\\.xml$/.test(name.slice(dir.length))) {
        sheet = p;
        break;
      }
  if (!sheet) throw new Error('no worksheet');
  return { sheet, date1904: info.date1904, strings: related('/sharedStrings', 'sharedStrings.xml'), styles: related('/styles', 'styles.xml') };
}
// exceljs's test of a number format for a date: a day, month, year or time letter outside [] and ""
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);
function isDateFormat(code) {
  return /[ymdhMsb]/.test(code.replace(/\\[[^\\]]*]/g, '').replace(/"[^"]*"/g, ''));
}
// for each cell style (the s of a cell) whether it shows a date
async function dateStylesOf(file, part) {
  const dates = [];
  if (!part) return dates;
  const custom = new Map();
  let inXfs = false;
  await scanPart(file, part, {
    text() {}, cdata() {},
    open(name, s, from, to) {
      if (name === 'numFmt') {
        const a = attributes(s, from, to);
        custom.set(Number(a.numFmtId), a.formatCode ?? '');
      } else if (name === 'cellXfs') inXfs = true;
      else if (name === 'xf' && inXfs) {
        const id = Number(attributes(s, from, to).numFmtId ?? 0);
        dates.push(id > 0 && (custom.has(id) ? isDateFormat(custom.get(id)) : BUILT_IN_DATES.has(id)));
      }
    },
    close(name) {
      if (name === 'cellXfs') { inXfs = false; this.done = true; }
    },
  });
  return dates;
}

// ---- the shared strings (most of a sheet's texts), kept as UTF-8 in one growing buffer with
// their offsets, not as one string object each (a Map of 200,000 strings is tens of MiB of heap)
let strings = Buffer.alloc(1 << 16);
let ends = new Uint32Array(1 << 12);
let stringCount = 0;
function keepString(value) {
  const at = stringCount ? ends[stringCount - 1] : 0;
  const size = Buffer.byteLength(value);
  if (at + size > MAX_STRINGS_BYTES) throw new Error('shared strings over ' + MAX_STRINGS_BYTES + ' bytes');
  if (at + size > strings.length) {
    const bigger = Buffer.allocUnsafe(Math.max(strings.length * 2, at + size));
    strings.copy(bigger, 0, 0, at);
    strings = bigger;
  }
  strings.write(value, at);
  if (stringCount === ends.length) {
    const bigger = new Uint32Array(ends.length * 2);
    bigger.set(ends);
    ends = bigger;
  }
  ends[stringCount++] = at + size;
}
// room for the texts of a shared strings part of size bytes of XML (its texts take fewer), not
// filled: only the pages written count in the process's memory, and it is not copied as it grows
function reserveStrings(size) {
  strings = Buffer.allocUnsafe(Math.max(1 << 16, Math.min(size, MAX_STRINGS_BYTES)));
}
function sharedString(index) {
  if (!(index >= 0 && index < stringCount)) return '';
  return strings.toString('utf8', index ? ends[index - 1] : 0, ends[index]);
}
// a text collected from the texts of its <t> elements (rich text runs too), not of a phonetic
// guide (<rPh>) or its properties: the shared strings' <si>, an inline string's <is>
function textCollector() {
  return {
    taking: false, text: '', value: '', inPhonetic: false,
    start() { this.value = ''; this.inPhonetic = false; this.taking = false; },
    open(name) {
      if (name === 't' && !this.inPhonetic) { this.taking = true; this.text = ''; }
      else if (name === 'rPh') this.inPhonetic = true;
    },
    close(name) {
      if (name === 't' && this.taking) { this.value += decode(this.text); this.taking = false; }
      else if (name === 'rPh') this.inPhonetic = false;
    },
    add(s, from, to) {
      if (!this.taking) return;
      this.text += s.slice(from, to);
      if (this.text.length > MAX_TEXT) throw new Error('a text longer than ' + MAX_TEXT + ' characters');
    },
  };
}
function stringsHandler() {
  const t = textCollector();
  let inItem = false;
  return {
    open(name) {
      if (name === 'si') { inItem = true; t.start(); }
      else if (inItem) t.open(name);
    },
    close(name) {
      if (name === 'si') { inItem = false; keepString(unescapeText(t.value)); }
      else if (inItem) t.close(name);
    },
    text(s, from, to) { if (inItem) t.add(s, from, to); },
    cdata(text) { if (inItem && t.taking) t.text += text; },
  };
}

// ---- the sheet: rows of cell texts, as exceljs's reader gave them
function columnOf(ref) {
  let col = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i) & ~32; // upper case
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return col;
}
function dayOf(serial, date1904) {
  const ms = Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86400000);
  return Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString().slice(0, 10) : '';
}
function sheetHandler(book, emit) {
  const inline = textCollector();
  let inData = false;
  let cells = null;
  let rowNumber = 0;
  let column = 0;
  let type = '';
  let style = 0;
  let formula = false;
  let value = null;
  let inValue = false;
  let inInline = false;
  let hadInline = false;
  let rows = 0;
  function number(v) {
    const n = parseFloat(v);
    if (Number.isNaN(n)) return '';
    return style && book.dates[style] ? dayOf(n, book.date1904) : String(n);
  }
  // the cell's text, or undefined for a cell with neither value nor formula (left out, as exceljs did)
  function cellText() {
    if (hadInline) return unescapeText(inline.value).trim();
    if (formula) {
      if (value === null || type === 'e') return '';
      if (type === 'str') return unescapeText(decode(value)).trim();
      if (type === 'b') return parseInt(value, 10) !== 0 ? 'true' : 'false';
      return number(value);
    }
    if (value === null) return undefined;
    switch (type) {
      case 's':
        return sharedString(parseInt(value, 10)).trim();
      case 'str':
      case 'inlineStr':
        return unescapeText(decode(value)).trim();
      case 'e':
        return '';
      case 'b':
        return parseInt(value, 10) !== 0 ? 'true' : 'false';
      case 'd':
        return decode(value).trim().slice(0, 10);
      default:
        return number(value);
    }
  }
  return {
    done: false,
    open(name, s, from, to) {
      if (!inData) {
        if (name === 'sheetData') inData = true;
        return;
      }
      if (name === 'row') {
        const r = parseInt(attributes(s, from, to).r, 10);
        rowNumber = r > 0 ? r : rowNumber + 1;
        if (++rows > MAX_ROWS || rowNumber > MAX_ROWS) throw new Error('more than ' + MAX_ROWS + ' rows');
        cells = [];
        column = 0;
      } else if (cells === null) {
        return;
      } else if (name === 'c') {
        const a = attributes(s, from, to);
        const col = a.r ? columnOf(a.r) : 0;
        column = col > 0 ? col : column + 1;
        if (column > MAX_COLUMNS) throw new Error('more than ' + MAX_COLUMNS + ' columns');
        type = a.t || '';
        style = a.s ? parseInt(a.s, 10) || 0 : 0;
        formula = false;
        value = null;
        inInline = false;
        hadInline = false;
        inline.start();
      } else if (name === 'v') {
        inValue = true;
        value = '';
      } else if (name === 'f') {
        formula = true;
      } else if (name === 'is') {
        inInline = true;
        hadInline = true;
      } else if (inInline) {
        inline.open(name);
      }
    },
    close(name) {
      if (!inData) return;
      if (name === 'v') inValue = false;
      else if (name === 'is') inInline = false;
      else if (name === 'c') {
        if (cells === null) return;
        inInline = false;
        const text = cellText();
        if (text !== undefined) cells[column - 1] = text;
        type = '';
        value = null;
        inline.start();
      } else if (name === 'row') {
        if (cells === null) return;
        // a hole (a cell not in the file) is ''
        emit([rowNumber, Array.from(cells, (c) => (c === undefined ? '' : c))]);
        cells = null;
      } else if (name === 'sheetData') {
        inData = false;
        this.done = true;
      } else if (inInline) inline.close(name);
    },
    text(s, from, to) {
      if (inValue) {
        value += s.slice(from, to);
        if (value.length > MAX_TEXT) throw new Error('a value longer than ' + MAX_TEXT + ' characters');
      } else if (inInline) inline.add(s, from, to);
    },
    cdata(text) {
      if (inValue) value += text;
      else if (inInline && inline.taking) inline.text += text;
    },
  };
}

const encoder = new TextEncoder();
// The file to parse: its chunks as they arrive, whether its upload ended, how many batches it may
// send ahead (the main thread acknowledges each batch it has read).
let job = null;
let jobArrived = null;
const poke = (j) => { const w = j.wake; j.wake = null; if (w) w(); };
parentPort.on('message', (m) => {
  if (m.start) {
    job = { batch: m.start.batch, credit: m.start.ahead, chunks: [], ended: false, wake: null };
    if (jobArrived) jobArrived(job);
    return;
  }
  if (!job) return;
  if (m.chunk) job.chunks.push(Buffer.from(m.chunk));
  if (m.end) job.ended = true;
  if (m.ack) job.credit++;
  poke(job);
});
async function fileOf(j) {
  while (!j.ended) await new Promise((r) => (j.wake = r));
  const file = chunkedFile(j.chunks);
  j.chunks = [];
  return file;
}
// the rows of the sheet, a batch at a time, to the main thread
function sender(j) {
  let batch = [];
  let sending = Promise.resolve();
  const send = async (rows) => {
    while (j.credit <= 0) await new Promise((r) => (j.wake = r));
    j.credit--;
    // one transferred buffer per batch: no rows in the main thread's heap until it reads them
    const bytes = encoder.encode(JSON.stringify(rows));
    parentPort.postMessage({ rows: bytes }, [bytes.buffer]);
  };
  return {
    row(r) {
      batch.push(r);
      if (batch.length === j.batch) {
        const full = batch;
        batch = [];
        sending = sending.then(() => send(full));
      }
    },
    // rows wait here (at most a chunk's worth past the credit) while the main thread is behind
    get waiting() { return sending; },
    async end() {
      await sending;
      if (batch.length) await send(batch);
    },
  };
}
async function parse(j, file) {
  const parts = zipEntries(file);
  const book = await workbookOf(file, parts);
  book.dates = await dateStylesOf(file, book.styles);
  if (book.strings) {
    reserveStrings(book.strings.size);
    await scanPart(file, book.strings, stringsHandler());
  }
  const out = sender(j);
  const h = sheetHandler(book, out.row);
  const write = xmlScanner(h);
  for await (const text of partText(file, book.sheet)) {
    // past </sheetData> the rest is only read for its CRC
    if (h.done) continue;
    write(text);
    // no further than the batches the main thread allowed (a chunk of 64 kB is some 300 rows)
    await out.waiting;
  }
  await out.end();
}
// A sheet of its own (WARM_ROWS rows as Excel writes them), scanned once before the real file so
// that the file meets compiled code.
function warmUp(rows) {
  let sst = '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';
  let sheet = '<worksheet><sheetData>';
  let n = 0;
  for (let r = 1; r <= rows; r++) {
    const texts = ['Name' + r, 'Surname' + (r % 97), 'p' + r + '@example.com', 'Company &amp; ' + (r % 50)];
    sheet += '<row r="' + r + '" spans="1:6">';
    texts.forEach((text, c) => {
      sheet += '<c r="' + String.fromCharCode(65 + c) + r + '" t="s"><v>' + n++ + '</v></c>';
      sst += '<si><t>' + text + '</t></si>';
    });
    sheet += '<c r="E' + r + '" s="1"><v>' + (45000 + r) + '</v></c><c r="F' + r + '" t="inlineStr"><is><t>x</t></is></c></row>';
  }
  sst += '</sst>';
  sheet += '</sheetData></worksheet>';
  let count = 0;
  const book = { date1904: false, dates: [false, true] };
  for (const [text, h] of [[sst, stringsHandler()], [sheet, sheetHandler(book, () => count++)]]) {
    const write = xmlScanner(h);
    for (let i = 0; i < text.length; i += 1 << 16) write(text.slice(i, i + (1 << 16)));
  }
  return count;
}
function reset() {
  strings = Buffer.alloc(1 << 16);
  ends = new Uint32Array(1 << 12);
  stringCount = 0;
}
(async () => {
  if (workerData.warmRows > 0) {
    let warmed = 0;
    try {
      warmed = warmUp(workerData.warmRows);
    } catch {}
    reset();
    // how many rows of its own sheet it read (the spec checks the warm-up works)
    parentPort.postMessage({ warmed });
  }
  // then the one file this worker reads
  const j = job ?? (await new Promise((r) => (jobArrived = r)));
  try {
    await parse(j, await fileOf(j));
    parentPort.postMessage({ done: true });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
})();
`;

/** A parser that waits for a file (one per process, see warmParser). */
let spare: Worker | null = null;

/**
 * The rows of the sheet a new parser reads before it waits for its file (see PARSER's `warmUp`):
 * enough for V8 to compile the scanner's hot paths, so that the file is parsed by optimised code.
 */
export const WARM_ROWS = 500;

function newParser(warmRows = WARM_ROWS): Worker {
  const parser = new Worker(PARSER, {
    eval: true,
    workerData: { warmRows },
    // a young generation of 8 MB: the scanner makes little garbage (100,000 rows as fast as with
    // 16, 6 MiB less at the peak, measured 2026-11-29; exceljs's reader needed 16)
    resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 },
  });
  // a parser that fails while waiting is simply replaced by the next import's own
  const drop = () => {
    if (spare === parser) spare = null;
  };
  parser.on('error', drop);
  parser.on('exit', drop);
  return parser;
}

/**
 * Starts the next import's parser now, so that the import does not wait for it (a new worker
 * takes some 20 ms to start, and its first rows would run in V8's interpreter: it scans a small
 * sheet of its own first, WARM_ROWS). A waiting parser holds a few MiB and no CPU; it does not
 * keep the process alive. Each parser parses one file and ends with it (its heap given back
 * whole); the next one is started at the server's start and when an import has been written (not
 * while it writes: a worker's allocations slowed SQLite's write through the one malloc arena).
 */
export function warmParser(): void {
  if (spare) return;
  spare = newParser();
  spare.unref();
}

/** The parser waiting for the next file, if any. */
export function waitingParser(): Worker | null {
  return spare;
}

/** Ends the waiting parser (the server stops). */
export async function stopParser(): Promise<void> {
  const parser = spare;
  spare = null;
  if (parser) await parser.terminate();
}

/**
 * The rows of the first sheet of a streamed .xlsx, a batch at a time, parsed in a worker (PARSER).
 * The source's chunks are handed to the worker as they arrive; at most `ahead` batches wait parsed
 * for this thread. A file that is no readable .xlsx ends the iteration with an Error.
 */
export async function* sheetRows(source: Readable, batch = IMPORT_BATCH, ahead = 4): AsyncGenerator<SheetRow[]> {
  // a waiting parser's own listeners only drop it from `spare`, which it no longer is
  const worker = spare ?? newParser(0);
  spare = null;
  worker.ref();
  worker.postMessage({ start: { batch, ahead } });
  const waiting: (Uint8Array | Error | null)[] = [];
  let wake: (() => void) | null = null;
  const push = (item: Uint8Array | Error | null) => {
    waiting.push(item);
    const w = wake;
    wake = null;
    w?.();
  };
  worker.on('message', (m: { rows?: Uint8Array; done?: boolean; error?: string; warmed?: number }) => {
    if (m.rows) push(m.rows);
    else if (m.done) push(null);
    else if (m.error !== undefined) push(new Error(m.error || 'parse failed'));
  });
  worker.on('error', (err) => push(err));
  worker.on('exit', () => push(new Error('the parser stopped')));
  const feed = (async () => {
    try {
      for await (const chunk of source) {
        // a copy of its own to transfer (the chunk may share its memory with others); not
        // Uint8Array.from, which walks the bytes one by one through the iterator
        const copy = new Uint8Array((chunk as Buffer).length);
        copy.set(chunk as Buffer);
        worker.postMessage({ chunk: copy }, [copy.buffer]);
      }
      worker.postMessage({ end: true });
    } catch (err) {
      push(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  try {
    for (;;) {
      while (!waiting.length) await new Promise<void>((r) => (wake = r));
      const item = waiting.shift() as Uint8Array | Error | null;
      if (item === null) return;
      if (item instanceof Error) throw item;
      // parsed only now, just before the rows are checked, so they die young
      yield JSON.parse(Buffer.from(item.buffer, item.byteOffset, item.byteLength).toString('utf8')) as SheetRow[];
      worker.postMessage({ ack: true });
    }
  } finally {
    await worker.terminate();
    await feed.catch(() => {});
  }
}

/** An .xlsx is a zip (PK\3\4); an old binary .xls an OLE2 compound document. */
export const isZip = (head: Buffer) => head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
export const isOle2 = (head: Buffer) => head.length >= OLE2.length && head.subarray(0, OLE2.length).equals(OLE2);

/**
 * Runs the import's write in one transaction (database/core-runner.ts: on SQLite synchronously in
 * BEGIN IMMEDIATE, each statement prepared once per connection and text, so a full batch's INSERT
 * of thousands of placeholders is parsed once for the whole write and not left for the garbage
 * collector to finalize; on MariaDB READ COMMITTED by the text protocol, retried on a deadlock).
 */
export function runWrite<T>(ds: DataSource, core: (env: CoreEnv) => Core<T>): Promise<T> {
  return runCore(ds, null, core);
}

/**
 * The phase-1 reads of the import (e-mails, codes): on SQLite synchronously on the raw connection
 * (its statements prepared once, core-runner.ts), so a batch is checked and spilled in one stretch
 * and its rows die young instead of waiting in the main thread's heap across awaits (where they
 * were promoted to the old generation, ~85 MiB of garbage at 100,000 rows); on MariaDB by `ds.query`.
 */
export function importReader(ds: DataSource): (sql: string, params: unknown[]) => unknown[] | Promise<unknown[]> {
  if (!isSqlite(ds)) return (sql, params) => ds.query(sql, params) as Promise<unknown[]>;
  return (sql, params) => sqliteStatement(sqliteConnection(ds), sql).all(params);
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const rowsMemo = new Map<string, string>();
/** `(?, …), (?, …)`: n rows of `width` placeholders, built once per shape (a full batch's is ~50 kB). */
const rowsOf = (n: number, width: number) => {
  const key = `${n}x${width}`;
  let text = rowsMemo.get(key);
  if (!text) {
    text = Array.from({ length: n }, () => `(${marks(width)})`).join(', ');
    if (rowsMemo.size < 64) rowsMemo.set(key, text);
  }
  return text;
};

/** The alphabet of common/crypto.ts randomCode (no 0/O, 1/I). */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/**
 * `n` codes as randomCode(length) makes them (each byte of a CSPRNG to a letter of the 32-letter
 * alphabet, so uniform), from one randomBytes call for the whole batch instead of one per row.
 */
export function randomCodes(n: number, length: number): string[] {
  const bytes = randomBytes(n * length);
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    let code = '';
    for (let k = i * length; k < (i + 1) * length; k++) code += CODE_ALPHABET[bytes[k] % CODE_ALPHABET.length];
    out[i] = code;
  }
  return out;
}

export interface WriteInput {
  subjectId: number;
  actionId: number;
  /** extensionImportType 2: each person gets their group's meal and parking defaults (issue 14) */
  groupDefaults: boolean;
  /** image_import rows whose photos became the rows' photos */
  consumedImports: number[];
  now: Date;
}

const ACCREDITATION_COLUMNS = [
  'subjectId',
  'actionId',
  'customId',
  'firstname',
  'lastname',
  'email',
  'search',
  'bc',
  'days',
  'fieldValues',
  'imageId',
  'imageName',
  'printCount',
  'credit',
  'isUnlimited',
  'source',
  'language',
  'createdAt',
  'updatedAt',
];

/**
 * Phase 2: every spilled row into accreditation and its links, by multi-row INSERTs, batch after
 * batch; the steps run in one transaction (runCore). The customIds follow the action's highest,
 * in the sheet's order; the new ids are read back by (actionId, customId), a unique index, so no
 * assumption is made on how the database hands out auto-increment values.
 */
export function* writeCore(env: CoreEnv, spill: Spill, input: WriteInput): Core<number> {
  const { subjectId, actionId } = input;
  // MariaDB: the action's row locked, as a create numbers its person under the same lock
  if (env.lock) yield { sql: `SELECT id FROM action WHERE id = ?${env.lock}`, params: [actionId], kind: 'all' };
  const [max] = (yield {
    sql: 'SELECT MAX(customId) AS max FROM accreditation WHERE actionId = ?',
    params: [actionId],
    kind: 'all',
  }) as { max: unknown }[];
  let next = Number(max?.max ?? 0) + 1;
  const now = env.date(input.now);
  let written = 0;
  for (const batch of spill.batches()) {
    const first = next;
    const params: unknown[] = [];
    for (const r of batch) {
      // subjectId, actionId, customId, firstname, lastname, email, search, bc, days, fieldValues,
      // imageId, imageName, printCount, credit, isUnlimited, source, language, createdAt, updatedAt
      params.push(subjectId, actionId, next++, r[0], r[1], r[2], r[3], r[4], '[]', r[5], r[6], r[7], 0, null, 0);
      params.push('admin', r[8], now, now);
    }
    yield {
      sql: `INSERT INTO accreditation (${ACCREDITATION_COLUMNS.join(', ')}) VALUES ${rowsOf(batch.length, ACCREDITATION_COLUMNS.length)}`,
      params,
      kind: 'run',
    };
    const found = (yield {
      sql: 'SELECT id, customId FROM accreditation WHERE actionId = ? AND customId BETWEEN ? AND ?',
      params: [actionId, first, next - 1],
      kind: 'all',
    }) as { id: unknown; customId: unknown }[];
    const ids = new Array<number>(batch.length);
    for (const f of found) ids[Number(f.customId) - first] = Number(f.id);

    const groups: unknown[] = [];
    const zones: unknown[] = [];
    const values: unknown[] = [];
    const joins: { accreditationId: number; actionId: number; groupIds: number[] }[] = [];
    for (let k = 0; k < batch.length; k++) {
      const [, , , , , , , , , groupId, zoneIds, texts] = batch[k];
      if (groupId) {
        groups.push(ids[k], groupId);
        if (input.groupDefaults) joins.push({ accreditationId: ids[k], actionId, groupIds: [groupId] });
      }
      for (const zoneId of zoneIds) zones.push(ids[k], zoneId);
      for (let t = 0; t < texts.length; t += 2) values.push(ids[k], actionId, texts[t], texts[t + 1]);
    }
    if (groups.length)
      yield {
        sql: `INSERT INTO accreditation_group (accreditationId, groupId) VALUES ${rowsOf(groups.length / 2, 2)}`,
        params: groups,
        kind: 'run',
      };
    if (zones.length)
      yield {
        sql: `INSERT INTO accreditation_zone (accreditationId, zoneId) VALUES ${rowsOf(zones.length / 2, 2)}`,
        params: zones,
        kind: 'run',
      };
    // up to a few thousand values a batch: in slices, to stay far below any placeholder limit
    for (let i = 0; i < values.length; i += 4 * 2000) {
      const slice = values.length <= 4 * 2000 ? values : values.slice(i, i + 4 * 2000);
      yield {
        sql: `INSERT INTO accreditation_value (accreditationId, actionId, fieldId, value) VALUES ${rowsOf(slice.length / 4, 4)}`,
        params: slice,
        kind: 'run',
      };
    }
    if (input.groupDefaults && joins.length) yield* groupDefaultsCore(env, subjectId, joins, input.now);
    written += batch.length;
  }
  for (let i = 0; i < input.consumedImports.length; i += 500) {
    const ids = input.consumedImports.slice(i, i + 500);
    yield { sql: `DELETE FROM image_import WHERE id IN (${marks(ids.length)})`, params: ids, kind: 'run' };
  }
  return written;
}
