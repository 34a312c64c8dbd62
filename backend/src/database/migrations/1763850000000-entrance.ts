import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

/** The entry log of accreditations (written by gate devices, filtered and shown by the list). */
export class Entrance1763850000000 implements MigrationInterface {
  name = 'Entrance1763850000000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    await q.createTable(
      new Table({
        name: 'entrance',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('actionId'),
          c.int('accreditationId'),
          c.int('type'),
          c.int('deviceId', true),
          c.varchar('day', 10),
          c.datetime('createdAt'),
        ],
        indices: [
          { name: 'IDX_entrance_accreditation', columnNames: ['accreditationId', 'day'] },
          { name: 'IDX_entrance_action_day', columnNames: ['actionId', 'day'] },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('entrance');
  }
}
