import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { preparedReader } from './prepared.js';

// The lean reads' driver statements (issue 16), on the database of TEST_DB.
describe('the prepared reader', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives rows as objects or as arrays in the SELECT order, one mode not leaking into the other', async () => {
    const reader = preparedReader(t.ds);
    const sql = 'SELECT ? AS a, ? AS b UNION ALL SELECT ?, ?';
    const params = ['x', 1, 'y', 2];
    const objects = await reader.all(sql, params);
    expect(objects.map((r) => [r.a, Number(r.b)])).toEqual([
      ['x', 1],
      ['y', 2],
    ]);
    const arrays = await reader.arrays(sql, params);
    expect(arrays.map(([a, b]) => [a, Number(b)])).toEqual([
      ['x', 1],
      ['y', 2],
    ]);
    // the same text as objects again (SQLite shares one cached statement between the two modes)
    expect((await reader.all(sql, params))[1]).toMatchObject({ a: 'y' });
    await expect(reader.arrays('SELECT nothing FROM nowhere', [])).rejects.toThrow();
    expect((await reader.all(sql, params))[0]).toMatchObject({ a: 'x' });
  });
});
