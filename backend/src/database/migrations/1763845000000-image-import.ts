import { type MigrationInterface, type QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { columns } from './columns.js';

/**
 * The photo file name an accreditation was imported with (the sheet's photo column): the image
 * import pairs uploaded files with it. Indexed with the action for "who still waits for a photo".
 */
export class ImageImport1763845000000 implements MigrationInterface {
  name = 'ImageImport1763845000000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    await q.addColumn('accreditation', new TableColumn(c.varchar('imageName', 255, { isNullable: true })));
    await q.createIndex('accreditation', new TableIndex(c.index('accreditation', 'actionId', 'imageName')));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('accreditation', 'IDX_accreditation_actionId_imageName');
    await q.dropColumn('accreditation', 'imageName');
  }
}
