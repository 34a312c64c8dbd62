import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';
import { type LinkCount, linkCountFill, linkCountTriggerNames, linkCountTriggers } from './link-counts.js';

const GROUPS: LinkCount = {
  link: 'accreditation_group',
  key: 'groupId',
  counts: 'accreditation_group_count',
  word: 'grouped',
};

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
    await q.query(linkCountFill(GROUPS));
    for (const sql of linkCountTriggers(GROUPS, mariadb)) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of linkCountTriggerNames(GROUPS)) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    await q.dropTable('accreditation_group_count');
  }
}
