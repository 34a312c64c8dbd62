import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';
import { CHANGE, LINKED_PERSON, MERGED } from './1764500000001-insert-triggers.js';
import { type LinkCount, linkCountFill, linkCountTriggerNames, linkCountTriggers } from './link-counts.js';

const ZONES: LinkCount = {
  link: 'accreditation_zone',
  key: 'zoneId',
  counts: 'accreditation_zone_count',
  word: 'zoned',
};

/** MariaDB's one insert trigger of `accreditation_zone` (migration 1764500000001) with the count. */
const ZONE_INS = `AFTER INSERT ON accreditation_zone FOR EACH ROW BEGIN
  ${LINKED_PERSON};
  IF a IS NOT NULL THEN
    ${CHANGE};
    INSERT INTO accreditation_zone_count (zoneId, subjectId, actionId, n) VALUES (NEW.zoneId, s, a, 1) ON DUPLICATE KEY UPDATE n = n + 1;
  END IF;
END`;

/**
 * The list filtered by one zone at a million people (issue 16, bench/accreditation-list.mjs "filter
 * by zone"), as a group is (migrations 1764400000002 and 1764600000001): `accreditation_zone_count`
 * (zone, subject, action, n) holds how many of an action's people are linked to the zone, kept by
 * the same triggers (link-counts.ts; on MariaDB the link's count is written by the table's one
 * insert trigger), so the filter's count is one primary-key read instead of the walk of up to
 * 10,001 matches; and `IDX_accreditation_zone_person` (zoneId, accreditationId) gives a zone's
 * people in id order, so a deep page of a zone whose links are all of the listed action is read
 * from its links. That index replaces `IDX_accreditation_zone_zoneId` (zoneId), which it covers.
 * Plain CREATE / DROP INDEX and CREATE TRIGGER: no table is rebuilt (whose triggers SQLite would
 * drop).
 */
export class ZoneCounts1764800000001 implements MigrationInterface {
  name = 'ZoneCounts1764800000001';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const mariadb = q.connection.driver.options.type === 'mariadb';
    await q.createTable(
      new Table({
        name: 'accreditation_zone_count',
        columns: [
          { ...c.int('zoneId'), isPrimary: true },
          { ...c.int('subjectId'), isPrimary: true },
          { ...c.int('actionId'), isPrimary: true },
          c.int('n', false, 0),
        ],
      }),
    );
    if (mariadb) {
      await q.query(
        'CREATE INDEX `IDX_accreditation_zone_person` ON `accreditation_zone` (`zoneId`, `accreditationId`)',
      );
      await q.query('DROP INDEX `IDX_accreditation_zone_zoneId` ON `accreditation_zone`');
    } else {
      await q.query(
        'CREATE INDEX "IDX_accreditation_zone_person" ON "accreditation_zone" ("zoneId", "accreditationId")',
      );
      await q.query('DROP INDEX "IDX_accreditation_zone_zoneId"');
    }
    await q.query(linkCountFill(ZONES));
    for (const sql of linkCountTriggers(ZONES, mariadb, mariadb)) await q.query(sql);
    if (mariadb) {
      await q.query('DROP TRIGGER IF EXISTS TR_accreditation_zone_ins');
      await q.query(`CREATE TRIGGER TR_accreditation_zone_ins ${ZONE_INS}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const mariadb = q.connection.driver.options.type === 'mariadb';
    for (const name of linkCountTriggerNames(ZONES)) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    if (mariadb) {
      await q.query('DROP TRIGGER IF EXISTS TR_accreditation_zone_ins');
      await q.query(`CREATE TRIGGER TR_accreditation_zone_ins ${MERGED.TR_accreditation_zone_ins}`);
      await q.query('CREATE INDEX `IDX_accreditation_zone_zoneId` ON `accreditation_zone` (`zoneId`)');
      await q.query('DROP INDEX `IDX_accreditation_zone_person` ON `accreditation_zone`');
    } else {
      await q.query('CREATE INDEX "IDX_accreditation_zone_zoneId" ON "accreditation_zone" ("zoneId")');
      await q.query('DROP INDEX "IDX_accreditation_zone_person"');
    }
    await q.dropTable('accreditation_zone_count');
  }
}
