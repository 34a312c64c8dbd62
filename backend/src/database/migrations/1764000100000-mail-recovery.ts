import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TableColumn } from 'typeorm';
import { columns } from './columns.js';

/**
 * A mail whose send was interrupted (the process died while it was `sending`) is sent again with
 * the same Message-ID instead of being given up; over SMTP the first attempt may have arrived, so
 * the row keeps `uncertain` and the admin sees that the person may have got the mail twice.
 */
export class MailRecovery1764000100000 implements MigrationInterface {
  name = 'MailRecovery1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('mail_queue', new TableColumn(columns(q).bool('uncertain', false)));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('mail_queue', 'uncertain');
  }
}
