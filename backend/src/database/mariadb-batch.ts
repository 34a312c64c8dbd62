import type { Core, Step, WriteResult } from './core-runner.js';
import { type MysqlConnection, myExecute, myQuery, myText } from './mysql-driver.js';

/**
 * MariaDB: a core's steps from its lock on in ONE round trip (issue 16, the online registration).
 * A new person's create locks the action's row (customId) and, by its triggers, the dashboard's
 * hourly row; the online channel's steps lock the code's row. Run one statement per round trip,
 * those rows stay locked for ~10 round trips, and registrations of one action wait for each other
 * (on a loaded machine each round trip waits for the event loop and the scheduler too: 2-3 ms).
 * Here
 * 1. the steps before the lock (reads) run one by one as usual;
 * 2. from the step ending with the lock clause on, the core is run "dry": a write gets a stand-in
 *    result (1 changed row, a stand-in id that later parameters may carry), a read an empty list;
 * 3. those steps go to the server as one compound statement (`BEGIN NOT ATOMIC … END`, no
 *    multi-statement option needed): a write is followed by its changed-row count and new id kept in
 *    user variables, and stops the block when it changed no row; a stand-in id in a later statement
 *    is that variable; the reads' rows come back as result sets;
 * 4. the core is run once more from the start with the real results, and must yield the very same
 *    statements (the stand-ins replaced by the real ids); its value is the result.
 * When the only reads after the lock are ones whose rows merely go into the core's value
 * (`resultReads`, e.g. the new person's customId), nothing the server answers can change the
 * statements, and the block ends with COMMIT: the locks are held only while the server runs it, not
 * across a round trip to this process and its event loop. Otherwise the caller commits after step 4.
 * Whenever the dry run cannot stand for the real one (a read whose rows change what follows, a write
 * that changed nothing, a stand-in id inside a text, any error of the block), the transaction is
 * rolled back and the core runs again one statement at a time: the same outcome, only slower.
 * The block goes as a prepared statement (its values as parameters) unless the core's texts vary
 * with its data, and blocks of cores locking the same row are shared (BlockCombiner, below).
 */

/** The stand-in id of the k-th dry step: outside any INT column's range, never a real value. */
const STAND_IN = -7_304_000_000;
const standIn = (k: number) => STAND_IN - k;
const isStandIn = (v: unknown): v is number => typeof v === 'number' && v <= STAND_IN && v > STAND_IN - 10_000;
const STAND_IN_TEXT = String(-STAND_IN).slice(0, 5);
/** At most this many steps after the lock go in one block. */
const MAX_STEPS = 64;
const CHECK = 'accredo:batch-check';

/** Why a batch was not used (fall back to one statement at a time). */
class Fallback extends Error {}

type Recorded = { step: Step; result: unknown };

const sameValue = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  // a core's "now" (a log row's date) is read again on the second run: any time stands for it
  if (a instanceof Date && b instanceof Date) return true;
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  return false;
};

/** What starts the transaction (READ COMMITTED, as the runner's stepwise transactions). */
const BEGIN = ['SET TRANSACTION ISOLATION LEVEL READ COMMITTED', 'START TRANSACTION'];

/**
 * Runs `make()`'s core on `conn`, the steps from the first one ending with `lock` on in one round
 * trip (see above). No transaction is open when it is called: the reads before the lock run on their
 * own (READ COMMITTED reads each see the latest committed rows, in a transaction or not), the
 * transaction starts with the first write before the lock or else inside the block, so a core whose
 * only steps before its lock are reads costs the server one round trip from START TRANSACTION to
 * COMMIT. `stepwise` runs a fresh core one statement at a time in a fresh transaction (after this
 * has rolled back), for when the batch cannot be used. `committed`: nothing is left open.
 */
export async function runMysqlBatched<T>(
  conn: MysqlConnection,
  make: () => Core<T>,
  lock: string,
  prepared: 'writes' | 'all' | 'none',
  stepwise: () => Promise<T>,
  resultReads: readonly string[] = [],
  combiner?: BlockCombiner,
): Promise<{ value: T; committed: boolean }> {
  const uncommitted = async (p: Promise<T>) => ({ value: await p, committed: false });
  let begun = false;
  const live: Recorded[] = [];
  const dry: Step[] = [];
  try {
    // 1, 2: live until the lock, then dry
    const core = make();
    let next = core.next();
    while (!next.done) {
      const s = next.value;
      if (!dry.length && !(s.kind === 'all' && lock && s.sql.endsWith(lock))) {
        let result: unknown;
        if (s.kind === 'run' && !begun) {
          for (const sql of BEGIN) await myQuery(conn, sql);
          begun = true;
        }
        if (s.kind === 'all') result = await (prepared === 'all' ? myExecute : myText)(conn, s.sql, s.params);
        else {
          const r = (await (prepared === 'none' ? myText : myExecute)(conn, s.sql, s.params)) as {
            affectedRows?: number;
            insertId?: number;
          };
          result = { changes: Number(r.affectedRows ?? 0), insertId: Number(r.insertId ?? 0) } satisfies WriteResult;
        }
        live.push({ step: s, result });
        next = core.next(result);
        continue;
      }
      if (dry.length >= MAX_STEPS) throw new Fallback('too many steps');
      for (const p of s.params)
        if (typeof p === 'string' && p.includes(STAND_IN_TEXT)) throw new Fallback('a stand-in id inside a text');
      const k = dry.push(s) - 1;
      next = core.next(s.kind === 'all' ? [] : ({ changes: 1, insertId: standIn(k) } satisfies WriteResult));
    }
    if (!dry.length) return { value: next.value, committed: !begun };
  } catch (error) {
    if (!(error instanceof Fallback)) {
      // an error of a live step is the stepwise run's too; one thrown by the core on a stand-in is not
      if (!dry.length) throw error;
    }
    return uncommitted(fallback(conn, stepwise));
  }

  // 3: one compound statement (shared with other cores locking the same row when a combiner is given)
  const piece = blockPiece(dry, resultReads, prepared !== 'none', conn.format.bind(conn));
  const { commit } = piece;
  let sets: unknown[][];
  try {
    if (combiner && commit && !begun) {
      const key = conn.format(dry[0].sql, dry[0].params);
      sets = await combiner.send(conn, key, piece).catch((error) => {
        // the shared block failed for one of its cores (or a deadlock): this one runs its own
        if (!(error instanceof Alone)) throw error;
        return sendBlock(conn, [piece], begun).then((all) => all[0]);
      });
    } else sets = (await sendBlock(conn, [piece], begun))[0];
  } catch {
    return uncommitted(fallback(conn, stepwise));
  }
  const counts = (piece.writes.length ? sets[piece.reads][0] : {}) as Record<string, unknown>;
  const results: unknown[] = [];
  let read = 0;
  dry.forEach((s, k) => {
    results.push(
      s.kind === 'all'
        ? sets[read++]
        : ({ changes: Number(counts[`r${k}`]), insertId: Number(counts[`i${k}`] ?? 0) } satisfies WriteResult),
    );
  });

  // 4: the core again with the real results; it must ask for the same statements
  const real = (p: unknown) => (isStandIn(p) ? (results[STAND_IN - p] as WriteResult).insertId : p);
  const core = make();
  let next = core.next();
  let i = 0;
  const all = [
    ...live.map((r) => ({ step: r.step, result: r.result, dry: false })),
    ...dry.map((step, k) => ({ step, result: results[k], dry: true })),
  ];
  while (!next.done) {
    const want = all[i++];
    const s = next.value;
    const same =
      want &&
      want.step.sql === s.sql &&
      want.step.kind === s.kind &&
      want.step.params.length === s.params.length &&
      want.step.params.every((p, j) => sameValue(want.dry ? real(p) : p, s.params[j]));
    if (!same) {
      if (commit) throw new Error(`MariaDB batch: the core asked for other statements after its commit (${s.sql})`);
      return uncommitted(fallback(conn, stepwise));
    }
    next = core.next(want.result);
  }
  if (i !== all.length) {
    if (commit) throw new Error('MariaDB batch: the core asked for fewer statements after its commit');
    return uncommitted(fallback(conn, stepwise));
  }
  return { value: next.value, committed: commit };
}

/** One core's part of a compound statement: its statements after the lock, and what they answer. */
interface Piece {
  /**
   * the statements (no transaction control), ending with the SELECT of the writes' counts and ids;
   * with `?` for `params` where the block is sent as a prepared statement, else with the values in
   */
  sql: string;
  params: unknown[];
  /** the block may be prepared (the core's texts do not vary with its data) */
  prepare: boolean;
  /** the dry steps that are writes (their counts come back in one row) */
  writes: number[];
  /** the dry steps that are reads: their result sets come first, then the counts' row if any writes */
  reads: number;
  /** whether the block may end with COMMIT (no read after the lock decides what follows) */
  commit: boolean;
}

/** `sql`'s text split at its `?` placeholders (none inside a quoted text or name), kept per text. */
const splitCache = new Map<string, string[]>();
function splitAtPlaceholders(sql: string): string[] {
  let parts = splitCache.get(sql);
  if (parts) return parts;
  parts = [];
  let quote = '';
  let from = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '?') {
      parts.push(sql.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(sql.slice(from));
  // the cores' statement texts are constants of the code (the ones that vary are not prepared)
  if (splitCache.size < 1_000) splitCache.set(sql, parts);
  return parts;
}

/**
 * A step's text for the block: a stand-in id becomes its user variable; the other parameters stay
 * `?` (returned in `params`) when `prepare`, else are written into the text by the driver's escaping.
 */
function stepText(s: Step, format: ((sql: string, params: unknown[]) => string) | null, params: unknown[]): string {
  if (format) {
    const values = s.params.map((p) => (isStandIn(p) ? { toSqlString: () => `@accredo_i${STAND_IN - p}` } : p));
    return format(s.sql, values);
  }
  const parts = splitAtPlaceholders(s.sql);
  if (parts.length - 1 !== s.params.length) throw new Error('MariaDB batch: placeholders and parameters differ');
  let text = parts[0];
  s.params.forEach((p, j) => {
    if (isStandIn(p)) text += `@accredo_i${STAND_IN - p}`;
    else {
      text += '?';
      params.push(p);
    }
    text += parts[j + 1];
  });
  return text;
}

function blockPiece(
  dry: Step[],
  resultReads: readonly string[],
  prepare: boolean,
  format: (sql: string, params: unknown[]) => string,
): Piece {
  const parts: string[] = [];
  const params: unknown[] = [];
  const writes: number[] = [];
  dry.forEach((s, k) => {
    const sql = stepText(s, prepare ? null : format, params);
    if (s.kind === 'all') parts.push(`${sql};`);
    else {
      writes.push(k);
      const insert = /^\s*insert\b/i.test(s.sql);
      parts.push(
        `${insert ? 'SET @accredo_z = LAST_INSERT_ID(0); ' : ''}${sql}; SET @accredo_r${k} = ROW_COUNT(), @accredo_i${k} = ${insert ? 'LAST_INSERT_ID()' : '0'}; IF @accredo_r${k} <= 0 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '${CHECK}'; END IF;`,
      );
    }
  });
  // the counts are read right after the piece's own statements: a later piece of the same block
  // sets the same user variables anew (each refers only to its own, set before it reads them); as
  // text, since a BIGINT read by the binary protocol needs the `long` package, which not every
  // loader gives mysql2 (the block's own reads are the core's: see RunOptions.prepared)
  if (writes.length)
    parts.push(
      `SELECT ${writes.map((k) => `CAST(@accredo_r${k} AS CHAR) AS r${k}, CAST(@accredo_i${k} AS CHAR) AS i${k}`).join(', ')};`,
    );
  // Committed in the block when no read after the lock can change what the core does (only reads
  // whose rows go into its value): then no lock is held across a round trip at all.
  const commit = dry.every((s, k) => s.kind === 'run' || k === 0 || resultReads.includes(s.sql));
  const reads = dry.length - writes.length;
  return { sql: parts.join(' '), params, prepare, writes, reads, commit };
}

/**
 * The block texts sent as prepared statements, at most PREPARED_BLOCKS of them per process: each
 * is prepared once per pool connection and kept there (~32 KiB of the server's memory for one
 * registration's piece, measured; a block of 8 pieces ~8 times that). Beyond the bound a block goes
 * by the text protocol, as every block did before. Measured (2026-11-29, MariaDB 10.11, one
 * registration's block 1,000 times): 1,700 µs of the server's CPU by text, 900 µs prepared: the
 * text is parsed and its stored-program instructions built anew on every run otherwise.
 */
export const PREPARED_BLOCKS = 24;
const preparedBlocks = new Set<string>();
function mayPrepare(text: string): boolean {
  if (preparedBlocks.has(text)) return true;
  if (preparedBlocks.size >= PREPARED_BLOCKS) return false;
  preparedBlocks.add(text);
  return true;
}

/**
 * The pieces as one compound statement on `conn` (a transaction started in it unless `begun`,
 * committed in it when every piece allows); each piece's result sets, in order.
 */
async function sendBlock(conn: MysqlConnection, pieces: Piece[], begun: boolean): Promise<unknown[][][]> {
  const commit = pieces.every((p) => p.commit);
  const text = [
    'BEGIN NOT ATOMIC',
    ...(begun ? [] : BEGIN.map((sql) => `${sql};`)),
    ...pieces.map((p) => p.sql),
    ...(commit ? ['COMMIT;'] : []),
    'END',
  ].join(' ');
  const params = pieces.flatMap((p) => p.params);
  const answer = (await (pieces.every((p) => p.prepare) && mayPrepare(text)
    ? myExecute(conn, text, params)
    : params.length
      ? myText(conn, text, params)
      : myQuery(conn, text))) as unknown;
  const sets = (Array.isArray(answer) ? answer : [answer]).filter((r): r is unknown[] => Array.isArray(r));
  const counts = pieces.map((p) => p.reads + (p.writes.length ? 1 : 0));
  if (sets.length !== counts.reduce((a, b) => a + b, 0)) throw new Error('MariaDB batch: unexpected answer');
  let at = 0;
  return counts.map((n) => {
    at += n;
    return sets.slice(at - n, at);
  });
}

/** A shared block failed: each of its cores runs a block of its own. */
class Alone extends Error {}

/** At most this many cores' pieces in one shared block. */
export const COMBINED_MAX = 8;

/**
 * Takes the next block's cores out of `queue`: the first one and those of the same text after it
 * (cores of another shape, e.g. another channel's fields, wait for a block of their own), as many
 * as the largest power of two allows, at most COMBINED_MAX. So one shape makes at most four block
 * texts (1, 2, 4, 8 pieces), and the prepared ones stay few (PREPARED_BLOCKS).
 */
function nextBatch(queue: Queued[]): Queued[] {
  // a block by the text protocol (a core whose texts vary with its data) has no text to keep
  if (!queue[0].piece.prepare) return queue.splice(0, COMBINED_MAX);
  const shape = queue[0].piece.sql;
  const same = queue.filter((q) => q.piece.prepare && q.piece.sql === shape);
  let size = 1;
  while (size * 2 <= Math.min(same.length, COMBINED_MAX)) size *= 2;
  const batch = same.slice(0, size);
  const taken = new Set(batch);
  const rest = queue.filter((q) => !taken.has(q));
  queue.length = 0;
  queue.push(...rest);
  return batch;
}

/**
 * Cores that lock the same row (a new person's action) and commit in their block, sent together
 * (issue 16, the registration rush on MariaDB). While one block holding that lock is on the server,
 * the next cores wait here, not in InnoDB's lock queue, and then go as ONE block: one lock taken and
 * handed over, one commit, one round trip for up to COMBINED_MAX of them. Measured before: under a
 * rush nine registrations in ten waited for the action's row lock, ~29 ms each, and every handover
 * waited for the scheduler to wake the next holder on a busy machine. A core arriving while nothing
 * is on the server goes at once, so this adds no wait of its own. If a shared block fails (one
 * core's write changed nothing, a duplicate, a deadlock) it is rolled back whole and each of its
 * cores runs its own block, as without this. Per data source (core-runner.ts); the waiting entries
 * are keyed by the lock statement and removed when their row's last block is answered.
 */
export class BlockCombiner {
  private readonly groups = new Map<string, Queued[]>();

  send(conn: MysqlConnection, key: string, piece: Piece): Promise<unknown[][]> {
    return new Promise((resolve, reject) => {
      const item: Queued = { conn, piece, resolve, reject };
      const queue = this.groups.get(key);
      if (queue) queue.push(item);
      else {
        this.groups.set(key, []);
        void this.flush(key, [item]);
      }
    });
  }

  /** Cores waiting for a block of their row to be answered; rows with a block on the server. */
  get pending(): { cores: number; rows: number } {
    let cores = 0;
    for (const queue of this.groups.values()) cores += queue.length;
    return { cores, rows: this.groups.size };
  }

  /** Sends `batch` as one block, then whatever queued for the same row meanwhile. */
  private async flush(key: string, batch: Queued[]): Promise<void> {
    try {
      const sets = await sendBlock(
        batch[0].conn,
        batch.map((q) => q.piece),
        false,
      );
      for (const [i, q] of batch.entries()) q.resolve(sets[i]);
    } catch (error) {
      // the block stopped with its transaction open on that connection: rolled back before anyone
      // starts another there (a START TRANSACTION would commit what the block had written)
      await myQuery(batch[0].conn, 'ROLLBACK').catch(() => undefined);
      for (const q of batch) q.reject(batch.length > 1 ? new Alone() : error);
    }
    const queue = this.groups.get(key) ?? [];
    if (queue.length) void this.flush(key, nextBatch(queue));
    else this.groups.delete(key);
  }
}

interface Queued {
  conn: MysqlConnection;
  piece: Piece;
  resolve: (sets: unknown[][]) => void;
  reject: (error: unknown) => void;
}

async function fallback<T>(conn: MysqlConnection, stepwise: () => Promise<T>): Promise<T> {
  await myQuery(conn, 'ROLLBACK');
  await myQuery(conn, 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
  await myQuery(conn, 'START TRANSACTION');
  return stepwise();
}

/**
 * What a write of a grouped core is answered with: it has not run yet when the core goes on, so
 * neither its changed rows nor its new id are known (NaN, never a plausible count).
 */
const UNREAD: WriteResult = { changes: Number.NaN, insertId: Number.NaN };

/**
 * MariaDB: a core that reads none of its writes' results (the import's batches: multi-row INSERTs
 * and their books, issue 16), run on `conn` inside its open transaction with the writes between two
 * reads sent as ONE compound statement (`BEGIN NOT ATOMIC … END`, no multi-statement option needed),
 * the read that follows them at its end, its rows the block's result set. An import's batch is 15
 * statements of which one is a read: 2 round trips (it was 16, one a statement). Every answer waits
 * until this process's event loop is free, which during an import is busy checking the next batch:
 * with a round trip a statement, a batch of 250 spent more time waiting for its answers than the
 * database spent writing it (measured 2026-12-08, docs/architecture.md "Import").
 * `reset` is a statement that puts the session back as it was (the import: its `@accredo_bulk` set
 * back to NULL, which the guarded insert triggers read): run by each block's handler when one of its
 * statements fails, before the error goes on to the caller, so that no session state a block set
 * outlives it; the caller runs it again before the connection goes back to the pool
 * (`resetSession`). The statements before a failed one stay in the transaction: the caller rolls it
 * back. The texts are written by the driver's escaping (`conn.format`, as `query` writes them).
 */
export async function runMysqlGrouped<T>(conn: MysqlConnection, core: Core<T>, reset: string): Promise<T> {
  const writes: string[] = [];
  let step = core.next();
  while (!step.done) {
    const s = step.value;
    const text = conn.format(s.sql, s.params);
    if (s.kind === 'run') {
      writes.push(text);
      step = core.next(UNREAD);
    } else step = core.next(await sendGrouped(conn, writes.splice(0), text, reset));
  }
  if (writes.length) await sendGrouped(conn, writes, null, reset);
  return step.value;
}

/** `writes`, then `read` when given, in one round trip; the read's rows. */
async function sendGrouped(conn: MysqlConnection, writes: string[], read: string | null, reset: string) {
  if (!writes.length) return read === null ? undefined : myQuery(conn, read);
  const texts = read === null ? writes : [...writes, read];
  const answer = await myQuery(
    conn,
    `BEGIN NOT ATOMIC DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ${reset}; RESIGNAL; END; ${texts.map((t) => `${t};`).join(' ')} END`,
  );
  if (read === null) return undefined;
  const sets = (Array.isArray(answer) ? answer : [answer]).filter((r): r is unknown[] => Array.isArray(r));
  if (sets.length !== 1) throw new Error('MariaDB grouped writes: unexpected answer');
  return sets[0];
}

/**
 * `reset` on `conn` before it goes back to the pool (runMysqlGrouped); a connection on which it
 * fails is closed instead, so that no later user of the pool gets its session.
 */
export async function resetSession(conn: MysqlConnection, reset: string): Promise<void> {
  try {
    await myQuery(conn, reset);
    conn.release();
  } catch {
    conn.destroy();
  }
}
