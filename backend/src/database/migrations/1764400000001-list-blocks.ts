import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

/**
 * Ids per block of `accreditation_block`. A page is found by summing blocks and then skipping fewer
 * than this many index entries: 4,096 costs at most ~1 ms of skipping on MariaDB (~0.25 µs an
 * entry), and a million people of one action are ~245 block rows to sum (more when several actions'
 * ids interleave: an action's blocks are at most its id span / 4,096). AccreditationService reads it.
 */
export const LIST_BLOCK_SIZE = 4096;

const TRIGGERS = ['TR_accreditation_block_ins', 'TR_accreditation_block_upd', 'TR_accreditation_block_del'];

/**
 * A random page of the unfiltered list at a million people (issue 16, bench/accreditation-list.mjs):
 * `accreditation_block` (subject, action, block = id DIV 4096, n) holds how many of the action's
 * accreditations have an id in each block: the rows the list's base query (`subjectId = ? AND
 * actionId = ?`, nothing else: no soft delete, archiving hides no one) reads, counted in id order.
 * Page k is then found by summing blocks newest first until the offset falls inside one, and read
 * with `id < (block + 1) * 4096` and an OFFSET under 4,096, instead of skipping up to 500,000 index
 * entries (163 ms median at 1,000,000 on MariaDB).
 *
 * Kept by triggers in the writing transaction as `accreditation_hourly` is (every way in: admin,
 * import, online registration, copy; both deletes; a change of subject, action or id by any
 * statement moves the row's count), so a rolled-back import leaves no count behind. A block that
 * reaches 0 is removed. The schema has no FOREIGN KEY cascades (which fire no triggers on
 * MariaDB): accreditations are only deleted by DELETE statements on `accreditation`, and an action
 * with people cannot be deleted. The list checks that the blocks add up to the action's count
 * and reads by OFFSET when they do not.
 *
 * On SQLite a later migration that rebuilds `accreditation` (TypeORM's addColumn, changeColumn …)
 * drops these triggers: add columns with ALTER TABLE there, or re-create them (schema.spec lists them).
 */
export class ListBlocks1764400000001 implements MigrationInterface {
  name = 'ListBlocks1764400000001';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const mariadb = q.connection.driver.options.type === 'mariadb';
    await q.createTable(
      new Table({
        name: 'accreditation_block',
        columns: [
          { ...c.int('subjectId'), isPrimary: true },
          { ...c.int('actionId'), isPrimary: true },
          { ...c.int('block'), isPrimary: true },
          c.int('n', false, 0),
        ],
      }),
    );
    // ids are integers on both databases: SQLite's `/` of two integers is integer division
    const block = (id: string) => (mariadb ? `${id} DIV ${LIST_BLOCK_SIZE}` : `${id} / ${LIST_BLOCK_SIZE}`);
    const key = (row: 'NEW' | 'OLD') =>
      `subjectId = ${row}.subjectId AND actionId = ${row}.actionId AND block = ${block(`${row}.id`)}`;
    const add = `INSERT INTO accreditation_block (subjectId, actionId, block, n)
      VALUES (NEW.subjectId, NEW.actionId, ${block('NEW.id')}, 1) ${
        mariadb
          ? 'ON DUPLICATE KEY UPDATE n = n + 1'
          : 'ON CONFLICT (subjectId, actionId, block) DO UPDATE SET n = n + 1'
      }`;
    const remove = [
      `UPDATE accreditation_block SET n = n - 1 WHERE ${key('OLD')}`,
      `DELETE FROM accreditation_block WHERE ${key('OLD')} AND n <= 0`,
    ];
    const moved = mariadb
      ? 'NOT (NEW.subjectId <=> OLD.subjectId) OR NOT (NEW.actionId <=> OLD.actionId) OR NOT (NEW.id <=> OLD.id)'
      : 'NEW.subjectId IS NOT OLD.subjectId OR NEW.actionId IS NOT OLD.actionId OR NEW.id IS NOT OLD.id';
    const trigger = (name: string, event: string, body: string[], when?: string) =>
      mariadb
        ? `CREATE TRIGGER ${name} AFTER ${event} ON accreditation FOR EACH ROW ${
            when
              ? `IF ${when} THEN ${body.join('; ')}; END IF`
              : body.length > 1
                ? `BEGIN ${body.join('; ')}; END`
                : body[0]
          }`
        : `CREATE TRIGGER ${name} AFTER ${event} ON accreditation FOR EACH ROW${when ? ` WHEN ${when}` : ''} BEGIN ${body.join('; ')}; END`;

    await q.query(
      `INSERT INTO accreditation_block (subjectId, actionId, block, n)
       SELECT subjectId, actionId, ${block('id')}, COUNT(*) FROM accreditation GROUP BY subjectId, actionId, ${block('id')}`,
    );
    await q.query(trigger('TR_accreditation_block_ins', 'INSERT', [add]));
    await q.query(trigger('TR_accreditation_block_del', 'DELETE', remove));
    await q.query(trigger('TR_accreditation_block_upd', 'UPDATE', [...remove, add], moved));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    await q.dropTable('accreditation_block');
  }
}
