import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

/** The print log of badges (who printed whose badge when). */
export class PrintLog1763820000000 implements MigrationInterface {
  name = 'PrintLog1763820000000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    await q.createTable(
      new Table({
        name: 'print_log',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('accreditationId'),
          c.int('adminUserId', true),
          c.datetime('createdAt'),
        ],
        indices: [{ name: 'IDX_print_log_accreditation', columnNames: ['accreditationId'] }],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('print_log');
  }
}
