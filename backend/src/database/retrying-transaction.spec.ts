import type { DataSource, EntityManager } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { retryingTransaction, TRANSACTION_ATTEMPTS } from './core-runner.js';

/** A data source whose transactions fail with these errors, one per attempt, then run the work. */
function failing(...errors: string[]) {
  let attempts = 0;
  const ds = {
    transaction: async <T>(work: (m: EntityManager) => Promise<T>) => {
      const error = errors[attempts++];
      if (error) throw new Error(error);
      return work({} as EntityManager);
    },
  } as unknown as DataSource;
  return { ds, attempts: () => attempts };
}

describe('retryingTransaction (core-runner.ts)', () => {
  it("runs a deadlock's or a lock wait's victim again, from the start, a bounded number of times", async () => {
    const once = failing('Deadlock found when trying to get lock; try restarting transaction');
    expect(await retryingTransaction(once.ds, async () => 'done')).toBe('done');
    expect(once.attempts()).toBe(2);
    const waits = failing('Lock wait timeout exceeded; try restarting transaction', 'Deadlock found');
    expect(await retryingTransaction(waits.ds, async () => 7)).toBe(7);
    expect(waits.attempts()).toBe(3);
    const always = failing(...Array.from({ length: 10 }, () => 'Deadlock found when trying to get lock'));
    await expect(retryingTransaction(always.ds, async () => 1)).rejects.toThrow(/Deadlock/);
    expect(always.attempts()).toBe(TRANSACTION_ATTEMPTS);
  });

  it('gives any other error back at once', async () => {
    const other = failing("Duplicate entry 'a@example.com' for key 'IDX_email'");
    await expect(retryingTransaction(other.ds, async () => 1)).rejects.toThrow(/Duplicate/);
    expect(other.attempts()).toBe(1);
  });
});
