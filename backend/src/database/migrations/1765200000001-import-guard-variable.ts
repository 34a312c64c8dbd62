import type { MigrationInterface, QueryRunner } from 'typeorm';
import { guardedTriggers, KEEPS_BOOKS } from './1765100000001-import-bookkeeping.js';

/** The guard as migration 1765100000001 wrote it, and as this one writes it. */
const BEFORE = `BEGIN IF ${KEEPS_BOOKS} THEN `;
const AFTER = 'BEGIN IF @accredo_bulk IS NULL THEN ';

async function rewrite(q: QueryRunner, from: string, to: string) {
  for (const { name, tbl, body } of await guardedTriggers(q)) {
    if (!body.startsWith(from)) throw new Error(`${name} is not guarded as expected: ${body.slice(0, 120)}`);
    await q.query(`DROP TRIGGER ${name}`);
    await q.query(`CREATE TRIGGER ${name} AFTER INSERT ON \`${tbl}\` FOR EACH ROW ${to}${body.slice(from.length)}`);
  }
}

/**
 * MariaDB: the import's guarded insert triggers (migration 1765100000001) test the session's
 * `@accredo_bulk` alone. Their second test, the connection's row in `bulk_write`, was a subquery run
 * for every row an import wrote: 45 % of the database's CPU for the import's write (10,000 rows
 * replayed on one connection: 0.64–0.73 s of MariaDB's CPU with it, 0.38–0.40 s without, measured
 * 2026-12-08). It stood for the case of a connection going back to the pool with the variable still
 * set after a batch failed halfway. That case is now closed where the variable is set: the import
 * sets and clears it inside one compound statement (core-runner.ts `grouped`: a batch's writes
 * between two reads in one round trip), whose handler clears it when one of its statements fails,
 * and the connection's session is reset again before it goes back to the pool (or the connection is
 * closed): mariadb-batch.spec.ts checks each, accreditation-files.spec.ts an import whose write
 * failed in the middle, insert-triggers.spec.ts the guard. Every other insert still pays one NULL test.
 */
export class ImportGuardVariable1765200000001 implements MigrationInterface {
  name = 'ImportGuardVariable1765200000001';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'mariadb') return;
    await rewrite(q, BEFORE, AFTER);
    await q.query('DROP TABLE bulk_write');
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'mariadb') return;
    await q.query('CREATE TABLE bulk_write (connectionId BIGINT UNSIGNED NOT NULL PRIMARY KEY) ENGINE=InnoDB');
    await rewrite(q, AFTER, BEFORE);
  }
}
