import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { FALLBACK_PAGES, SqliteCheckpointer } from './sqlite-checkpoint.js';

/** The log's checkpoints on a thread of their own (issue 11 speed); plain SQLite, once per run. */
describe.skipIf(process.env.TEST_DB === 'mariadb')('SQLite checkpoints off the event loop', () => {
  const dirs: string[] = [];
  const open = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-ckpt-'));
    dirs.push(dir);
    const db = new Database(path.join(dir, 'db.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    return db;
  };
  const frames = (db: Database.Database) =>
    (db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[])[0];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('copies the log into the database on its thread and the log starts again from its beginning', async () => {
    const db = open();
    // a long interval: only the explicit `now()` checkpoints in this test
    const checkpointer = SqliteCheckpointer.attach(db, 60_000);
    expect(checkpointer).not.toBeNull();
    // SQLite's own checkpoint stays as the bound should the thread fall behind
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_PAGES);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const many = db.transaction((n: number) => {
      for (let i = 0; i < n; i++) insert.run('x'.repeat(500));
    });
    many(4000); // ~500 pages of log, below the connection's own threshold
    await checkpointer!.now();
    expect(checkpointer!.last!.log).toBeGreaterThan(400);
    expect(checkpointer!.last!.checkpointed).toBe(checkpointer!.last!.log);
    // everything was copied: the next write starts the log over instead of growing it
    many(1);
    expect(frames(db).log).toBeLessThan(10);
    // the rows are in the database file: a new connection after the log is gone reads them
    db.close();
    const again = new Database(path.join(path.dirname(db.name), 'db.sqlite'), { readonly: true });
    expect((again.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(4001);
    again.close();
    expect(checkpointer!.errors).toBe(0);
  });

  it('checkpoints by itself once the log changed, and not while it stays the same', async () => {
    const db = open();
    const checkpointer = SqliteCheckpointer.attach(db, 20)!;
    db.prepare('INSERT INTO t (v) VALUES (?)').run('a');
    await expect.poll(() => checkpointer.last?.checkpointed ?? 0, { timeout: 5000 }).toBeGreaterThan(0);
    expect(checkpointer.last!.checkpointed).toBe(checkpointer.last!.log);
    db.close();
  });

  it('leaves a memory database and a database not in WAL mode alone', () => {
    const memory = new Database(':memory:');
    expect(SqliteCheckpointer.attach(memory)).toBeNull();
    memory.close();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-ckpt-'));
    dirs.push(dir);
    const rollback = new Database(path.join(dir, 'db.sqlite'));
    expect(SqliteCheckpointer.attach(rollback)).toBeNull();
    expect(rollback.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    rollback.close();
  });
});
