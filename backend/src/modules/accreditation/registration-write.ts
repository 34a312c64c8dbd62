import type { DataSource } from 'typeorm';
import { myExecute, myQuery, myRead, mysqlConnection, mysqlPool } from '../../database/mysql-driver.js';
import { type Core, type CoreEnv, groupDefaultsCore, type Step } from '../action-extension/extension-core.js';
import { isSqlite, sqlDate } from '../device/sql.js';

/**
 * The write of a new person (issue 16: "a handful of statements in one transaction", prepared on
 * the driver as the gate's scan does): the steps of one create as a generator of SQL statements,
 * and a runner per data source that executes them
 * - on SQLite synchronously on the raw better-sqlite3 connection, each statement prepared once per
 *   text and kept; creates that arrive together share one BEGIN IMMEDIATE (group commit), each in
 *   a savepoint of its own, so one that fails (its e-mail taken, a code used up) rolls back alone;
 * - on MariaDB on one connection of TypeORM's mysql2 pool as server-side prepared statements
 *   (`execute`), in a READ COMMITTED transaction.
 * Nothing else runs between a step and the next on SQLite (one writer, no await inside), and on
 * MariaDB the action's row is locked first, so customIds are numbered one after another and dense
 * per action as every other create does (the import takes the same lock first).
 */

/** What a step of a write gets back: the rows of a read, the changed rows and the new id of a write. */
export interface WriteResult {
  changes: number;
  insertId: number;
}

/** The new person's row and links, all checked (AccreditationService.prepare). */
export interface NewPerson {
  subjectId: number;
  actionId: number;
  firstname: string;
  lastname: string;
  email: string;
  bc: string;
  search: string;
  days: unknown[];
  fieldValues: Record<string, unknown>;
  imageId: number | null;
  language: string;
  source: string;
  webChannelId: number | null;
  at: Date;
  groupIds: number[];
  zoneIds: number[];
  texts: { fieldId: number; value: string }[];
}

/** The caller's steps in the same transaction, after the person and their links (a code's use, the mail row). */
export type AfterInsert = (env: CoreEnv, person: { id: number; customId: number }) => Core<void>;

const all = (sql: string, params: unknown[]): Step => ({ sql, params, kind: 'all' });
const run = (sql: string, params: unknown[]): Step => ({ sql, params, kind: 'run' });
const rows = (n: number, width: number) =>
  Array.from({ length: n }, () => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ');

const PERSON_COLUMNS =
  'subjectId, actionId, customId, firstname, lastname, email, bc, search, days, fieldValues, imageId, printCount, badgeVersion, credit, isUnlimited, source, webChannelId, language, createdAt, updatedAt';

/** One create: the action's number, the row, its groups, zones and values, the caller's steps, group defaults. */
export function* createCore(env: CoreEnv, p: NewPerson, after?: AfterInsert): Core<{ id: number; customId: number }> {
  // Whether any of the groups gives defaults (a superset of groupDefaultsCore's own read): asked
  // before the lock below, so that the usual answer, none, costs the locked section no statement.
  const marks = p.groupIds.map(() => '?').join(', ');
  const defaults = p.groupIds.length
    ? ((yield all(
        `SELECT ge.groupId FROM group_extension ge JOIN \`groups\` g ON g.id = ge.groupId WHERE ge.groupId IN (${marks}) AND ge.subjectId = ? AND ((ge.type = 1 AND g.assignDefaultMeal = 1) OR (ge.type = 2 AND g.assignDefaultParking = 1)) LIMIT 1`,
        [...p.groupIds, p.subjectId],
      )) as unknown[])
    : [];
  // MariaDB: customId is the order in the action, numbered under the action's row lock (READ
  // COMMITTED: the MAX below is the latest committed number); SQLite has one writer.
  if (env.lock) yield all(`SELECT id FROM action WHERE id = ?${env.lock}`, [p.actionId]);
  const [max] = (yield all('SELECT MAX(customId) AS max FROM accreditation WHERE actionId = ?', [p.actionId])) as {
    max: unknown;
  }[];
  const customId = Math.max(0, Number(max?.max ?? 0)) + 1;
  const at = env.date(p.at);
  const inserted = (yield run(`INSERT INTO accreditation (${PERSON_COLUMNS}) VALUES ${rows(1, 20)}`, [
    p.subjectId,
    p.actionId,
    customId,
    p.firstname,
    p.lastname,
    p.email,
    p.bc,
    p.search,
    JSON.stringify(p.days),
    JSON.stringify(p.fieldValues),
    p.imageId,
    0,
    0,
    null,
    0,
    p.source,
    p.webChannelId,
    p.language,
    at,
    at,
  ])) as WriteResult;
  const id = inserted.insertId;
  if (p.groupIds.length)
    yield run(
      `INSERT INTO accreditation_group (accreditationId, groupId) VALUES ${rows(p.groupIds.length, 2)}`,
      p.groupIds.flatMap((g) => [id, g]),
    );
  if (p.zoneIds.length)
    yield run(
      `INSERT INTO accreditation_zone (accreditationId, zoneId) VALUES ${rows(p.zoneIds.length, 2)}`,
      p.zoneIds.flatMap((z) => [id, z]),
    );
  if (p.texts.length)
    yield run(
      `INSERT INTO accreditation_value (accreditationId, fieldId, actionId, value) VALUES ${rows(p.texts.length, 4)}`,
      p.texts.flatMap((t) => [id, t.fieldId, p.actionId, t.value]),
    );
  const person = { id, customId };
  if (after) yield* after(env, person);
  // the meal and parking defaults of the person's groups (issue 14), left out where full
  if (defaults.length)
    yield* groupDefaultsCore(
      env,
      p.subjectId,
      [{ accreditationId: id, actionId: p.actionId, groupIds: p.groupIds }],
      p.at,
    );
  return person;
}

interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}
interface SqliteTransaction<A extends unknown[], T> {
  (...args: A): T;
  immediate(...args: A): T;
}
interface SqliteDb {
  inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  transaction<A extends unknown[], T>(fn: (...args: A) => T): SqliteTransaction<A, T>;
}

type Job = { core: (env: CoreEnv) => Core<unknown>; resolve: (v: unknown) => void; reject: (e: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Writes that arrive together share one SQLite transaction, up to this many. */
const BATCH_MAX = 64;

/**
 * Runs write cores on the data source's driver (see the top of this file). One per data source
 * (`writerOf`); its statements and the batch's transaction function are made once per connection.
 */
export class DriverWriter {
  private readonly queue: Job[] = [];
  private flushing = false;
  private statements = new Map<string, SqliteStatement>();
  private db: SqliteDb | undefined;
  private batchTx: SqliteTransaction<[Job[], Outcome[]], void> | undefined;
  private oneTx: SqliteTransaction<[Job], unknown> | undefined;

  constructor(private readonly ds: DataSource) {}

  /** Runs the core in a transaction of its own (SQLite: shared with the creates arriving with it). */
  run<T>(core: (env: CoreEnv) => Core<T>): Promise<T> {
    if (!isSqlite(this.ds)) return this.runMariadb(core);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ core, resolve: resolve as (v: unknown) => void, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /**
   * One statement on its own, committed by itself (no BEGIN … COMMIT around it): on SQLite once no
   * transaction of the shared connection is open, on MariaDB by `execute` on the pool.
   */
  async runOne(sql: string, params: unknown[]): Promise<WriteResult> {
    if (!isSqlite(this.ds)) {
      const r = (await myExecute(mysqlPool(this.ds, 'write path'), sql, params)) as {
        affectedRows?: number;
        insertId?: number;
      };
      return { changes: Number(r.affectedRows ?? 0), insertId: Number(r.insertId ?? 0) };
    }
    const db = (this.ds.driver as unknown as { databaseConnection: SqliteDb }).databaseConnection;
    while (db.inTransaction) await new Promise((r) => setImmediate(r));
    this.batchTransaction(db);
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    const r = stmt.run(...params);
    return { changes: r.changes, insertId: Number(r.lastInsertRowid) };
  }

  // ---- SQLite ----

  private async flush(): Promise<void> {
    try {
      const db = (this.ds.driver as unknown as { databaseConnection: SqliteDb }).databaseConnection;
      // The connection is shared with TypeORM: let an open transaction of another request finish.
      while (db.inTransaction) await new Promise((r) => setImmediate(r));
      const tx = this.batchTransaction(db);
      while (this.queue.length) {
        const batch = this.queue.splice(0, BATCH_MAX);
        const outcomes: Outcome[] = [];
        try {
          // one alone needs no savepoint: its own BEGIN IMMEDIATE … COMMIT
          if (batch.length === 1) outcomes.push({ ok: true, value: this.single(db)(batch[0]) });
          else tx.immediate(batch, outcomes);
        } catch (error) {
          for (const job of batch) job.reject(error);
          continue;
        }
        batch.forEach((job, i) => {
          const o = outcomes[i];
          if (o.ok) job.resolve(o.value);
          else job.reject(o.error);
        });
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

  /** A write alone in its transaction. */
  private single(db: SqliteDb): (job: Job) => unknown {
    this.batchTransaction(db);
    return (job) => this.oneTx?.immediate(job);
  }

  /** The batch's transaction and each write's savepoint, made once per connection. */
  private batchTransaction(db: SqliteDb) {
    if (!this.batchTx || this.db !== db) {
      this.db = db;
      this.statements = new Map();
      const env: CoreEnv = { lock: '', date: (d) => sqlDate(this.ds, d) };
      const one = db.transaction((job: Job) => this.runSync(db, env, job.core));
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
    return this.batchTx;
  }

  private runSync(db: SqliteDb, env: CoreEnv, core: (env: CoreEnv) => Core<unknown>): unknown {
    const gen = core(env);
    let step = gen.next();
    while (!step.done) {
      const s = step.value;
      let stmt = this.statements.get(s.sql);
      if (!stmt) {
        stmt = db.prepare(s.sql);
        // texts vary only with the number of links or items; a bound keeps odd ones from piling up
        if (this.statements.size >= 500) this.statements.clear();
        this.statements.set(s.sql, stmt);
      }
      if (s.kind === 'all') step = gen.next(stmt.all(...s.params));
      else {
        const r = stmt.run(...s.params);
        step = gen.next({ changes: r.changes, insertId: Number(r.lastInsertRowid) } satisfies WriteResult);
      }
    }
    return step.value;
  }

  // ---- MariaDB ----

  private async runMariadb<T>(core: (env: CoreEnv) => Core<T>): Promise<T> {
    const conn = await mysqlConnection(mysqlPool(this.ds, 'write path'));
    const env: CoreEnv = { lock: ' FOR UPDATE', date: (d) => d };
    let open = false;
    try {
      await myQuery(conn, 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
      await myQuery(conn, 'START TRANSACTION');
      open = true;
      const gen = core(env);
      let step = gen.next();
      while (!step.done) {
        const s = step.value;
        // reads by the text protocol (as runCore's): the binary one reads a BIGINT (a COUNT of an
        // extension core) through the `long` package, which not every loader gives mysql2
        const raw = s.kind === 'all' ? await myRead(conn, s.sql, s.params) : await myExecute(conn, s.sql, s.params);
        if (s.kind === 'all') step = gen.next(raw);
        else {
          const r = raw as { affectedRows?: number; insertId?: number };
          step = gen.next({
            changes: Number(r.affectedRows ?? 0),
            insertId: Number(r.insertId ?? 0),
          } satisfies WriteResult);
        }
      }
      await myQuery(conn, 'COMMIT');
      open = false;
      return step.value;
    } catch (error) {
      if (open) await myQuery(conn, 'ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      conn.release();
    }
  }
}

const writers = new WeakMap<DataSource, DriverWriter>();

/** The data source's writer (one per data source: its SQLite batches are the connection's). */
export function writerOf(ds: DataSource): DriverWriter {
  let writer = writers.get(ds);
  if (!writer) {
    writer = new DriverWriter(ds);
    writers.set(ds, writer);
  }
  return writer;
}
