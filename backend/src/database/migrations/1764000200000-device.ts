import { type MigrationInterface, type QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { columns } from './columns.js';

/**
 * Access control (issue 11): devices, rule templates, the scan log (nonces of D16/D17 and the
 * decisions the reports read), the failed-scan log of offline uploads (D20); the entry log gains
 * its template (D2: counts are kept per template) and accreditations an index for the device
 * protocol's `changes?cursor=` (updatedAt, id within an action).
 */
export class Device1764000200000 implements MigrationInterface {
  name = 'Device1764000200000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    await q.createTable(
      new Table({
        name: 'device',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.varchar('name', 255),
          c.varchar('uid', 64),
          c.int('deviceTemplateId', true),
          c.varchar('tokenHash', 64, { isNullable: true }),
          c.datetime('pairedAt', true),
          c.datetime('lastSeenAt', true),
          c.varchar('appVersion', 64, { isNullable: true }),
          c.datetime('createdAt'),
          c.datetime('updatedAt'),
        ],
        indices: [
          { name: 'UQ_device_subject_uid', columnNames: ['subjectId', 'uid'], isUnique: true },
          c.unique('device', 'tokenHash'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'device_template',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('actionId'),
          c.varchar('name', 255),
          c.int('zoneId', true),
          c.text('data'),
          c.datetime('createdAt'),
          c.datetime('updatedAt'),
        ],
        indices: [{ name: 'IDX_device_template_subject_action', columnNames: ['subjectId', 'actionId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'device_scan',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('deviceId'),
          c.varchar('nonce', 64),
          c.varchar('requestHash', 64),
          c.int('actionId', true),
          c.int('deviceTemplateId', true),
          c.int('accreditationId', true),
          c.int('direction'),
          c.bool('allowed', false),
          c.varchar('reason', 32),
          c.text('decision'),
          c.bool('offline', false),
          c.bool('violation', false),
          c.datetime('scanAt'),
          c.varchar('day', 10),
          c.datetime('deviceTime', true),
          c.datetime('createdAt'),
        ],
        indices: [
          { name: 'UQ_device_scan_device_nonce', columnNames: ['deviceId', 'nonce'], isUnique: true },
          { name: 'IDX_device_scan_action', columnNames: ['actionId', 'day'] },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'device_failed_scan',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('deviceId'),
          c.varchar('nonce', 64),
          c.varchar('code', 255),
          c.varchar('reason', 32),
          c.datetime('scanAt'),
          c.datetime('createdAt'),
        ],
        indices: [{ name: 'IDX_device_failed_scan_device', columnNames: ['deviceId', 'scanAt'] }],
      }),
    );
    await q.addColumn('entrance', new TableColumn(c.int('deviceTemplateId', true)));
    await q.createIndex(
      'entrance',
      new TableIndex({ name: 'IDX_entrance_template', columnNames: ['deviceTemplateId', 'accreditationId'] }),
    );
    await q.createIndex(
      'accreditation',
      new TableIndex({ name: 'IDX_accreditation_changes', columnNames: ['actionId', 'updatedAt', 'id'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('accreditation', 'IDX_accreditation_changes');
    await q.dropIndex('entrance', 'IDX_entrance_template');
    await q.dropColumn('entrance', 'deviceTemplateId');
    for (const t of ['device_failed_scan', 'device_scan', 'device_template', 'device']) await q.dropTable(t);
  }
}
