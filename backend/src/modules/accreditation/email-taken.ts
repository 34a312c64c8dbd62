import type { DataSource } from 'typeorm';
import { type PreparedReader, preparedReader } from '../../database/prepared.js';
import { paddedStatements, ReadBatch } from '../../database/read-batch.js';
import { isSqlite } from '../device/sql.js';

/** Reads asked together in one statement at most, and such statements on the server at once (MariaDB). */
const BATCH_KEYS = 64;
const BATCH_IN_FLIGHT = 2;

const ONE = 'SELECT id FROM accreditation WHERE actionId = ? AND email = ? AND subjectId = ? LIMIT 1';

/**
 * The person of an action who has an e-mail (as the unique index (actionId, email) compares it,
 * under the column's collation), for the pre-check of a create or an edit; the unique index
 * settles a race after it.
 * On MariaDB a registration rush asks this once a registration, and each ask was a round trip of
 * its own (under load most of a registration's statements: the writes are batched). Asks that
 * arrive while BATCH_IN_FLIGHT such reads are on the server wait (ReadBatch: never answered by a
 * statement sent before they asked) and go together as one statement: a derived table of the asked
 * (place, action, subject, e-mail) joined on the unique index (an index lookup a key, EXPLAIN:
 * eq_ref), so each answer is found for its own place whatever the collation equates. SQLite reads
 * synchronously: one statement an ask.
 */
export class EmailTaken {
  private readonly reader: PreparedReader;
  private readonly batch: ReadBatch<string, number> | null;
  /** the statement for n asks: a derived table of the asked (padded), joined on the unique index */
  private readonly statement = paddedStatements((size) => {
    const row = 'SELECT CAST(? AS SIGNED), CAST(? AS SIGNED), CAST(? AS SIGNED), ?';
    const rows = Array.from({ length: size - 1 }, () => ` UNION ALL ${row}`).join('');
    return `SELECT CAST(k.i AS CHAR), a.id FROM (SELECT CAST(? AS SIGNED) AS i, CAST(? AS SIGNED) AS actionId, CAST(? AS SIGNED) AS subjectId, ? AS email${rows}) k JOIN accreditation a ON a.actionId = k.actionId AND a.email = k.email AND a.subjectId = k.subjectId`;
  }, BATCH_KEYS);

  constructor(ds: DataSource) {
    this.reader = preparedReader(ds);
    this.batch = isSqlite(ds)
      ? null
      : new ReadBatch((keys) => this.readMany(keys), { maxKeys: BATCH_KEYS, maxInFlight: BATCH_IN_FLIGHT });
  }

  /** The id of the action's person with this e-mail, or null. */
  async id(actionId: number, subjectId: number, email: string): Promise<number | null> {
    if (!this.batch) {
      const [row] = await this.reader.all<{ id: unknown }>(ONE, [actionId, email, subjectId]);
      return row ? Number(row.id) : null;
    }
    return (await this.batch.get(JSON.stringify([actionId, subjectId, email]))) ?? null;
  }

  private async readMany(keys: string[]): Promise<Map<string, number>> {
    const { size, sql } = this.statement(keys.length);
    const asked = keys.map((key) => JSON.parse(key) as [number, number, string]);
    // padded with the last key again, under its own place (the place comes back as text: mysql2
    // reads a BIGINT through a `Long` this build lacks)
    const params = Array.from({ length: size }, (_, n) => {
      const i = Math.min(n, keys.length - 1);
      return [i, ...asked[i]];
    }).flat();
    const found = new Map<string, number>();
    for (const [i, id] of await this.reader.arrays<[unknown, unknown]>(sql, params))
      found.set(keys[Number(i)], Number(id));
    return found;
  }
}
