import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB, type TestApp } from '../testing/test-app.js';
import { ImportGuardVariable1765200000001 } from './migrations/1765200000001-import-guard-variable.js';

/**
 * The merged insert triggers of a person and its links (migration 1764500000001, MariaDB): a link
 * finds its person's subject and action from the variables the person's own insert left on the
 * connection, or else reads them; either way the change feed and the group and zone counts get the same rows
 * as the separate triggers wrote. SQLite keeps its separate triggers; the same checks hold there.
 */
describe(`insert triggers of a person and its links on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('write the change rows and group and zone counts of links for the right person, whoever was inserted last', async () => {
    const q = t.ds.createQueryRunner();
    await q.connect();
    try {
      const person = async (subjectId: number, actionId: number, key: string) => {
        const now = '2026-11-29 06:00:00';
        const r = await q.query(
          "INSERT INTO accreditation (subjectId, actionId, customId, firstname, lastname, email, bc, search, days, fieldValues, printCount, isUnlimited, source, createdAt, updatedAt) VALUES (?, ?, 1, 'T', ?, ?, ?, '', '[]', '{}', 0, 0, 'admin', ?, ?)",
          [subjectId, actionId, key, `${key}@example.com`, `TRG${key}`.padEnd(16, 'X'), now, now],
        );
        return Number(TEST_DB === 'sqlite' ? (await q.query('SELECT last_insert_rowid() AS id'))[0].id : r.insertId);
      };
      const changes = async (id: number) =>
        (
          await q.query(
            'SELECT subjectId, actionId FROM accreditation_change WHERE accreditationId = ? AND kind = 1 ORDER BY id',
            [id],
          )
        ).map((r: { subjectId: number; actionId: number }) => [Number(r.subjectId), Number(r.actionId)]);
      const count = async (groupId: number, subjectId: number, actionId: number, of = 'group') =>
        Number(
          (
            await q.query(
              `SELECT n FROM accreditation_${of}_count WHERE ${of}Id = ? AND subjectId = ? AND actionId = ?`,
              [groupId, subjectId, actionId],
            )
          )[0]?.n ?? 0,
        );
      // two people of different subjects and actions, B inserted last on this connection
      const a = await person(9101, 9201, 'a');
      const b = await person(9102, 9202, 'b');
      await q.query('INSERT INTO accreditation_group (accreditationId, groupId) VALUES (?, 9301), (?, 9301)', [b, a]);
      await q.query('INSERT INTO accreditation_zone (accreditationId, zoneId) VALUES (?, 9401)', [a]);
      await q.query('INSERT INTO accreditation_zone (accreditationId, zoneId) VALUES (?, 9401)', [b]);
      // each person: its own change, one for the group link, one for the zone link, all its own
      expect(await changes(a)).toEqual([
        [9101, 9201],
        [9101, 9201],
        [9101, 9201],
      ]);
      expect(await changes(b)).toEqual([
        [9102, 9202],
        [9102, 9202],
        [9102, 9202],
      ]);
      expect([await count(9301, 9101, 9201), await count(9301, 9102, 9202), await count(9301, 9101, 9202)]).toEqual([
        1, 1, 0,
      ]);
      // and the zone counts (migration 1764800000001)
      expect([
        await count(9401, 9101, 9201, 'zone'),
        await count(9401, 9102, 9202, 'zone'),
        await count(9401, 9101, 9202, 'zone'),
      ]).toEqual([1, 1, 0]);
      // a link of a person who does not exist writes nothing and fails nothing
      await q.query('INSERT INTO accreditation_zone (accreditationId, zoneId) VALUES (?, 9402)', [a + 100_000]);
      expect(await changes(a + 100_000)).toEqual([]);
      expect(await count(9402, 9101, 9201, 'zone')).toBe(0);
    } finally {
      await q.release();
    }
  });

  it.runIf(TEST_DB === 'mariadb')(
    "skip a person's books only while the session's @accredo_bulk is set (the import's guard); migration 1765200000001 undone and done again",
    async () => {
      const q = t.ds.createQueryRunner();
      await q.connect();
      try {
        const now = '2026-12-08 06:00:00';
        const person = async (customId: number) => {
          const r = await q.query(
            "INSERT INTO accreditation (subjectId, actionId, customId, firstname, lastname, email, bc, search, days, fieldValues, printCount, isUnlimited, source, createdAt, updatedAt) VALUES (9501, 9601, ?, 'G', 'Uard', ?, ?, '', '[]', '{}', 0, 0, 'admin', ?, ?)",
            [customId, `guard${customId}@example.com`, `GUARD${customId}`.padEnd(16, 'X'), now, now],
          );
          const id = Number(r.insertId);
          const [{ n }] = await q.query(
            'SELECT (SELECT COUNT(*) FROM accreditation_change WHERE accreditationId = ?) + (SELECT COUNT(*) FROM accreditation_not_entered WHERE accreditationId = ?) AS n',
            [id, id],
          );
          return Number(n);
        };
        const bodies = async () =>
          (
            await q.query(
              "SELECT ACTION_STATEMENT AS body FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = 'TR_accreditation_ins'",
            )
          )[0].body as string;
        // the person's feed entry and "not entered": kept with the variable NULL, left to the import with it set
        expect(await person(1)).toBe(2);
        await q.query('SET @accredo_bulk = 1');
        expect(await person(2)).toBe(0);
        await q.query('SET @accredo_bulk = NULL');
        expect(await person(3)).toBe(2);
        expect(await bodies()).toMatch(/^BEGIN IF @accredo_bulk IS NULL THEN /);

        const migration = new ImportGuardVariable1765200000001();
        await migration.down(q);
        expect(await bodies()).toMatch(/^BEGIN IF @accredo_bulk IS NULL OR NOT EXISTS \(SELECT 1 FROM bulk_write/);
        await q.query('SET @accredo_bulk = 1');
        // as before the migration: the variable alone skips nothing
        expect(await person(4)).toBe(2);
        await q.query('SET @accredo_bulk = NULL');
        await migration.up(q);
        expect(await bodies()).toMatch(/^BEGIN IF @accredo_bulk IS NULL THEN /);
        expect(await q.query("SHOW TABLES LIKE 'bulk_write'")).toEqual([]);
      } finally {
        await q.query('SET @accredo_bulk = NULL');
        await q.release();
      }
    },
  );
});
