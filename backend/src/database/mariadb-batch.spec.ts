import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_DB, type TestApp } from '../testing/test-app.js';
import {
  type Core,
  type CoreEnv,
  coreRunner,
  holdWrite,
  readStep,
  type WriteResult,
  writeStep,
} from './core-runner.js';
import { PREPARED_BLOCKS } from './mariadb-batch.js';
import { onPooledConnection, sentDuring } from '../testing/pool.js';
import { myQuery, mysqlConnection, mysqlPool } from './mysql-driver.js';

/**
 * The MariaDB batch (mariadb-batch.ts): a core's steps from its lock on in one compound statement,
 * with the same outcome as one statement at a time - the new ids in later statements, a read's rows
 * in the core's value, a write that changes nothing or a read that decides what follows handled by
 * running the core again stepwise, an error rolling everything back.
 */
describe.skipIf(TEST_DB !== 'mariadb')('MariaDB batch of a core after its lock (issue 16)', () => {
  let t: TestApp;
  const READ_BACK = 'SELECT n FROM batch_item WHERE id = ?';

  beforeAll(async () => {
    t = await createTestApp();
    await t.ds.query('CREATE TABLE batch_lock (id int PRIMARY KEY, used int NOT NULL, max int NOT NULL)');
    await t.ds.query(
      'CREATE TABLE batch_item (id int AUTO_INCREMENT PRIMARY KEY, n int NOT NULL, note varchar(50), at datetime(3))',
    );
    await t.ds.query('CREATE TABLE batch_link (itemId int NOT NULL, k int NOT NULL, PRIMARY KEY (itemId, k))');
    await t.ds.query('INSERT INTO batch_lock (id, used, max) VALUES (1, 0, 3)');
  });
  afterAll(() => t?.close());

  /** Locks the row, inserts an item numbered in SQL, links it, counts a use (refused when used up), reads its number back. */
  function* core(
    env: CoreEnv,
    note: string,
    decide = false,
    linked = 2,
  ): Core<{ id: number; n: number; links: number }> {
    yield readStep(`SELECT id FROM batch_lock WHERE id = ?${env.lock}`, [1]);
    const item = (yield writeStep(
      'INSERT INTO batch_item (n, note, at) SELECT COALESCE(MAX(n), 0) + 1, ?, ? FROM batch_item',
      [note, env.date(new Date())],
    )) as WriteResult;
    let links = linked;
    if (decide) {
      // a read that decides what follows: the batch cannot stand for it
      const [row] = (yield readStep('SELECT used FROM batch_lock WHERE id = ?', [1])) as { used: number }[];
      links = Number(row.used) + 1;
    }
    yield writeStep(
      `INSERT INTO batch_link (itemId, k) VALUES ${Array.from({ length: links }, () => '(?, ?)').join(', ')}`,
      Array.from({ length: links }, (_, k) => [item.insertId, k]).flat(),
    );
    const use = (yield writeStep(
      'UPDATE batch_lock SET used = used + 1 WHERE id = ? AND used < max',
      [1],
    )) as WriteResult;
    if (!use.changes) throw new Error('used up');
    const [row] = (yield readStep(READ_BACK, [item.insertId])) as { n: unknown }[];
    return { id: item.insertId, n: Number(row?.n), links };
  }
  const run = (note: string, decide = false) =>
    coreRunner(t.ds).run((env) => core(env, note, decide), { batch: { resultReads: [READ_BACK] } });
  const runLinked = (note: string, linked: number) =>
    coreRunner(t.ds).run((env) => core(env, note, false, linked), { batch: { resultReads: [READ_BACK] } });
  const links = async (id: number) =>
    Number((await t.ds.query('SELECT COUNT(*) AS n FROM batch_link WHERE itemId = ?', [id]))[0].n);

  it('runs the steps after the lock as one statement, with the new id in the later ones', async () => {
    const first = await run('one');
    const second = await run('two');
    expect(first.n).toBe(1);
    expect(second).toMatchObject({ n: 2, links: 2 });
    expect(second.id).toBe(first.id + 1);
    expect(await links(first.id)).toBe(2);
    expect(await links(second.id)).toBe(2);
  });

  it('sends everything from START TRANSACTION to COMMIT as one statement', async () => {
    // every statement text the pool's connections are given meanwhile
    const { value: made, sent } = await sentDuring(t.ds, () => run('counted'));
    const ours = sent.map((s) => s.sql).filter((sql) => /batch_|TRANSACTION|COMMIT|ROLLBACK/.test(sql));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatch(
      /^BEGIN NOT ATOMIC SET TRANSACTION ISOLATION LEVEL READ COMMITTED; START TRANSACTION;.*COMMIT; END$/s,
    );
    expect(made.n).toBe(3);
    await t.ds.query("DELETE FROM batch_link WHERE itemId IN (SELECT id FROM batch_item WHERE note = 'counted')");
    await t.ds.query("DELETE FROM batch_item WHERE note = 'counted'");
    await t.ds.query('UPDATE batch_lock SET used = used - 1 WHERE id = 1');
  });

  it('runs a core whose read decides what follows one statement at a time, with the same outcome', async () => {
    const third = await run('three', true);
    // used was 2 before this one: 3 links
    expect(third).toMatchObject({ n: 3, links: 3 });
    expect(await links(third.id)).toBe(3);
  });

  it('rolls everything back when a write changes nothing: the core decides, as one statement at a time', async () => {
    await expect(run('four')).rejects.toThrow('used up');
    const [{ n }] = await t.ds.query("SELECT COUNT(*) AS n FROM batch_item WHERE note = 'four'");
    expect(Number(n)).toBe(0);
    const [{ used }] = await t.ds.query('SELECT used FROM batch_lock WHERE id = 1');
    expect(Number(used)).toBe(3);
  });

  it('writes a date as a statement of its own writes it', async () => {
    const at = new Date(Date.UTC(2027, 4, 10, 8, 30, 15, 250));
    function* dated(env: CoreEnv): Core<number> {
      yield readStep(`SELECT id FROM batch_lock WHERE id = ?${env.lock}`, [1]);
      const item = (yield writeStep('INSERT INTO batch_item (n, note, at) VALUES (?, ?, ?)', [
        900,
        'dated',
        env.date(at),
      ])) as WriteResult;
      return item.insertId;
    }
    const id = await coreRunner(t.ds).run((env) => dated(env), { batch: true });
    await t.ds.query('INSERT INTO batch_item (n, note, at) VALUES (?, ?, ?)', [901, 'dated', at]);
    const rows = await t.ds.query(
      "SELECT id, CAST(at AS CHAR) AS text FROM batch_item WHERE note = 'dated' ORDER BY id",
    );
    expect(rows.map((r: { id: number }) => Number(r.id))[0]).toBe(id);
    expect(rows[0].text).toBe(rows[1].text);
    await t.ds.query("DELETE FROM batch_item WHERE note = 'dated'");
  });

  it('numbers concurrent cores densely, none lost', async () => {
    await t.ds.query('UPDATE batch_lock SET max = 1000 WHERE id = 1');
    const made = await Promise.all(Array.from({ length: 30 }, (_, i) => run(`c${i}`)));
    const ns = made.map((m) => m.n).sort((a, b) => a - b);
    expect(ns).toEqual(Array.from({ length: 30 }, (_, i) => i + 4));
    for (const m of made.slice(0, 5)) expect(await links(m.id)).toBe(2);
  });

  /**
   * Holds the lock row from a connection of its own while `start()` sends cores, until `queued` of
   * them wait in the runner's combiner behind the first (whose block waits for this lock on the
   * server); then lets go. The next block is then shared by all those that waited.
   */
  async function behindLock<T>(queued: number, start: () => Promise<T>): Promise<T> {
    const holder = await mysqlConnection(mysqlPool(t.ds, 'spec'));
    await myQuery(holder, 'START TRANSACTION');
    await myQuery(holder, 'SELECT id FROM batch_lock WHERE id = 1 FOR UPDATE');
    const combiner = coreRunner(t.ds).combiner;
    let running: Promise<T>;
    try {
      running = start();
      await vi.waitFor(() => expect(combiner.pending.cores).toBe(queued), { timeout: 10_000, interval: 10 });
    } finally {
      await myQuery(holder, 'COMMIT');
      holder.release();
    }
    const value = await running;
    expect(combiner.pending).toEqual({ cores: 0, rows: 0 });
    return value;
  }

  /** Every compound statement the pool's connections are given while `fn` runs. */
  async function blocksOf<T>(fn: () => Promise<T>): Promise<{ value: T; blocks: string[]; via: string[] }> {
    const blocks: string[] = [];
    const via: string[] = [];
    const conn = await mysqlConnection(mysqlPool(t.ds, 'spec'));
    const proto = Object.getPrototypeOf(conn) as Record<string, (...args: unknown[]) => unknown>;
    conn.release();
    const originals = { query: proto.query, execute: proto.execute };
    for (const name of ['query', 'execute'] as const)
      proto[name] = function (this: unknown, ...args: unknown[]) {
        if (typeof args[0] === 'string' && args[0].startsWith('BEGIN NOT ATOMIC')) {
          blocks.push(args[0]);
          via.push(name);
        }
        return originals[name].apply(this, args);
      };
    try {
      return { value: await fn(), blocks, via };
    } finally {
      Object.assign(proto, originals);
    }
  }
  // the lock's statement once per core (`?` in a prepared block)
  const coresIn = (block: string) => block.match(/FROM batch_lock WHERE id = (1|\?) FOR UPDATE/g)?.length ?? 0;

  it('sends the block as a prepared statement with its values as parameters, by text when they vary', async () => {
    const prepared = await blocksOf(() => run('by parameters'));
    expect(prepared.via).toEqual(['execute']);
    expect(prepared.blocks[0]).not.toContain('by parameters');
    expect(prepared.blocks[0]).toContain('FROM batch_lock WHERE id = ? FOR UPDATE');
    const text = await blocksOf(() =>
      coreRunner(t.ds).run((env) => core(env, 'by text'), { batch: { resultReads: [READ_BACK] }, prepared: 'none' }),
    );
    expect(text.via).toEqual(['query']);
    expect(text.blocks[0]).toContain("'by text'");
    for (const m of [prepared.value, text.value]) expect(await links(m.id)).toBe(2);
  });

  it('prepares at most PREPARED_BLOCKS block texts; the others go by text, with the same outcome', async () => {
    // a core of 2 … 31 links: thirty texts, one after another
    const {
      value: made,
      blocks,
      via,
    } = await blocksOf(async () => {
      const all = [];
      for (let n = 2; n < 32; n++) all.push(await runLinked(`many${n}`, n));
      return all;
    });
    expect(blocks).toHaveLength(30);
    expect(new Set(blocks.filter((_, i) => via[i] === 'execute')).size).toBeLessThanOrEqual(PREPARED_BLOCKS);
    expect(via).toContain('query');
    for (const [i, m] of made.entries()) expect(await links(m.id)).toBe(i + 2);
  });

  it('sends the cores that waited for the same lock as one block, one commit, numbered densely', async () => {
    const [{ n: before }] = await t.ds.query('SELECT MAX(n) AS n FROM batch_item');
    const { value: made, blocks } = await blocksOf(() =>
      behindLock(4, () => Promise.all(Array.from({ length: 5 }, (_, i) => run(`shared${i}`)))),
    );
    // the first alone (it waited for the lock on the server), then the four that queued behind it
    expect(blocks.map(coresIn)).toEqual([1, 4]);
    expect(blocks[1].match(/COMMIT;/g)).toHaveLength(1);
    const ns = made.map((m) => m.n).sort((a, b) => a - b);
    expect(ns).toEqual(Array.from({ length: 5 }, (_, i) => Number(before) + 1 + i));
    // each core got its own new id back and its links went with it
    expect(new Set(made.map((m) => m.id)).size).toBe(5);
    for (const m of made) expect(await links(m.id)).toBe(2);
  });

  it('shares a block only among cores of the same statements, in blocks of 1, 2, 4 or 8', async () => {
    // two links (the usual text) and three (another INSERT text), queued alternately behind the lock
    const kinds = [2, 2, 3, 2, 3, 2, 2, 2, 2];
    const { value: made, blocks } = await blocksOf(() =>
      behindLock(8, () => Promise.all(kinds.map((n, i) => runLinked(`shape${i}`, n)))),
    );
    const shapes = blocks.map((b) => ({
      cores: coresIn(b),
      // a block of one shape has its INSERT of links once per core, all alike
      // (the new item's id is the block's user variable, its k a parameter)
      three: b.match(/VALUES \(@accredo_i1, \?\), \(@accredo_i1, \?\), \(@accredo_i1, \?\);/g)?.length ?? 0,
    }));
    // the first alone; every shared block of one shape only, of 1, 2, 4 or 8 cores; all nine sent
    expect(shapes[0].cores).toBe(1);
    for (const { cores, three } of shapes) {
      expect([1, 2, 4, 8]).toContain(cores);
      expect([0, cores]).toContain(three);
    }
    expect(shapes.reduce((n, b) => n + b.cores, 0)).toBe(9);
    expect(shapes.reduce((n, b) => n + b.three, 0)).toBe(2);
    // the first queued core's shape went first, as many of it as a power of two allows: four
    expect(shapes.map((b) => b.cores)).toContain(4);
    for (const [i, m] of made.entries()) expect(await links(m.id)).toBe(kinds[i]);
  });

  it('runs each core of a shared block on its own when one of them fails: the others commit', async () => {
    const [{ used }] = await t.ds.query('SELECT used FROM batch_lock WHERE id = 1');
    // three uses left for five cores
    await t.ds.query('UPDATE batch_lock SET max = ? WHERE id = 1', [Number(used) + 3]);
    const { value: settled, blocks } = await blocksOf(() =>
      behindLock(4, () => Promise.allSettled(Array.from({ length: 5 }, (_, i) => run(`partly${i}`)))),
    );
    expect(blocks.map(coresIn).slice(0, 2)).toEqual([1, 4]);
    const made = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const refused = settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
    expect(made).toHaveLength(3);
    expect(refused).toEqual(['Error: used up', 'Error: used up']);
    const [{ n }] = await t.ds.query("SELECT COUNT(*) AS n FROM batch_item WHERE note LIKE 'partly%'");
    expect(Number(n)).toBe(3);
    for (const m of made) expect(await links(m.id)).toBe(2);
    const [after] = await t.ds.query('SELECT used, max FROM batch_lock WHERE id = 1');
    expect(Number(after.used)).toBe(Number(after.max));
    await t.ds.query('UPDATE batch_lock SET max = 1000 WHERE id = 1');
  });
});

/**
 * MariaDB grouped writes (mariadb-batch.ts runMysqlGrouped, the import's batches): a core's writes
 * between two reads as one compound statement with the read after them, and a session reset that
 * no failure gets past.
 */
describe.skipIf(TEST_DB !== 'mariadb')('MariaDB grouped writes of a core that reads none of them (issue 16)', () => {
  let t: TestApp;
  const RESET = { reset: 'SET @grouped_flag = NULL' };

  beforeAll(async () => {
    t = await createTestApp();
    await t.ds.query('CREATE TABLE grouped_item (id int PRIMARY KEY, note varchar(50))');
  });
  afterAll(() => t?.close());

  const flagOf = async (id: number) =>
    ((await onPooledConnection(t.ds, id, 'SELECT @grouped_flag AS flag')) as { flag: unknown }[])[0].flag;

  it('sends the writes between two reads as one statement with the read after them, each write unread', async () => {
    const answers: unknown[] = [];
    function* core(): Core<string[]> {
      answers.push(yield writeStep('INSERT INTO grouped_item (id, note) VALUES (?, ?)', [1, "it's one"]));
      answers.push(yield writeStep('INSERT INTO grouped_item (id, note) VALUES (?, ?), (?, ?)', [2, 'two', 3, null]));
      const rows = (yield readStep('SELECT note FROM grouped_item WHERE id IN (?, ?, ?) ORDER BY id', [1, 2, 3])) as {
        note: string | null;
      }[];
      yield writeStep('UPDATE grouped_item SET note = ? WHERE id = ?', [rows.map((r) => r.note ?? '-').join('|'), 3]);
      return rows.map((r) => r.note ?? '-');
    }
    const { value, sent } = await sentDuring(t.ds, () =>
      coreRunner(t.ds).run(core, { prepared: 'none', grouped: RESET }),
    );
    expect(value).toEqual(["it's one", 'two', '-']);
    expect(answers).toEqual([
      { changes: Number.NaN, insertId: Number.NaN },
      { changes: Number.NaN, insertId: Number.NaN },
    ]);
    const ours = sent.map((s) => s.sql).filter((sql) => sql.includes('grouped_item'));
    expect(ours).toHaveLength(2);
    expect(ours[0]).toMatch(/^BEGIN NOT ATOMIC DECLARE EXIT HANDLER .*INSERT .*INSERT .*SELECT note .* END$/s);
    expect(ours[1]).toMatch(/^BEGIN NOT ATOMIC DECLARE EXIT HANDLER .*UPDATE grouped_item .* END$/s);
    expect(await t.ds.query('SELECT note FROM grouped_item WHERE id = 3')).toEqual([{ note: "it's one|two|-" }]);
  });

  it("runs the reset when a block's statement fails, before the error, and rolls back with nothing kept", async () => {
    const held = await holdWrite(t.ds, RESET);
    let id = 0;
    try {
      id = await held.run(function* () {
        const [row] = (yield readStep('SELECT CONNECTION_ID() AS id', [])) as { id: unknown }[];
        return Number(row.id);
      });
      const failed = held.run(function* () {
        yield writeStep('SET @grouped_flag = 1', []);
        yield writeStep('INSERT INTO grouped_item (id, note) VALUES (?, ?)', [10, 'kept?']);
        yield writeStep('INSERT INTO grouped_item (id, note) VALUES (?, ?)', [1, 'a duplicate']);
        yield writeStep('SET @grouped_flag = NULL', []);
      });
      await expect(failed).rejects.toThrow(/Duplicate entry/);
      // the same connection, the transaction still open: the block's handler has reset the session
      expect(
        await held.run(function* () {
          return (yield readStep('SELECT @grouped_flag AS flag', [])) as unknown[];
        }),
      ).toEqual([{ flag: null }]);
    } finally {
      await held.rollback();
    }
    expect(await t.ds.query('SELECT id FROM grouped_item WHERE id = 10')).toEqual([]);
    expect(await flagOf(id)).toBeNull();
  });

  it('resets the session before the connection goes back to the pool, however the core ended', async () => {
    let id = 0;
    function* core(): Core<void> {
      const [row] = (yield readStep('SELECT CONNECTION_ID() AS id', [])) as { id: unknown }[];
      id = Number(row.id);
      // a core that leaves its flag set across a round trip, then fails in this process
      yield writeStep('SET @grouped_flag = 1', []);
      yield readStep('SELECT 1 AS one', []);
      throw new Error('the core failed');
    }
    await expect(coreRunner(t.ds).run(core, { prepared: 'none', grouped: RESET })).rejects.toThrow('the core failed');
    expect(id).toBeGreaterThan(0);
    expect(await flagOf(id)).toBeNull();

    const held = await holdWrite(t.ds, RESET);
    const heldId = await held.run(function* () {
      yield writeStep('SET @grouped_flag = 1', []);
      const [row] = (yield readStep('SELECT CONNECTION_ID() AS id', [])) as { id: unknown }[];
      return Number(row.id);
    });
    await held.commit();
    expect(await flagOf(heldId)).toBeNull();
  });
});
