import { afterEach, describe, expect, it, vi } from 'vitest';
import { MARK_EVERY, MARKS_KEEP_MS, MARKS_KEPT, WalkMarks, type WalkReader, type WalkToken } from './walk-marks.js';

/** A walk over ids n..1 newest first, with the entries each read skips. */
function walkOf(n: number) {
  const skipped: number[] = [];
  const reader: WalkReader = {
    ids: async (from, skip, take) => {
      skipped.push(skip);
      const top = Math.min(from ?? n, n);
      return Array.from({ length: Math.max(0, Math.min(take, top - skip)) }, (_, i) => top - skip - i);
    },
    countFrom: async (from, upTo = Number.POSITIVE_INFINITY) => Math.min(from ?? n, upTo),
  };
  return { reader, skipped };
}

const token = (value: () => string, settled = true): WalkToken => ({
  current: async () => value(),
  settled: async () => settled,
});

describe('marks of a walk (walk-marks.ts, issue 16)', () => {
  afterEach(() => vi.useRealTimers());

  it('walks to a page once, then from the nearest mark; the exact count marks every MARK_EVERY', async () => {
    const marks = new WalkMarks();
    const n = 5 * MARK_EVERY + 17;
    const { reader, skipped } = walkOf(n);
    const page = (offset: number, exact = false, countTo = 0) =>
      marks.page(
        'k',
        token(() => 't'),
        reader,
        offset,
        10,
        exact,
        countTo,
      );
    const deep = 3 * MARK_EVERY + 5;
    const first = await page(deep);
    expect(first?.ids).toEqual(Array.from({ length: 10 }, (_, i) => n - deep - i));
    expect(first).toMatchObject({ total: undefined, atLeast: deep + 1 });
    expect(skipped).toEqual([deep]); // one read, as without marks
    skipped.length = 0;
    expect((await page(deep + 25))?.ids[0]).toBe(n - deep - 25);
    expect(skipped).toEqual([25]); // from the page's mark
    // the count up to a number: one read from the nearest mark
    skipped.length = 0;
    expect(await page(0, false, 4 * MARK_EVERY)).toMatchObject({ atLeast: 4 * MARK_EVERY });
    expect(skipped).toEqual([0, 4 * MARK_EVERY - 1 - (deep + 25)]);
    // the exact count walks on from the deepest mark, a mark every MARK_EVERY, to the end
    skipped.length = 0;
    const exact = await page(2 * MARK_EVERY, true);
    expect(exact?.total).toBe(n);
    expect(exact?.ids[0]).toBe(n - 2 * MARK_EVERY);
    skipped.length = 0;
    expect(await page(n + 3)).toEqual({ ids: [], total: n, atLeast: n });
    expect((await page(n - 4))?.ids).toEqual([4, 3, 2, 1]);
    expect((await page(5 * MARK_EVERY - 3))?.ids[0]).toBe(n - 5 * MARK_EVERY + 3);
    expect(Math.max(...skipped)).toBeLessThan(MARK_EVERY);
    // fewer than the count asked: counted to the end; a page short of its size is the end (an
    // empty page 1 too), read once
    const small = walkOf(30);
    const alone = (walk: ReturnType<typeof walkOf>, offset: number) =>
      new WalkMarks().page(
        's',
        token(() => 't'),
        walk.reader,
        offset,
        10,
        false,
        100,
      );
    expect(await alone(small, 0)).toEqual({ ids: [30, 29, 28, 27, 26, 25, 24, 23, 22, 21], total: 30, atLeast: 30 });
    small.skipped.length = 0;
    expect(await alone(small, 25)).toEqual({ ids: [5, 4, 3, 2, 1], total: 30, atLeast: 30 });
    const none = walkOf(0);
    expect(await alone(none, 0)).toEqual({ ids: [], total: 0, atLeast: 0 });
    expect([small.skipped, none.skipped]).toEqual([[25], [0]]);
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
    expect(skipped).toEqual([2 * MARK_EVERY]); // walked to the page again
    // the token moves between the reads before and after the walk: nothing kept
    let reads = 0;
    const moving: WalkToken = { current: async () => String(reads++), settled: async () => true };
    await marks.page('m', moving, reader, 2 * MARK_EVERY, 10, false);
    skipped.length = 0;
    reads = 0;
    await marks.page('m', moving, reader, 2 * MARK_EVERY, 10, false);
    expect(skipped).toEqual([2 * MARK_EVERY]);
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
    expect(skipped).toEqual([0]);
    await deep('k0'); // the least recently used went first
    expect(skipped.slice(1)).toEqual([MARK_EVERY + 1]);
    skipped.length = 0;
    vi.advanceTimersByTime(MARKS_KEEP_MS);
    await deep('k0');
    expect(skipped).toEqual([MARK_EVERY + 1]);
  });
});
