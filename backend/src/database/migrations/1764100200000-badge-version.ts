import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { columns } from './columns.js';

/**
 * Badge versions (issue 13, docs/access-control.md "Badge versions"): a reprint that retires the
 * old badge gives the person a new code version.
 * - `accreditation.badgeVersion` (0: the first badge, printed as the plain bc) and
 *   `badgeReplacedAt` (when the valid badge replaced the one before it);
 * - `print_log.badgeVersion` (the version that print carried) and `retiredVersion` (the version it
 *   retired, null for an ordinary reprint): the history shows which badge was retired when and by whom;
 * - `pdf_job.replace`: a big PDF print made with "replace the old badge".
 *
 * On SQLite the accreditation's columns are added with ALTER TABLE … ADD COLUMN: TypeORM's
 * addColumn rebuilds a SQLite table, which would drop the change-feed triggers of migration
 * 1764000400000. The column text is what TypeORM itself writes, so the schema check sees no difference.
 */
export class BadgeVersion1764100200000 implements MigrationInterface {
  name = 'BadgeVersion1764100200000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    if (q.connection.driver.options.type === 'mariadb') {
      await q.addColumns('accreditation', [
        new TableColumn(c.int('badgeVersion', false, 0)),
        new TableColumn(c.datetime('badgeReplacedAt', true)),
      ]);
    } else {
      await q.query('ALTER TABLE "accreditation" ADD COLUMN "badgeVersion" integer NOT NULL DEFAULT (0)');
      await q.query('ALTER TABLE "accreditation" ADD COLUMN "badgeReplacedAt" datetime(3)');
    }
    await q.addColumns('print_log', [
      new TableColumn(c.int('badgeVersion', false, 0)),
      new TableColumn(c.int('retiredVersion', true)),
    ]);
    await q.addColumn('pdf_job', new TableColumn(c.bool('replace', false)));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('pdf_job', 'replace');
    await q.dropColumns('print_log', ['retiredVersion', 'badgeVersion']);
    if (q.connection.driver.options.type === 'mariadb') {
      await q.dropColumns('accreditation', ['badgeReplacedAt', 'badgeVersion']);
    } else {
      // SQLite 3.35+ drops a column in place (the triggers stay)
      await q.query('ALTER TABLE "accreditation" DROP COLUMN "badgeReplacedAt"');
      await q.query('ALTER TABLE "accreditation" DROP COLUMN "badgeVersion"');
    }
  }
}
