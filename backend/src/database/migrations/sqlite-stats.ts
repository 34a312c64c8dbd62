import type { QueryRunner } from 'typeorm';

/**
 * SQLite: a new index's statistics, where the database keeps statistics (`sqlite_stat1`, from an
 * ANALYZE; the server never writes them): with every other index's statistics and none for the new
 * one, the planner guesses it small (a text and a group at a million: 38 -> 540-800 ms until it was
 * analyzed). A migration that adds an index calls this after creating it.
 */
export async function analyzeIfKept(q: QueryRunner, index: string): Promise<void> {
  if (q.connection.driver.options.type === 'mariadb') return;
  const [stats] = await q.query(
    "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'",
  );
  if (Number(stats.n)) await q.query(`ANALYZE "${index}"`);
}
