import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { analyzeIfKept } from './sqlite-stats.js';

const INDEX = 'IDX_accreditation_value_person';
const COLUMNS = ['fieldId', 'actionId', 'accreditationId', 'value'];

/**
 * A deep page of a user field's broad "contains" at a million people (issue 16,
 * bench/accreditation-list.mjs "filter by user field (broad), random page"): the list walked every
 * person newest first and probed each one's value (on SQLite two seeks: the key, then the row).
 * `IDX_accreditation_value_person` (field, action, person, value) holds a field's values in person
 * order with the value beside them, so the page is read from the values alone, newest person first,
 * each checked in the index (AccreditationService.filtered, "the field's values alone").
 * `IDX_accreditation_value_field` (field, action, value) stays for a value sought exactly (a
 * checkbox) and the count. The key stays under InnoDB's 3,072 bytes (500 characters of 4 bytes and
 * three integers: 2,012).
 */
export class ValuePersonIndex1764900000002 implements MigrationInterface {
  name = 'ValuePersonIndex1764900000002';

  // TypeORM's createIndex / dropIndex are plain CREATE / DROP INDEX on both databases (no table
  // rebuilt, whose triggers SQLite would drop)
  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('accreditation_value', new TableIndex({ name: INDEX, columnNames: COLUMNS }));
    await analyzeIfKept(q, INDEX);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('accreditation_value', INDEX);
  }
}
