import { type MigrationInterface, type QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { columns } from './columns.js';

/**
 * `accreditation.webChannelId` (issue 15): the web channel a person registered through (null: added
 * in the office). A channel with registrations cannot be deleted; the count reads this index.
 * Registrations made before the column are found through the code log of the channel's codes.
 * On SQLite the column is added with ALTER TABLE … ADD COLUMN (TypeORM's addColumn rebuilds the
 * table and would drop the change-feed triggers; see 1764100200000-badge-version).
 */
export class AccreditationWebChannel1764101100011 implements MigrationInterface {
  name = 'AccreditationWebChannel1764101100011';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb')
      await q.addColumn('accreditation', new TableColumn(columns(q).int('webChannelId', true)));
    else await q.query('ALTER TABLE "accreditation" ADD COLUMN "webChannelId" integer');
    await q.createIndex(
      'accreditation',
      new TableIndex({ name: 'IDX_accreditation_webChannelId', columnNames: ['webChannelId'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('accreditation', 'IDX_accreditation_webChannelId');
    if (q.connection.driver.options.type === 'mariadb') await q.dropColumn('accreditation', 'webChannelId');
    else await q.query('ALTER TABLE "accreditation" DROP COLUMN "webChannelId"');
  }
}
