import type { MigrationInterface, QueryRunner } from 'typeorm';

const TRIGGERS = [
  'TR_accreditation_trigram_ins',
  'TR_accreditation_trigram_upd',
  'TR_accreditation_trigram_del',
  'TR_accreditation_value_trigram_ins',
  'TR_accreditation_value_trigram_upd',
  'TR_accreditation_value_trigram_del',
];

/** The longest text indexed: `accreditation.search` is varchar(760), `accreditation_value.value` varchar(500). */
const LONGEST = 760;

/** The trigrams (3 characters from every position; repeats left to INSERT IGNORE) of `text`, as rows `SELECT <columns>, trigram`. */
const trigrams = (columns: string, text: string) =>
  `SELECT ${columns}, SUBSTRING(${text}, p.n, 3) FROM trigram_position p WHERE p.n <= CHAR_LENGTH(${text}) - 2`;

/** Delete the rows of these trigrams, each by its whole primary key. */
const removeTrigrams = (table: string, key: string, text: string) =>
  `DELETE t FROM ${table} t JOIN trigram_position p ON p.n <= CHAR_LENGTH(${text}) - 2 WHERE ${key} AND t.trigram = SUBSTRING(${text}, p.n, 3)`;

/**
 * MariaDB's substring index for the list's text search and a user field's "contains" (issue 16),
 * what the FTS5 trigram tables of 1764105000000 and 1764105100000 are on SQLite: InnoDB FULLTEXT
 * indexes whole words only ("ovak" would no longer find "Novák"), so a table of our own.
 * - `accreditation_trigram` (actionId, trigram, accreditationId): one row per distinct trigram of
 *   the folded `search` text; `accreditation_value_trigram` (actionId, fieldId, trigram,
 *   accreditationId) the same for every user-field value. Both are the primary key alone (the
 *   clustered index, nothing else to write).
 * - The trigram column has the collation of the text it comes from (utf8mb4_unicode_ci): a `LIKE`
 *   compares character by character under that collation, so every trigram of the searched text
 *   equals (in that collation) a stored trigram of each matching row; the trigrams give a
 *   superset, and the list still checks the exact `LIKE` on each candidate: the same matches as
 *   the scan.
 * - `trigram_position` (1…760) cuts a text into trigrams in one INSERT … SELECT per row.
 * - Kept by triggers on every path that writes (an accreditation's `search` changes, a value is
 *   written, a row is deleted); the rows there already are indexed here.
 * SQLite: nothing (its FTS5 tables do this).
 */
export class TrigramIndex1764108100000 implements MigrationInterface {
  name = 'TrigramIndex1764108100000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'mariadb') return;
    const collation = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci';
    await q.query('CREATE TABLE trigram_position (n smallint NOT NULL, PRIMARY KEY (n)) ENGINE=InnoDB');
    const digits = Array.from({ length: 10 }, (_, d) => `SELECT ${d} AS d`).join(' UNION ALL ');
    await q.query(
      `INSERT INTO trigram_position (n) SELECT a.d + 10 * b.d + 100 * c.d + 1 FROM (${digits}) a CROSS JOIN (${digits}) b CROSS JOIN (${digits}) c WHERE a.d + 10 * b.d + 100 * c.d < ${LONGEST}`,
    );
    await q.query(
      `CREATE TABLE accreditation_trigram (actionId int NOT NULL, trigram varchar(3) ${collation} NOT NULL, accreditationId int NOT NULL, PRIMARY KEY (actionId, trigram, accreditationId)) ENGINE=InnoDB`,
    );
    await q.query(
      `CREATE TABLE accreditation_value_trigram (actionId int NOT NULL, fieldId int NOT NULL, trigram varchar(3) ${collation} NOT NULL, accreditationId int NOT NULL, PRIMARY KEY (actionId, fieldId, trigram, accreditationId)) ENGINE=InnoDB`,
    );

    const addSearch = (row: 'NEW' | 'OLD') =>
      `INSERT IGNORE INTO accreditation_trigram (actionId, accreditationId, trigram) ${trigrams(`${row}.actionId, ${row}.id`, `${row}.search`)}`;
    const removeSearch = removeTrigrams(
      'accreditation_trigram',
      't.actionId = OLD.actionId AND t.accreditationId = OLD.id',
      'OLD.search',
    );
    const addValue = (row: 'NEW' | 'OLD') =>
      `INSERT IGNORE INTO accreditation_value_trigram (actionId, fieldId, accreditationId, trigram) ${trigrams(`${row}.actionId, ${row}.fieldId, ${row}.accreditationId`, `${row}.value`)}`;
    const removeValue = removeTrigrams(
      'accreditation_value_trigram',
      't.actionId = OLD.actionId AND t.fieldId = OLD.fieldId AND t.accreditationId = OLD.accreditationId',
      'OLD.value',
    );
    const trigger = (name: string, event: string, table: string, body: string) =>
      q.query(`CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW ${body}`);
    await trigger(TRIGGERS[0], 'INSERT', 'accreditation', addSearch('NEW'));
    await trigger(
      TRIGGERS[1],
      'UPDATE',
      'accreditation',
      `IF NOT (BINARY NEW.search <=> BINARY OLD.search) OR NOT (NEW.actionId <=> OLD.actionId) OR NOT (NEW.id <=> OLD.id) THEN ${removeSearch}; ${addSearch('NEW')}; END IF`,
    );
    await trigger(TRIGGERS[2], 'DELETE', 'accreditation', removeSearch);
    await trigger(TRIGGERS[3], 'INSERT', 'accreditation_value', addValue('NEW'));
    await trigger(
      TRIGGERS[4],
      'UPDATE',
      'accreditation_value',
      `IF NOT (BINARY NEW.value <=> BINARY OLD.value) OR NOT (NEW.actionId <=> OLD.actionId) OR NOT (NEW.fieldId <=> OLD.fieldId) OR NOT (NEW.accreditationId <=> OLD.accreditationId) THEN ${removeValue}; ${addValue('NEW')}; END IF`,
    );
    await trigger(TRIGGERS[5], 'DELETE', 'accreditation_value', removeValue);

    // the people and values there already
    await q.query(
      `INSERT IGNORE INTO accreditation_trigram (actionId, accreditationId, trigram) ${trigrams('a.actionId, a.id', 'a.search').replace('FROM trigram_position p', 'FROM accreditation a JOIN trigram_position p')}`,
    );
    await q.query(
      `INSERT IGNORE INTO accreditation_value_trigram (actionId, fieldId, accreditationId, trigram) ${trigrams('v.actionId, v.fieldId, v.accreditationId', 'v.value').replace('FROM trigram_position p', 'FROM accreditation_value v JOIN trigram_position p')}`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'mariadb') return;
    for (const name of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    await q.query('DROP TABLE IF EXISTS accreditation_value_trigram');
    await q.query('DROP TABLE IF EXISTS accreditation_trigram');
    await q.query('DROP TABLE IF EXISTS trigram_position');
  }
}
