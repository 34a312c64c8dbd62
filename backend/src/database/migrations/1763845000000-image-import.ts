import { type MigrationInterface, type QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { columns } from './columns.js';

/**
 * The image import: the photo file name an accreditation was imported with (the sheet's photo
 * column; indexed with the action for "who still waits for a photo"), and the photos uploaded
 * before any row named them (`image_import`, one per action and file name).
 */
export class ImageImport1763845000000 implements MigrationInterface {
  name = 'ImageImport1763845000000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    await q.addColumn('accreditation', new TableColumn(c.varchar('imageName', 255, { isNullable: true })));
    await q.createIndex('accreditation', new TableIndex(c.index('accreditation', 'actionId', 'imageName')));
    await q.createTable(
      new Table({
        name: 'image_import',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('actionId'),
          c.varchar('name', 255),
          c.varchar('nameKey', 255),
          c.int('imageId'),
          c.datetime('createdAt'),
        ],
        indices: [{ name: 'UQ_image_import_actionId_nameKey', columnNames: ['actionId', 'nameKey'], isUnique: true }],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('image_import');
    await q.dropIndex('accreditation', 'IDX_accreditation_actionId_imageName');
    await q.dropColumn('accreditation', 'imageName');
  }
}
