// @ts-check
/**
 * The checkpoint thread of one SQLite database (sqlite-checkpoint.ts SqliteCheckpointer starts
 * it): every `workerData.every` ms, when the log file changed since the last look, a PASSIVE
 * checkpoint on a connection of its own. Messages in: 'now' (look now), 'stop'; out: the
 * checkpoint's `{ log, checkpointed }` frames, or `{ error }`. Plain JavaScript checked by
 * TypeScript, run as it is from the build and from the sources alike.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { file, every } = /** @type {{ file: string; every: number }} */ (workerData);
/** @type {import('better-sqlite3').Database | undefined} */
let db;
let last = '';

function tick() {
  try {
    const st = fs.statSync(`${file}-wal`, { throwIfNoEntry: false });
    const seen = st ? `${st.size}:${st.mtimeMs}` : '';
    if (!st || seen === last) return;
    db ??= new Database(file, { fileMustExist: true });
    const [r] = /** @type {{ log: number; checkpointed: number }[]} */ (db.pragma('wal_checkpoint(PASSIVE)'));
    // what was copied is what the stat saw (or more): look again only after the next change
    last = seen;
    port.postMessage({ log: r.log, checkpointed: r.checkpointed });
  } catch (error) {
    port.postMessage({ error: String((error instanceof Error && error.message) || error) });
  }
}

const timer = setInterval(tick, every);
port.on('message', (m) => {
  if (m === 'now') tick();
  if (m === 'stop') {
    clearInterval(timer);
    try {
      db?.close();
    } catch {}
    port.close();
  }
});
