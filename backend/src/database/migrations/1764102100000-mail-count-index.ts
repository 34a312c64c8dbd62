import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

/**
 * The dashboard's mail tiles (issue 14) count a subject's mails by status: with
 * `IDX_mail_queue_subject_status` each count reads one range of the index, where the subjectId
 * index alone read every mail of the subject (a million after a mail to a million people).
 */
export class MailCountIndex1764102100000 implements MigrationInterface {
  name = 'MailCountIndex1764102100000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'mail_queue',
      new TableIndex({ name: 'IDX_mail_queue_subject_status', columnNames: ['subjectId', 'status'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('mail_queue', 'IDX_mail_queue_subject_status');
  }
}
