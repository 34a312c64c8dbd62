import type { MigrationInterface, QueryRunner } from 'typeorm';
import { analyzeIfKept } from './1764900000001-search-by-id.js';

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

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb') {
      await q.query(
        'CREATE INDEX `IDX_accreditation_value_person` ON `accreditation_value` (`fieldId`, `actionId`, `accreditationId`, `value`)',
      );
    } else {
      await q.query(
        'CREATE INDEX "IDX_accreditation_value_person" ON "accreditation_value" ("fieldId", "actionId", "accreditationId", "value")',
      );
      await analyzeIfKept(q, 'IDX_accreditation_value_person');
    }
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb')
      await q.query('DROP INDEX `IDX_accreditation_value_person` ON `accreditation_value`');
    else await q.query('DROP INDEX "IDX_accreditation_value_person"');
  }
}
