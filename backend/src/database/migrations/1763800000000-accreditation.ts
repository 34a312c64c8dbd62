import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

/** Accreditations with their groups, zones, searchable user-field values and credit history. */
export class Accreditation1763800000000 implements MigrationInterface {
  name = 'Accreditation1763800000000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const pk = (name: string) => ({ ...c.int(name), isPrimary: true });
    await q.createTable(
      new Table({
        name: 'accreditation',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('actionId'),
          c.int('customId'),
          c.varchar('firstname', 255),
          c.varchar('lastname', 255),
          c.varchar('email', 255),
          c.varchar('bc', 32),
          c.text('days'),
          c.text('fieldValues'),
          c.int('imageId', true),
          c.int('printCount', false, 0),
          c.int('credit', true),
          c.bool('isUnlimited', false),
          c.varchar('source', 8, { default: "'admin'" }),
          c.datetime('createdAt'),
          c.datetime('updatedAt'),
        ],
        indices: [
          { name: 'IDX_accreditation_list', columnNames: ['subjectId', 'actionId', 'id'] },
          { name: 'IDX_accreditation_email', columnNames: ['actionId', 'email'] },
          { name: 'UQ_accreditation_customId', columnNames: ['actionId', 'customId'], isUnique: true },
          c.unique('accreditation', 'bc'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'accreditation_group',
        columns: [pk('accreditationId'), pk('groupId')],
        indices: [{ name: 'IDX_accreditation_group_groupId', columnNames: ['groupId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'accreditation_zone',
        columns: [pk('accreditationId'), pk('zoneId')],
        indices: [{ name: 'IDX_accreditation_zone_zoneId', columnNames: ['zoneId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'accreditation_value',
        columns: [pk('accreditationId'), pk('fieldId'), c.varchar('value', 500)],
        indices: [{ name: 'IDX_accreditation_value_field', columnNames: ['fieldId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'credit_transaction',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('accreditationId'),
          c.int('type'),
          c.int('price'),
          c.int('deviceId', true),
          c.int('adminUserId', true),
          c.datetime('createdAt'),
        ],
        indices: [{ name: 'IDX_credit_transaction_accreditation', columnNames: ['accreditationId'] }],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'credit_transaction',
      'accreditation_value',
      'accreditation_zone',
      'accreditation_group',
      'accreditation',
    ]) {
      await q.dropTable(t);
    }
  }
}
