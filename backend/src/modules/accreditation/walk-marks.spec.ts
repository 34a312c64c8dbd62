import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  COUNT_MARK_EVERY,
  MARK_EVERY,
  MARKS_KEEP_MS,
  MARKS_KEPT,
  MEND_CHANGES,
  MEND_SPAN_MAX,
  MEND_SPANS,
  SPLIT_MIN,
  WalkMarks,
  type WalkReader,
  type WalkToken,
} from './walk-marks.js';

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
    countAbove: async (from, above, upTo) => Math.max(0, Math.min(Math.min(from ?? n, n) - above, upTo)),
    matching: async (ids) => ids.filter((id) => id >= 1 && id <= n),
  };
  return { reader, skipped };
}

/** A token over a feed of changed ids (the token: how many there are). */
const feedToken = (feed: number[], settled = () => true): WalkToken => ({
  current: async () => String(feed.length),
  settled: async () => settled(),
  changedSince: async (from, to, limit) => {
    const ids = feed.slice(Number(from), Number(to));
    return ids.length > limit ? null : ids;
  },
});

/** A token that says nothing of what changed (a walk whose token moved is walked again). */
/** How deep reads went in all (each from where the one before left a mark, none past MARK_EVERY). */
function walkedTo(skipped: number[]): number {
  expect(Math.max(...skipped)).toBeLessThanOrEqual(MARK_EVERY);
  return skipped.reduce((a, b) => a + b, 0);
}

const token = (value: () => string, settled = true): WalkToken => ({
  current: async () => value(),
  settled: async () => settled,
  changedSince: async () => null,
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
    expect(walkedTo(skipped)).toBe(deep); // the matches above it read once, as without marks
    skipped.length = 0;
    expect((await page(deep + 25))?.ids[0]).toBe(n - deep - 25);
    expect(skipped).toEqual([25]); // from the page's mark
    // the count up to a number: from the newest, no two marks more than COUNT_MARK_EVERY apart on
    // the way (read where they are not, from one to the next where they are)
    skipped.length = 0;
    expect(await page(0, false, 4 * MARK_EVERY)).toMatchObject({ atLeast: 4 * MARK_EVERY });
    expect(skipped[0]).toBe(0);
    expect(Math.max(...skipped.slice(1))).toBeLessThanOrEqual(COUNT_MARK_EVERY);
    expect(walkedTo(skipped.slice(1))).toBeLessThan(4 * MARK_EVERY);
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

  it.each([
    ['evenly', false],
    ['sparsely at the top', true],
  ])(
    'reads a long walk in two halves at once where reads can run side by side (matches spread %s)',
    async (_, skewed) => {
      // people 1..top, all matching but a stretch of none; skewed, the newest 3 * MARK_EVERY match
      // one in three, so that the ids per match above the first marks put the halfway point too deep
      // (the upper half reaches the page first; the lower's marks are left, read for nothing)
      let top = 40 * MARK_EVERY;
      const matching = new Set<number>();
      for (let id = 1; id <= top; id++)
        if ((skewed && id > top - 3 * MARK_EVERY ? id % 3 === 0 : true) && !(id > 5000 && id <= 9000)) matching.add(id);
      // the matches newest first (sorted again after a change), from the first at or below `from`
      let sorted: number[] | null = null;
      const desc = (from: number | undefined) => {
        sorted ??= [...matching].sort((a, b) => b - a);
        const all = sorted;
        let [lo, hi] = [0, all.length];
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (all[mid] > (from ?? top)) lo = mid + 1;
          else hi = mid;
        }
        return {
          length: all.length - lo,
          slice: (a: number, b: number) => all.slice(lo + a, lo + Math.min(b, all.length - lo)),
        };
      };
      let walked = 0;
      let inFlight = 0;
      let most = 0;
      // each read resolves a turn later, so that reads issued together are in flight together
      const read = async <T>(f: () => T): Promise<T> => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        return f();
      };
      const feed: number[] = [];
      const sequential: WalkReader = {
        ids: (from, skip, take) =>
          read(() => {
            walked += skip + take;
            return desc(from).slice(skip, skip + take);
          }),
        countFrom: (from, upTo = Number.POSITIVE_INFINITY) =>
          read(() => {
            const n = Math.min(desc(from).length, upTo);
            walked += n;
            return n;
          }),
        countAbove: (from, above, upTo) =>
          read(() => {
            const first = desc(from).slice(0, upTo);
            walked += first.length;
            return first.filter((id) => id > above).length;
          }),
        matching: (ids) => read(() => ids.filter((id) => matching.has(id))),
      };
      const split: WalkReader = { ...sequential, span: async () => ({ low: 1, high: top }) };
      const truth = (offset: number) => desc(undefined).slice(offset, offset + 10);
      const walkOnce = async (reader: WalkReader, offsets: number[], exact: boolean) => {
        const marks = new WalkMarks();
        const token = feedToken(feed);
        [walked, most] = [0, 0];
        for (const offset of offsets) {
          const page = await marks.page('k', token, reader, offset, 10, exact);
          expect(page?.ids).toEqual(truth(offset));
          if (exact) expect(page?.total).toBe(matching.size);
        }
        return { marks, token, walked, most };
      };
      // deep pages one after another, each further than SPLIT_MIN below the one before, and the
      // exact count: the same pages, in two reads at once, reading at most a few steps more
      const deep = [2 * SPLIT_MIN + 17, 4 * SPLIT_MIN + 3, 6 * SPLIT_MIN + 900, matching.size - 4];
      for (const [offsets, exact] of [
        [deep, false],
        [[SPLIT_MIN + 5, ...deep], true],
      ] as const) {
        const one = await walkOnce(sequential, [...offsets], exact);
        const two = await walkOnce(split, [...offsets], exact);
        expect(one.most).toBe(1);
        expect(two.most).toBe(2);
        // evenly at most three steps more a split
        // (the upper's step across the halfway point and its count there, the lower's step past its
        // share), skewed at most the lower's share of the first split more
        expect(two.walked).toBeLessThan(one.walked + offsets.length * 3 * MARK_EVERY + (skewed ? SPLIT_MIN * 2 : 0));
        // marks as dense as one walk's: a page anywhere read from a mark less than MARK_EVERY above it
        for (let k = 0; k < 40; k++) {
          const offset = (k * 7919 * 13) % matching.size;
          walked = 0;
          expect((await two.marks.page('k', two.token, split, offset, 10, false))?.ids).toEqual(truth(offset));
          expect(walked).toBeLessThanOrEqual(MARK_EVERY + 10);
        }
        // and mended after changes as one walk's are: a new person, a person leaving, one coming in
        const changes = [++top, 20 * MARK_EVERY, 7000];
        matching.add(changes[0]);
        matching.delete(changes[1]);
        matching.add(changes[2]);
        sorted = null;
        feed.push(...changes);
        for (const offset of [0, 15 * MARK_EVERY, matching.size - 3]) {
          walked = 0;
          const page = await two.marks.page('k', two.token, split, offset, 10, exact);
          expect(page?.ids).toEqual(truth(offset));
          if (exact) expect(page?.total).toBe(matching.size);
          expect(walked).toBeLessThan(3 * MEND_SPAN_MAX);
        }
      }
      // a walk shorter than SPLIT_MIN from its mark is one read at a time
      const short = await walkOnce(split, [SPLIT_MIN - 1], false);
      expect(short.most).toBe(1);
    },
  );

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
    expect(walkedTo(skipped)).toBe(2 * MARK_EVERY); // walked to the page again
    // the token moves between the reads before and after the walk: nothing kept
    let reads = 0;
    const moving: WalkToken = {
      current: async () => String(reads++),
      settled: async () => true,
      changedSince: async () => null,
    };
    await marks.page('m', moving, reader, 2 * MARK_EVERY, 10, false);
    skipped.length = 0;
    reads = 0;
    await marks.page('m', moving, reader, 2 * MARK_EVERY, 10, false);
    expect(walkedTo(skipped)).toBe(2 * MARK_EVERY);
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
    expect(walkedTo(skipped.slice(1))).toBe(MARK_EVERY + 1);
    skipped.length = 0;
    vi.advanceTimersByTime(MARKS_KEEP_MS);
    await deep('k0');
    expect(walkedTo(skipped)).toBe(MARK_EVERY + 1);
  });

  it('mends the marks by what changed: inserts, edits in and out of the filter, deletes, a mark itself', async () => {
    // people 1..top, a seeded fifth of them not matching; the feed as a log of changed ids
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let top = 6 * MARK_EVERY + 321;
    const matching = new Set<number>();
    for (let id = 1; id <= top; id++) if (rnd(5)) matching.add(id);
    const feed: number[] = [];
    let walked = 0; // matches a read went over
    const desc = (from: number | undefined) => [...matching].filter((id) => id <= (from ?? top)).sort((a, b) => b - a);
    const reader: WalkReader = {
      ids: async (from, skip, take) => {
        walked += skip + take;
        return desc(from).slice(skip, skip + take);
      },
      countFrom: async (from, upTo = Number.POSITIVE_INFINITY) => {
        const n = Math.min(desc(from).length, upTo);
        walked += n;
        return n;
      },
      countAbove: async (from, above, upTo) => {
        const first = desc(from).slice(0, upTo);
        walked += first.length;
        return first.filter((id) => id > above).length;
      },
      matching: async (ids) => ids.filter((id) => matching.has(id)),
    };
    let settled = true;
    const token = feedToken(feed, () => settled);
    const marks = new WalkMarks();
    const truth = (offset: number) => desc(undefined).slice(offset, offset + 10);
    const check = async (offset: number, exact: boolean) => {
      const page = await marks.page('k', token, reader, offset, 10, exact);
      expect(page?.ids).toEqual(truth(offset));
      if (exact) expect(page?.total).toBe(matching.size);
      return page;
    };
    const change = (id: number, matches: boolean | null) => {
      if (matches) matching.add(id);
      else matching.delete(id);
      feed.push(id);
    };
    await check(0, true); // marks every MARK_EVERY to the end, and the total
    for (let round = 0; round < 40; round++) {
      const what = rnd(4);
      if (what === 0)
        change(++top, rnd(2) === 0); // a new person, matching or not
      else if (what === 1)
        change(1 + rnd(top), rnd(2) === 0); // an edit, in or out of the filter
      else if (what === 2)
        change(1 + rnd(top), null); // a delete
      else {
        // a mark's own person no longer matches
        const [mark] = desc(undefined).slice(2 * MARK_EVERY, 2 * MARK_EVERY + 1);
        change(mark, false);
      }
      walked = 0;
      const offset = rnd(matching.size);
      await check(offset, round % 2 === 0);
      // one span counted again (and the page from its mark), not the walk from the newest
      expect(walked).toBeLessThan(3 * MARK_EVERY);
      await check(Math.max(0, matching.size - 5), false);
      await check(rnd(matching.size), true);
    }
    // changes in more spans than are mended: the marks above the first span too many still hold
    for (let i = 0; i <= MEND_SPANS; i++) change(top - (i + 1) * MARK_EVERY + 1, false);
    walked = 0;
    await check(MARK_EVERY, false);
    expect(walked).toBeLessThan(MEND_SPANS * MEND_SPAN_MAX);
    await check(matching.size - 3, true);
    // more people changed than are mended: walked again
    for (let i = 0; i <= MEND_CHANGES; i++) change(++top, true);
    walked = 0;
    await check(5 * MARK_EVERY, false);
    expect(walked).toBeGreaterThanOrEqual(5 * MARK_EVERY);
    // a change while another may be in flight: not mended, walked as before by the caller
    change(++top, true);
    settled = false;
    expect(await marks.page('k', token, reader, 5, 10, false)).toBeNull();
  });

  it('drops the marks below a span grown too long to count again, and mends nothing below a walk not read to its end', async () => {
    // people 1..9 * MARK_EVERY, every third one matching
    const people = 9 * MARK_EVERY;
    const matching = new Set(Array.from({ length: people / 3 }, (_, i) => people - 3 * i));
    const feed: number[] = [];
    const skipped: number[] = [];
    const counted: number[] = [];
    const desc = (from: number | undefined) =>
      [...matching].filter((id) => id <= (from ?? Number.POSITIVE_INFINITY)).sort((a, b) => b - a);
    const reader: WalkReader = {
      ids: async (from, skip, take) => {
        skipped.push(skip);
        return desc(from).slice(skip, skip + take);
      },
      countFrom: async () => {
        throw new Error('not counted: the walk was not read to its end');
      },
      countAbove: async (from, above, upTo) => {
        counted.push(upTo);
        return desc(from)
          .slice(0, upTo)
          .filter((id) => id > above).length;
      },
      matching: async (ids) => ids.filter((id) => matching.has(id)),
    };
    const token = feedToken(feed);
    const marks = new WalkMarks();
    const page = async (offset: number) => {
      const got = await marks.page('k', token, reader, offset, 10, false);
      expect(got?.ids).toEqual(desc(undefined).slice(offset, offset + 10));
    };
    await page(2 * MARK_EVERY); // marks MARK_EVERY and 2 * MARK_EVERY deep
    const [upper, lower] = [desc(undefined)[MARK_EVERY], desc(undefined)[2 * MARK_EVERY]];
    // below the deepest mark: nothing to mend, nothing counted
    matching.delete(lower - 30);
    feed.push(lower - 30);
    await page(2 * MARK_EVERY);
    expect(counted).toEqual([]);
    // between the two marks, people who did not match now do, MEND_CHANGES at a time: each read
    // mends by counting the span again, until it is longer than MEND_SPAN_MAX
    const others = Array.from({ length: upper - lower }, (_, i) => upper - 1 - i).filter((id) => !matching.has(id));
    while (desc(upper).filter((id) => id > lower).length <= MEND_SPAN_MAX) {
      for (const id of others.splice(0, MEND_CHANGES)) {
        matching.add(id);
        feed.push(id);
      }
      counted.length = 0;
      await page(5); // (a read that leaves no mark between the two)
      expect(counted).toHaveLength(1); // the span, once
    }
    // a change there now: that span is not counted again, the mark below it is dropped (the
    // page is read from the one above), and everything stays exact
    counted.length = 0;
    matching.add(others[0]);
    feed.push(others[0]);
    await page(2 * MARK_EVERY + MEND_SPAN_MAX);
    expect(counted).toEqual([]);
    await page(MARK_EVERY + 5);
  });

  it('mends a count up to a number near the newest by counting COUNT_MARK_EVERY again, not the whole way', async () => {
    // a pair's walk: page 1 and the count up to COUNT_CAP + 1 (here 3 * MARK_EVERY)
    const matching = Array.from({ length: 5 * MARK_EVERY }, (_, i) => 5 * MARK_EVERY - i);
    const feed: number[] = [];
    let walked = 0;
    const below = (from: number | undefined) => matching.filter((id) => id <= (from ?? Number.POSITIVE_INFINITY));
    const reader: WalkReader = {
      ids: async (from, skip, take) => {
        walked += skip + take;
        return below(from).slice(skip, skip + take);
      },
      countFrom: async (from, upTo = Number.POSITIVE_INFINITY) => Math.min(below(from).length, upTo),
      countAbove: async (from, above, upTo) => {
        const first = below(from).slice(0, upTo);
        walked += first.length;
        return first.filter((id) => id > above).length;
      },
      matching: async (ids) => ids.filter((id) => matching.includes(id)),
    };
    const token = feedToken(feed);
    const marks = new WalkMarks();
    const countTo = 3 * MARK_EVERY;
    const first = async () => marks.page('p', token, reader, 0, 10, false, countTo);
    expect(await first()).toMatchObject({ ids: matching.slice(0, 10), atLeast: countTo });
    // the newest person edited out of the walk, then a new one in it
    for (const change of [
      () => matching.shift() as number,
      () => {
        matching.unshift(5 * MARK_EVERY + 1);
        return matching[0];
      },
    ]) {
      feed.push(change());
      walked = 0;
      const page = await first();
      expect(page?.ids).toEqual(matching.slice(0, 10));
      expect(page?.atLeast).toBeGreaterThanOrEqual(countTo);
      expect(walked).toBeLessThanOrEqual(COUNT_MARK_EVERY + 20);
    }
  });

  it('looks up the changed people where none matched (above the newest mark, a walk that found none)', async () => {
    const matching: number[] = [];
    const feed: number[] = [];
    const reads: string[] = [];
    const below = (from: number | undefined) => matching.filter((id) => id <= (from ?? Number.POSITIVE_INFINITY));
    const reader: WalkReader = {
      ids: async (from, skip, take) => {
        reads.push(`ids ${skip}`);
        return below(from).slice(skip, skip + take);
      },
      countFrom: async (from, upTo = Number.POSITIVE_INFINITY) => {
        reads.push('count');
        return Math.min(below(from).length, upTo);
      },
      countAbove: async () => {
        throw new Error('not counted again');
      },
      matching: async (ids) => {
        reads.push(`matching ${ids.join(',')}`);
        return ids.filter((id) => matching.includes(id));
      },
    };
    const token = feedToken(feed);
    const marks = new WalkMarks();
    const first = () => marks.page('none', token, reader, 0, 10, false, 3 * MARK_EVERY);
    expect(await first()).toEqual({ ids: [], total: 0, atLeast: 0 });
    // two people changed, one of them now in the walk: looked up, not walked to
    matching.push(7);
    feed.push(5, 7);
    reads.length = 0;
    expect(await first()).toEqual({ ids: [7], total: 1, atLeast: 1 });
    expect(reads).toEqual(['matching 5,7', 'ids 0']);
    // a new person above the newest mark
    matching.unshift(9);
    feed.push(9);
    reads.length = 0;
    expect(await first()).toEqual({ ids: [9, 7], total: 2, atLeast: 2 });
    expect(reads).toEqual(['matching 9', 'ids 0']);
  });

  it('drops the mark of a person who changed: the count up to a number never claims one who left', async () => {
    // exactly as many as the count goes to; then its deepest mark's person leaves the walk
    const countTo = 2 * COUNT_MARK_EVERY;
    const matching = Array.from({ length: countTo }, (_, i) => countTo - i);
    const feed: number[] = [];
    const below = (from: number | undefined) => matching.filter((id) => id <= (from ?? Number.POSITIVE_INFINITY));
    const reader: WalkReader = {
      ids: async (from, skip, take) => below(from).slice(skip, skip + take),
      countFrom: async (from, upTo = Number.POSITIVE_INFINITY) => Math.min(below(from).length, upTo),
      countAbove: async (from, above, upTo) =>
        below(from)
          .slice(0, upTo)
          .filter((id) => id > above).length,
      matching: async (ids) => ids.filter((id) => matching.includes(id)),
    };
    const marks = new WalkMarks();
    const first = () => marks.page('c', feedToken(feed), reader, 0, 10, false, countTo);
    expect((await first())?.atLeast).toBe(countTo);
    feed.push(matching.pop() as number);
    const after = await first();
    expect(after?.total ?? after?.atLeast).toBe(countTo - 1);
  });
});
