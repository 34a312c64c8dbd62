import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, LessThanOrEqual, MoreThan, type Repository } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { RateLimitEntity } from './rate-limit.entity.js';

/** At most `max` counted attempts per key in a fixed window of `windowMs`. */
export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The sign-in policy (docs/architecture.md, "Rate limits"; OWASP ASVS 2.2):
 * - per address: 100 counted attempts in 15 minutes, then refused until the window ends;
 * - per account and address: 5 failures free, then a wait of 1 minute before the next attempt,
 *   doubling with each further failure up to 15 minutes; forgotten after a sign-in or 24 hours
 *   without an attempt;
 * - per account: past 100 failures in an hour (from all addresses), an address has 1 free failure
 *   instead of 5 before its waits start. It never refuses an address that has not failed.
 */
export const SIGN_IN_POLICY = {
  perAddress: { max: 100, windowMs: 15 * MINUTE },
  pair: { free: 5, firstWaitMs: MINUTE, maxWaitMs: 15 * MINUTE, forgetMs: 24 * HOUR },
  account: { ceiling: 100, windowMs: HOUR, freeAbove: 1 },
} as const;

/** Rows untouched for longer than this are purged (longer than any window above). */
const PURGE_AFTER_MS = 25 * HOUR;
const PURGE_EVERY_MS = 10 * MINUTE;
/** Compare-and-set attempts on one throttle row before a request is refused as too many. */
const CAS_TRIES = 8;

/** The wait a pair owes after `failures` failures, with `free` failures free. */
export function pairWaitMs(failures: number, free: number): number {
  if (failures < free) return 0;
  const { firstWaitMs, maxWaitMs } = SIGN_IN_POLICY.pair;
  return Math.min(maxWaitMs, firstWaitMs * 2 ** Math.min(failures - free, 20));
}

/**
 * Keys are stored as the SHA-256 of their namespaced text: a key made of a login or an address
 * (which a proxy header can make as long as it likes) always fits the column.
 */
export const storedKey = (key: string) => createHash('sha256').update(key).digest('hex');

const isDuplicate = (err: unknown) => /unique|duplicate/i.test(String((err as Error)?.message));

const tooMany = (retryAfterMs: number) =>
  new AppError('TOO_MANY_REQUESTS', { retryAfter: Math.max(1, Math.ceil(retryAfterMs / 1000)) });

/** A counted sign-in attempt: tell it the password was right, or leave it counted as a failure. */
export interface SignInAttempt {
  succeeded(): Promise<void>;
}

/**
 * Attempt counters in the database (`rate_limit`), so every instance behind a load balancer shares
 * them. An attempt is counted before the password is checked, each counter by one atomic
 * statement (or a compare-and-set), so requests sent at once cannot all pass a check that reads
 * the count first. No path retries without a bound.
 */
@Injectable()
export class RateLimitService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private timer?: NodeJS.Timeout;

  constructor(@InjectRepository(RateLimitEntity) private readonly repo: Repository<RateLimitEntity>) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.purge().catch((err) => this.logger.warn(`Purging old rate-limit rows failed: ${String(err)}`));
    }, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Deletes the counters of windows long over. */
  async purge(now = Date.now()): Promise<void> {
    await this.repo.delete({ windowStart: LessThan(new Date(now - PURGE_AFTER_MS)) });
  }

  /**
   * Counts a sign-in attempt of `account` (already normalised) from `ip` in `scope` before its
   * password is checked; refuses it with TOO_MANY_REQUESTS (and retry-after) under the policy.
   */
  async signIn(scope: string, account: string, ip: string): Promise<SignInAttempt> {
    const keys = {
      address: storedKey(`${scope}:ip:${ip}`),
      account: storedKey(`${scope}:account:${account}`),
      pair: storedKey(`${scope}:pair:${account}\n${ip}`),
    };
    const { perAddress, pair, account: acc } = SIGN_IN_POLICY;
    await this.take(keys.address, perAddress.max, perAddress.windowMs);
    const taken = [keys.address];
    try {
      await this.take(keys.account, Number.MAX_SAFE_INTEGER, acc.windowMs);
      taken.push(keys.account);
      const failures = (await this.repo.findOneBy({ key: keys.account }))?.count ?? 1;
      await this.throttle(keys.pair, failures > acc.ceiling ? acc.freeAbove : pair.free);
    } catch (err) {
      await this.refund(taken);
      throw err;
    }
    return {
      succeeded: async () => {
        await this.repo.update({ key: keys.pair, count: MoreThan(0) }, { count: 0 });
        await this.refund([keys.address, keys.account]);
      },
    };
  }

  /** Counts one attempt against each limit at once, or refuses (and counts none) if one is reached. */
  async consume(limits: Limit[]): Promise<void> {
    const taken: string[] = [];
    try {
      for (const limit of limits) {
        const key = storedKey(limit.key);
        await this.take(key, limit.max, limit.windowMs);
        taken.push(key);
      }
    } catch (err) {
      await this.refund(taken);
      throw err;
    }
  }

  async clear(keys: string[]): Promise<void> {
    for (const key of keys) await this.repo.delete({ key: storedKey(key) });
  }

  // ---- counters ----

  /**
   * One more attempt in a fixed window, if fewer than `max` were counted: an atomic conditional
   * increment, or the reset of an expired window, or a new row. A lost insert race goes round once
   * more; then the key is full (refused) or the error is real (thrown).
   */
  private async take(key: string, max: number, windowMs: number): Promise<void> {
    const countCol = this.repo.manager.connection.driver.escape('count');
    for (let round = 0; round < 2; round++) {
      const now = new Date();
      const open = new Date(now.getTime() - windowMs);
      const inWindow = { key, windowStart: MoreThan(open) };
      const inc = await this.repo
        .createQueryBuilder()
        .update()
        .set({ count: () => `${countCol} + 1` })
        .where(inWindow)
        .andWhere(`${countCol} < :max`, { max })
        .execute();
      if (inc.affected) return;
      const reset = await this.repo.update({ key, windowStart: LessThanOrEqual(open) }, { count: 1, windowStart: now });
      if (reset.affected) return;
      const row = await this.repo.findOneBy({ key });
      if (row) {
        if (row.windowStart > open && row.count >= max)
          throw tooMany(row.windowStart.getTime() + windowMs - now.getTime());
        continue; // changed between the statements: once more
      }
      try {
        await this.repo.insert({ key, count: 1, windowStart: now });
        return;
      } catch (err) {
        if (!isDuplicate(err)) throw err;
      }
    }
    throw tooMany(1000);
  }

  /**
   * The growing waits of one account and address: `count` is its failures, `windowStart` the time
   * of its last attempt. An attempt is let through only when the wait its failures owe has passed,
   * and is counted by a compare-and-set on the row it read.
   */
  private async throttle(key: string, free: number): Promise<void> {
    for (let i = 0; i < CAS_TRIES; i++) {
      const now = new Date();
      const row = await this.repo.findOneBy({ key });
      if (!row) {
        try {
          await this.repo.insert({ key, count: 1, windowStart: now });
          return;
        } catch (err) {
          if (!isDuplicate(err)) throw err;
          continue;
        }
      }
      const last = row.windowStart.getTime();
      const failures = now.getTime() - last > SIGN_IN_POLICY.pair.forgetMs ? 0 : row.count;
      const wait = pairWaitMs(failures, free);
      if (now.getTime() < last + wait) throw tooMany(last + wait - now.getTime());
      const set = await this.repo.update(
        { key, count: row.count, windowStart: row.windowStart },
        { count: failures + 1, windowStart: now },
      );
      if (set.affected) return;
    }
    throw tooMany(1000); // lost every race: many attempts of this pair at once
  }

  /** Takes back one counted attempt of each key (a sign-in that succeeded, or one refused later). */
  private async refund(keys: string[]): Promise<void> {
    if (!keys.length) return;
    const countCol = this.repo.manager.connection.driver.escape('count');
    await this.repo
      .createQueryBuilder()
      .update()
      .set({ count: () => `${countCol} - 1` })
      .where({ key: In(keys) })
      .andWhere(`${countCol} > 0`)
      .execute();
  }
}
