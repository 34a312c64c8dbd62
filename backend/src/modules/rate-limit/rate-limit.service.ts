import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, type Repository } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { RateLimitEntity } from './rate-limit.entity.js';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

/**
 * Counts failures per key (an account, an address) in fixed windows. `assertAllowed` refuses with
 * TOO_MANY_REQUESTS once a key has reached its limit in the current window.
 */
@Injectable()
export class RateLimitService {
  constructor(@InjectRepository(RateLimitEntity) private readonly repo: Repository<RateLimitEntity>) {}

  async assertAllowed(limits: Limit[]): Promise<void> {
    const now = Date.now();
    for (const limit of limits) {
      const row = await this.repo.findOneBy({ key: limit.key });
      if (row && now - row.windowStart.getTime() < limit.windowMs && row.count >= limit.max) {
        const retryAfter = Math.ceil((row.windowStart.getTime() + limit.windowMs - now) / 1000);
        throw new AppError('TOO_MANY_REQUESTS', { retryAfter });
      }
    }
  }

  async recordFailure(limits: Limit[]): Promise<void> {
    const now = new Date();
    for (const limit of limits) {
      const windowOpen = new Date(now.getTime() - limit.windowMs);
      // Atomic: an increment inside the window, or a reset of an expired window, or a new row.
      const count = this.repo.manager.connection.driver.escape('count');
      const inc = await this.repo.update(
        { key: limit.key, windowStart: MoreThan(windowOpen) },
        { count: () => `${count} + 1` },
      );
      if (inc.affected) continue;
      const reset = await this.repo.update(
        { key: limit.key, windowStart: LessThan(windowOpen) },
        { count: 1, windowStart: now },
      );
      if (reset.affected) continue;
      await this.repo.insert({ key: limit.key, count: 1, windowStart: now }).catch(() => this.recordFailure([limit]));
    }
  }

  async clear(keys: string[]): Promise<void> {
    for (const key of keys) await this.repo.delete({ key });
  }
}
