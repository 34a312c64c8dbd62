import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { columns } from './columns.js';

/**
 * PDF jobs (issue 13): `pdf_job.retries`, how often the admin has started a failed job again (once
 * at most). Jobs whose file is removed after a day keep their row as state `expired`.
 */
export class PdfJobRetry1764100800000 implements MigrationInterface {
  name = 'PdfJobRetry1764100800000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('pdf_job', new TableColumn(columns(q).int('retries', false, 0)));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('pdf_job', 'retries');
  }
}
