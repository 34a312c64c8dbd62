import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TtlCache } from './ttl-cache.js';

/** A read that answers when the test says so (an edit can land while it is under way). */
function pending<V>() {
  let answer!: (value: V) => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<V>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  });
  return { read: () => promise, answer, fail };
}

describe('TtlCache: a bounded map with expiry that does not keep an overtaken read', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-05-01T10:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('answers a stored entry without reading until its TTL, counted from the start of its read', async () => {
    const c = new TtlCache<string, number>({ ttlMs: 1_000 });
    const r = pending<number>();
    const loading = c.load('a', r.read);
    vi.advanceTimersByTime(300); // the read takes 300 ms
    r.answer(1);
    expect(await loading).toBe(1);

    const read = vi.fn(async () => 2);
    vi.advanceTimersByTime(699); // 999 ms after the read began
    expect(c.get('a')).toBe(1);
    expect(await c.load('a', read)).toBe(1);
    expect(read).not.toHaveBeenCalled();

    vi.advanceTimersByTime(1); // 1000 ms: expired
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
    expect(await c.load('a', read)).toBe(2);
    expect(read).toHaveBeenCalledTimes(1);
    expect(c.get('a')).toBe(2);
  });

  it('keeps at most `max` entries, dropping the oldest stored', async () => {
    const c = new TtlCache<string, number>({ ttlMs: 60_000, max: 3 });
    for (const [i, key] of ['a', 'b', 'c'].entries()) await c.load(key, async () => i);
    expect(c.get('a')).toBe(0); // a hit does not make an entry newer
    await c.load('d', async () => 3);
    expect(c.size).toBe(3);
    expect([c.get('a'), c.get('b'), c.get('c'), c.get('d')]).toEqual([undefined, 1, 2, 3]);

    // an entry stored again (here by a second read of the same key) is the newest
    const first = pending<number>();
    const second = pending<number>();
    const loadings = [c.load('x', first.read), c.load('x', second.read)];
    first.answer(10);
    await loadings[0]; // drops b: c, d, x
    await c.load('e', async () => 4); // drops c: d, x, e
    second.answer(11);
    await loadings[1]; // x again, nothing dropped: d, e, x
    expect([c.size, c.get('d')]).toEqual([3, 3]);
    await c.load('f', async () => 5); // drops d: e, x, f
    await c.load('g', async () => 6); // drops e: x, f, g
    expect(c.size).toBe(3);
    expect([c.get('b'), c.get('c'), c.get('d'), c.get('e')]).toEqual([undefined, undefined, undefined, undefined]);
    expect([c.get('x'), c.get('f'), c.get('g')]).toEqual([11, 5, 6]);

    expect(() => new TtlCache({ ttlMs: 1, max: 0 })).toThrow(RangeError);
  });

  it.each([
    ['delete of its key', (c: TtlCache<string, number>) => c.delete('a')],
    ['delete of another key', (c: TtlCache<string, number>) => c.delete('other')],
    ['deleteWhere that matched nothing', (c: TtlCache<string, number>) => c.deleteWhere(() => false)],
    ['clear', (c: TtlCache<string, number>) => c.clear()],
  ])('answers but does not keep a read that a %s overtook; keeps a read begun after it', async (_, remove) => {
    const c = new TtlCache<string, number>({ ttlMs: 60_000 });
    const overtaken = pending<number>();
    const loading = c.load('a', overtaken.read);
    remove(c); // the edit lands while the read is under way
    overtaken.answer(1);
    expect(await loading).toBe(1);
    expect(c.get('a')).toBeUndefined();

    const read = vi.fn(async () => 2);
    expect(await c.load('a', read)).toBe(2);
    expect(await c.load('a', read)).toBe(2);
    expect(read).toHaveBeenCalledTimes(1);
    expect(c.get('a')).toBe(2);
  });

  it('deleteWhere removes the matching entries only', async () => {
    const c = new TtlCache<string, { subject: number }>({ ttlMs: 60_000 });
    for (const [key, subject] of [
      ['a', 1],
      ['b', 2],
      ['c', 1],
    ] as const)
      await c.load(key, async () => ({ subject }));
    c.deleteWhere((v, key) => v.subject === 1 && key !== 'c');
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, { subject: 2 }, { subject: 1 }]);
  });

  it('a read that fails stores nothing and drops the key, without discarding other reads under way', async () => {
    const c = new TtlCache<string, number>({ ttlMs: 60_000 });
    const failing = pending<number>();
    const failed = c.load('a', failing.read);
    const other = pending<number>();
    const otherLoading = c.load('b', other.read);
    await c.load('a', async () => 1); // a concurrent read of the same key stored it meanwhile
    failing.fail(new Error('gone'));
    await expect(failed).rejects.toThrow('gone');
    expect(c.get('a')).toBeUndefined();
    // an expiry or a failed read is not an edit: the read of b is still kept
    other.answer(2);
    await otherLoading;
    expect(c.get('b')).toBe(2);
  });
});
