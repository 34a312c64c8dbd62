import { type MigrationInterface, type QueryRunner, Table, TableColumn } from 'typeorm';
import { columns } from './columns.js';

/**
 * Mails in the person's language (issue 15):
 * - `accreditation.language` (varchar 2, default cs): the language the person registered in, which
 *   every mail to them is written in; the people already there get cs, the fallback.
 * - `mail_template_translation`: a mail template's subject line and body in another language of the
 *   subject (sk, en, de), one row per language, bounded like the template's own columns
 *   (subject 500 characters, body a TEXT of 65,535 bytes). The Czech text stays in
 *   `mail_template.subjectFrom` / `html`, required and the fallback. A row goes with its template.
 *
 * On SQLite the accreditation's column is added with ALTER TABLE … ADD COLUMN (TypeORM's addColumn
 * rebuilds the table and would drop the change-feed triggers; see 1764100200000-badge-version).
 */
export class MailLanguage1764103000000 implements MigrationInterface {
  name = 'MailLanguage1764103000000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    if (q.connection.driver.options.type === 'mariadb')
      await q.addColumn('accreditation', new TableColumn(c.varchar('language', 2, { default: "'cs'" })));
    else await q.query(`ALTER TABLE "accreditation" ADD COLUMN "language" varchar(2) NOT NULL DEFAULT ('cs')`);
    await q.createTable(
      new Table({
        name: 'mail_template_translation',
        columns: [
          { ...c.int('mailTemplateId'), isPrimary: true },
          c.varchar('language', 2, { isPrimary: true }),
          c.varchar('subjectFrom', 500),
          c.text('html'),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('mail_template_translation');
    if (q.connection.driver.options.type === 'mariadb') await q.dropColumn('accreditation', 'language');
    else await q.query('ALTER TABLE "accreditation" DROP COLUMN "language"');
  }
}
