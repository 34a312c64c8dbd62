import { foldSearch } from '@accredo/domain';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The accreditation's `search` text is folded (lower case, no diacritics: see foldSearch), so a
 * search for "novak" finds "Novák" on SQLite as it already did on MariaDB (issue 15). Existing rows
 * are folded in batches by id; a row already folded is left alone.
 */
export class SearchFold1764100500000 implements MigrationInterface {
  name = 'SearchFold1764100500000';

  async up(q: QueryRunner): Promise<void> {
    let after = 0;
    for (;;) {
      const rows: { id: number; search: string }[] = await q.query(
        'SELECT id, search FROM accreditation WHERE id > ? ORDER BY id LIMIT 1000',
        [after],
      );
      if (!rows.length) break;
      for (const row of rows) {
        const folded = foldSearch(row.search ?? '');
        if (folded !== row.search) await q.query('UPDATE accreditation SET search = ? WHERE id = ?', [folded, row.id]);
      }
      after = Number(rows[rows.length - 1].id);
    }
  }

  async down(): Promise<void> {
    // Folded texts still find everything they found before on MariaDB; nothing to undo.
  }
}
