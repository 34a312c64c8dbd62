import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MariaDB: the trigram rows of a new person (migration 1764108100000, ~40 per person and more per
 * user-field value) are no longer written inside the transaction that inserts the person (issue 16:
 * a registration rush, an import). The two insert triggers write one row instead, to
 * `trigram_pending` (actionId, accreditationId): "this person's text and values are not indexed
 * yet". A worker in every instance (`accreditation/trigram-worker.ts`) indexes the pending people
 * in batches, outside the registrations' transactions, and removes their rows in the same
 * transaction. A search reads the trigram table and, in the same statement, the action's pending
 * people, each checked by the exact `LIKE` as every candidate is: the results stay exact and
 * immediate whether the worker has caught up or not.
 * - Updates and deletes keep their synchronous triggers (an admin's edit, not a rush): an update of
 *   a pending person writes its new trigrams at once, the worker's later INSERT IGNORE adds nothing
 *   it needs; trigrams a race leaves behind for an old text or a removed person only add
 *   candidates that the `LIKE` (or the join to the person) drops.
 * SQLite: nothing (its FTS5 tables are kept by their own triggers).
 */
export class TrigramPending1764300000001 implements MigrationInterface {
  name = 'TrigramPending1764300000001';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'mariadb') return;
    await q.query(
      'CREATE TABLE trigram_pending (actionId int NOT NULL, accreditationId int NOT NULL, PRIMARY KEY (actionId, accreditationId)) ENGINE=InnoDB',
    );
    await q.query('DROP TRIGGER IF EXISTS TR_accreditation_trigram_ins');
    await q.query('DROP TRIGGER IF EXISTS TR_accreditation_value_trigram_ins');
    await q.query(
      'CREATE TRIGGER TR_accreditation_trigram_ins AFTER INSERT ON accreditation FOR EACH ROW INSERT IGNORE INTO trigram_pending (actionId, accreditationId) VALUES (NEW.actionId, NEW.id)',
    );
    await q.query(
      'CREATE TRIGGER TR_accreditation_value_trigram_ins AFTER INSERT ON accreditation_value FOR EACH ROW INSERT IGNORE INTO trigram_pending (actionId, accreditationId) VALUES (NEW.actionId, NEW.accreditationId)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'mariadb') return;
    await q.query('DROP TRIGGER IF EXISTS TR_accreditation_trigram_ins');
    await q.query('DROP TRIGGER IF EXISTS TR_accreditation_value_trigram_ins');
    const trigrams = (columns: string, text: string) =>
      `SELECT ${columns}, SUBSTRING(${text}, p.n, 3) FROM trigram_position p WHERE p.n <= CHAR_LENGTH(${text}) - 2`;
    // the pending people's rows first, then the triggers of 1764108100000 as they were
    await q.query(
      'INSERT IGNORE INTO accreditation_trigram (actionId, accreditationId, trigram) SELECT a.actionId, a.id, SUBSTRING(a.search, p.n, 3) FROM trigram_pending q JOIN accreditation a ON a.id = q.accreditationId JOIN trigram_position p ON p.n <= CHAR_LENGTH(a.search) - 2',
    );
    await q.query(
      'INSERT IGNORE INTO accreditation_value_trigram (actionId, fieldId, accreditationId, trigram) SELECT v.actionId, v.fieldId, v.accreditationId, SUBSTRING(v.value, p.n, 3) FROM trigram_pending q JOIN accreditation_value v ON v.accreditationId = q.accreditationId JOIN trigram_position p ON p.n <= CHAR_LENGTH(v.value) - 2',
    );
    await q.query(
      `CREATE TRIGGER TR_accreditation_trigram_ins AFTER INSERT ON accreditation FOR EACH ROW INSERT IGNORE INTO accreditation_trigram (actionId, accreditationId, trigram) ${trigrams('NEW.actionId, NEW.id', 'NEW.search')}`,
    );
    await q.query(
      `CREATE TRIGGER TR_accreditation_value_trigram_ins AFTER INSERT ON accreditation_value FOR EACH ROW INSERT IGNORE INTO accreditation_value_trigram (actionId, fieldId, accreditationId, trigram) ${trigrams('NEW.actionId, NEW.fieldId, NEW.accreditationId', 'NEW.value')}`,
    );
    await q.query('DROP TABLE IF EXISTS trigram_pending');
  }
}
