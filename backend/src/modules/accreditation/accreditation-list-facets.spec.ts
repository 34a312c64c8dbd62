import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_BLOCK_SIZE } from '../../database/migrations/1764400000001-list-blocks.js';
import { ListFacets1764700000001 } from '../../database/migrations/1764700000001-list-facets.js';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  TEST_DB,
  type TestApp,
} from '../../testing/test-app.js';
import { LIST_BLOCKS_FROM } from './accreditation.service.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const D1 = '2027-05-10';
const D2 = '2027-05-11';

/**
 * The deep pages of printed, entered and not entered (issue 16, migration 1764700000001): the
 * facets' counts per block kept by triggers equal those counted from the tables after every kind of
 * write, and every page of each of these filters alone (read through the counts from the first
 * page here) holds the ids of the plain query, newest first.
 */
describe(`accreditation list facets on ${TEST_DB} (issue 16)`, () => {
  let t: TestApp;
  let admin: string;
  let subjectId: number;
  let actions: { id: number }[];
  const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token: admin, body });
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  const div = () => (TEST_DB === 'mariadb' ? 'DIV' : '/');
  let serial = 0;

  const insertPeople = async (actionId: number, count: number) => {
    for (let k = 0; k < count; k += 300) {
      const rows = Array.from({ length: Math.min(300, count - k) }, () => {
        const n = ++serial;
        // every 3rd printed (some twice)
        return [
          subjectId,
          actionId,
          n,
          `F${n}`,
          `L${n}`,
          `f${n}@facet.test`,
          `FAC${n}`,
          `f${n}`,
          n % 3 ? 0 : 1 + (n % 2),
        ];
      });
      await t.ds.query(
        `INSERT INTO accreditation (subjectId, actionId, customId, firstname, lastname, email, bc, search, printCount, days, fieldValues, isUnlimited, source, createdAt, updatedAt) VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', '{}', 0, 'admin', ?, ?)").join(', ')}`,
        rows.flatMap((r) => [...r, now, now]),
      );
    }
  };
  /** entries (type 1) and exits (0) of these people on a day, several a person for some */
  const enter = async (ids: number[], day: string, type = 1) => {
    for (let k = 0; k < ids.length; k += 300) {
      const chunk = ids.slice(k, k + 300);
      const people: { id: number; actionId: number }[] = await t.ds.query(
        `SELECT id, actionId FROM accreditation WHERE id IN (${chunk.join(', ')})`,
      );
      await t.ds.query(
        `INSERT INTO entrance (subjectId, actionId, accreditationId, type, day, createdAt) VALUES ${people.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        people.flatMap((p) => [subjectId, p.actionId, p.id, type, day, now]),
      );
    }
  };
  const idsOf = async (sql: string, params: unknown[] = []) =>
    (await t.ds.query(sql, params)).map((r: { id: number }) => Number(r.id)) as number[];

  /** the kept counts equal those counted from the tables */
  const expectFacetsExact = async () => {
    const d = div();
    const concat = TEST_DB === 'mariadb' ? "CONCAT('entered:', e.day)" : "'entered:' || e.day";
    const counted = await t.ds.query(
      `SELECT actionId, 'printed' AS facet, id ${d} ${LIST_BLOCK_SIZE} AS block, COUNT(*) AS n FROM accreditation WHERE printCount > 0 GROUP BY actionId, id ${d} ${LIST_BLOCK_SIZE}
       UNION ALL SELECT actionId, 'not_entered', accreditationId ${d} ${LIST_BLOCK_SIZE}, COUNT(*) FROM accreditation_not_entered GROUP BY actionId, accreditationId ${d} ${LIST_BLOCK_SIZE}
       UNION ALL SELECT e.actionId, ${concat}, e.accreditationId ${d} ${LIST_BLOCK_SIZE}, COUNT(DISTINCT e.accreditationId) FROM entrance e JOIN accreditation a ON a.id = e.accreditationId AND a.actionId = e.actionId WHERE e.type = 1 GROUP BY e.actionId, e.day, e.accreditationId ${d} ${LIST_BLOCK_SIZE}`,
    );
    const kept = await t.ds.query('SELECT actionId, facet, block, n FROM accreditation_facet_block');
    const norm = (rs: Record<string, unknown>[]) =>
      rs.map((r) => `${r.actionId}/${r.facet}/${Number(r.block)}:${Number(r.n)}`).sort();
    expect(norm(kept)).toEqual(norm(counted));
  };

  /** every filter of a facet: pages from both ends, around the middle and at random, as the plain query */
  const expectPages = async (actionId: number) => {
    const base = 'SELECT a.id FROM accreditation a WHERE a.subjectId = ? AND a.actionId = ?';
    const entered = (day?: string) =>
      `EXISTS (SELECT 1 FROM entrance e WHERE e.accreditationId = a.id AND e.actionId = a.actionId AND e.type = 1${day ? ` AND e.day = '${day}'` : ''})`;
    const cases: [string, Record<string, unknown>, string][] = [
      ['printed', { printed: 1 }, 'a.printCount > 0'],
      ['not printed', { printed: -1 }, 'a.printCount = 0'],
      ['entered', { entrance: 1 }, entered()],
      ['not entered', { entrance: 3 }, `NOT ${entered()}`],
      ['entered on D1', { entrance: 2, entranceDate: D1 }, entered(D1)],
      ['not entered on D1', { entrance: 4, entranceDate: D1 }, `NOT ${entered(D1)}`],
      ['entered on D2', { entrance: 2, entranceDate: D2 }, entered(D2)],
    ];
    for (const [name, filterData, where] of cases) {
      const want = await idsOf(`${base} AND ${where} ORDER BY a.id DESC`, [subjectId, actionId]);
      for (const pageSize of [10, 333]) {
        const last = Math.ceil(want.length / pageSize);
        const pages = new Set([1, 2, Math.ceil(last / 2), last - 1, last, last + 1]);
        for (let k = 0; k < 3; k++) pages.add(1 + Math.floor(Math.random() * last));
        for (const page of [...pages].filter((p) => p >= 1)) {
          const got = await post('user/filter', { actionId, page, pageSize, exactCount: true, filterData });
          expect(got.status).toBe(200);
          expect(
            got.body.data.map((r: { id: number }) => r.id),
            `${name}, page ${page} of ${pageSize}`,
          ).toEqual(want.slice((page - 1) * pageSize, page * pageSize));
          expect(got.body.max, `${name}: the count`).toBe(want.length);
        }
      }
    }
  };

  const blocksFrom = LIST_BLOCKS_FROM.offset;
  beforeAll(async () => {
    LIST_BLOCKS_FROM.offset = 0;
    t = await createTestApp();
    const subject = await createSubject(t);
    subjectId = subject.id;
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    actions = [];
    for (const name of ['A', 'B']) actions.push((await post('action', { name: ml(name) })).body.data);
    for (const [k, n] of [
      [0, 3000],
      [1, 2500],
      [0, 5000],
      [1, 900],
      [0, 1200],
    ])
      await insertPeople(actions[k].id, n);
    const all = await idsOf('SELECT id FROM accreditation WHERE subjectId = ? ORDER BY id', [subjectId]);
    // 4 in 5 entered on D1, every 7th twice that day; every 4th on D2; exits for some
    await enter(
      all.filter((id) => id % 5),
      D1,
    );
    await enter(
      all.filter((id) => id % 7 === 0 && id % 5),
      D1,
    );
    await enter(
      all.filter((id) => id % 4 === 0),
      D2,
    );
    await enter(
      all.filter((id) => id % 11 === 0),
      D2,
      0,
    );
    // MariaDB's statistics of the freshly filled tables (else its plan of the count above walks
    // the entry log per row for seconds until InnoDB refreshes them on its own)
    if (TEST_DB === 'mariadb') await t.ds.query('ANALYZE TABLE accreditation, entrance');
  }, 300_000);
  afterAll(async () => {
    LIST_BLOCKS_FROM.offset = blocksFrom;
    await t.close();
  });

  it('reads every page of printed, entered and not entered through the kept counts', async () => {
    await expectFacetsExact();
    for (const a of actions) await expectPages(a.id);
  }, 300_000);

  it('keeps the counts and the pages right after prints, entries, deletes and moves', async () => {
    const [a, b] = actions;
    // printed through the print route's statement, un-printed by a direct write
    const someOfA = await idsOf('SELECT id FROM accreditation WHERE actionId = ? ORDER BY id LIMIT 400', [a.id]);
    await t.ds.query(`UPDATE accreditation SET printCount = printCount + 1 WHERE id IN (${someOfA.join(', ')})`);
    await t.ds.query(`UPDATE accreditation SET printCount = 0 WHERE id IN (${someOfA.slice(0, 100).join(', ')})`);
    await expectFacetsExact();
    // new people through the API (not entered), then their first entries and more
    for (let k = 0; k < 3; k++)
      expect(
        (await post('user', { actionId: a.id, firstname: 'New', lastname: `N${k}`, email: `new${k}@facet.test` }))
          .status,
      ).toBeLessThan(300);
    const fresh = await idsOf('SELECT id FROM accreditation WHERE actionId = ? ORDER BY id DESC LIMIT 3', [a.id]);
    await enter(fresh.slice(0, 2), D1);
    await enter(fresh.slice(0, 1), D1);
    await expectFacetsExact();
    // entries deleted: some people keep another entry that day, some none is left
    await t.ds.query('DELETE FROM entrance WHERE type = 1 AND day = ? AND accreditationId % 6 = 0', [D1]);
    await t.ds.query('DELETE FROM entrance WHERE type = 1 AND day = ? AND accreditationId % 10 = 0', [D2]);
    await expectFacetsExact();
    // an entry moved to another day (no path of the app does it; the triggers follow any statement)
    await t.ds.query('UPDATE entrance SET day = ? WHERE type = 1 AND day = ? AND accreditationId % 13 = 0', [D2, D1]);
    await expectFacetsExact();
    // people deleted by the app (their entries first) and straight from the table; people moved
    const gone = await idsOf('SELECT id FROM accreditation WHERE actionId = ? ORDER BY id LIMIT 500 OFFSET 1000', [
      b.id,
    ]);
    expect((await post('user/delete', { actionId: b.id, userId: gone, type: 1 })).status).toBeLessThan(300);
    await expectFacetsExact();
    await t.ds.query('DELETE FROM accreditation WHERE actionId = ? AND id % 17 = 0', [a.id]);
    await expectFacetsExact();
    // people moved to another action (no path of the app does it): with their entries after them
    // (an entry counts while its person is in its action), and entries left behind of people gone
    await t.ds.query('UPDATE accreditation SET actionId = ? WHERE actionId = ? AND id % 19 = 0', [b.id, a.id]);
    await expectFacetsExact();
    await t.ds.query('UPDATE entrance SET actionId = ? WHERE actionId = ? AND accreditationId % 19 = 0', [b.id, a.id]);
    await expectFacetsExact();
    await t.ds.query('UPDATE accreditation SET actionId = ? WHERE actionId = ? AND id % 23 = 0', [a.id, b.id]);
    await t.ds.query('UPDATE entrance SET actionId = ? WHERE actionId = ? AND accreditationId % 23 = 0', [a.id, b.id]);
    await expectFacetsExact();
    for (const x of actions) await expectPages(x.id);
  }, 300_000);

  it('reads the page through the kept counts (5 counted in the wrong block move it)', async () => {
    const a = actions[0].id;
    for (const [facet, filterData, where] of [
      ['printed', { printed: 1 }, 'printCount > 0'],
      [
        `entered:${D1}`,
        { entrance: 2, entranceDate: D1 },
        `EXISTS (SELECT 1 FROM entrance e WHERE e.accreditationId = a.id AND e.actionId = a.actionId AND e.type = 1 AND e.day = '${D1}')`,
      ],
    ] as const) {
      const want = await idsOf(
        `SELECT a.id FROM accreditation a WHERE a.subjectId = ? AND a.actionId = ? AND ${where} ORDER BY a.id DESC`,
        [subjectId, a],
      );
      const [newest, next] = await t.ds.query(
        'SELECT block, n FROM accreditation_facet_block WHERE actionId = ? AND facet = ? ORDER BY block DESC LIMIT 2',
        [a, facet],
      );
      expect(Number(next.n)).toBeGreaterThan(30);
      // a page inside the second newest block: the newest block said to hold 5 more, the next 5 fewer
      const offset = (Math.ceil(Number(newest.n) / 10) + 1) * 10;
      const page = async () =>
        (await post('user/filter', { actionId: a, page: offset / 10 + 1, pageSize: 10, filterData })).body.data.map(
          (r: { id: number }) => r.id,
        );
      expect(await page()).toEqual(want.slice(offset, offset + 10));
      const shift = (by: number) =>
        t.ds.query(
          'UPDATE accreditation_facet_block SET n = n + (CASE WHEN block = ? THEN ? ELSE ? END) WHERE actionId = ? AND facet = ? AND block IN (?, ?)',
          [newest.block, by, -by, a, facet, newest.block, next.block],
        );
      await shift(5);
      try {
        expect(await page(), facet).toEqual(want.slice(offset - 5, offset + 5));
      } finally {
        await shift(-5);
      }
    }
  });

  it('walks from the newest, still right, when the counts are wrong', async () => {
    const a = actions[0].id;
    const want = await idsOf(
      'SELECT id FROM accreditation WHERE subjectId = ? AND actionId = ? AND printCount = 0 ORDER BY id DESC',
      [subjectId, a],
    );
    const page = async () =>
      (await post('user/filter', { actionId: a, page: 300, pageSize: 10, filterData: { printed: -1 } })).body.data.map(
        (r: { id: number }) => r.id,
      );
    // more printed in a block than people in it: the complement cannot be right
    const [{ block }] = await t.ds.query(
      "SELECT MAX(block) AS block FROM accreditation_facet_block WHERE actionId = ? AND facet = 'printed'",
      [a],
    );
    await t.ds.query(
      "UPDATE accreditation_facet_block SET n = n + 100000 WHERE actionId = ? AND facet = 'printed' AND block = ?",
      [a, block],
    );
    try {
      expect(await page()).toEqual(want.slice(2990, 3000));
    } finally {
      await t.ds.query(
        "UPDATE accreditation_facet_block SET n = n - 100000 WHERE actionId = ? AND facet = 'printed' AND block = ?",
        [a, block],
      );
    }
    expect(await page()).toEqual(want.slice(2990, 3000));
  });

  it('the migration fills the counts from the rows already there', async () => {
    const q = t.ds.createQueryRunner();
    try {
      await new ListFacets1764700000001().down(q);
      await new ListFacets1764700000001().up(q);
    } finally {
      await q.release();
    }
    await expectFacetsExact();
    await expectPages(actions[1].id);
    // and the insert trigger counts a new printed person again (MariaDB: the merged trigger)
    await insertPeople(actions[1].id, 30);
    await expectFacetsExact();
  }, 300_000);
});
