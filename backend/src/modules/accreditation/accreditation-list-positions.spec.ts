import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_BLOCK_SIZE, ListBlocks1764400000001 } from '../../database/migrations/1764400000001-list-blocks.js';
import { GroupCounts1764400000002 } from '../../database/migrations/1764400000002-group-counts.js';
import { InsertTriggers1764500000001 } from '../../database/migrations/1764500000001-insert-triggers.js';
import { ZoneCounts1764800000001 } from '../../database/migrations/1764800000001-zone-counts.js';
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

/**
 * The list's positions and group counts kept by the database (issue 16, migrations 1764400000001
 * and 1764400000002): any page of the unfiltered list, found through the blocks of ids, holds the
 * same ids as the plain OFFSET query, with several actions' people interleaved in id order, after
 * inserts and deletes of every kind; a group's kept count is the join of its links and the
 * action's people after every change of links and people, and so is a zone's (1764800000001).
 */
describe(`accreditation list positions and group counts on ${TEST_DB} (issue 16)`, () => {
  let t: TestApp;
  let admin: string;
  let subjectId: number;
  let actions: { id: number }[];
  let groups: { id: number; actionId: number | null }[];
  let zones: { id: number; actionId: number | null }[];
  const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token: admin, body });
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  let serial = 0;

  /** `count` people of the action straight into the table, in multi-row INSERTs */
  const insertPeople = async (actionId: number, count: number) => {
    for (let k = 0; k < count; k += 300) {
      const rows = Array.from({ length: Math.min(300, count - k) }, () => {
        const n = ++serial;
        return [subjectId, actionId, n, `P${n}`, `Q${n}`, `p${n}@pos.test`, `POS${n}`, `p${n} q${n} pos${n}`];
      });
      await t.ds.query(
        `INSERT INTO accreditation (subjectId, actionId, customId, firstname, lastname, email, bc, search, days, fieldValues, printCount, isUnlimited, source, createdAt, updatedAt) VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, '[]', '{}', 0, 0, 'admin', ?, ?)").join(', ')}`,
        rows.flatMap((r) => [...r, now, now]),
      );
    }
  };

  /** the plain OFFSET query of the list's base query, newest first */
  const reference = async (actionId: number, page: number, pageSize: number) =>
    (
      await t.ds.query(
        `SELECT id FROM accreditation WHERE subjectId = ? AND actionId = ? ORDER BY id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
        [subjectId, actionId],
      )
    ).map((r: { id: number }) => Number(r.id)) as number[];
  const size = async (actionId: number) =>
    Number(
      (
        await t.ds.query('SELECT COUNT(*) AS n FROM accreditation WHERE subjectId = ? AND actionId = ?', [
          subjectId,
          actionId,
        ])
      )[0].n,
    );
  /** what the triggers keep equals the blocks counted from the table, for every action */
  const expectBlocksExact = async () => {
    const div = TEST_DB === 'mariadb' ? 'DIV' : '/';
    const counted = await t.ds.query(
      `SELECT subjectId, actionId, id ${div} ${LIST_BLOCK_SIZE} AS block, COUNT(*) AS n FROM accreditation GROUP BY subjectId, actionId, id ${div} ${LIST_BLOCK_SIZE} ORDER BY 1, 2, 3`,
    );
    const kept = await t.ds.query('SELECT subjectId, actionId, block, n FROM accreditation_block ORDER BY 1, 2, 3');
    const norm = (rs: Record<string, unknown>[]) =>
      rs.map((r) => `${r.subjectId}/${r.actionId}/${r.block}:${r.n}`.replace(/\.0+/g, ''));
    expect(norm(kept)).toEqual(norm(counted));
  };
  /** pages from both ends, around every block's edge, the partly filled last page and past it */
  const expectPages = async (actionId: number) => {
    const total = await size(actionId);
    for (const pageSize of [10, 7, 500]) {
      const last = Math.ceil(total / pageSize);
      const pages = new Set([1, 2, last, last - 1, last + 1, Math.ceil(last / 2)]);
      // the pages holding a block's first and last rows (newest first), where the skip starts over
      const edges: { b: number }[] = await t.ds.query(
        'SELECT block AS b FROM accreditation_block WHERE subjectId = ? AND actionId = ? ORDER BY block DESC',
        [subjectId, actionId],
      );
      let before = 0;
      for (const { b } of edges) {
        const [{ n }] = await t.ds.query(
          'SELECT n FROM accreditation_block WHERE subjectId = ? AND actionId = ? AND block = ?',
          [subjectId, actionId, b],
        );
        for (const at of [before - 1, before, before + Number(n) - 1])
          if (at >= 0) pages.add(Math.floor(at / pageSize) + 1);
        before += Number(n);
      }
      for (let k = 0; k < 5; k++) pages.add(1 + Math.floor(Math.random() * last));
      for (const page of [...pages].filter((p) => p >= 1)) {
        const got = await post('user/all', { actionId, page, pageSize, exactCount: true });
        expect(got.status).toBe(200);
        expect(
          got.body.data.map((r: { id: number }) => r.id),
          `page ${page} of ${pageSize}`,
        ).toEqual(await reference(actionId, page, pageSize));
        expect(got.body.max).toBe(total);
      }
      // the empty filter of the filter route reads the same way
      const page = Math.ceil(last / 3);
      expect(
        (await post('user/filter', { actionId, page, pageSize, filterData: {} })).body.data.map(
          (r: { id: number }) => r.id,
        ),
      ).toEqual(await reference(actionId, page, pageSize));
    }
  };

  /** a group's or a zone's links: its table, its key, the ones made */
  type Links = { link: string; key: 'groupId' | 'zoneId'; made: () => { id: number }[] };
  const GROUPS: Links = { link: 'accreditation_group', key: 'groupId', made: () => groups };
  const ZONES: Links = { link: 'accreditation_zone', key: 'zoneId', made: () => zones };

  /** every group's (zone's) kept count, and the filter's exact count and pages, equal the join of links and people */
  const expectLinkCounts = async ({ link, key, made }: Links) => {
    const counted = await t.ds.query(
      `SELECT g.${key} AS item, a.subjectId, a.actionId, COUNT(*) AS n FROM ${link} g
       JOIN accreditation a ON a.id = g.accreditationId GROUP BY g.${key}, a.subjectId, a.actionId ORDER BY 1, 2, 3`,
    );
    const kept = await t.ds.query(
      `SELECT ${key} AS item, subjectId, actionId, n FROM ${link}_count WHERE n <> 0 ORDER BY 1, 2, 3`,
    );
    const norm = (rs: Record<string, unknown>[]) => rs.map((r) => `${r.item}/${r.subjectId}/${r.actionId}:${r.n}`);
    expect(norm(kept)).toEqual(norm(counted));
    for (const g of made())
      for (const a of actions) {
        const want = await t.ds.query(
          `SELECT a.id FROM accreditation a WHERE a.subjectId = ? AND a.actionId = ? AND EXISTS (SELECT 1 FROM ${link} g WHERE g.accreditationId = a.id AND g.${key} = ?) ORDER BY a.id DESC`,
          [subjectId, a.id, g.id],
        );
        for (const exactCount of [true, false]) {
          const got = (
            await post('user/filter', {
              actionId: a.id,
              page: 2,
              pageSize: 10,
              exactCount,
              filterData: { [key]: g.id },
            })
          ).body;
          expect(got.data.map((r: { id: number }) => r.id)).toEqual(
            want.slice(10, 20).map((r: { id: number }) => Number(r.id)),
          );
          expect(got.max).toBe(exactCount ? want.length : Math.min(want.length, 10_000));
        }
        // pages from both ends (a group of one action's people: read from its links alone, the
        // deep-page threshold being 0 here; a group of several actions: by the walk)
        const last = Math.ceil(want.length / 7);
        for (const page of new Set([1, 3, Math.ceil(last / 2), Math.ceil(last / 2) + 1, last - 1, last, last + 1])) {
          if (page < 1) continue;
          const got = (await post('user/filter', { actionId: a.id, page, pageSize: 7, filterData: { [key]: g.id } }))
            .body;
          expect(
            got.data.map((r: { id: number }) => r.id),
            `${key} ${g.id} of action ${a.id}, page ${page}`,
          ).toEqual(want.slice((page - 1) * 7, page * 7).map((r: { id: number }) => Number(r.id)));
        }
      }
  };
  const expectGroupCounts = () => expectLinkCounts(GROUPS);

  /** `limit` of the action's people, newest first, after `offset` */
  const some = async (actionId: number, limit: number, offset = 0) =>
    (
      await t.ds.query(
        `SELECT id FROM accreditation WHERE actionId = ? ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}`,
        [actionId],
      )
    ).map((r: { id: number }) => Number(r.id)) as number[];

  const blocksFrom = LIST_BLOCKS_FROM.offset;
  beforeAll(async () => {
    // every page through the blocks, the first ones too (a page is read by them only from
    // LIST_BLOCK_SIZE entries deep otherwise; the last test checks that threshold)
    LIST_BLOCKS_FROM.offset = 0;
    t = await createTestApp();
    const subject = await createSubject(t);
    subjectId = subject.id;
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    actions = [];
    for (const name of ['A', 'B', 'C']) actions.push((await post('action', { name: ml(name) })).body.data);
    // interleaved in id order: runs of different lengths of each action, over several blocks
    const runs = [
      [0, 2500],
      [1, 300],
      [0, 4000],
      [2, 1700],
      [1, 5000],
      [0, 900],
      [2, 4200],
      [0, 3100],
      [1, 10],
    ];
    for (const [k, n] of runs) await insertPeople(actions[k].id, n);
    groups = [];
    for (const [name, actionId] of [
      ['A1', actions[0].id],
      ['B1', actions[1].id],
      ['Any', null],
    ] as const)
      groups.push({ ...(await post('groups', { name, actionId })).body.data, actionId });
    // group A1: every 4th of A; B1: every 9th of B; Any: every 5th of everyone
    const links: number[][] = [];
    const people: { id: number; actionId: number }[] = await t.ds.query(
      'SELECT id, actionId FROM accreditation WHERE subjectId = ? ORDER BY id',
      [subjectId],
    );
    people.forEach((p, i) => {
      if (Number(p.actionId) === actions[0].id && i % 4 === 0) links.push([Number(p.id), groups[0].id]);
      if (Number(p.actionId) === actions[1].id && i % 9 === 0) links.push([Number(p.id), groups[1].id]);
      if (i % 5 === 0) links.push([Number(p.id), groups[2].id]);
    });
    zones = [];
    for (const [name, actionId] of [
      ['ZA', actions[0].id],
      ['ZAny', null],
    ] as const)
      zones.push({ ...(await post('zone', { name, actionId })).body.data, actionId });
    // zone ZA: every 6th of A; ZAny: every 3rd of everyone
    const zoned: number[][] = [];
    people.forEach((p, i) => {
      if (Number(p.actionId) === actions[0].id && i % 6 === 0) zoned.push([Number(p.id), zones[0].id]);
      if (i % 3 === 0) zoned.push([Number(p.id), zones[1].id]);
    });
    for (const [table, key, rows] of [
      ['accreditation_group', 'groupId', links],
      ['accreditation_zone', 'zoneId', zoned],
    ] as const)
      for (let k = 0; k < rows.length; k += 300) {
        const chunk = rows.slice(k, k + 300);
        await t.ds.query(
          `INSERT INTO ${table} (accreditationId, ${key}) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
          chunk.flat(),
        );
      }
  }, 300_000);
  afterAll(async () => {
    LIST_BLOCKS_FROM.offset = blocksFrom;
    await t.close();
  });

  it('reads any page through the blocks as the OFFSET query does, several actions interleaved', async () => {
    await expectBlocksExact();
    const [{ n }] = await t.ds.query('SELECT COUNT(*) AS n FROM accreditation_block WHERE actionId = ?', [
      actions[0].id,
    ]);
    expect(Number(n)).toBeGreaterThan(3);
    for (const a of actions) await expectPages(a.id);
  }, 300_000);

  it('keeps the blocks and the pages right after inserts, deletes and moves', async () => {
    const [a, b, c] = actions;
    // new people through the API and straight into the table
    for (let k = 0; k < 3; k++)
      expect(
        (await post('user', { actionId: a.id, firstname: 'New', lastname: `N${k}`, email: `new${k}@pos.test` })).status,
      ).toBeLessThan(300);
    await insertPeople(b.id, 700);
    await insertPeople(a.id, 40);
    await expectBlocksExact();
    // deleted from the action (bulk, some of a whole block), from the system (every action of the
    // e-mail), and straight from the table
    const ofA: { id: number }[] = await t.ds.query('SELECT id FROM accreditation WHERE actionId = ? ORDER BY id', [
      a.id,
    ]);
    const gone = ofA.slice(100, 2700).map((r) => Number(r.id));
    expect((await post('user/delete', { actionId: a.id, userId: gone, type: 1 })).status).toBeLessThan(300);
    await post('user', { actionId: b.id, firstname: 'Twin', lastname: 'B', email: 'twin@pos.test' });
    const twin = (await post('user', { actionId: a.id, firstname: 'Twin', lastname: 'A', email: 'twin@pos.test' })).body
      .data;
    expect((await post('user/delete', { actionId: a.id, userId: [twin.id], type: 2 })).status).toBeLessThan(300);
    await t.ds.query('DELETE FROM accreditation WHERE actionId = ? AND id % 3 = 0', [b.id]);
    await expectBlocksExact();
    // moved to another action (no path of the app does it; the triggers follow any statement)
    await t.ds.query('UPDATE accreditation SET actionId = ? WHERE actionId = ? AND id % 11 = 0', [c.id, a.id]);
    await expectBlocksExact();
    for (const x of actions) await expectPages(x.id);
    // an action emptied and deleted leaves no blocks
    const ofC = (await t.ds.query('SELECT id FROM accreditation WHERE actionId = ?', [c.id])).map((r: { id: number }) =>
      Number(r.id),
    );
    expect((await post('user/delete', { actionId: c.id, userId: ofC, type: 1 })).status).toBeLessThan(300);
    expect((await t.api('DELETE', `/api/admin/v1/action/${c.id}`, { token: admin })).status).toBeLessThan(300);
    const [{ n }] = await t.ds.query('SELECT COUNT(*) AS n FROM accreditation_block WHERE actionId = ?', [c.id]);
    expect(Number(n)).toBe(0);
    await expectBlocksExact();
    actions = [a, b];
    for (const x of actions) await expectPages(x.id);
  }, 300_000);

  it('reads by OFFSET, still right, when the blocks do not add up to the count', async () => {
    const a = actions[0].id;
    const [{ block }] = await t.ds.query('SELECT MAX(block) AS block FROM accreditation_block WHERE actionId = ?', [a]);
    await t.ds.query('UPDATE accreditation_block SET n = n + 5 WHERE actionId = ? AND block = ?', [a, block]);
    const got = await post('user/all', { actionId: a, page: 40, pageSize: 10 });
    expect(got.body.data.map((r: { id: number }) => r.id)).toEqual(await reference(a, 40, 10));
    await t.ds.query('UPDATE accreditation_block SET n = n - 5 WHERE actionId = ? AND block = ?', [a, block]);
    // and the blocks are what the page is read by: 5 counted in the wrong block (the sum still
    // right) move the row at the block's edge
    const [top, next] = await t.ds.query(
      'SELECT block, n FROM accreditation_block WHERE actionId = ? ORDER BY block DESC LIMIT 2',
      [a],
    );
    const edge = async () =>
      (await post('user/all', { actionId: a, page: Number(top.n) - 4, pageSize: 1 })).body.data.map(
        (r: { id: number }) => r.id,
      );
    expect(await edge()).toEqual(await reference(a, Number(top.n) - 4, 1));
    await t.ds.query('UPDATE accreditation_block SET n = n - 5 WHERE actionId = ? AND block = ?', [a, top.block]);
    await t.ds.query('UPDATE accreditation_block SET n = n + 5 WHERE actionId = ? AND block = ?', [a, next.block]);
    expect(await edge()).not.toEqual(await reference(a, Number(top.n) - 4, 1));
    await t.ds.query('UPDATE accreditation_block SET n = n + 5 WHERE actionId = ? AND block = ?', [a, top.block]);
    await t.ds.query('UPDATE accreditation_block SET n = n - 5 WHERE actionId = ? AND block = ?', [a, next.block]);
    await expectBlocksExact();
  });

  it('keeps each group count exact through links added, removed, moved and people deleted', async () => {
    const [a, b] = actions;
    await expectGroupCounts();
    // added to a group (add), the group replaced (replace: links removed and added)
    const x = await some(a.id, 60);
    expect(
      (await post('user/assign-groups', { actionId: a.id, userId: x, groupsId: [groups[0].id], mode: 'add' })).status,
    ).toBeLessThan(300);
    await expectGroupCounts();
    expect(
      (await post('user/assign-groups', { actionId: a.id, userId: x.slice(0, 30), groupsId: [groups[2].id] })).status,
    ).toBeLessThan(300);
    await expectGroupCounts();
    // a person with groups through the API, edited out of one
    const made = (
      await post('user', {
        actionId: b.id,
        firstname: 'Grouped',
        lastname: 'Person',
        email: 'grouped@pos.test',
        groupIds: [groups[1].id, groups[2].id],
      })
    ).body.data;
    await expectGroupCounts();
    // people deleted by the app (links first), then straight from the table (person first, the
    // links left behind and deleted afterwards)
    expect(
      (await post('user/delete', { actionId: b.id, userId: [made.id, ...(await some(b.id, 40))], type: 1 })).status,
    ).toBeLessThan(300);
    await expectGroupCounts();
    const raw = await some(a.id, 50, 100);
    await t.ds.query(`DELETE FROM accreditation WHERE id IN (${raw.join(', ')})`);
    await expectGroupCounts();
    await t.ds.query(`DELETE FROM accreditation_group WHERE accreditationId IN (${raw.join(', ')})`);
    await expectGroupCounts();
    // links moved to another group or person, people moved to another action
    await t.ds.query('UPDATE accreditation_group SET groupId = ? WHERE groupId = ? AND accreditationId % 7 = 0', [
      groups[1].id,
      groups[0].id,
    ]);
    await expectGroupCounts();
    await t.ds.query('UPDATE accreditation SET actionId = ? WHERE actionId = ? AND id % 13 = 0', [b.id, a.id]);
    await expectGroupCounts();
    await expectBlocksExact();
  }, 300_000);

  it('keeps each zone count exact through links assigned, people deleted and moved, and the migration fills it', async () => {
    const [a, b] = actions;
    await expectLinkCounts(ZONES);
    // zones assigned (the people's zones replaced: links removed and added)
    const x = await some(a.id, 80);
    expect(
      (await post('user/assign-zone', { actionId: a.id, userId: x, zones: [zones[0].id, zones[1].id] })).status,
    ).toBeLessThan(300);
    await expectLinkCounts(ZONES);
    expect((await post('user/assign-zone', { actionId: a.id, userId: x.slice(0, 50), zones: [] })).status).toBeLessThan(
      300,
    );
    await expectLinkCounts(ZONES);
    // a person with zones through the API, then deleted by the app with others (links first)
    const made = (
      await post('user', {
        actionId: b.id,
        firstname: 'Zoned',
        lastname: 'Person',
        email: 'zoned@pos.test',
        zones: [zones[1].id],
      })
    ).body.data;
    expect(made.id).toBeGreaterThan(0);
    await expectLinkCounts(ZONES);
    expect(
      (await post('user/delete', { actionId: b.id, userId: [made.id, ...(await some(b.id, 30))], type: 1 })).status,
    ).toBeLessThan(300);
    await expectLinkCounts(ZONES);
    // straight from the table: people before their links, links moved, people moved
    const raw = await some(a.id, 40, 200);
    await t.ds.query(`DELETE FROM accreditation WHERE id IN (${raw.join(', ')})`);
    await expectLinkCounts(ZONES);
    await t.ds.query(`DELETE FROM accreditation_zone WHERE accreditationId IN (${raw.join(', ')})`);
    zones.push({ ...(await post('zone', { name: 'ZB', actionId: b.id })).body.data, actionId: b.id });
    await t.ds.query('UPDATE accreditation_zone SET zoneId = ? WHERE zoneId = ? AND accreditationId % 7 = 0', [
      zones[2].id,
      zones[1].id,
    ]);
    await expectLinkCounts(ZONES);
    await t.ds.query('UPDATE accreditation SET actionId = ? WHERE actionId = ? AND id % 17 = 0', [b.id, a.id]);
    await expectLinkCounts(ZONES);
    // the migration's fill from the links there, and its triggers again after it
    const q = t.ds.createQueryRunner();
    try {
      await new ZoneCounts1764800000001().down(q);
      await new ZoneCounts1764800000001().up(q);
    } finally {
      await q.release();
    }
    await expectLinkCounts(ZONES);
    expect(
      (await post('user/assign-zone', { actionId: a.id, userId: x.slice(0, 20), zones: [zones[1].id] })).status,
    ).toBeLessThan(300);
    await expectLinkCounts(ZONES);
    await expectGroupCounts();
  }, 300_000);

  it('reads the blocks only for a page at least one block deep', async () => {
    LIST_BLOCKS_FROM.offset = blocksFrom;
    try {
      const a = actions[0].id;
      const shallow = LIST_BLOCKS_FROM.offset - 1; // the deepest entry still read by OFFSET
      const deep = LIST_BLOCKS_FROM.offset; // the first read through the blocks
      // the block holding the shallow entry (x) counted as empty and its people in the next (y):
      // the sum still right, so read through the blocks both entries would move
      const blocks: { block: number; n: number }[] = await t.ds.query(
        'SELECT block, n FROM accreditation_block WHERE actionId = ? ORDER BY block DESC',
        [a],
      );
      let at = 0;
      for (let sum = Number(blocks[0].n); sum <= shallow; sum += Number(blocks[at].n)) at++;
      const [x, y] = [blocks[at], blocks[at + 1]];
      expect(y).toBeDefined();
      const entry = async (offset: number) =>
        (await post('user/all', { actionId: a, page: offset + 1, pageSize: 1 })).body.data.map(
          (r: { id: number }) => r.id,
        );
      const move = (n: number) =>
        Promise.all([
          t.ds.query('UPDATE accreditation_block SET n = n - ? WHERE actionId = ? AND block = ?', [n, a, x.block]),
          t.ds.query('UPDATE accreditation_block SET n = n + ? WHERE actionId = ? AND block = ?', [n, a, y.block]),
        ]);
      await move(Number(x.n));
      try {
        expect(await entry(shallow)).toEqual(await reference(a, shallow + 1, 1));
        expect(await entry(deep)).not.toEqual(await reference(a, deep + 1, 1));
        LIST_BLOCKS_FROM.offset = 0;
        expect(await entry(shallow)).not.toEqual(await reference(a, shallow + 1, 1));
      } finally {
        await move(-Number(x.n));
      }
      LIST_BLOCKS_FROM.offset = blocksFrom;
      expect(await entry(deep)).toEqual(await reference(a, deep + 1, 1));
      await expectBlocksExact();
      await expectPages(a);
    } finally {
      LIST_BLOCKS_FROM.offset = 0;
    }
  }, 300_000);

  it('the migrations fill the blocks and the group counts from the rows already there', async () => {
    const q = t.ds.createQueryRunner();
    try {
      // the later migration that merges their insert triggers (MariaDB) goes back and forth around them
      const later = new InsertTriggers1764500000001();
      for (const migration of [later, new GroupCounts1764400000002(), new ListBlocks1764400000001()])
        await migration.down(q);
      for (const migration of [new ListBlocks1764400000001(), new GroupCounts1764400000002(), later])
        await migration.up(q);
    } finally {
      await q.release();
    }
    await expectBlocksExact();
    await expectGroupCounts();
    await expectPages(actions[0].id);
  }, 300_000);
});
