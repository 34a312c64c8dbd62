import { afterEach, describe, expect, it, vi } from 'vitest';
import { MARK_EVERY, MARKS_KEEP_MS, MARKS_KEPT, WalkMarks, type WalkReader, type WalkToken } from './walk-marks.js';

/** A walk over ids n..1 newest first, counting the entries each read skips. */
function walkOf(n: number) {
  const skipped: number[] = [];
  const reader: WalkReader = {
    ids: async (from, skip, take) => {
      skipped.push(skip);
      const top = Math.min(from ?? n, n);
      return Array.from({ length: Math.max(0, Math.min(take, top - skip)) }, (_, i) => top - skip - i);
    },
    countFrom: async (from, upTo) => Math.min(from, upTo),
  };
  return { reader, skipped };
}

const token = (value: () => string, settled = true): WalkToken => ({
  current: async () => value(),
  settled: async () => settled,
});

describe('marks of a walk (walk-marks.ts, issue 16)', () => {
  afterEach(() => vi.useRealTimers());

  it('reads a deep page and the exact count once, then from the nearest mark', async () => {
    const marks = new WalkMarks();
    const n = 5 * MARK_EVERY + 17;
    const { reader, skipped } = walkOf(n);
    const first = await marks.page(
      'k',
      token(() => 't'),
      reader,
      3 * MARK_EVERY + 5,
      10,
      false,
    );
    expect(first?.ids).toEqual(Array.from({ length: 10 }, (_, i) => n - 3 * MARK_EVERY - 5 - i));
    expect(first?.total).toBeUndefined();
    expect(first?.atLeast).toBe(3 * MARK_EVERY + 1);
    skipped.length = 0;
    const exact = await marks.page(
      'k',
      token(() => 't'),
      reader,
      2 * MARK_EVERY,
      10,
      true,
    );
    expect(exact?.total).toBe(n);
    expect(exact?.ids[0]).toBe(n - 2 * MARK_EVERY);
    skipped.length = 0;
    const past = await marks.page(
      'k',
      token(() => 't'),
      reader,
      n + 3,
      10,
      false,
    );
    expect(past).toEqual({ ids: [], total: n, atLeast: n });
    const last = await marks.page(
      'k',
      token(() => 't'),
      reader,
      n - 4,
      10,
      false,
    );
    expect(last?.ids).toEqual([4, 3, 2, 1]);
    expect(Math.max(...skipped)).toBeLessThan(MARK_EVERY);
  });

  it('walks again when the token moves, keeps nothing when it moved during the walk, and none unsettled', async () => {
    const marks = new WalkMarks();
    const { reader, skipped } = walkOf(3 * MARK_EVERY);
    let value = 'a';
    const page = () =>
      marks.page(
        'k',
        token(() => value),
        reader,
        2 * MARK_EVERY,
        10,
        false,
      );
    await page();
    value = 'b';
    skipped.length = 0;
    await page();
    expect(skipped.filter((s) => s === MARK_EVERY)).toHaveLength(2); // walked to the page again
    // the token moves between the reads before and after the walk: nothing kept
    let reads = 0;
    const moving: WalkToken = { current: async () => String(reads++), settled: async () => true };
    await marks.page('m', moving, reader, 2 * MARK_EVERY, 10, false);
    skipped.length = 0;
    reads = 0;
    await marks.page('m', moving, reader, 2 * MARK_EVERY, 10, false);
    expect(skipped.filter((s) => s === MARK_EVERY)).toHaveLength(2);
    // a new walk while a change may be in flight: the caller walks as before
    expect(
      await marks.page(
        'u',
        token(() => 'x', false),
        reader,
        2 * MARK_EVERY,
        10,
        false,
      ),
    ).toBeNull();
  });

  it('keeps at most MARKS_KEPT walks, for MARKS_KEEP_MS', async () => {
    vi.useFakeTimers();
    const marks = new WalkMarks();
    const { reader, skipped } = walkOf(2 * MARK_EVERY);
    const deep = (key: string) =>
      marks.page(
        key,
        token(() => 't'),
        reader,
        MARK_EVERY + 1,
        1,
        false,
      );
    for (let i = 0; i <= MARKS_KEPT; i++) await deep(`k${i}`);
    skipped.length = 0;
    await deep(`k${MARKS_KEPT}`); // kept
    expect(skipped).toEqual([1]);
    await deep('k0'); // the least recently used went first
    expect(skipped.slice(1)).toEqual([0, MARK_EVERY, 1]);
    skipped.length = 0;
    vi.advanceTimersByTime(MARKS_KEEP_MS);
    await deep('k0');
    expect(skipped).toEqual([0, MARK_EVERY, 1]);
  });
});
