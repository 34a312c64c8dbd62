import fs from 'node:fs';

/** What WalSync needs of a better-sqlite3 connection. */
export interface WalDb {
  name: string;
  memory: boolean;
  pragma(sql: string, options?: { simple: boolean }): unknown;
  prepare(sql: string): { run(...p: unknown[]): unknown };
}

/**
 * The durability of a write batch without blocking the event loop for the disk. An answered scan
 * opens a gate or takes money, an answered registration tells a visitor they are in: the batch that
 * holds it must be on the disk before the answers go out (as the station does for its offline
 * scans, docs/station.md), so that a power cut does not give back an entrance, a deduction or a
 * registration that was answered. In WAL mode, `synchronous = FULL` does that inside COMMIT (an
 * fsync of the log: ~1 ms of an idle disk, much more of a busy one, during which the only thread
 * serves nothing), and `NORMAL` does not sync at all; better-sqlite3 is built with
 * SQLITE_DEFAULT_WAL_SYNCHRONOUS=1, so a connection that opens a database already in WAL mode is at
 * NORMAL. Here the batch commits without a sync (at FULL or EXTRA the level is lowered to NORMAL
 * around the batch's COMMIT only, outside any transaction, and restored at once) and the log is
 * then `fdatasync`ed on libuv's thread pool; the batch's answers go out when that sync has returned,
 * so an answered write is on the disk as with FULL, while the next batch is decided (it may read this
 * one's rows; its own answers wait for its own sync, which covers both). A checkpoint syncs the log
 * before it copies it, whatever the level. Not used for a memory database, another journal mode, or
 * `synchronous = OFF` (chosen explicitly: no durability asked): `open` gives null then.
 */
export class WalSync {
  private fd: number | null = null;
  private waiting: { done: () => void; failed: (error: unknown) => void }[] = [];
  private running = false;

  private constructor(
    private readonly path: string,
    /** the connection's level is FULL or EXTRA: lowered to NORMAL around the batch's COMMIT */
    private readonly lower: { run(): unknown } | null,
    private readonly restore: { run(): unknown } | null,
  ) {}

  static open(db: WalDb): WalSync | null {
    try {
      if (db.memory || !db.name || db.name === ':memory:') return null;
      if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return null;
      const level = Number(db.pragma('synchronous', { simple: true }));
      if (!(level >= 1 && level <= 3)) return null;
      return level >= 2
        ? new WalSync(
            `${db.name}-wal`,
            db.prepare('PRAGMA synchronous = 1'),
            db.prepare(`PRAGMA synchronous = ${level}`),
          )
        : new WalSync(`${db.name}-wal`, null, null);
    } catch {
      return null;
    }
  }

  /** Before BEGIN. */
  begin(): void {
    this.lower?.run();
  }

  /** After COMMIT (or its failure): the connection's own level again for every other write. */
  end(): void {
    this.restore?.run();
  }

  /**
   * The log on disk, then `done`; a failed sync fails the batch's answers (a device's replay
   * answers them later). At most one sync runs at a time: a batch committed while one runs may not
   * be covered by it (it may have started before the batch's write), so it waits for the next, which
   * starts when the running one returns and covers every batch committed meanwhile (group commit of
   * the syncs: under a busy disk one sync instead of one per batch, less of the disk and of the
   * thread pool that password hashing also needs).
   */
  sync(done: () => void, failed: (error: unknown) => void): void {
    this.waiting.push({ done, failed });
    if (!this.running) this.next();
  }

  private next(): void {
    const batch = this.waiting;
    if (!batch.length) return;
    this.waiting = [];
    let fd: number;
    try {
      // a log deleted and made again (only when every connection closed) is a new file
      if (this.fd !== null && fs.fstatSync(this.fd).nlink === 0) this.close();
      this.fd ??= fs.openSync(this.path, 'r+');
      fd = this.fd;
    } catch (error) {
      this.close();
      for (const w of batch) w.failed(error);
      return;
    }
    this.running = true;
    fs.fdatasync(fd, (error) => {
      this.running = false;
      for (const w of batch) {
        if (error) w.failed(error);
        else w.done();
      }
      this.next();
    });
  }

  close(): void {
    if (this.fd === null) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = null;
  }
}
