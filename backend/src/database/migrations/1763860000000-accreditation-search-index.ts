import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TableColumn, TableIndex } from 'typeorm';

/**
 * The list's text filter reads one covering index (subject, action, search text) instead of whole
 * rows: a `LIKE '%…%'` still looks at every entry of the action, but the entries are a tenth of a
 * row's size. InnoDB keys hold at most 3072 bytes, so the text is 760 characters (4 bytes each)
 * instead of 800; searchText() cuts it to the same length. The same for the user-field filter.
 */
export class AccreditationSearchIndex1763860000000 implements MigrationInterface {
  name = 'AccreditationSearchIndex1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.changeColumn(
      'accreditation',
      'search',
      new TableColumn({ name: 'search', type: 'varchar', length: '760', default: "''" }),
    );
    await q.createIndex(
      'accreditation',
      new TableIndex({ name: 'IDX_accreditation_search', columnNames: ['subjectId', 'actionId', 'search'] }),
    );
    // The user-field filter's subquery reads (field, value) and the key behind it, from the index alone.
    await q.dropIndex('accreditation_value', 'IDX_accreditation_value_field');
    await q.createIndex(
      'accreditation_value',
      new TableIndex({ name: 'IDX_accreditation_value_field', columnNames: ['fieldId', 'value'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('accreditation_value', 'IDX_accreditation_value_field');
    await q.createIndex(
      'accreditation_value',
      new TableIndex({ name: 'IDX_accreditation_value_field', columnNames: ['fieldId'] }),
    );
    await q.dropIndex('accreditation', 'IDX_accreditation_search');
    await q.changeColumn(
      'accreditation',
      'search',
      new TableColumn({ name: 'search', type: 'varchar', length: '800', default: "''" }),
    );
  }
}
