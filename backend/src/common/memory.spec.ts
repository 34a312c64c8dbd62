import { setImmediate as turn } from 'node:timers/promises';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { COLLECT_AFTER_ROWS, collectAfter, collectGarbage } from './memory.js';

describe('collectGarbage (issue 16: memory returned after a big import)', () => {
  it('collects unreachable objects now, without --expose-gc', async () => {
    let big: number[] | null = Array.from({ length: 100_000 }, (_, i) => i);
    const ref = new WeakRef(big);
    big = null;
    // a WeakRef's target stays alive until the job that made it ends
    await turn();
    expect(collectGarbage()).toBe(true);
    expect(ref.deref()).toBeUndefined();
  });

  it('leaves no gc() in contexts made afterwards', () => {
    collectGarbage();
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });

  it('follows only work big enough to leave much behind', async () => {
    expect(collectAfter(COLLECT_AFTER_ROWS - 1)).toBe(false);
    let big: string[] | null = Array.from({ length: 50_000 }, (_, i) => `row ${i}`);
    const ref = new WeakRef(big);
    big = null;
    await turn();
    expect(collectAfter(COLLECT_AFTER_ROWS)).toBe(true);
    await turn();
    await turn();
    expect(ref.deref()).toBeUndefined();
  });
});
