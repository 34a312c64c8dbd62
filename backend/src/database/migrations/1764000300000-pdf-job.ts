import { type MigrationInterface, type QueryRunner, Table, TableColumn } from 'typeorm';
import { columns } from './columns.js';

/**
 * Badges as PDF (issue 13): the big print jobs (`pdf_job`) and the mails that carry the person's
 * badge as a PDF attachment, rendered by the mail worker at send time (`mail_queue.attachBadge`).
 */
export class PdfJob1764000300000 implements MigrationInterface {
  name = 'PdfJob1764000300000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    await q.createTable(
      new Table({
        name: 'pdf_job',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('adminUserId'),
          c.int('actionId'),
          c.varchar('language', 8),
          c.varchar('state', 16, { default: "'waiting'" }),
          c.text('ids'),
          c.int('done', false, 0),
          c.int('printed', false, 0),
          c.text('errors'),
          c.varchar('filePath', 500, { isNullable: true }),
          c.varchar('fileName', 255),
          c.text('failReason', true),
          c.datetime('claimedAt', true),
          c.datetime('createdAt'),
          c.datetime('finishedAt', true),
        ],
        indices: [{ name: 'IDX_pdf_job_state', columnNames: ['state', 'id'] }],
      }),
    );
    await q.addColumn('mail_queue', new TableColumn(c.bool('attachBadge', false)));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('mail_queue', 'attachBadge');
    await q.dropTable('pdf_job');
  }
}
