import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

/** The SQLite triggers that keep the text index in step with `accreditation.search`. */
const FTS_TRIGGERS = ['TR_accreditation_fts_ins', 'TR_accreditation_fts_del', 'TR_accreditation_fts_upd'];

/**
 * The accreditation list at a million people (issue 16, bench/accreditation-list.mjs):
 * - `IDX_accreditation_printed` (subject, action, printCount): "printed" / "not printed" read one
 *   index range instead of every row;
 * - on SQLite, `accreditation_fts`: an FTS5 index of the folded `search` text with the trigram
 *   tokenizer, so the text filter's `LIKE '%…%'` (any substring of 3 characters or more) finds
 *   its rows through the index with the same results as the scan. External content (the text is
 *   read from `accreditation`, not stored twice), `detail=none` (a quarter of the size; FTS5
 *   still checks each candidate against the text), kept by triggers on every path that writes
 *   an accreditation. TypeORM's rebuild of the `accreditation` table in a later migration would
 *   drop these triggers (see 1764101100011): re-create them there.
 * MariaDB keeps the scan of the covering index IDX_accreditation_search for text (InnoDB FULLTEXT
 * indexes words, not substrings, so it would change what a search finds).
 */
export class ListScale1764105000000 implements MigrationInterface {
  name = 'ListScale1764105000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'accreditation',
      new TableIndex({ name: 'IDX_accreditation_printed', columnNames: ['subjectId', 'actionId', 'printCount'] }),
    );
    if (q.connection.driver.options.type === 'mariadb') return;
    await q.query(
      `CREATE VIRTUAL TABLE accreditation_fts USING fts5(search, content='accreditation', content_rowid='id', tokenize='trigram', detail='none')`,
    );
    await q.query(
      'CREATE TRIGGER TR_accreditation_fts_ins AFTER INSERT ON accreditation BEGIN ' +
        'INSERT INTO accreditation_fts (rowid, search) VALUES (NEW.id, NEW.search); END',
    );
    await q.query(
      'CREATE TRIGGER TR_accreditation_fts_del AFTER DELETE ON accreditation BEGIN ' +
        "INSERT INTO accreditation_fts (accreditation_fts, rowid, search) VALUES ('delete', OLD.id, OLD.search); END",
    );
    await q.query(
      'CREATE TRIGGER TR_accreditation_fts_upd AFTER UPDATE OF search ON accreditation BEGIN ' +
        "INSERT INTO accreditation_fts (accreditation_fts, rowid, search) VALUES ('delete', OLD.id, OLD.search); " +
        'INSERT INTO accreditation_fts (rowid, search) VALUES (NEW.id, NEW.search); END',
    );
    // the people there already
    await q.query(`INSERT INTO accreditation_fts (accreditation_fts) VALUES ('rebuild')`);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'mariadb') {
      for (const name of FTS_TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
      await q.query('DROP TABLE IF EXISTS accreditation_fts');
    }
    await q.dropIndex('accreditation', 'IDX_accreditation_printed');
  }
}
