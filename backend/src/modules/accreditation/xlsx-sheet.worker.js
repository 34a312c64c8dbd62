// @ts-check
/**
 * The worker thread that reads one uploaded .xlsx for an import (accreditation-import.ts
 * `sheetRows` starts it; xlsx-sheet.js reads the file). Plain JavaScript checked by TypeScript,
 * run as it is from the build and from the sources alike.
 *
 * Its messages: in, `{ start: { batch, ahead } }` (the file's rows go `batch` at a time, at most
 * `ahead` batches before the main thread has read them), then `{ chunk }` (the upload's bytes, as
 * they arrive), `{ end: true }`, and `{ ack: true }` for each batch read; out, `{ warmed }` once
 * (workerData.warmRows > 0: the rows of the sheet of its own it read first), `{ rows }` (a batch
 * as a transferred buffer of JSON), then `{ done: true }` or `{ error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { chunkedFile, readSheet, warmUp } from './xlsx-sheet.js';

/** @typedef {import('./xlsx-sheet.js').SheetRow} SheetRow */
/**
 * @typedef {object} Job the file to parse: its chunks as they arrive, whether its upload ended, how
 *   many batches it may still send (the main thread acknowledges each batch it has read)
 * @property {number} batch
 * @property {number} credit
 * @property {Buffer[]} chunks
 * @property {boolean} ended
 * @property {(() => void) | null} wake
 */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const encoder = new TextEncoder();

/** @type {Job | null} */
let job = null;
/** @type {((j: Job) => void) | null} */
let jobArrived = null;

/** @param {Job} j */
function poke(j) {
  const w = j.wake;
  j.wake = null;
  if (w) w();
}

port.on('message', (m) => {
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

/** @param {Job} j @returns {Promise<void>} */
const nudged = (j) => new Promise((r) => (j.wake = r));

/** @param {Job} j the whole upload, once it has ended */
async function fileOf(j) {
  while (!j.ended) await nudged(j);
  const file = chunkedFile(j.chunks);
  j.chunks = [];
  return file;
}

/** @param {Job} j the rows of the sheet, a batch at a time, to the main thread */
function sender(j) {
  /** @type {SheetRow[]} */
  let batch = [];
  /** @type {Promise<void>} */
  let sending = Promise.resolve();
  /** @param {SheetRow[]} rows */
  const send = async (rows) => {
    while (j.credit <= 0) await nudged(j);
    j.credit--;
    // one transferred buffer per batch: no rows in the main thread's heap until it reads them
    const bytes = encoder.encode(JSON.stringify(rows));
    port.postMessage({ rows: bytes }, [bytes.buffer]);
  };
  return {
    /** @param {SheetRow} r */
    row(r) {
      batch.push(r);
      if (batch.length === j.batch) {
        const full = batch;
        batch = [];
        sending = sending.then(() => send(full));
      }
    },
    /** rows wait here (at most a chunk's worth past the credit) while the main thread is behind */
    waiting: () => sending,
    async end() {
      await sending;
      if (batch.length) await send(batch);
    },
  };
}

(async () => {
  if (workerData.warmRows > 0) {
    let warmed = 0;
    try {
      warmed = warmUp(workerData.warmRows);
    } catch {}
    // how many rows of its own sheet it read (the spec checks the warm-up works)
    port.postMessage({ warmed });
  }
  // then the one file this worker reads
  const j = job ?? (await /** @type {Promise<Job>} */ (new Promise((r) => (jobArrived = r))));
  try {
    const file = await fileOf(j);
    const out = sender(j);
    await readSheet(file, out.row, out.waiting);
    await out.end();
    port.postMessage({ done: true });
  } catch (err) {
    port.postMessage({ error: String((err instanceof Error && err.message) || err) });
  }
})();
