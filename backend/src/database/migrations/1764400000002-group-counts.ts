import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

const TRIGGERS = [
  'TR_accreditation_group_count_ins',
  'TR_accreditation_group_count_upd',
  'TR_accreditation_group_count_del',
  'TR_accreditation_grouped_upd',
  'TR_accreditation_grouped_del',
];

/**
 * The list's filter by one group at a million people (issue 16, bench/accreditation-list.mjs):
 * `accreditation_group_count` (group, subject, action, n) holds how many of an action's people are
 * linked to the group, exactly what the filter `a.subjectId = ? AND a.actionId = ? AND EXISTS (link
 * to the group)` matches, so its count is one primary-key read instead of 10,001 links each looked
 * up in IDX_accreditation_list (a group without an action links several actions' people).
 *
 * Kept by triggers in the writing transaction, so no path can forget it: a link added (admin,
 * import, online registration, copy, bulk assign) counts for its person's subject and action, a
 * link removed or moved uncounts, and a person deleted (or moved to another action, subject or id:
 * none of the app's paths does that) takes the counts of the links it still has along, so the
 * count is right whichever of the person and its links is deleted first (the app deletes the
 * links first; the schema has no FOREIGN KEY cascades, whose deletes would fire no triggers on
 * MariaDB). A link is only counted when its person exists; accreditation ids are never reused
 * (AUTOINCREMENT), so no link predates its person. A count of 0 stays (one row per group and action
 * ever linked). The migration fills it from the links already there.
 *
 * On SQLite a later migration that rebuilds `accreditation` or `accreditation_group` drops these
 * triggers: add columns with ALTER TABLE there, or re-create them (schema.spec lists them).
 */
export class GroupCounts1764400000002 implements MigrationInterface {
  name = 'GroupCounts1764400000002';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const mariadb = q.connection.driver.options.type === 'mariadb';
    await q.createTable(
      new Table({
        name: 'accreditation_group_count',
        columns: [
          { ...c.int('groupId'), isPrimary: true },
          { ...c.int('subjectId'), isPrimary: true },
          { ...c.int('actionId'), isPrimary: true },
          c.int('n', false, 0),
        ],
      }),
    );
    const upsert = mariadb
      ? 'ON DUPLICATE KEY UPDATE n = n + 1'
      : 'ON CONFLICT (groupId, subjectId, actionId) DO UPDATE SET n = n + 1';
    // a link counted: its person's subject and action, when the person exists
    const link = (row: 'NEW' | 'OLD') =>
      `INSERT INTO accreditation_group_count (groupId, subjectId, actionId, n)
       SELECT ${row}.groupId, a.subjectId, a.actionId, 1 FROM accreditation a WHERE a.id = ${row}.accreditationId ${upsert}`;
    const unlink = (row: 'NEW' | 'OLD') =>
      `UPDATE accreditation_group_count SET n = n - 1 WHERE groupId = ${row}.groupId
       AND (subjectId, actionId) IN (SELECT a.subjectId, a.actionId FROM accreditation a WHERE a.id = ${row}.accreditationId)`;
    // a person's links counted / uncounted as a whole
    const person = (row: 'NEW' | 'OLD') =>
      `INSERT INTO accreditation_group_count (groupId, subjectId, actionId, n)
       SELECT g.groupId, ${row}.subjectId, ${row}.actionId, 1 FROM accreditation_group g WHERE g.accreditationId = ${row}.id ${upsert}`;
    const unperson = (row: 'NEW' | 'OLD') =>
      `UPDATE accreditation_group_count SET n = n - 1 WHERE subjectId = ${row}.subjectId AND actionId = ${row}.actionId
       AND groupId IN (SELECT g.groupId FROM accreditation_group g WHERE g.accreditationId = ${row}.id)`;
    const trigger = (name: string, event: string, table: string, body: string[], when?: string) =>
      mariadb
        ? `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW ${
            when
              ? `IF ${when} THEN ${body.join('; ')}; END IF`
              : body.length > 1
                ? `BEGIN ${body.join('; ')}; END`
                : body[0]
          }`
        : `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW${when ? ` WHEN ${when}` : ''} BEGIN ${body.join('; ')}; END`;

    await q.query(
      `INSERT INTO accreditation_group_count (groupId, subjectId, actionId, n)
       SELECT g.groupId, a.subjectId, a.actionId, COUNT(*) FROM accreditation_group g
       JOIN accreditation a ON a.id = g.accreditationId GROUP BY g.groupId, a.subjectId, a.actionId`,
    );
    await q.query(trigger('TR_accreditation_group_count_ins', 'INSERT', 'accreditation_group', [link('NEW')]));
    await q.query(trigger('TR_accreditation_group_count_del', 'DELETE', 'accreditation_group', [unlink('OLD')]));
    await q.query(
      trigger(
        'TR_accreditation_group_count_upd',
        'UPDATE',
        'accreditation_group',
        [unlink('OLD'), link('NEW')],
        mariadb
          ? 'NOT (NEW.groupId <=> OLD.groupId) OR NOT (NEW.accreditationId <=> OLD.accreditationId)'
          : 'NEW.groupId IS NOT OLD.groupId OR NEW.accreditationId IS NOT OLD.accreditationId',
      ),
    );
    await q.query(trigger('TR_accreditation_grouped_del', 'DELETE', 'accreditation', [unperson('OLD')]));
    await q.query(
      trigger(
        'TR_accreditation_grouped_upd',
        'UPDATE',
        'accreditation',
        [unperson('OLD'), person('NEW')],
        mariadb
          ? 'NOT (NEW.subjectId <=> OLD.subjectId) OR NOT (NEW.actionId <=> OLD.actionId) OR NOT (NEW.id <=> OLD.id)'
          : 'NEW.subjectId IS NOT OLD.subjectId OR NEW.actionId IS NOT OLD.actionId OR NEW.id IS NOT OLD.id',
      ),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    await q.dropTable('accreditation_group_count');
  }
}
