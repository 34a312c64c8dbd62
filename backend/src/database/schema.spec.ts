import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB, type TestApp } from '../testing/test-app.js';

/** The migrations and the entities describe the same schema (the `migration:generate --check` of CI). */
describe(`database schema on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has no difference between entities and migrations', async () => {
    const sql = await t.ds.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('has run every migration', async () => {
    expect(await t.ds.showMigrations()).toBe(false);
  });

  /**
   * The counts, feeds and indexes kept by triggers (the change feed of the stations, the dashboard's
   * hourly counts, the mail totals, the search index, "not entered", the list's blocks, facets and
   * group counts, the extension clean-up). A later migration that rebuilds a table (on SQLite TypeORM's
   * addColumn / changeColumn copy the table) drops its triggers without a word, and the numbers
   * they keep silently go wrong: this lists them. A migration that adds or removes a trigger on
   * purpose updates this list.
   */
  it('keeps every trigger the migrations made', async () => {
    const rows: { t: string; name: string }[] =
      TEST_DB === 'sqlite'
        ? await t.ds.query("SELECT tbl_name AS t, name FROM sqlite_master WHERE type = 'trigger'")
        : await t.ds.query(
            'SELECT EVENT_OBJECT_TABLE AS t, TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()',
          );
    const feed = (table: string, events = ['del', 'ins', 'upd']) =>
      events.map((e) => `${table}:TR_${table}_change_${e}`);
    const kept = (table: string, what: string) => ['del', 'ins', 'upd'].map((e) => `${table}:TR_${table}_${what}_${e}`);
    // the search index: FTS5 on SQLite, the trigram table's pending list on MariaDB
    const search =
      TEST_DB === 'sqlite'
        ? [...kept('accreditation', 'fts'), ...kept('accreditation_value', 'fts')]
        : [...kept('accreditation', 'trigram'), ...kept('accreditation_value', 'trigram')];
    // MariaDB: one insert trigger per table for a person and its links (migration 1764500000001)
    const merged = TEST_DB === 'sqlite' ? [] : ['accreditation', 'accreditation_group', 'accreditation_zone'];
    const separate = (names: string[]) =>
      names.filter((n) => {
        const [table, trigger] = n.split(':');
        return !(merged.includes(table) && trigger.endsWith('_ins'));
      });
    expect(rows.map((r) => `${r.t}:${r.name}`).sort()).toEqual(
      [
        ...merged.map((table) => `${table}:TR_${table}_ins`),
        ...separate([
          ...feed('accreditation'),
          ...feed('accreditation_group', ['del', 'ins']),
          ...feed('accreditation_zone', ['del', 'ins']),
          ...kept('accreditation', 'hourly'),
          ...kept('accreditation', 'not_entered'),
          ...kept('accreditation', 'block'),
          ...kept('accreditation_group', 'count'),
          ...kept('accreditation_zone', 'count'),
          ...kept('accreditation', 'printed'),
          ...search,
        ]),
        ...feed('accreditation_extension'),
        ...feed('entrance', ['del', 'ins']),
        'accreditation:TR_accreditation_extension_cleanup',
        'accreditation:TR_accreditation_grouped_del',
        'accreditation:TR_accreditation_grouped_upd',
        'accreditation:TR_accreditation_zoned_del',
        'accreditation:TR_accreditation_zoned_upd',
        'entrance:TR_entrance_not_entered_del',
        'entrance:TR_entrance_not_entered_ins',
        'entrance:TR_entrance_not_entered_upd',
        ...kept('entrance', 'entered'),
        'accreditation:TR_accreditation_entered_del',
        'accreditation:TR_accreditation_entered_upd',
        ...['del', 'ins', 'upd'].map((e) => `accreditation_not_entered:TR_accreditation_not_entered_facet_${e}`),
        ...kept('mail_queue', 'total'),
      ].sort(),
    );
  });
});
