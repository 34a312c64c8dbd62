import type { DataSource, EntityManager } from 'typeorm';
import { isSqlite, sqlDate } from '../modules/device/sql.js';
import { type MysqlConnection, myExecute, myQuery, myText, mysqlConnection, mysqlPool } from './mysql-driver.js';
import { WalSync } from './sqlite-wal-sync.js';
import { BlockCombiner, resetSession, runMysqlBatched, runMysqlGrouped } from './mariadb-batch.js';

/**
 * The one runner of the raw write paths (the gate's scan and offline upload, a new person's create,
 * the extension items' capacities, the import's write, the mail queue's claims). A write is a
 * generator of SQL statements (a "core"): it yields each statement and gets its result back, so the
 * same steps run
 * - on SQLite synchronously on the raw better-sqlite3 connection, each statement prepared once per
 *   text and kept (`sqliteStatement`): no other JavaScript runs between a step and the next, so the
 *   reads a decision is based on cannot change before its writes (one writer). Cores that arrive
 *   together share one BEGIN IMMEDIATE (group commit), each in a savepoint of its own, so one that
 *   fails (an e-mail taken, a code used up) rolls back alone; the batch's answers go out after the
 *   commit and, in WAL mode on a file, after `WalSync` has put the log on the disk (so an answered
 *   write survives a power cut, without blocking the event loop for the sync);
 * - on MariaDB awaited on one connection of TypeORM's mysql2 pool, in a READ COMMITTED transaction
 *   whose cores lock what they decide on (`env.lock` = ' FOR UPDATE'), retried a bounded number of
 *   times on a deadlock or a lock wait timeout.
 * One runner per data source (`coreRunner`), so every raw write of a process shares one SQLite
 * queue: scans, registrations and item assignments are decided one after another.
 */

/** A statement of a core: `all` answers rows, `run` a WriteResult. */
export type Step = { sql: string; params: unknown[]; kind: 'all' | 'run' };
/** What a write step gets back: the changed rows and the new row's id. */
export interface WriteResult {
  changes: number;
  insertId: number;
}
// biome-ignore lint/suspicious/noExplicitAny: each step's result is typed where it is used
export type Core<T> = Generator<Step, T, any>;

export interface CoreEnv {
  /** ' FOR UPDATE' on MariaDB, '' on SQLite (one writer) */
  lock: string;
  /** a datetime parameter as the database takes it (sql.ts sqlDate) */
  date: (d: Date) => unknown;
  /**
   * MariaDB: a write of many people may keep the insert triggers' books itself, a statement a
   * batch (migration 1765100000001; the import's writeBatch); SQLite: its triggers keep them
   */
  bookkeeping: boolean;
}

export const readStep = (sql: string, params: unknown[]): Step => ({ sql, params, kind: 'all' });
export const writeStep = (sql: string, params: unknown[]): Step => ({ sql, params, kind: 'run' });

export interface RunOptions {
  /**
   * MariaDB: which statements go as server-side prepared statements (mysql2's `execute`, binary
   * protocol, prepared once per connection and text) rather than by the text protocol:
   * - 'writes' (the default): the writes; reads by text, because the binary protocol reads a BIGINT
   *   (a COUNT) through the `long` package, which not every loader gives mysql2;
   * - 'all': reads too, for a hot path whose reads hold no COUNT (the gate's scan);
   * - 'none': for cores whose texts vary with their data (a batch's multi-row INSERT): each text
   *   prepared would stay on the server, which holds at most max_prepared_stmt_count of them.
   * With `batch`, unless 'none', the block from the lock on is one prepared statement
   * (mariadb-batch.ts), so its reads go by the binary protocol too: a core whose reads after its
   * lock return a BIGINT (a COUNT) uses 'none'.
   */
  prepared?: 'writes' | 'all' | 'none';
  /** MariaDB: an error (its message) after which the core is run again from the start, at most twice */
  retry?: (message: string) => boolean;
  /**
   * MariaDB: the steps from the one that locks (its text ends with `env.lock`) on go to the server
   * in one round trip where the core allows (mariadb-batch.ts): a hot path whose locks queue others
   */
  batch?: boolean | { resultReads: readonly string[] };
  /**
   * MariaDB: a core that reads none of its writes' results, its writes between two reads sent as
   * one compound statement with the read after them (mariadb-batch.ts runMysqlGrouped, by text);
   * `reset` puts the session back (run by a failing block's handler and before the connection goes
   * back to the pool)
   */
  grouped?: { reset: string };
}

interface SqliteStatement {
  all(params: unknown[]): unknown[];
  /** rows as arrays of their values (true) or as objects (false, the default) */
  raw(on: boolean): SqliteStatement;
  run(params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}
interface SqliteTransaction<A extends unknown[], T> {
  (...args: A): T;
  immediate(...args: A): T;
}
interface SqliteDb {
  name: string;
  memory: boolean;
  inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  pragma(sql: string, options?: { simple: boolean }): unknown;
  transaction<A extends unknown[], T>(fn: (...args: A) => T): SqliteTransaction<A, T>;
  close(): unknown;
}

/**
 * What a connection's statement cache keeps: at most `count` statements, and statements of at most
 * `chars` characters of SQL in all. A prepared statement costs ~35 bytes of native memory per
 * character of its text (measured: a multi-row INSERT of 250 rows × 19 columns, 15 kB of text,
 * holds ~0.5 MiB), and the import's and bulk operations' texts vary with their data (a last batch
 * of 137 rows, a group insert of 166): kept by count alone, 500 of them could hold well over 100 MiB
 * for good. The least recently used go first, so the hot statements (scans, registrations, the
 * check by code) stay; an evicted one is finalized when the garbage collector takes it.
 */
export const STATEMENT_CACHE = { count: 500, chars: 256 * 1024 };

interface StatementCache {
  /** in order of last use, the most recent last */
  byText: Map<string, SqliteStatement>;
  chars: number;
}

const statementCaches = new WeakMap<object, StatementCache>();

/**
 * The connection's prepared statement of this text, prepared once and kept while it is used
 * (per connection: a new one after a reconnect prepares again; STATEMENT_CACHE bounds what is
 * kept). Shared by the runner and the prepared reads (prepared.ts).
 */
export function sqliteStatement(db: { prepare(sql: string): unknown }, sql: string): SqliteStatement {
  let cache = statementCaches.get(db);
  if (!cache) {
    cache = { byText: new Map(), chars: 0 };
    statementCaches.set(db, cache);
  }
  let stmt = cache.byText.get(sql);
  if (stmt) {
    // the most recently used last (a Map keeps its insertion order)
    cache.byText.delete(sql);
    cache.byText.set(sql, stmt);
    return stmt;
  }
  stmt = db.prepare(sql) as SqliteStatement;
  cache.byText.set(sql, stmt);
  cache.chars += sql.length;
  for (const [text] of cache.byText) {
    if (cache.byText.size <= STATEMENT_CACHE.count && cache.chars <= STATEMENT_CACHE.chars) break;
    if (text === sql) break; // the one just prepared stays, whatever its size
    cache.byText.delete(text);
    cache.chars -= text.length;
  }
  return stmt;
}

/** What a connection's statement cache holds now (specs, diagnosis). */
export function statementCacheState(db: object): { count: number; chars: number } {
  const cache = statementCaches.get(db);
  return { count: cache?.byText.size ?? 0, chars: cache?.chars ?? 0 };
}

/** The raw better-sqlite3 connection under TypeORM's driver. */
export const sqliteConnection = <T = SqliteDb>(ds: DataSource): T =>
  (ds.driver as unknown as { databaseConnection: T }).databaseConnection;

/** Runs a core's steps synchronously on a SQLite connection (inside whatever transaction is open). */
function runSqliteSync<T>(db: SqliteDb, core: Core<T>): T {
  let step = core.next();
  while (!step.done) {
    const s = step.value;
    const stmt = sqliteStatement(db, s.sql);
    // an array binds its items as the anonymous parameters (no spread of a batch's thousands)
    if (s.kind === 'all') step = core.next(stmt.all(s.params));
    else {
      const r = stmt.run(s.params);
      step = core.next({ changes: r.changes, insertId: Number(r.lastInsertRowid) } satisfies WriteResult);
    }
  }
  return step.value;
}

/** Runs a core's steps awaited on a MariaDB connection (inside its open transaction). */
async function runMysql<T>(conn: MysqlConnection, core: Core<T>, prepared: RunOptions['prepared']): Promise<T> {
  let step = core.next();
  while (!step.done) {
    const s = step.value;
    if (s.kind === 'all') step = core.next(await (prepared === 'all' ? myExecute : myText)(conn, s.sql, s.params));
    else {
      const r = (await (prepared === 'none' ? myText : myExecute)(conn, s.sql, s.params)) as {
        affectedRows?: number;
        insertId?: number;
      };
      step = core.next({
        changes: Number(r.affectedRows ?? 0),
        insertId: Number(r.insertId ?? 0),
      } satisfies WriteResult);
    }
  }
  return step.value;
}

type Job = { make: (env: CoreEnv) => Core<unknown>; resolve: (v: unknown) => void; reject: (e: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** At most this many cores share one SQLite transaction (a batch keeps the event loop that long). */
const BATCH_MAX = 128;

/** A core's environment on MariaDB: it locks what it decides on. */
const MYSQL_ENV: CoreEnv = { lock: ' FOR UPDATE', date: (d) => d, bookkeeping: true };

const transient = (message: string) => /deadlock|lock wait timeout/i.test(message);

/** At most this many attempts of a TypeORM transaction that hit a deadlock or a lock wait timeout. */
export const TRANSACTION_ATTEMPTS = 3;

/**
 * A TypeORM transaction run again from the start when MariaDB chose it as a deadlock's victim or
 * it waited too long for a lock (an admin's edit or delete of a person the trigram worker is
 * indexing at that moment: trigram-worker.ts), at most TRANSACTION_ATTEMPTS times; any other error
 * at once. `work` must do all its writes through `m` (rolled back whole before a retry).
 */
export async function retryingTransaction<T>(ds: DataSource, work: (m: EntityManager) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ds.transaction(work);
    } catch (error) {
      if (attempt < TRANSACTION_ATTEMPTS && transient(String((error as Error)?.message))) continue;
      throw error;
    }
  }
}

/** Runs cores on one data source (see the top of this file). */
export class CoreRunner {
  private readonly queue: Job[] = [];
  private flushing = false;
  private db: SqliteDb | undefined;
  private wal: WalSync | null = null;
  private batchTx: SqliteTransaction<[Job[], Outcome[]], void> | undefined;
  private oneTx: SqliteTransaction<[Job], unknown> | undefined;
  private readonly sqliteEnv: CoreEnv;
  /** MariaDB: batched cores locking the same row share their blocks (mariadb-batch.ts) */
  readonly combiner = new BlockCombiner();

  constructor(private readonly ds: DataSource) {
    this.sqliteEnv = { lock: '', date: (d) => sqlDate(ds, d), bookkeeping: false };
  }

  /**
   * The core in a transaction of its own; on SQLite shared with the cores arriving with it, and
   * answered once its batch is committed and on the disk. Queued at once (synchronously), so cores
   * run in the order they were handed over.
   */
  run<T>(make: (env: CoreEnv) => Core<T>, options: RunOptions = {}): Promise<T> {
    if (!isSqlite(this.ds)) return this.runMariadb(make, options);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ make, resolve: resolve as (v: unknown) => void, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /** The core inside `m`'s open transaction when it has one (the caller commits), else as `run`. */
  async within<T>(m: EntityManager | null, make: (env: CoreEnv) => Core<T>, options: RunOptions = {}): Promise<T> {
    if (!m?.queryRunner?.isTransactionActive) return this.run(make, options);
    if (isSqlite(this.ds)) return runSqliteSync(sqliteConnection(this.ds), make(this.sqliteEnv));
    const core = make(MYSQL_ENV);
    let step = core.next();
    while (!step.done) {
      const s = step.value;
      const raw = await m.query(s.sql, s.params);
      step = core.next(
        s.kind === 'all'
          ? raw
          : ({
              changes: Number((raw as { affectedRows?: number }).affectedRows ?? 0),
              insertId: Number((raw as { insertId?: number }).insertId ?? 0),
            } satisfies WriteResult),
      );
    }
    return step.value;
  }

  /**
   * One statement on its own, committed by itself (no BEGIN … COMMIT around it, not synced before
   * it answers): on SQLite once no transaction of the shared connection is open, on MariaDB by
   * `execute` on the pool.
   */
  async runOne(sql: string, params: unknown[]): Promise<WriteResult> {
    if (!isSqlite(this.ds)) {
      const r = (await myExecute(mysqlPool(this.ds, 'write path'), sql, params)) as {
        affectedRows?: number;
        insertId?: number;
      };
      return { changes: Number(r.affectedRows ?? 0), insertId: Number(r.insertId ?? 0) };
    }
    const db = sqliteConnection<SqliteDb>(this.ds);
    while (db.inTransaction) await new Promise((r) => setImmediate(r));
    const r = sqliteStatement(db, sql).run(params);
    return { changes: r.changes, insertId: Number(r.lastInsertRowid) };
  }

  // ---- SQLite ----

  private async flush(): Promise<void> {
    try {
      const db = sqliteConnection<SqliteDb>(this.ds);
      // The connection is shared with TypeORM: let an open transaction of another request finish.
      while (db.inTransaction) await new Promise((r) => setImmediate(r));
      this.prepare(db);
      while (this.queue.length) {
        const batch = this.queue.splice(0, BATCH_MAX);
        const outcomes: Outcome[] = [];
        // the log is synced below, off the event loop, not inside COMMIT (null: as the connection does)
        const wal = this.wal;
        try {
          wal?.begin();
          // one alone needs no savepoint: its own BEGIN IMMEDIATE … COMMIT
          if (batch.length === 1) outcomes.push({ ok: true, value: this.oneTx?.immediate(batch[0]) });
          else this.batchTx?.immediate(batch, outcomes);
        } catch (error) {
          for (const job of batch) job.reject(error);
          continue;
        } finally {
          wal?.end();
        }
        const settle = () =>
          batch.forEach((job, i) => {
            const o = outcomes[i];
            if (o.ok) job.resolve(o.value);
            else job.reject(o.error);
          });
        if (wal)
          wal.sync(settle, (error) => {
            for (const job of batch) job.reject(error);
          });
        else settle();
      }
    } catch (error) {
      for (const job of this.queue.splice(0)) job.reject(error);
    } finally {
      this.flushing = false;
      if (this.queue.length) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    }
  }

  /** The batch's transaction, each core's savepoint and the log's sync, made once per connection. */
  private prepare(db: SqliteDb): void {
    if (this.db === db) return;
    this.db = db;
    this.wal = WalSync.open(db);
    if (this.wal) {
      // the log's file descriptor goes with the connection (as the checkpoint thread does)
      const wal = this.wal;
      const close = db.close.bind(db);
      db.close = () => {
        wal.close();
        return close();
      };
    }
    const one = db.transaction((job: Job) => runSqliteSync(db, job.make(this.sqliteEnv)));
    this.oneTx = one;
    this.batchTx = db.transaction((batch: Job[], outcomes: Outcome[]) => {
      for (const job of batch) {
        try {
          outcomes.push({ ok: true, value: one(job) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
    });
  }

  // ---- MariaDB ----

  private async runMariadb<T>(make: (env: CoreEnv) => Core<T>, options: RunOptions): Promise<T> {
    const pool = mysqlPool(this.ds, 'write path');
    for (let attempt = 1; ; attempt++) {
      const conn = await mysqlConnection(pool);
      let open = false;
      try {
        const env = MYSQL_ENV;
        const prepared = options.prepared ?? 'writes';
        // a batch starts its transaction itself (in its block when it can: mariadb-batch.ts)
        if (!options.batch) {
          await myQuery(conn, 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
          await myQuery(conn, 'START TRANSACTION');
        }
        open = true;
        const { value, committed } = options.batch
          ? await runMysqlBatched(
              conn,
              () => make(env),
              env.lock,
              prepared,
              () => runMysql(conn, make(env), prepared),
              options.batch === true ? [] : options.batch.resultReads,
              this.combiner,
            )
          : {
              value: await (options.grouped
                ? runMysqlGrouped(conn, make(env), options.grouped.reset)
                : runMysql(conn, make(env), prepared)),
              committed: false,
            };
        if (!committed) await myQuery(conn, 'COMMIT');
        open = false;
        return value;
      } catch (error) {
        if (open) await myQuery(conn, 'ROLLBACK').catch(() => undefined);
        const message = String((error as Error)?.message);
        if (transient(message) && attempt < 5) continue;
        if (options.retry?.(message) && attempt < 3) continue;
        throw error;
      } finally {
        if (options.grouped) await resetSession(conn, options.grouped.reset);
        else conn.release();
      }
    }
  }
}

/** A MariaDB transaction held open across several cores, then committed or rolled back once. */
export interface HeldWrite {
  run<T>(make: (env: CoreEnv) => Core<T>): Promise<T>;
  commit(): Promise<void>;
  /** rolls back (when still open) and gives the connection back; never throws */
  rollback(): Promise<void>;
}

/**
 * Opens a READ COMMITTED transaction on a connection of the write pool and keeps it across cores
 * run one after another, for a write that comes in parts as its input is read (the import's batches
 * on MariaDB, written while the next ones are parsed). The cores read none of their writes' results:
 * run as `grouped` (RunOptions), `reset` as there. Not retried: its caller holds what to run again
 * (the import: its spill file, by runCore).
 */
export async function holdWrite(ds: DataSource, { reset }: { reset: string }): Promise<HeldWrite> {
  const conn = await mysqlConnection(mysqlPool(ds, 'write path'));
  let open = false;
  try {
    await myQuery(conn, 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
    await myQuery(conn, 'START TRANSACTION');
    open = true;
  } finally {
    if (!open) conn.release();
  }
  const end = async (sql: string) => {
    if (!open) return;
    open = false;
    try {
      await myQuery(conn, sql);
    } finally {
      await resetSession(conn, reset);
    }
  };
  return {
    run: (make) => runMysqlGrouped(conn, make(MYSQL_ENV), reset),
    commit: () => end('COMMIT'),
    rollback: () => end('ROLLBACK').catch(() => undefined),
  };
}

const runners = new WeakMap<DataSource, CoreRunner>();

/** The data source's runner (one per data source: its SQLite batches are the connection's). */
export function coreRunner(ds: DataSource): CoreRunner {
  let runner = runners.get(ds);
  if (!runner) {
    runner = new CoreRunner(ds);
    runners.set(ds, runner);
  }
  return runner;
}

/**
 * Runs a core on either database; inside `m`'s open transaction when given one. By the text
 * protocol on MariaDB (the extension cores' and the import's texts vary with their data).
 */
export const runCore = <T>(ds: DataSource, m: EntityManager | null, make: (env: CoreEnv) => Core<T>): Promise<T> =>
  coreRunner(ds).within(m, make, { prepared: 'none' });
