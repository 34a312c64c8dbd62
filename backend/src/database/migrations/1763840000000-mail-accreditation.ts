import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TableColumn, TableIndex } from 'typeorm';

/**
 * Every mail of a person is on record (spec §3 Accreditation: mailQueue / mail entries): the queue
 * row names the accreditation and its action, indexed for the person's mail history. A mail also
 * keeps its copy addresses (cc, comma-separated) and the code whose barcode/QR it carries as an
 * inline image (attachCode; the image is drawn at send time, not stored).
 */
export class MailAccreditation1763840000000 implements MigrationInterface {
  name = 'MailAccreditation1763840000000';

  async up(q: QueryRunner): Promise<void> {
    const intType = q.connection.driver.options.type === 'mariadb' ? 'int' : 'integer';
    await q.addColumns('mail_queue', [
      new TableColumn({ name: 'accreditationId', type: intType, isNullable: true }),
      new TableColumn({ name: 'actionId', type: intType, isNullable: true }),
      new TableColumn({ name: 'cc', type: 'varchar', length: '1000', isNullable: true }),
      new TableColumn({ name: 'attachCode', type: 'varchar', length: '64', isNullable: true }),
    ]);
    await q.createIndex(
      'mail_queue',
      new TableIndex({ name: 'IDX_mail_queue_accreditationId', columnNames: ['accreditationId', 'id'] }),
    );
    await q.createIndex('mail_queue', new TableIndex({ name: 'IDX_mail_queue_actionId', columnNames: ['actionId'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('mail_queue', 'IDX_mail_queue_actionId');
    await q.dropIndex('mail_queue', 'IDX_mail_queue_accreditationId');
    await q.dropColumn('mail_queue', 'attachCode');
    await q.dropColumn('mail_queue', 'cc');
    await q.dropColumn('mail_queue', 'actionId');
    await q.dropColumn('mail_queue', 'accreditationId');
  }
}
