import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { DataSource } from 'typeorm';
import { Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { scratchPath } from '../../common/scratch.js';
import { TextStore } from '../../common/text-store.js';
import {
  type Core,
  type CoreEnv,
  coreRunner,
  type HeldWrite,
  holdWrite,
  type Step,
  sqliteConnection,
  sqliteStatement,
} from '../../database/core-runner.js';
import { LIST_BLOCK_SIZE } from '../../database/migrations/1764400000001-list-blocks.js';
import { groupDefaultsCore } from '../action-extension/extension-core.js';
import { isSqlite } from '../device/sql.js';
import { searchText } from './accreditation.entity.js';
import type { SheetRow } from './xlsx-sheet.js';

/**
 * The streaming spreadsheet import (issue 16): the helpers of AccreditationFilesService.import*.
 *
 * Phase 1 reads the sheet as it arrives (a multipart upload, or the base64 body of spec §7),
 * checks every row, checks each batch of rows against the database (e-mails of the action, codes
 * of the system, photos waiting) and appends the rows that passed to a spill file on the disk, so
 * memory stays flat whatever the size. Phase 2 runs only when no row failed: it reads the spill
 * file back and writes every row by multi-row INSERTs in one transaction (all or nothing), as a
 * generator of SQL steps run by the core runner — on SQLite synchronously on the raw connection inside
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
 * A set of texts (the e-mails seen so far in a sheet): exact, like a Set of strings, but kept in a
 * TextStore (UTF-8 outside V8's heap, about a third of the size: a Set of 200,000 e-mails is
 * ~18 MiB of heap that the garbage collector walks on every full collection while the import
 * runs) with an open-addressing table of their numbers.
 */
export class TextSet {
  private readonly store = new TextStore();
  /** each slot: a text's number + 1, or 0 */
  private table = new Int32Array(1 << 11);
  private scratch = Buffer.alloc(1024);

  get size(): number {
    return this.store.size;
  }

  /** Adds `text`; false when it was there already. */
  add(text: string): boolean {
    if (text.length * 3 > this.scratch.length) this.scratch = Buffer.alloc(text.length * 3);
    const n = this.scratch.write(text);
    const mask = this.table.length - 1;
    let slot = hashOf(this.scratch, 0, n) & mask;
    for (let at = this.table[slot]; at !== 0; slot = (slot + 1) & mask, at = this.table[slot]) {
      if (this.store.equals(at - 1, this.scratch, n)) return false;
    }
    this.table[slot] = this.store.push(this.scratch, n) + 1;
    if (this.store.size * 2 > this.table.length) this.grow();
    return true;
  }

  private grow(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let i = 0; i < this.store.size; i++) {
      let slot = hashOf(this.store.bytes, this.store.start(i), this.store.end(i)) & mask;
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
export type { SheetRow };

/**
 * The parse itself, in a worker thread of its own (xlsx-sheet.worker.js; the reader is
 * xlsx-sheet.js, our own since 2026-11-29): the parse makes most of an import's garbage, and a
 * worker's heap is small (capped) and given back whole when it ends, so the server's memory stays
 * flat and returns after the import; it also parses on the second core while this thread checks
 * rows and talks to the database. Each batch crosses as one transferred buffer of JSON, read by
 * this thread only when it checks that batch. The worker loads no package: ~8 MiB of heap, started
 * in ~20 ms, where exceljs's reader and its dependencies held some 60 MiB at 100,000 rows.
 */
const PARSER = new URL('./xlsx-sheet.worker.js', import.meta.url);

/** A parser that waits for a file (one per process, see warmParser). */
let spare: Worker | null = null;

/**
 * The rows of the sheet a new parser reads before it waits for its file (xlsx-sheet.js `warmUp`):
 * enough for V8 to compile the scanner's hot paths, so that the file is parsed by optimised code.
 */
export const WARM_ROWS = 500;

function newParser(warmRows = WARM_ROWS): Worker {
  const parser = new Worker(PARSER, {
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
 * collector to finalize; on MariaDB READ COMMITTED by the text protocol, a batch's writes between
 * two reads in one round trip (RunOptions.grouped, IMPORT_SESSION), retried on a deadlock).
 */
export function runWrite<T>(ds: DataSource, core: (env: CoreEnv) => Core<T>): Promise<T> {
  return coreRunner(ds).run(core, { prepared: 'none', grouped: IMPORT_SESSION });
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
/** `row, row, …`: n times the tuple `row`, built once per shape (a full batch's is ~50 kB). */
const tuplesOf = (n: number, row: string) => {
  const key = `${n}x${row}`;
  let text = rowsMemo.get(key);
  if (!text) {
    text = Array.from({ length: n }, () => row).join(', ');
    if (rowsMemo.size < 64) rowsMemo.set(key, text);
  }
  return text;
};
/** `(?, …), (?, …)`: n rows of `width` placeholders. */
const rowsOf = (n: number, width: number) => tuplesOf(n, `(${marks(width)})`);

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

/** The `source` of an imported person (as an admin's: the dashboard counts the office's and the online form's). */
const IMPORT_SOURCE = 'admin';

/** Where a write of batches stands: the next customId, and how many were written. */
export interface WriteState {
  next: number;
  written: number;
}

/**
 * Phase 2: every spilled row into accreditation and its links, by multi-row INSERTs, batch after
 * batch; the steps run in one transaction (runWrite). The customIds follow the action's highest,
 * in the sheet's order; the new ids are read back by (actionId, customId), a unique index, so no
 * assumption is made on how the database hands out auto-increment values.
 */
export function* writeCore(env: CoreEnv, spill: Spill, input: WriteInput): Core<number> {
  const state = yield* writeHead(env, input);
  for (const batch of spill.batches()) yield* writeBatch(env, batch, state, input);
  yield* writeTail(env, input, state);
  return state.written;
}

/**
 * MariaDB: the guarded insert triggers leave a row to the import while its session's `@accredo_bulk`
 * is set (migration 1765200000001). It is set only around the statements of one round trip: the
 * import's writes run grouped (runMysqlGrouped: a batch's writes between two reads as one compound
 * statement), so BULK_ON and BULK_OFF are always in the same block, and a block that fails runs
 * `reset` in its handler; the session is reset again before its connection goes back to the pool.
 * So no connection ever carries the variable into a statement of someone else's.
 */
const BULK_ON: Step = { sql: 'SET @accredo_bulk = 1', params: [], kind: 'run' };
const BULK_OFF: Step = { sql: 'SET @accredo_bulk = NULL', params: [], kind: 'run' };
export const IMPORT_SESSION = { reset: BULK_OFF.sql } as const;

/** The write's start: the action's row locked (MariaDB), its highest customId read. */
export function* writeHead(env: CoreEnv, input: WriteInput): Core<WriteState> {
  // MariaDB: the action's row locked, as a create numbers its person under the same lock
  if (env.lock) yield { sql: `SELECT id FROM action WHERE id = ?${env.lock}`, params: [input.actionId], kind: 'all' };
  const [max] = (yield {
    sql: 'SELECT MAX(customId) AS max FROM accreditation WHERE actionId = ?',
    params: [input.actionId],
    kind: 'all',
  }) as { max: unknown }[];
  return { next: Number(max?.max ?? 0) + 1, written: 0 };
}

/** One batch of checked rows into accreditation and its links. */
export function* writeBatch(env: CoreEnv, batch: SpillRow[], state: WriteState, input: WriteInput): Core<void> {
  const { subjectId, actionId } = input;
  const now = env.date(input.now);
  const first = state.next;
  // MariaDB: the triggers leave this batch's rows to importBookkeeping (migrations 1765100000001,
  // 1765200000001): the variable set around the statements whose triggers would keep the books
  if (env.bookkeeping) yield BULK_ON;
  const params: unknown[] = [];
  for (const r of batch) {
    // subjectId, actionId, customId, firstname, lastname, email, search, bc, days, fieldValues,
    // imageId, imageName, printCount, credit, isUnlimited, source, language, createdAt, updatedAt
    params.push(subjectId, actionId, state.next++, r[0], r[1], r[2], r[3], r[4], '[]', r[5], r[6], r[7], 0, null, 0);
    params.push(IMPORT_SOURCE, r[8], now, now);
  }
  yield {
    sql: `INSERT INTO accreditation (${ACCREDITATION_COLUMNS.join(', ')}) VALUES ${rowsOf(batch.length, ACCREDITATION_COLUMNS.length)}`,
    params,
    kind: 'run',
  };
  if (env.bookkeeping) yield BULK_OFF;
  const found = (yield {
    sql: 'SELECT id, customId FROM accreditation WHERE actionId = ? AND customId BETWEEN ? AND ?',
    params: [actionId, first, state.next - 1],
    kind: 'all',
  }) as { id: unknown; customId: unknown }[];
  const ids = new Array<number>(batch.length);
  for (const f of found) ids[Number(f.customId) - first] = Number(f.id);
  if (env.bookkeeping) yield BULK_ON;

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
  if (env.bookkeeping) {
    yield* importBookkeeping(input, ids, groups, zones, now);
    yield BULK_OFF;
  }
  if (input.groupDefaults && joins.length) yield* groupDefaultsCore(env, subjectId, joins, input.now);
  state.written += batch.length;
}

const NOW_MS = 'ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)';

/** How many of `keys` there are of each, as [key, count] pairs. */
function tally(keys: Iterable<number>): [number, number][] {
  const counts = new Map<number, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts];
}

/** `INSERT … VALUES` of [key, n] counts, added to those there are (`ON DUPLICATE KEY`). */
function* addCounts(table: string, columns: string, fixed: unknown[], counts: [number, number][]): Core<void> {
  if (!counts.length) return;
  yield {
    sql: `INSERT INTO ${table} (${columns}) VALUES ${rowsOf(counts.length, fixed.length + 2)} ON DUPLICATE KEY UPDATE n = n + VALUES(n)`,
    params: counts.flatMap(([key, n]) => [...fixed, key, n]),
    kind: 'run',
  };
}

/**
 * MariaDB: what the insert triggers guarded by migration 1765100000001 would have written for the
 * batch's people (`ids`, just inserted with their links: `groups` and `zones` as (person, link)
 * pairs, and values), written for the whole batch by one statement each, from what the batch holds,
 * nothing read back: the change feed (one entry a person: the triggers wrote one more for each of
 * its links, in the same transaction, which said nothing more), the dashboard's hourly count (every
 * row made `now`, by the same source), "not entered" and its facet blocks, the list's blocks, the
 * group and zone counts. The search's pending list is written once at the end (writeTail). Not
 * the "printed" facet: an imported row is never printed (printCount 0 above). Measured with a
 * batch's triggers running, guarded, and this (2026-12-03, 10,000 people with a value):
 * MariaDB's CPU 0.61 s, 0.30 s and 0.42 s. `accreditation-files.spec.ts` checks each against the
 * rows themselves.
 */
function* importBookkeeping(
  input: WriteInput,
  ids: number[],
  groups: unknown[],
  zones: unknown[],
  now: unknown,
): Core<void> {
  const { subjectId, actionId } = input;
  const n = ids.length;
  yield {
    sql: `INSERT INTO accreditation_change (subjectId, actionId, accreditationId, kind, changedAt) VALUES ${tuplesOf(n, `(?, ?, ?, ?, ${NOW_MS})`)}`,
    params: ids.flatMap((id) => [subjectId, actionId, id, 1]),
    kind: 'run',
  };
  yield {
    sql: "INSERT INTO accreditation_hourly (subjectId, actionId, source, utcHour, registrations) VALUES (?, ?, ?, DATE_FORMAT(?, '%Y-%m-%d %H'), ?) ON DUPLICATE KEY UPDATE registrations = registrations + VALUES(registrations)",
    params: [subjectId, actionId, IMPORT_SOURCE, now, n],
    kind: 'run',
  };
  const pairs = ids.flatMap((id) => [actionId, id]);
  yield {
    sql: `INSERT IGNORE INTO accreditation_not_entered (actionId, accreditationId) VALUES ${rowsOf(n, 2)}`,
    params: pairs,
    kind: 'run',
  };
  const blocks = tally(ids.map((id) => Math.floor(id / LIST_BLOCK_SIZE)));
  yield* addCounts('accreditation_facet_block', 'actionId, facet, block, n', [actionId, 'not_entered'], blocks);
  yield* addCounts('accreditation_block', 'subjectId, actionId, block, n', [subjectId, actionId], blocks);
  // (person, link) pairs: how many people each link got
  const links = (personLink: unknown[]) => tally(personLink.filter((_, k) => k % 2 === 1) as number[]);
  yield* addCounts(
    'accreditation_group_count',
    'subjectId, actionId, groupId, n',
    [subjectId, actionId],
    links(groups),
  );
  yield* addCounts('accreditation_zone_count', 'subjectId, actionId, zoneId, n', [subjectId, actionId], links(zones));
}

/**
 * The write's end: MariaDB's search queue for every imported person (importBookkeeping's share of
 * the insert triggers that is left to the end), and the photos uploaded before the sheet that rows
 * took, gone from the waiting list.
 * The queue by one statement at the end and not a batch at a time: the trigram worker polls it
 * (`SELECT 1 FROM trigram_pending LIMIT 1`, every 250 ms) and InnoDB walks every uncommitted row of
 * it to find none committed, 4–10 ms a poll at 25,000–100,000 rows, for as long as the import's
 * transaction is open (measured 2026-12-03). Its rows are the import's customIds, a range under the
 * action's lock (writeHead): no one else's person is in it.
 */
export function* writeTail(env: CoreEnv, input: WriteInput, state: WriteState): Core<void> {
  if (env.bookkeeping && state.written)
    yield {
      sql: 'INSERT IGNORE INTO trigram_pending (actionId, accreditationId) SELECT actionId, id FROM accreditation WHERE actionId = ? AND customId >= ?',
      params: [input.actionId, state.next - state.written],
      kind: 'run',
    };
  for (let i = 0; i < input.consumedImports.length; i += 500) {
    const ids = input.consumedImports.slice(i, i + 500);
    yield { sql: `DELETE FROM image_import WHERE id IN (${marks(ids.length)})`, params: ids, kind: 'run' };
  }
}

/** How many checked batches may wait for their write on MariaDB before the read waits for them. */
export const WRITE_AHEAD = 2;

/**
 * MariaDB: the checked batches written while the next ones are read and checked, in one
 * transaction held open from the first (holdWrite: the action's row locked, as phase 2 locks it),
 * so the database's work (the INSERTs and their triggers, most of a big import's time) overlaps
 * the parse and the checks on the other core instead of following them. Still all or nothing: a
 * row error anywhere and the transaction is rolled back (`abandon`); the rows are spilled too, so
 * a write that failed here (a deadlock) is written again from the spill by phase 2 as before,
 * with its retries. On SQLite the write stays phase 2: a transaction open for the whole read would
 * hold the one writer's lock (every gate's scan) for that long.
 */
export class WriteAhead {
  private static readonly logger = new Logger('Import');
  private held: HeldWrite | null = null;
  private state: WriteState | null = null;
  private readonly waiting: Promise<void>[] = [];
  private failed = false;

  constructor(
    private readonly ds: DataSource,
    private readonly input: WriteInput,
  ) {}

  /** Queues a batch's write; returns once no more than WRITE_AHEAD batches wait for theirs. */
  async add(batch: SpillRow[]): Promise<void> {
    const before = this.waiting.at(-1) ?? Promise.resolve();
    this.waiting.push(
      before.then(async () => {
        if (this.failed) return;
        try {
          this.held ??= await holdWrite(this.ds, IMPORT_SESSION);
          this.state ??= await this.held.run((env) => writeHead(env, this.input));
          const state = this.state;
          await this.held.run((env) => writeBatch(env, batch, state, this.input));
        } catch (error) {
          // nothing is lost (phase 2 writes every row from the spill), but say why it took longer
          if (!this.failed)
            WriteAhead.logger.warn(`write-ahead batch failed, writing from the spill: ${String(error)}`);
          this.failed = true;
        }
      }),
    );
    while (this.waiting.length > WRITE_AHEAD) await this.waiting.shift();
  }

  /**
   * Once every row was checked and none failed: the last batches, the tail and the commit; how
   * many were written, or null when a batch's write failed (rolled back: phase 2 writes them all
   * from the spill). A failed tail or commit throws (a commit may have happened).
   */
  async finish(): Promise<number | null> {
    await Promise.all(this.waiting.splice(0));
    if (this.failed || !this.held || !this.state) {
      await this.abandon();
      return null;
    }
    try {
      const state = this.state;
      await this.held.run((env) => writeTail(env, this.input, state));
    } catch (error) {
      await this.abandon();
      throw error;
    }
    await this.held.commit();
    return this.state.written;
  }

  /** Rolls back whatever was written (a row error, a read that failed); safe to call again. */
  async abandon(): Promise<void> {
    this.failed = true;
    await Promise.all(this.waiting.splice(0));
    await this.held?.rollback();
  }
}
