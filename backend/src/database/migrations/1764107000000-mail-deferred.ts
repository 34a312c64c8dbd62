import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mails written by the worker (issue 16): an online registration queues its confirmation mail as a
 * small row in its own transaction (template, person, and this language, fixed at registration) and
 * the mail worker writes the text before sending. `mail_queue.language` is null for every mail
 * written when queued (all mails before this). Raw ALTER TABLE: TypeORM's addColumn rebuilds a
 * SQLite table and would drop mail_queue's count triggers (1764102200000-mail-totals).
 */
export class MailDeferred1764107000000 implements MigrationInterface {
  name = 'MailDeferred1764107000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb')
      await q.query('ALTER TABLE `mail_queue` ADD COLUMN `language` varchar(2) NULL');
    else await q.query('ALTER TABLE "mail_queue" ADD COLUMN "language" varchar(2)');
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb')
      await q.query('ALTER TABLE `mail_queue` DROP COLUMN `language`');
    else await q.query('ALTER TABLE "mail_queue" DROP COLUMN "language"');
  }
}
