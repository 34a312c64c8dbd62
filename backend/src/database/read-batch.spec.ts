import { describe, expect, it } from 'vitest';
import { paddedSize, ReadBatch, rowsByKeys } from './read-batch.js';

/** A read whose statements are answered by hand: each call is recorded with its keys and its promise. */
function controlled() {
  const calls: { keys: string[]; answer: (found: Map<string, string>) => void; fail: (e: Error) => void }[] = [];
  const read = (keys: string[]) =>
    new Promise<Map<string, string>>((answer, fail) => {
      calls.push({ keys, answer, fail });
    });
  const tick = () => new Promise((r) => setImmediate(r));
  return { calls, read, tick };
}
const all = (keys: string[]) => new Map(keys.map((k) => [k, `row ${k}`]));

describe('ReadBatch (reads that arrive together share a statement)', () => {
  it('sends a lone read at once, and the reads that wait meanwhile together in the next statement', async () => {
    const { calls, read, tick } = controlled();
    const batch = new ReadBatch(read, { maxKeys: 8, maxInFlight: 1 });
    const a = batch.get('A');
    expect(calls.map((c) => c.keys)).toEqual([['A']]);
    const rest = ['B', 'C', 'B', 'D'].map((k) => batch.get(k));
    expect(calls).toHaveLength(1);
    expect(batch.state).toEqual({ inFlight: 1, waiting: 3 });
    calls[0].answer(all(['A']));
    expect(await a).toBe('row A');
    // the three waiting keys (B asked twice, read once) go as the next statement
    expect(calls.map((c) => c.keys)).toEqual([['A'], ['B', 'C', 'D']]);
    calls[1].answer(new Map([['B', 'row B']]));
    expect(await Promise.all(rest)).toEqual(['row B', undefined, 'row B', undefined]);
    await tick();
    expect(batch.state).toEqual({ inFlight: 0, waiting: 0 });
  });

  it('never answers a read by a statement sent before it was asked for', async () => {
    const { calls, read } = controlled();
    const batch = new ReadBatch(read, { maxKeys: 8, maxInFlight: 1 });
    const early = batch.get('A');
    // the same key asked while the first statement is on the server waits for a statement of its own
    const late = batch.get('A');
    calls[0].answer(new Map([['A', 'before the write']]));
    expect(await early).toBe('before the write');
    expect(calls).toHaveLength(2);
    calls[1].answer(new Map([['A', 'after the write']]));
    expect(await late).toBe('after the write');
  });

  it('keeps at most maxInFlight statements and maxKeys keys each, in arrival order', async () => {
    const { calls, read } = controlled();
    const batch = new ReadBatch(read, { maxKeys: 2, maxInFlight: 2 });
    const reads = ['A', 'B', 'C', 'D', 'E', 'F'].map((k) => batch.get(k));
    expect(calls.map((c) => c.keys)).toEqual([['A'], ['B']]);
    calls[1].answer(all(['B']));
    await reads[1];
    expect(calls.map((c) => c.keys)).toEqual([['A'], ['B'], ['C', 'D']]);
    calls[0].answer(all(['A']));
    calls[2].answer(all(['C', 'D']));
    await Promise.all(reads.slice(0, 4));
    expect(calls.map((c) => c.keys).slice(3)).toEqual([['E', 'F']]);
    calls[3].answer(all(['E', 'F']));
    expect(await Promise.all(reads)).toEqual(['A', 'B', 'C', 'D', 'E', 'F'].map((k) => `row ${k}`));
  });

  it('fails only the reads of the statement that failed, and goes on with the next', async () => {
    const { calls, read } = controlled();
    const batch = new ReadBatch(read, { maxKeys: 8, maxInFlight: 1 });
    const a = batch.get('A');
    const b = batch.get('B');
    const c = batch.get('C');
    calls[0].fail(new Error('connection lost'));
    await expect(a).rejects.toThrow('connection lost');
    calls[1].answer(all(['B', 'C']));
    expect([await b, await c]).toEqual(['row B', 'row C']);
    // a read that throws before it returns a promise fails its reads the same way
    const throwing = new ReadBatch<string, string>(
      () => {
        throw new Error('bad statement');
      },
      { maxKeys: 8, maxInFlight: 1 },
    );
    await expect(throwing.get('A')).rejects.toThrow('bad statement');
    expect(throwing.state).toEqual({ inFlight: 0, waiting: 0 });
  });

  it('reads rows by a padded key list and hands each key its rows', async () => {
    const statements: [string, number[]][] = [];
    const table = [
      { id: 1, v: 'a' },
      { id: 1, v: 'b' },
      { id: 3, v: 'c' },
    ];
    const batch = rowsByKeys(
      async (sql, keys: number[]) => {
        statements.push([sql, keys]);
        return table.filter((r) => keys.includes(r.id));
      },
      (marks) => `SELECT … WHERE id IN (${marks})`,
      (row) => row.id,
      { maxKeys: 4, maxInFlight: 1 },
    );
    const [one, two, three] = await Promise.all([batch.get(1), batch.get(2), batch.get(3)]);
    expect([one, two, three]).toEqual([[table[0], table[1]], undefined, [table[2]]]);
    // 1 alone, then 2 and 3 together; a list of three keys is padded to four places
    expect(statements).toEqual([
      ['SELECT … WHERE id IN (?)', [1]],
      ['SELECT … WHERE id IN (?, ?)', [2, 3]],
    ]);
    await Promise.all([5, 6, 7].map((k) => batch.get(k)).concat(batch.get(1)));
    expect(statements.at(-1)).toEqual(['SELECT … WHERE id IN (?, ?, ?, ?)', [6, 7, 1, 1]]);
  });

  it('pads a statement to a power of two of placeholders, at most the cap', () => {
    expect([1, 2, 3, 5, 8, 9, 33, 64, 65].map((n) => paddedSize(n, 64))).toEqual([1, 2, 4, 8, 8, 16, 64, 64, 64]);
    expect(() => new ReadBatch(async () => new Map(), { maxKeys: 0, maxInFlight: 1 })).toThrow();
  });
});
