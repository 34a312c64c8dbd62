import { Worker } from 'node:worker_threads';

/**
 * SQLite in WAL mode copies the log back into the database file ("checkpoint") in the connection
 * that commits, by default once the log holds 1,000 pages: on the server's only connection that is
 * the event loop's thread, which then writes up to 4 MB and waits for two fsyncs while no request
 * is served. A gate scan writes ~16 kB of log (its passage, its scan row, their index pages), so
 * under a rush that stall came every ~250 scans and set the scans' p99 (docs/access-control.md
 * "Speed, durability and races").
 *
 * Here the checkpoint runs on a thread of its own with its own connection, as PASSIVE checkpoints
 * (they never wait for and never block the writer or the readers): every CHECK_MS it looks at the
 * log file and checkpoints when it changed. Once everything in the log is copied, the next write
 * starts the log from its beginning again, so the file stays small. The connection's own automatic
 * checkpoint is not switched off but raised to FALLBACK_PAGES: should the thread fall behind or
 * fail, SQLite's own checkpoint still bounds the log, as before, only later.
 *
 * Durability is unchanged: a checkpoint syncs the log before it copies it and the database file
 * after; the answers of a scan still wait for their own sync of the log (sqlite-wal-sync.ts).
 */
export const CHECK_MS = 100;
export const FALLBACK_PAGES = 8_000;

// The thread (a file of its own, run as it is from dist and from the sources)
const THREAD = new URL('./sqlite-checkpoint.worker.js', import.meta.url);

interface Connection {
  name: string;
  memory: boolean;
  pragma(sql: string, options?: { simple: boolean }): unknown;
  close(): unknown;
}

/** The checkpoints of one connection's database: started with it, stopped when it closes. */
export class SqliteCheckpointer {
  private readonly worker: Worker;
  private stopped = false;
  /** the last checkpoint's frames (tests and diagnosis) */
  last: { log: number; checkpointed: number } | null = null;
  errors = 0;
  private readonly waiting: (() => void)[] = [];

  private constructor(file: string, every: number) {
    this.worker = new Worker(THREAD, { workerData: { file, every } });
    // the thread never keeps the process alive (it is stopped with the connection anyway)
    this.worker.unref();
    this.worker.on('message', (m: { log?: number; checkpointed?: number; error?: string }) => {
      if (m.error !== undefined) this.errors++;
      else this.last = { log: m.log ?? 0, checkpointed: m.checkpointed ?? 0 };
      for (const w of this.waiting.splice(0)) w();
    });
    // a failed thread leaves SQLite's own checkpoint (FALLBACK_PAGES) in charge
    this.worker.on('error', () => {
      this.errors++;
    });
  }

  /**
   * For a file database in WAL mode (else null, nothing changes): raises the connection's automatic
   * checkpoint to the fallback and starts the thread; `close()` of the connection stops it.
   */
  static attach(conn: Connection, every = CHECK_MS): SqliteCheckpointer | null {
    if (conn.memory || !conn.name || conn.name === ':memory:') return null;
    if (String(conn.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return null;
    const checkpointer = new SqliteCheckpointer(conn.name, every);
    conn.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
    const close = conn.close.bind(conn);
    conn.close = () => {
      checkpointer.stop();
      return close();
    };
    return checkpointer;
  }

  /** A checkpoint now, resolved when the thread has answered (tests). */
  now(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.worker.postMessage('now');
    });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.postMessage('stop');
    for (const w of this.waiting.splice(0)) w();
  }
}
