import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TableColumn } from 'typeorm';

/**
 * One lower-cased search text per accreditation (names, e-mail, code): the list's text filter is
 * then one LIKE over one column instead of four, and matches Czech capitals the same as small
 * letters on both databases (SQLite's LIKE folds ASCII only).
 */
export class AccreditationSearch1763810000000 implements MigrationInterface {
  name = 'AccreditationSearch1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn(
      'accreditation',
      new TableColumn({ name: 'search', type: 'varchar', length: '800', default: "''" }),
    );
    const concat =
      q.connection.driver.options.type === 'mariadb'
        ? "LOWER(CONCAT_WS(' ', firstname, lastname, email, bc))"
        : "LOWER(firstname || ' ' || lastname || ' ' || email || ' ' || bc)";
    await q.query(`UPDATE accreditation SET search = ${concat}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('accreditation', 'search');
  }
}
