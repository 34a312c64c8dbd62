import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The insert triggers an import on MariaDB keeps the books of itself, a statement a batch instead
 * of a trigger a row (`writeBatch` and `importBookkeeping` in accreditation-import.ts): the person's (the
 * change feed, the dashboard's hourly counts, "not entered", the search's pending list, the list's
 * blocks), its links' (group and zone counts) and its values' and "not entered"'s (the facet blocks).
 */
export const IMPORT_GUARDED = [
  'TR_accreditation_ins',
  'TR_accreditation_group_ins',
  'TR_accreditation_zone_ins',
  'TR_accreditation_value_trigram_ins',
  'TR_accreditation_not_entered_facet_ins',
] as const;

/**
 * A trigger skips its row only while an import on this connection says so twice: the user variable
 * `@accredo_bulk` (so that every other insert pays one NULL test, nothing read) and its connection's
 * row in `bulk_write`, written inside the import's transaction. A rollback takes the row back, so
 * a connection that goes back to the pool with the variable still set (an import that failed
 * halfway) skips nothing afterwards: its triggers then also read the (empty) table, that is all.
 */
export const KEEPS_BOOKS =
  '@accredo_bulk IS NULL OR NOT EXISTS (SELECT 1 FROM bulk_write b WHERE b.connectionId = CONNECTION_ID())';

const PREFIX = `BEGIN IF ${KEEPS_BOOKS} THEN `;
const SUFFIX = '; END IF; END';

/** The insert triggers of IMPORT_GUARDED with their tables and bodies (all of them, or it throws). */
export async function guardedTriggers(q: QueryRunner) {
  const rows: { name: string; tbl: string; body: string }[] = await q.query(
    `SELECT TRIGGER_NAME AS name, EVENT_OBJECT_TABLE AS tbl, ACTION_STATEMENT AS body FROM information_schema.TRIGGERS
     WHERE TRIGGER_SCHEMA = DATABASE() AND ACTION_TIMING = 'AFTER' AND EVENT_MANIPULATION = 'INSERT' AND TRIGGER_NAME IN (${IMPORT_GUARDED.map(() => '?').join(', ')})`,
    [...IMPORT_GUARDED],
  );
  if (rows.length !== IMPORT_GUARDED.length)
    throw new Error(`expected the insert triggers ${IMPORT_GUARDED.join(', ')}, found ${rows.map((r) => r.name)}`);
  return rows;
}

/**
 * MariaDB: an import's INSERTs fired ~10 trigger statements a person, most of its time on the
 * database (10,000 rows: 0.78 s of MariaDB's CPU, 0.30 s with these triggers dropped, measured
 * 2026-12-03). Each of these triggers now runs its body (as the earlier migrations made it, read
 * back from the schema) unless an import keeps the books of its rows itself. SQLite keeps its
 * triggers: a trigger there is a few microseconds of the same process.
 */
export class ImportBookkeeping1765100000001 implements MigrationInterface {
  name = 'ImportBookkeeping1765100000001';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'mariadb') return;
    await q.query('CREATE TABLE bulk_write (connectionId BIGINT UNSIGNED NOT NULL PRIMARY KEY) ENGINE=InnoDB');
    for (const { name, tbl, body } of await guardedTriggers(q)) {
      await q.query(`DROP TRIGGER ${name}`);
      await q.query(`CREATE TRIGGER ${name} AFTER INSERT ON \`${tbl}\` FOR EACH ROW ${PREFIX}${body}${SUFFIX}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'mariadb') return;
    for (const { name, tbl, body } of await guardedTriggers(q)) {
      if (!body.startsWith(PREFIX) || !body.endsWith(SUFFIX)) throw new Error(`${name} is not guarded as up() made it`);
      await q.query(`DROP TRIGGER ${name}`);
      await q.query(
        `CREATE TRIGGER ${name} AFTER INSERT ON \`${tbl}\` FOR EACH ROW ${body.slice(PREFIX.length, -SUFFIX.length)}`,
      );
    }
    await q.query('DROP TABLE bulk_write');
  }
}
