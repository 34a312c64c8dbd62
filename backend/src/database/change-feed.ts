import type { DataSource } from 'typeorm';

/**
 * The change feed (`accreditation_change`, written by triggers in the writing transaction:
 * migrations 1764000400000 and 1765000000001): a sequence of "this person of this action changed".
 * Read by the device protocol (a station's cursor) and by the list (whether a text's walk changed).
 */

/**
 * MariaDB numbers a change when it is written, not when its transaction commits: a gap in the
 * sequence may be a transaction still in flight. A reader stops before a gap whose next change is
 * younger than this; an older gap is a rollback. SQLite commits one writer at a time in sequence
 * order: nothing to wait for.
 */
export const SETTLE_MS = 30_000;

const sqlite = (ds: DataSource) => ds.options.type === 'better-sqlite3';

/** How long a gap in the feed may be a transaction still in flight (0 on SQLite). */
export const changeSettleMs = (ds: DataSource): number => (sqlite(ds) ? 0 : SETTLE_MS);

/** The database's clock as epoch ms, as the feed's `changedAt` is written. */
export const changeNowSql = (ds: DataSource): string =>
  sqlite(ds)
    ? "CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)"
    : 'ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)';

/** How far a cursor may advance over changes read in id order: through consecutive or settled ones. */
export function advanceCursor(
  from: number,
  changes: { id: unknown; changedAt: unknown }[],
  settledUntil: number,
): number {
  let cursor = from;
  for (const c of changes) {
    const id = Number(c.id);
    if (id !== cursor + 1 && Number(c.changedAt) > settledUntil) break;
    cursor = id;
  }
  return cursor;
}

/**
 * The feed's newest change before which nothing can still arrive (`cursor`) and its newest
 * (`newest`): the same on SQLite; on MariaDB the cursor is the newest reached through consecutive
 * or settled changes from the newest change below the young ones (those younger than SETTLE_MS).
 * Each read is a short range: the young changes on `changedAt`'s index, the rest on the primary key
 * (`MAX(id) WHERE changedAt <= …`, as this read before, walked `changedAt`'s index over every change
 * kept: 1.7 s of the server at 3.8 million).
 */
async function settledState(ds: DataSource): Promise<{ cursor: number; newest: number }> {
  const settle = changeSettleMs(ds);
  const newest = async () => {
    const [row]: { hi: unknown }[] = await ds.query('SELECT MAX(id) AS hi FROM accreditation_change');
    const hi = Number(row?.hi ?? 0);
    return { cursor: hi, newest: hi };
  };
  if (!settle) return newest();
  const now = changeNowSql(ds);
  const [young]: { lo: unknown; dbNow: unknown }[] = await ds.query(
    `SELECT MIN(id) AS lo, ${now} AS dbNow FROM accreditation_change WHERE changedAt > ${now} - ${settle}`,
  );
  // nothing young: whatever is still in flight was numbered after the newest (a transaction runs
  // for less than SETTLE_MS)
  if (young?.lo == null) return newest();
  // the newest change below the young ones is settled (were it young, it would be among them); with
  // none kept below (pruned), start just before the oldest young one
  const [below]: { prev: unknown }[] = await ds.query('SELECT MAX(id) AS prev FROM accreditation_change WHERE id < ?', [
    young.lo,
  ]);
  const from = below?.prev != null ? Number(below.prev) : Number(young.lo) - 1;
  const after: { id: unknown; changedAt: unknown }[] = await ds.query(
    'SELECT id, changedAt FROM accreditation_change WHERE id > ? ORDER BY id',
    [from],
  );
  return {
    cursor: advanceCursor(from, after, Number(young.dbNow) - settle),
    newest: after.length ? Number(after[after.length - 1].id) : from,
  };
}

/** The feed's newest change before which nothing can still arrive (a station's snapshot cursor). */
export async function settledCursor(ds: DataSource): Promise<number> {
  return (await settledState(ds)).cursor;
}

/** Whether nothing can still arrive below the feed's newest change (no change in flight below it). */
export async function feedSettled(ds: DataSource): Promise<boolean> {
  if (!changeSettleMs(ds)) return true;
  const { cursor, newest } = await settledState(ds);
  return cursor >= newest;
}
