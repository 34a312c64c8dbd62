import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A deep page of the list filtered by one group at a million people (issue 16,
 * bench/accreditation-list.mjs "filter by group, random page"): the group's links in person order,
 * `IDX_accreditation_group_person` (groupId, accreditationId), so that a page of a group whose
 * people are all of the listed action is read from its links alone, skipping index entries
 * (AccreditationService `filtered`, `groupPage`). It replaces `IDX_accreditation_group_groupId`
 * (groupId), which it covers: on SQLite that one held the rowid, not the person, so the links came
 * unordered; on MariaDB it held the primary key (accreditationId, groupId) and was this index in
 * all but name. Plain CREATE / DROP INDEX: no table is rebuilt (whose triggers SQLite would drop).
 */
export class GroupPersonIndex1764600000001 implements MigrationInterface {
  name = 'GroupPersonIndex1764600000001';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb') {
      await q.query(
        'CREATE INDEX `IDX_accreditation_group_person` ON `accreditation_group` (`groupId`, `accreditationId`)',
      );
      await q.query('DROP INDEX `IDX_accreditation_group_groupId` ON `accreditation_group`');
    } else {
      await q.query(
        'CREATE INDEX "IDX_accreditation_group_person" ON "accreditation_group" ("groupId", "accreditationId")',
      );
      await q.query('DROP INDEX "IDX_accreditation_group_groupId"');
    }
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb') {
      await q.query('CREATE INDEX `IDX_accreditation_group_groupId` ON `accreditation_group` (`groupId`)');
      await q.query('DROP INDEX `IDX_accreditation_group_person` ON `accreditation_group`');
    } else {
      await q.query('CREATE INDEX "IDX_accreditation_group_groupId" ON "accreditation_group" ("groupId")');
      await q.query('DROP INDEX "IDX_accreditation_group_person"');
    }
  }
}
