import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

const TRIGGERS = ['TR_mail_queue_total_ins', 'TR_mail_queue_total_upd', 'TR_mail_queue_total_del'];

/**
 * How many mails each subject has in `mail_queue` (issue 14: the dashboard's mail tiles at scale):
 * `mail_total` (subjectId, mails; 0 for the mails of no subject), kept by triggers on insert and
 * delete (and a change of subject) in the writer's transaction, filled from the rows there. The
 * dashboard reads the few waiting, sending and failed mails from the (subjectId, status) index and
 * takes 'sent' as the rest, instead of counting a million sent mails. A status change, the one
 * write the mail workers make per mail, touches no count, so the workers never queue on it.
 */
export class MailTotals1764102200000 implements MigrationInterface {
  name = 'MailTotals1764102200000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const mariadb = q.connection.driver.options.type === 'mariadb';
    await q.createTable(
      new Table({
        name: 'mail_total',
        columns: [{ ...c.int('subjectId'), isPrimary: true }, c.int('mails', false, 0)],
      }),
    );
    await q.query(
      'INSERT INTO mail_total (subjectId, mails) SELECT COALESCE(subjectId, 0), COUNT(*) FROM mail_queue GROUP BY COALESCE(subjectId, 0)',
    );
    const add = `INSERT INTO mail_total (subjectId, mails) VALUES (COALESCE(NEW.subjectId, 0), 1) ${
      mariadb ? 'ON DUPLICATE KEY UPDATE mails = mails + 1' : 'ON CONFLICT (subjectId) DO UPDATE SET mails = mails + 1'
    }`;
    const remove = 'UPDATE mail_total SET mails = mails - 1 WHERE subjectId = COALESCE(OLD.subjectId, 0)';
    const trigger = (name: string, event: string, body: string[], when?: string) =>
      mariadb
        ? `CREATE TRIGGER ${name} AFTER ${event} ON mail_queue FOR EACH ROW ${
            when ? `IF ${when} THEN ${body.join('; ')}; END IF` : `BEGIN ${body.join('; ')}; END`
          }`
        : `CREATE TRIGGER ${name} AFTER ${event} ON mail_queue FOR EACH ROW${when ? ` WHEN ${when}` : ''} BEGIN ${body.join('; ')}; END`;
    await q.query(trigger('TR_mail_queue_total_ins', 'INSERT', [add]));
    await q.query(trigger('TR_mail_queue_total_del', 'DELETE', [remove]));
    await q.query(
      trigger(
        'TR_mail_queue_total_upd',
        'UPDATE',
        [remove, add],
        mariadb ? 'NOT (NEW.subjectId <=> OLD.subjectId)' : 'NEW.subjectId IS NOT OLD.subjectId',
      ),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    await q.dropTable('mail_total');
  }
}
