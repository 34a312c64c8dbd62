import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

/** Event set-up: actions, user fields, groups, zones, badge and mail templates, gallery images. */
export class EventSetup1763790000000 implements MigrationInterface {
  name = 'EventSetup1763790000000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const stamps = [c.datetime('createdAt'), c.datetime('updatedAt')];
    await q.createTable(
      new Table({
        name: 'action',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.text('name'),
          c.varchar('dateFrom', 16, { isNullable: true }),
          c.varchar('dateTo', 16, { isNullable: true }),
          c.bool('multiDay', false),
          c.text('days'),
          c.int('afterMailTemplateId', true),
          c.bool('isCredit', false),
          c.bool('withPhoto', false),
          c.bool('requirePhoto', false),
          c.bool('smartBc', false),
          c.text('customField'),
          c.text('textOnline'),
          c.text('textAfterAdd'),
          c.text('checkingAttributes'),
          c.text('extension'),
          c.text('previewData'),
          ...stamps,
        ],
        indices: [{ name: 'IDX_action_subjectId', columnNames: ['subjectId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'custom_field',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.varchar('name', 255),
          c.text('label'),
          c.text('tooltip'),
          c.int('customFieldType'),
          c.text('options'),
          ...stamps,
        ],
        indices: [{ name: 'IDX_custom_field_subjectId', columnNames: ['subjectId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'groups',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('actionId', true),
          c.varchar('name', 255),
          c.text('displayName'),
          c.varchar('label', 255),
          c.text('htmlData'),
          c.int('adminTemplateId', true),
          c.text('zoneIds'),
          c.bool('assignDefaultMeal', false),
          c.bool('assignDefaultParking', false),
          ...stamps,
        ],
        indices: [{ name: 'IDX_groups_subjectId', columnNames: ['subjectId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'zone',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('actionId', true),
          c.varchar('name', 255),
          c.varchar('onAccreditation', 64),
          ...stamps,
        ],
        indices: [{ name: 'IDX_zone_subjectId', columnNames: ['subjectId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'template',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.varchar('name', 255),
          c.int('type', false, 1),
          c.varchar('pageSize', 8, { default: "'A6'" }),
          c.text('htmlData'),
          ...stamps,
        ],
        indices: [{ name: 'IDX_template_subjectId', columnNames: ['subjectId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'mail_template',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.varchar('name', 255),
          c.int('type', false, 2),
          c.varchar('subjectFrom', 500),
          c.bool('withAccreditation', false),
          c.text('mailCopy'),
          c.text('html'),
          ...stamps,
        ],
        indices: [{ name: 'IDX_mail_template_subjectId', columnNames: ['subjectId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'image',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.varchar('name', 255),
          c.int('type', false, 3),
          c.varchar('mimeType', 32),
          c.int('size'),
          c.int('width', false, 0),
          c.int('height', false, 0),
          c.varchar('fileKey', 191),
          c.int('version', false, 1),
          ...stamps,
        ],
        indices: [{ name: 'IDX_image_list', columnNames: ['subjectId', 'type'] }, c.unique('image', 'fileKey')],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['image', 'mail_template', 'template', 'zone', 'groups', 'custom_field', 'action'])
      await q.dropTable(t);
  }
}
