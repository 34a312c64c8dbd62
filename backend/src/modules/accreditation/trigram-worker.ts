import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type MysqlConnection, myQuery, myText, mysqlConnection, mysqlPool } from '../../database/mysql-driver.js';

/** How often an instance looks for people not indexed yet (one `LIMIT 1` read of an empty table). */
const POLL_MS = 250;
/** People indexed per transaction (~40 rows each for the text, more for user-field values). */
const BATCH = 200;
/** After failed drains the next poll waits longer, doubling from POLL_MS up to this. */
const BACKOFF_MAX_MS = 60_000;

/**
 * The batch's trigram rows (`marks`: a placeholder per person): what the triggers of 1764108100000
 * wrote, each distinct trigram of the text and of each user-field value, of the person's current
 * row.
 * - In the primary key's order (action, trigram, person), so that the batch's rows of one trigram
 *   go into its leaf one after another (200 people into the 42-million-row table of a million:
 *   70-99 ms against 80-118 in the people's order, six pairs by hand, 2026-12-07).
 * - The batch's people by their primary key, then their positions (`STRAIGHT_JOIN`: a range of
 *   `trigram_position` per row). Left to itself, MariaDB joined the values of a small event the
 *   other way round: every position against every value of the table through a join buffer,
 *   CHAR_LENGTH computed for each pair, 20 ms a batch of 200 against 3 ms (ANALYZE at 4,000
 *   values; from about 12,000 on it chose the range itself), ~8 % of MariaDB's CPU in the first
 *   seconds of a registration rush (perf, bench/online-registration.mjs).
 */
export const TRIGRAM_WRITES: readonly { insert: string; select: (marks: string) => string }[] = [
  {
    insert: 'INSERT IGNORE INTO accreditation_trigram (actionId, accreditationId, trigram)',
    select: (marks) =>
      `SELECT a.actionId, a.id, SUBSTRING(a.search, p.n, 3) FROM accreditation a FORCE INDEX (PRIMARY) STRAIGHT_JOIN trigram_position p ON p.n <= CHAR_LENGTH(a.search) - 2 WHERE a.id IN (${marks}) ORDER BY 1, 3, 2`,
  },
  {
    insert: 'INSERT IGNORE INTO accreditation_value_trigram (actionId, fieldId, accreditationId, trigram)',
    select: (marks) =>
      `SELECT v.actionId, v.fieldId, v.accreditationId, SUBSTRING(v.value, p.n, 3) FROM accreditation_value v FORCE INDEX (PRIMARY) STRAIGHT_JOIN trigram_position p ON p.n <= CHAR_LENGTH(v.value) - 2 WHERE v.accreditationId IN (${marks}) ORDER BY 1, 2, 4, 3`,
  },
];

/**
 * MariaDB: writes the trigram rows (migration 1764108100000) of the people inserted since, listed in
 * `trigram_pending` by the insert triggers (migration 1764300000001), outside the transactions that
 * inserted them (issue 16: ~40 rows per person made each registration and import row several times
 * dearer, under the action's lock). Every instance runs one; `FOR UPDATE SKIP LOCKED` gives the
 * instances disjoint batches and skips the rows of transactions still open. A batch's rows are
 * written and its pending rows removed in one transaction, so a search (which reads both, see
 * `AccreditationService.trigramIds`) sees every person in one of them. SQLite: nothing to do.
 */
@Injectable()
export class TrigramWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TrigramWorker');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;
  private polling = false;
  /** failed drains in a row (a deadlock does not count: its batch is simply taken again) */
  private failures = 0;

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  onApplicationBootstrap(): void {
    if (this.ds.options.type !== 'mariadb') return;
    this.polling = true;
    this.schedule();
  }

  /** The wait before the next poll: POLL_MS, doubled for each failed drain in a row, at most a minute. */
  get nextPollMs(): number {
    return Math.min(BACKOFF_MAX_MS, POLL_MS * 2 ** Math.min(this.failures, 16));
  }

  private schedule(): void {
    if (this.stopped || !this.polling) return;
    this.timer = setTimeout(() => void this.drain().finally(() => this.schedule()), this.nextPollMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.stopPolling();
    await this.running;
  }

  /** No more drains by the timer (`drain()` still works: the specs drain when they choose). */
  stopPolling(): void {
    this.polling = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Indexes the pending people (one drain at a time per instance); how many it indexed. */
  drain(): Promise<number> {
    if (this.ds.options.type !== 'mariadb') return Promise.resolve(0);
    this.running ??= this.drainAll()
      .then((n) => {
        if (this.failures)
          this.logger.log(`Indexing new people for search works again after ${this.failures} failure(s)`);
        this.failures = 0;
        return n;
      })
      .catch((err) => {
        // a deadlock with an admin's edit of the same person: the next poll takes the batch again;
        // anything else waits longer each time (the people stay pending: searches stay exact) and
        // is logged once per streak, not at every poll
        if ((err as { errno?: number }).errno !== 1213) {
          if (!this.failures)
            this.logger.warn(`Indexing new people for search failed (retried with back-off): ${String(err)}`);
          this.failures++;
        }
        return 0;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async drainAll(): Promise<number> {
    let total = 0;
    while (!this.stopped && this.ds.isInitialized) {
      const [any] = await this.ds.query('SELECT 1 AS n FROM trigram_pending LIMIT 1');
      if (!any) break;
      const n = await this.batch();
      total += n;
      if (n < BATCH) break;
    }
    return total;
  }

  private async batch(): Promise<number> {
    const conn: MysqlConnection = await mysqlConnection(mysqlPool(this.ds, 'trigram worker'));
    let open = false;
    try {
      await myQuery(conn, 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
      await myQuery(conn, 'START TRANSACTION');
      open = true;
      const pending = (await myText(
        conn,
        `SELECT actionId, accreditationId FROM trigram_pending LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
        [],
      )) as { actionId: number; accreditationId: number }[];
      if (pending.length) {
        const ids = pending.map((r) => Number(r.accreditationId));
        const marks = ids.map(() => '?').join(', ');
        for (const { insert, select } of TRIGRAM_WRITES) await myText(conn, `${insert} ${select(marks)}`, ids);
        await myText(
          conn,
          `DELETE FROM trigram_pending WHERE (actionId, accreditationId) IN (${pending.map(() => '(?, ?)').join(', ')})`,
          pending.flatMap((r) => [r.actionId, r.accreditationId]),
        );
      }
      await myQuery(conn, 'COMMIT');
      open = false;
      return pending.length;
    } catch (error) {
      if (open) await myQuery(conn, 'ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      conn.release();
    }
  }
}
