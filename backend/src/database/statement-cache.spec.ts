import { afterEach, describe, expect, it } from 'vitest';
import { STATEMENT_CACHE, sqliteStatement, statementCacheState } from './core-runner.js';

/** A connection that counts its prepares (the cache's own logic, without SQLite). */
function fakeDb() {
  const prepared: string[] = [];
  return { prepared, prepare: (sql: string) => ({ sql, n: prepared.push(sql) }) };
}

describe('the SQLite statement cache (core-runner.ts sqliteStatement)', () => {
  const kept = { ...STATEMENT_CACHE };
  afterEach(() => Object.assign(STATEMENT_CACHE, kept));

  it('prepares a text once and answers the same statement after', () => {
    const db = fakeDb();
    const a = sqliteStatement(db, 'SELECT 1');
    expect(sqliteStatement(db, 'SELECT 1')).toBe(a);
    expect(db.prepared).toEqual(['SELECT 1']);
    expect(statementCacheState(db)).toEqual({ count: 1, chars: 'SELECT 1'.length });
  });

  it('keeps at most STATEMENT_CACHE.chars of text, the least recently used going first', () => {
    Object.assign(STATEMENT_CACHE, { count: 1000, chars: 10_000 });
    const db = fakeDb();
    const hot = 'SELECT * FROM accreditation WHERE bc = ?';
    const scan = sqliteStatement(db, hot);
    // an import's batches of varying sizes: texts of ~2,000 characters each
    for (let rows = 100; rows < 300; rows++) {
      sqliteStatement(db, `INSERT INTO g VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}`);
      // the hot statement is used between them, so it stays
      expect(sqliteStatement(db, hot)).toBe(scan);
      expect(statementCacheState(db).chars).toBeLessThanOrEqual(STATEMENT_CACHE.chars);
    }
    expect(db.prepared.filter((s) => s === hot)).toHaveLength(1);
    // an evicted text is prepared again when it comes back
    const first = `INSERT INTO g VALUES ${Array.from({ length: 100 }, () => '(?, ?)').join(', ')}`;
    const before = db.prepared.length;
    sqliteStatement(db, first);
    expect(db.prepared.length).toBe(before + 1);
  });

  it('keeps at most STATEMENT_CACHE.count statements', () => {
    Object.assign(STATEMENT_CACHE, { count: 5, chars: 1_000_000 });
    const db = fakeDb();
    for (let i = 0; i < 20; i++) sqliteStatement(db, `SELECT ${i}`);
    expect(statementCacheState(db).count).toBe(5);
    const before = db.prepared.length;
    sqliteStatement(db, 'SELECT 19');
    sqliteStatement(db, 'SELECT 15');
    expect(db.prepared.length).toBe(before);
    sqliteStatement(db, 'SELECT 14');
    expect(db.prepared.length).toBe(before + 1);
  });

  it('keeps the statement just prepared even when it alone is over the budget', () => {
    Object.assign(STATEMENT_CACHE, { count: 100, chars: 50 });
    const db = fakeDb();
    sqliteStatement(db, 'SELECT 1');
    const big = `SELECT ${'1, '.repeat(100)}1`;
    const stmt = sqliteStatement(db, big);
    expect(sqliteStatement(db, big)).toBe(stmt);
    expect(statementCacheState(db)).toEqual({ count: 1, chars: big.length });
  });
});
