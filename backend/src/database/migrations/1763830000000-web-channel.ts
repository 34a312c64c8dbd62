import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { columns } from './columns.js';

/**
 * Web channels with their login users, external codes and the codes' usage log; and one e-mail per
 * action on the accreditation table (spec §5: an e-mail already registered is rejected), so that
 * two registrations racing with the same address cannot both succeed.
 */
export class WebChannel1763830000000 implements MigrationInterface {
  name = 'WebChannel1763830000000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    await q.createTable(
      new Table({
        name: 'web_channel',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('actionId'),
          c.varchar('name', 255),
          c.varchar('channelKey', 64),
          c.bool('active', true),
          c.varchar('dateFrom', 16, { isNullable: true }),
          c.varchar('dateTo', 16, { isNullable: true }),
          c.bool('viewGroups', false),
          c.text('groupsSelectName'),
          c.text('groupsId'),
          c.bool('viewDays', false),
          c.text('daysSelectName'),
          c.text('defaultDays'),
          c.bool('viewMealSelect', false),
          c.bool('viewParkingSelect', false),
          c.text('customNameFirstname'),
          c.text('customNameLastname'),
          c.text('customNameEmail'),
          c.int('afterAddAction', false, 1),
          c.int('mailTemplateId', true),
          c.text('customField'),
          c.bool('withAuthorization', false),
          c.bool('byPassword', false),
          c.bool('byCode', false),
          c.text('authorizationText'),
          c.varchar('passwordHash', 255, { isNullable: true }),
          c.int('numberUseExtCode', false, 0),
          c.int('imageId', true),
          c.datetime('createdAt'),
          c.datetime('updatedAt'),
        ],
        indices: [
          { name: 'IDX_web_channel_subject_action', columnNames: ['subjectId', 'actionId'] },
          c.unique('web_channel', 'channelKey'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'web_channel_user',
        columns: [
          c.id(),
          c.int('channelId'),
          c.varchar('login', 255),
          c.varchar('passwordHash', 255),
          c.bool('active', true),
          c.datetime('createdAt'),
        ],
        indices: [{ name: 'UQ_web_channel_user_channel_login', columnNames: ['channelId', 'login'], isUnique: true }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'web_channel_code',
        columns: [
          c.id(),
          c.int('channelId'),
          c.varchar('code', 64),
          c.int('numberOfUse', false, 0),
          c.int('used', false, 0),
          c.datetime('createdAt'),
        ],
        indices: [{ name: 'UQ_web_channel_code_channel_code', columnNames: ['channelId', 'code'], isUnique: true }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'web_channel_code_log',
        columns: [
          c.id(),
          c.int('codeId'),
          c.int('accreditationId'),
          c.datetime('date'),
          c.varchar('firstname', 255),
          c.varchar('lastname', 255),
          c.varchar('email', 255),
        ],
        indices: [{ name: 'IDX_web_channel_code_log_codeId', columnNames: ['codeId'] }],
      }),
    );
    await q.dropIndex('accreditation', 'IDX_accreditation_email');
    await q.createIndex(
      'accreditation',
      new TableIndex({ name: 'UQ_accreditation_action_email', columnNames: ['actionId', 'email'], isUnique: true }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('accreditation', 'UQ_accreditation_action_email');
    await q.createIndex(
      'accreditation',
      new TableIndex({ name: 'IDX_accreditation_email', columnNames: ['actionId', 'email'] }),
    );
    await q.dropTable('web_channel_code_log');
    await q.dropTable('web_channel_code');
    await q.dropTable('web_channel_user');
    await q.dropTable('web_channel');
  }
}
