import type { MigrationInterface, QueryRunner } from 'typeorm';

const TRIGGERS = ['TR_accreditation_value_fts_ins', 'TR_accreditation_value_fts_del', 'TR_accreditation_value_fts_upd'];

/** The text index's row of a value: one per (accreditation, field), the key packed into the rowid. */
const ROWID = (row: 'NEW' | 'OLD') => `${row}.accreditationId * 4294967296 + ${row}.fieldId`;

/**
 * On SQLite, the user-field filter's "contains" (`value LIKE '%…%'`) through an FTS5 trigram index
 * of `accreditation_value` (issue 16), as 1764105000000 does for the search text: a text of 3
 * characters or more is found from the index instead of reading every value of the field
 * (a million at a million people). `accreditation_value` has no integer key of its own, so the
 * index keeps its own copy of the value (with the field and action beside it) under the rowid
 * accreditationId × 2³² + fieldId, kept by triggers. SQLite still checks `LIKE` on each row it
 * returns, so the matches are those of the scan. MariaDB: unchanged (no substring index).
 */
export class ValueTextIndex1764105100000 implements MigrationInterface {
  name = 'ValueTextIndex1764105100000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb') return;
    await q.query(
      `CREATE VIRTUAL TABLE accreditation_value_fts USING fts5(value, fieldId UNINDEXED, actionId UNINDEXED, tokenize='trigram', detail='none')`,
    );
    const insert = (row: 'NEW' | 'OLD') =>
      `INSERT INTO accreditation_value_fts (rowid, value, fieldId, actionId) VALUES (${ROWID(row)}, ${row}.value, ${row}.fieldId, ${row}.actionId)`;
    const remove = `DELETE FROM accreditation_value_fts WHERE rowid = ${ROWID('OLD')}`;
    await q.query(`CREATE TRIGGER ${TRIGGERS[0]} AFTER INSERT ON accreditation_value BEGIN ${insert('NEW')}; END`);
    await q.query(`CREATE TRIGGER ${TRIGGERS[1]} AFTER DELETE ON accreditation_value BEGIN ${remove}; END`);
    await q.query(
      `CREATE TRIGGER ${TRIGGERS[2]} AFTER UPDATE ON accreditation_value BEGIN ${remove}; ${insert('NEW')}; END`,
    );
    await q.query(
      'INSERT INTO accreditation_value_fts (rowid, value, fieldId, actionId) SELECT accreditationId * 4294967296 + fieldId, value, fieldId, actionId FROM accreditation_value',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb') return;
    for (const name of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    await q.query('DROP TABLE IF EXISTS accreditation_value_fts');
  }
}
