import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

const INTO = 'INSERT INTO accreditation_change (subjectId, actionId, accreditationId, kind, changedAt)';

/**
 * Action extensions (issue 14): meal items and parking areas with their options and places, the
 * people's items (dateUsed of a meal, presence in a car park, licence plate) and the groups'
 * defaults. A person's items change what a gate in mode 4/5 knows of them, so they feed the device
 * protocol's change feed like the groups and zones do (migration 1764000400000).
 */
export class ActionExtension1764100300000 implements MigrationInterface {
  name = 'ActionExtension1764100300000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const mariadb = q.connection.driver.options.type === 'mariadb';
    await q.createTable(
      new Table({
        name: 'extension_item',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('actionId'),
          c.int('type'),
          c.text('label'),
          c.varchar('date', 10, { isNullable: true }),
          c.varchar('timeFrom', 5, { default: "''" }),
          c.varchar('timeTo', 5, { default: "''" }),
          c.int('capacity', true),
          c.bool('active', true),
          c.int('position', false, 0),
          c.datetime('createdAt'),
          c.datetime('updatedAt'),
        ],
        indices: [{ name: 'IDX_extension_item_action_type', columnNames: ['actionId', 'type'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'extension_option',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('itemId'),
          c.text('name'),
          c.varchar('note', 1000, { default: "''" }),
          c.int('capacity', true),
          c.int('position', false, 0),
        ],
        indices: [c.index('extension_option', 'itemId')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'accreditation_extension',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('actionId'),
          c.int('accreditationId'),
          c.int('type'),
          c.int('itemId'),
          c.int('optionId', true),
          c.varchar('licencePlate', 20, { isNullable: true }),
          c.datetime('dateUsed', true),
          c.bool('inside', false),
          c.datetime('createdAt'),
        ],
        indices: [
          {
            name: 'UQ_accreditation_extension_person_item',
            columnNames: ['accreditationId', 'itemId'],
            isUnique: true,
          },
          { name: 'IDX_accreditation_extension_itemId', columnNames: ['itemId', 'optionId'] },
          { name: 'IDX_accreditation_extension_action', columnNames: ['actionId', 'type'] },
          { name: 'IDX_accreditation_extension_inside', columnNames: ['itemId', 'inside'] },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'group_extension',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('groupId'),
          c.int('type'),
          c.int('itemId'),
          c.int('optionId', true),
        ],
        indices: [
          { name: 'UQ_group_extension_group_item', columnNames: ['groupId', 'itemId'], isUnique: true },
          c.index('group_extension', 'itemId'),
        ],
      }),
    );

    // the change feed: a person's items are part of what a gate knows of them
    const now = mariadb
      ? 'ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)'
      : "CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)";
    const body = (row: 'NEW' | 'OLD') =>
      `${INTO} SELECT a.subjectId, a.actionId, a.id, 1, ${now} FROM accreditation a WHERE a.id = ${row}.accreditationId`;
    const trigger = (name: string, event: string, row: 'NEW' | 'OLD') =>
      mariadb
        ? `CREATE TRIGGER ${name} AFTER ${event} ON accreditation_extension FOR EACH ROW ${body(row)}`
        : `CREATE TRIGGER ${name} AFTER ${event} ON accreditation_extension FOR EACH ROW BEGIN ${body(row)}; END`;
    await q.query(trigger('TR_accreditation_extension_change_ins', 'INSERT', 'NEW'));
    await q.query(trigger('TR_accreditation_extension_change_upd', 'UPDATE', 'NEW'));
    await q.query(trigger('TR_accreditation_extension_change_del', 'DELETE', 'OLD'));
    // a deleted person's items go with them (whichever path deletes), so counting the holders of an
    // item never needs the accreditation table (and never locks its rows)
    const cleanup = 'DELETE FROM accreditation_extension WHERE accreditationId = OLD.id';
    await q.query(
      mariadb
        ? `CREATE TRIGGER TR_accreditation_extension_cleanup AFTER DELETE ON accreditation FOR EACH ROW ${cleanup}`
        : `CREATE TRIGGER TR_accreditation_extension_cleanup AFTER DELETE ON accreditation FOR EACH ROW BEGIN ${cleanup}; END`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER IF EXISTS TR_accreditation_extension_cleanup');
    for (const name of ['ins', 'upd', 'del'])
      await q.query(`DROP TRIGGER IF EXISTS TR_accreditation_extension_change_${name}`);
    await q.dropTable('group_extension');
    await q.dropTable('accreditation_extension');
    await q.dropTable('extension_option');
    await q.dropTable('extension_item');
  }
}
