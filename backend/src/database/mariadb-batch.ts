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
  conn: MysqlConnection & { format?: (sql: string, params: unknown[]) => string },
  make: () => Core<T>,
  lock: string,
  prepared: 'writes' | 'all' | 'none',
  stepwise: () => Promise<T>,
  resultReads: readonly string[] = [],
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

  // 3: one compound statement
  if (!conn.format) return uncommitted(fallback(conn, stepwise));
  const format = conn.format.bind(conn);
  const parts: string[] = begun ? [] : BEGIN.map((sql) => `${sql};`);
  const writes: number[] = [];
  dry.forEach((s, k) => {
    const params = s.params.map((p) => (isStandIn(p) ? { toSqlString: () => `@accredo_i${STAND_IN - p}` } : p));
    const sql = format(s.sql, params);
    if (s.kind === 'all') parts.push(`${sql};`);
    else {
      writes.push(k);
      const insert = /^\s*insert\b/i.test(s.sql);
      parts.push(
        `${insert ? 'SET @accredo_z = LAST_INSERT_ID(0); ' : ''}${sql}; SET @accredo_r${k} = ROW_COUNT(), @accredo_i${k} = ${insert ? 'LAST_INSERT_ID()' : '0'}; IF @accredo_r${k} <= 0 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '${CHECK}'; END IF;`,
      );
    }
  });
  if (writes.length)
    parts.push(`SELECT ${writes.map((k) => `@accredo_r${k} AS r${k}, @accredo_i${k} AS i${k}`).join(', ')};`);
  // Committed in the block when no read after the lock can change what the core does (only reads
  // whose rows go into its value): then no lock is held across a round trip at all.
  const commit = dry.every((s, k) => s.kind === 'run' || k === 0 || resultReads.includes(s.sql));
  if (commit) parts.push('COMMIT;');
  let sets: unknown[][];
  try {
    const answer = (await myQuery(conn, `BEGIN NOT ATOMIC ${parts.join(' ')} END`)) as unknown;
    sets = (Array.isArray(answer) ? answer : [answer]).filter((r): r is unknown[] => Array.isArray(r));
  } catch {
    return uncommitted(fallback(conn, stepwise));
  }
  const reads = dry.filter((s) => s.kind === 'all').length;
  if (sets.length !== reads + (writes.length ? 1 : 0)) return uncommitted(fallback(conn, stepwise));
  const counts = (writes.length ? sets[reads][0] : {}) as Record<string, unknown>;
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

async function fallback<T>(conn: MysqlConnection, stepwise: () => Promise<T>): Promise<T> {
  await myQuery(conn, 'ROLLBACK');
  await myQuery(conn, 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
  await myQuery(conn, 'START TRANSACTION');
  return stepwise();
}
