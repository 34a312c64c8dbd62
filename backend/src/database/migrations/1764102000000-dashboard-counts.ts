import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

const TRIGGERS = ['TR_accreditation_hourly_ins', 'TR_accreditation_hourly_upd', 'TR_accreditation_hourly_del'];

/**
 * The dashboard's registration counts (issue 14): `accreditation_hourly` holds how many
 * accreditations each subject has per action, source (admin / web) and UTC hour of `createdAt`
 * (`utcHour`, 'YYYY-MM-DD HH'). The dashboard reads these few rows instead of counting the
 * accreditations (0.55 s at 1,000,000 with a covering index) and puts each hour on its day in the
 * subject's time zone, which can therefore change at any time.
 *
 * Triggers keep the counts in the transaction of whatever inserts, deletes or changes an
 * accreditation (admin create, import, online registration, copy, both deletes, a change of action,
 * source, subject or creation time by any statement), so no path can forget them and a rolled-back
 * import leaves no count behind. A count that reaches 0 is removed. The migration fills the table
 * from the accreditations already there. See docs/architecture.md "Dashboard".
 *
 * On SQLite a later migration that rebuilds `accreditation` (TypeORM's addColumn, changeColumn …)
 * drops these triggers with the change-feed ones: add columns with ALTER TABLE there (see
 * 1764100200000-badge-version).
 */
export class DashboardCounts1764102000000 implements MigrationInterface {
  name = 'DashboardCounts1764102000000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const mariadb = q.connection.driver.options.type === 'mariadb';
    await q.createTable(
      new Table({
        name: 'accreditation_hourly',
        columns: [
          { ...c.int('subjectId'), isPrimary: true },
          { ...c.int('actionId'), isPrimary: true },
          { ...c.varchar('source', 8), isPrimary: true },
          { ...c.varchar('utcHour', 13), isPrimary: true },
          c.int('registrations', false, 0),
        ],
      }),
    );
    // the UTC hour of a createdAt: TypeORM writes 'YYYY-MM-DD HH:MM:SS.mmm' (UTC) on both databases;
    // on SQLite strftime also reads an ISO text with 'T' and 'Z' (raw inserts), else the text's start
    const hour = (v: string) =>
      mariadb ? `DATE_FORMAT(${v}, '%Y-%m-%d %H')` : `COALESCE(strftime('%Y-%m-%d %H', ${v}), substr(${v}, 1, 13))`;
    const key = (row: 'NEW' | 'OLD') =>
      `subjectId = ${row}.subjectId AND actionId = ${row}.actionId AND source = ${row}.source AND utcHour = ${hour(`${row}.createdAt`)}`;
    const add = `INSERT INTO accreditation_hourly (subjectId, actionId, source, utcHour, registrations)
      VALUES (NEW.subjectId, NEW.actionId, NEW.source, ${hour('NEW.createdAt')}, 1) ${
        mariadb
          ? 'ON DUPLICATE KEY UPDATE registrations = registrations + 1'
          : 'ON CONFLICT (subjectId, actionId, source, utcHour) DO UPDATE SET registrations = registrations + 1'
      }`;
    const remove = [
      `UPDATE accreditation_hourly SET registrations = registrations - 1 WHERE ${key('OLD')}`,
      `DELETE FROM accreditation_hourly WHERE ${key('OLD')} AND registrations <= 0`,
    ];
    const moved = mariadb
      ? `NOT (NEW.subjectId <=> OLD.subjectId) OR NOT (NEW.actionId <=> OLD.actionId) OR NOT (NEW.source <=> OLD.source) OR NOT (${hour('NEW.createdAt')} <=> ${hour('OLD.createdAt')})`
      : `NEW.subjectId IS NOT OLD.subjectId OR NEW.actionId IS NOT OLD.actionId OR NEW.source IS NOT OLD.source OR ${hour('NEW.createdAt')} IS NOT ${hour('OLD.createdAt')}`;
    const trigger = (name: string, event: string, body: string[], when?: string) =>
      mariadb
        ? `CREATE TRIGGER ${name} AFTER ${event} ON accreditation FOR EACH ROW ${
            when ? `IF ${when} THEN ${body.join('; ')}; END IF` : `BEGIN ${body.join('; ')}; END`
          }`
        : `CREATE TRIGGER ${name} AFTER ${event} ON accreditation FOR EACH ROW${when ? ` WHEN ${when}` : ''} BEGIN ${body.join('; ')}; END`;

    await q.query(
      `INSERT INTO accreditation_hourly (subjectId, actionId, source, utcHour, registrations)
       SELECT subjectId, actionId, source, ${hour('createdAt')}, COUNT(*) FROM accreditation
       GROUP BY subjectId, actionId, source, ${hour('createdAt')}`,
    );
    await q.query(trigger('TR_accreditation_hourly_ins', 'INSERT', [add]));
    await q.query(trigger('TR_accreditation_hourly_del', 'DELETE', remove));
    await q.query(trigger('TR_accreditation_hourly_upd', 'UPDATE', [...remove, add], moved));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    await q.dropTable('accreditation_hourly');
  }
}
