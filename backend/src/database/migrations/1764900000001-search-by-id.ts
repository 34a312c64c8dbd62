import type { MigrationInterface, QueryRunner } from 'typeorm';
import { analyzeIfKept } from './sqlite-stats.js';

/**
 * A deep page of a broad text search at a million people (issue 16, bench/accreditation-list.mjs
 * "filter by text (broad), random page"): when most people hold the text, the list walks the
 * action's people newest first and checks each one's `search` until it has skipped the page's
 * offset. `IDX_accreditation_search` was (subject, action, search): covering, but in text order,
 * so the walk in id order went through `IDX_accreditation_list` and read each person's row for the
 * text (on SQLite 160 ms of a 500,000-deep page's 175, the LIKE itself ~10). Now it is (subject,
 * action, id, search): the same entries in id order, so the walk reads the index alone (on SQLite
 * 160 -> 50 ms for that page). Nothing needed the text order: the text is matched with
 * `LIKE '%…%'`, never by a prefix. The key stays under InnoDB's 3,072 bytes (760 characters of 4
 * bytes and three integers: 3,052). One index replaced by another of the same entries: no write
 * costs more. On SQLite a database that has statistics (`sqlite_stat1`, from an ANALYZE) gets the
 * new index's too: without them the planner took the index, now covering and in id order, for
 * the person's side of a query driven by a group's links, and sorted a million rows (a text and a
 * group: 38 -> 800 ms at a million until the index was analyzed; ~0.25 s to analyze it there).
 */
export class SearchById1764900000001 implements MigrationInterface {
  name = 'SearchById1764900000001';

  async up(q: QueryRunner): Promise<void> {
    await this.index(q, ['subjectId', 'actionId', 'id', 'search']);
  }

  async down(q: QueryRunner): Promise<void> {
    await this.index(q, ['subjectId', 'actionId', 'search']);
  }

  private async index(q: QueryRunner, columns: string[]) {
    if (q.connection.driver.options.type === 'mariadb') {
      // one statement: the table is never without an index for the text
      await q.query(
        `ALTER TABLE \`accreditation\` DROP INDEX \`IDX_accreditation_search\`, ADD INDEX \`IDX_accreditation_search\` (${columns.map((c) => `\`${c}\``).join(', ')})`,
      );
    } else {
      // plain DROP / CREATE INDEX: the table is not rebuilt (SQLite would drop its triggers)
      await q.query('DROP INDEX "IDX_accreditation_search"');
      await q.query(
        `CREATE INDEX "IDX_accreditation_search" ON "accreditation" (${columns.map((c) => `"${c}"`).join(', ')})`,
      );
    }
    await analyzeIfKept(q, 'IDX_accreditation_search');
  }
}
