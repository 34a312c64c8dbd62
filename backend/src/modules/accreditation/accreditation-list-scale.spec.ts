import { foldSearch } from '@accredo/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedAccreditations } from '../../testing/seed.js';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  TEST_DB,
  type TestApp,
} from '../../testing/test-app.js';
import { SearchById1764900000001 } from '../../database/migrations/1764900000001-search-by-id.js';
import { containing } from '../../database/columns.js';
import { preparedReader } from '../../database/prepared.js';
import { AccreditationService, COUNT_CAP, FTS_TRIGRAMS } from './accreditation.service.js';
import { MARK_EVERY, WalkMarks } from './walk-marks.js';

/** more matches than a filter reads at once to tell few from many (SELECTIVE, 2,000) */
const SELECTIVE_CHECK = 2000;
const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

/**
 * The list at scale (issue 16): every filter, over more rows than the count cap and past the
 * selective threshold, answers exactly what a scan of the rows answers (the reference computed
 * here from the table), whichever path (id list, index, EXISTS / NOT EXISTS, the text index)
 * serves it; the count stops at COUNT_CAP unless the exact count is asked for.
 */
describe(`accreditation list at scale on ${TEST_DB} (issue 16)`, () => {
  let t: TestApp;
  let admin: string;
  let action: { id: number };
  let other: { id: number };
  let groups: { id: number }[];
  let zone: { id: number };
  let wideZone: { id: number };
  let company: { id: number };
  /** the company user field's value of each accreditation */
  const companyOf = new Map<number, string>();
  /** the action's rows, newest first */
  let rows: { id: number; customId: number; search: string; printCount: number }[];
  const inGroup = new Map<number, Set<number>>();
  const inZone = new Set<number>();
  const inWideZone = new Set<number>();
  const entered = new Map<string, Set<number>>();
  const ROWS = COUNT_CAP + 1500;
  const DAY1 = '2027-05-10';
  const DAY2 = '2027-05-11';

  const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token: admin, body });
  const list = async (filterData: object | null, page = 1, exactCount = false, pageSize = 10) =>
    (
      await post(filterData ? 'user/filter' : 'user/all', {
        actionId: action.id,
        page,
        pageSize,
        exactCount,
        ...(filterData ? { filterData } : {}),
      })
    ).body;

  /** The filter answers the rows `match` picks, newest first, on pages 1 and 3, counted both ways. */
  async function expectFilter(filterData: object | null, match: (r: (typeof rows)[number]) => boolean) {
    const want = rows.filter(match).map((r) => r.id);
    const first = await list(filterData);
    expect(first.data.map((r: { id: number }) => r.id)).toEqual(want.slice(0, 10));
    expect({ max: first.max, maxCapped: first.maxCapped }).toEqual(
      want.length > COUNT_CAP ? { max: COUNT_CAP, maxCapped: true } : { max: want.length, maxCapped: false },
    );
    const third = await list(filterData, 3, true);
    expect(third.data.map((r: { id: number }) => r.id)).toEqual(want.slice(20, 30));
    expect({ max: third.max, maxCapped: third.maxCapped }).toEqual({ max: want.length, maxCapped: false });
    return want.length;
  }

  /**
   * The statements the list sent for one page (TypeORM's logger sees each one), and the plan of
   * the one that `picks` as the database would run it, with its own parameters.
   */
  async function planOf(body: Parameters<typeof list>, picks: (sql: string) => boolean) {
    const sent = await sentBy(body);
    const found = sent.filter(([sql]) => picks(sql));
    expect(found, sent.map(([sql]) => sql).join('\n')).toHaveLength(1);
    const [sql, params] = found[0];
    const plan: Record<string, unknown>[] = await t.ds.query(
      `${TEST_DB === 'mariadb' ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN'} ${sql}`,
      params,
    );
    return plan;
  }
  /** The statements one page of the list sent, with their parameters. */
  async function sentBy(body: Parameters<typeof list>) {
    const sent: [string, unknown[]][] = [];
    const spy = vi.spyOn(t.ds.logger, 'logQuery').mockImplementation((sql, params) => {
      sent.push([sql, Array.isArray(params) ? params : []]);
    });
    // and those prepared on the driver (the marks of a text's walk: walk-marks.ts)
    const reader = preparedReader(t.ds);
    const { all, arrays } = { all: reader.all.bind(reader), arrays: reader.arrays.bind(reader) };
    const spies = [
      vi.spyOn(reader, 'all').mockImplementation(async (sql, params) => {
        sent.push([sql, params]);
        return all(sql, params);
      }),
      vi.spyOn(reader, 'arrays').mockImplementation(async (sql, params) => {
        sent.push([sql, params]);
        return arrays(sql, params);
      }),
    ];
    try {
      await list(...body);
    } finally {
      spy.mockRestore();
      for (const s of spies) s.mockRestore();
    }
    return sent;
  }
  /** The plan reads this index alone (covering) and sorts nothing. */
  const readsAlone = (plan: Record<string, unknown>[], index: string) =>
    TEST_DB === 'mariadb'
      ? plan[0].key === index &&
        String(plan[0].Extra).includes('Using index') &&
        !String(plan[0].Extra).includes('filesort')
      : plan.some((p) => String(p.detail).includes(`COVERING INDEX ${index}`)) &&
        !plan.some((p) => String(p.detail).includes('TEMP B-TREE'));

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    const make = async (name: string) => {
      const res = await post('action', {
        name: ml(name),
        dateFrom: `${DAY1}T08:00`,
        dateTo: `${DAY2}T18:00`,
        customField: [{ id: company.id }],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data;
    };
    company = (await post('custom-field', { name: 'company', label: ml('Firma'), customFieldType: 1 })).body.data;
    action = await make('Scale');
    other = await make('Other');
    groups = [
      (await post('groups', { name: 'Many', actionId: action.id })).body.data,
      (await post('groups', { name: 'Few', actionId: action.id })).body.data,
    ];
    zone = (await post('zone', { name: 'VIP', actionId: action.id })).body.data;
    wideZone = (await post('zone', { name: 'Hall', actionId: action.id })).body.data;
    // the company: 700 firms, a few with LIKE's own characters; some without a value
    const firm = (n: number) =>
      n % 11 === 0
        ? null
        : n % 500 === 1
          ? `Sale 50% off_${n % 3}!`
          : `Company ${n % 700} s.r.o.${n % 4 === 0 ? ' Praha' : ''}`;
    const ids = await seedAccreditations(t.ds, {
      subjectId: subject.id,
      actionId: action.id,
      count: ROWS,
      values: (n) => (firm(n) === null ? {} : { [company.id]: firm(n) as string }),
    });
    ids.forEach((id, i) => {
      const value = firm(i + 1);
      if (value !== null) companyOf.set(id, value);
    });
    // people of another action whose text and entries must not count here
    const otherIds = await seedAccreditations(t.ds, {
      subjectId: subject.id,
      actionId: other.id,
      count: 3000,
      values: (n) => ({ [company.id]: `Company ${n % 700} s.r.o.` }),
    });
    // a few through the API: names with capitals and diacritics, folded by the server
    for (const [firstname, lastname] of [
      ['Žofie', 'Nováková'],
      ['Ľubica', 'ĎUROVIČOVÁ'],
      ['Jürgen', 'Weiß'],
      ['Anna', '50% Off_Sale'],
    ])
      expect(
        (
          await post('user', {
            actionId: action.id,
            firstname,
            lastname,
            email: `${foldSearch(firstname)}@example.com`,
          })
        ).status,
      ).toBe(201);

    const insert = async (sql: string, values: unknown[][]) => {
      for (let k = 0; k < values.length; k += 300) {
        const chunk = values.slice(k, k + 300);
        await t.ds.query(
          `${sql} VALUES ${chunk.map((v) => `(${v.map(() => '?').join(', ')})`).join(', ')}`,
          chunk.flat(),
        );
      }
    };
    // group Many: every 3rd (broad), Few: every 500th (selective); the zone: 7 people
    const links: number[][] = [];
    ids.forEach((id, i) => {
      if (i % 3 === 0) links.push([id, groups[0].id]);
      if (i % 500 === 0) links.push([id, groups[1].id]);
    });
    await insert('INSERT INTO accreditation_group (accreditationId, groupId)', links);
    for (const [id, g] of links) inGroup.set(g, (inGroup.get(g) ?? new Set()).add(id));
    for (const id of ids.slice(100, 107)) inZone.add(id);
    // the wide zone: every 2nd but every 14th (broad; shares people with group Many and the printed)
    ids.forEach((id, i) => {
      if (i % 2 === 0 && i % 14) inWideZone.add(id);
    });
    await insert('INSERT INTO accreditation_zone (accreditationId, zoneId)', [
      ...[...inZone].map((id) => [id, zone.id]),
      ...[...inWideZone].map((id) => [id, wideZone.id]),
    ]);
    // entries: 4 in 5 on day 1 (broad), every 1000th on day 2 (selective), an exit (type 0) does
    // not count; the other action's people entered on day 2
    const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
    const entries: unknown[][] = [];
    const add = (actionId: number, id: number, type: number, day: string) => {
      entries.push([subject.id, actionId, id, type, day, now]);
      if (type === 1 && actionId === action.id) {
        for (const key of [day, 'any']) entered.set(key, (entered.get(key) ?? new Set()).add(id));
      }
    };
    ids.forEach((id, i) => {
      if (i % 5) add(action.id, id, 1, DAY1);
      if (i % 5 && i % 2) add(action.id, id, 1, DAY1); // entered twice: one person, once
      if (i % 1000 === 0) add(action.id, id, 1, DAY2);
      if (i % 5 === 0 && i % 1000) add(action.id, id, 0, DAY2);
    });
    for (const id of otherIds) add(other.id, id, 1, DAY2);
    await insert('INSERT INTO entrance (subjectId, actionId, accreditationId, type, day, createdAt)', entries);
    await t.ds.query('UPDATE accreditation SET printCount = 2 WHERE actionId = ? AND customId % 7 = 0', [action.id]);
    rows = (
      await t.ds.query(
        'SELECT id, customId, search, printCount FROM accreditation WHERE actionId = ? ORDER BY id DESC',
        [action.id],
      )
    ).map((r: Record<string, unknown>) => ({
      id: Number(r.id),
      customId: Number(r.customId),
      search: String(r.search),
      printCount: Number(r.printCount),
    }));
    expect(rows).toHaveLength(ROWS + 4);
  }, 120_000);
  afterAll(() => t.close());

  it('counts up to the cap, then says "or more"; the exact count on request', async () => {
    expect(await expectFilter(null, () => true)).toBe(ROWS + 4);
    // a deep page by offset: the same rows as the order says
    const deep = await list(null, 1000, false, 10);
    expect(deep.data.map((r: { id: number }) => r.id)).toEqual(rows.slice(9990, 10000).map((r) => r.id));
    const beyond = await list(null, 1200, false, 10);
    expect(beyond.data.map((r: { id: number }) => r.id)).toEqual(rows.slice(11990, 12000).map((r) => r.id));
    expect(beyond.maxCapped).toBe(true);
    // the last page, partly filled (read from the oldest end), and past it nothing
    const last = Math.ceil(rows.length / 10);
    const tail = await list(null, last, true, 10);
    expect(tail.data.map((r: { id: number }) => r.id)).toEqual(rows.slice((last - 1) * 10).map((r) => r.id));
    expect({ max: tail.max, maxCapped: tail.maxCapped }).toEqual({ max: rows.length, maxCapped: false });
    expect((await list(null, last + 1)).data).toEqual([]);
    // the old body without exactCount still answers a number in max
    const old = await post('user/all', { actionId: action.id, page: 1, pageSize: 10 });
    expect(old.body.max).toBe(COUNT_CAP);
    expect((await post('user/all', { actionId: action.id, exactCount: 'yes' })).status).toBe(400);
  });

  it('finds text as any part of the folded names, e-mail and code, ignoring case and diacritics', async () => {
    const text = (q: string) => expectFilter({ text: q }, (r) => r.search.includes(foldSearch(q)));
    // few matches (the id list), between the thresholds, past the cap (the walk), none
    expect(await text('p1234')).toBe(1);
    expect(await text('001')).toBeGreaterThan(1000);
    expect(await text('x0001')).toBe(1000);
    expect(await text('X000')).toBeGreaterThan(COUNT_CAP - 100);
    expect(await text('x00')).toBeGreaterThanOrEqual(ROWS);
    expect(await text('nobody-here')).toBe(0);
    // inside words, across words, short texts (no index), LIKE's own characters taken literally
    expect(await text('234 q')).toBeGreaterThan(1);
    expect(await text('23')).toBeGreaterThan(100);
    expect(await text('a')).toBe(4);
    expect(await text('50% off_')).toBe(1);
    expect(await text('%')).toBe(1);
    expect(await text('_')).toBe(1);
    // case and diacritics, both ways
    for (const q of ['novakova', 'NOVÁKOVÁ', 'Žofie', 'zofie nov', 'ďurovičová', 'durovicova', 'WEISS', 'weiß', 'ürg'])
      expect(await text(q), q).toBe(1);
    // a person of another action is not found here
    expect((await list({ text: `s${other.id}x` })).max).toBe(0);
  });

  it('walks a broad text newest first through its index alone, to any page', async () => {
    const want = rows.filter((r) => r.search.includes('x00')).map((r) => r.id);
    expect(want.length).toBeGreaterThan(COUNT_CAP);
    for (const page of [2, 700, Math.ceil(want.length / 10)]) {
      const got = await list({ text: 'x00' }, page);
      expect(got.data.map((r: { id: number }) => r.id)).toEqual(want.slice((page - 1) * 10, page * 10));
    }
    // the page's statement (the walk newest first, OFFSET 6990) reads IDX_accreditation_search
    // (subject, action, id, search) and no row (migration 1764900000001)
    const walk = (sql: string) =>
      /ORDER BY/.test(sql) && /OFFSET/.test(sql) && /search\W*( COLLATE utf8mb4_bin)? LIKE/.test(sql);
    const alone = async () => readsAlone(await planOf([{ text: 'x00' }, 700], walk), 'IDX_accreditation_search');
    expect(await alone()).toBe(true);
    // the migration undone (the index in text order) and done again; on SQLite with statistics
    // (an ANALYZE), the new index's are written too
    if (TEST_DB !== 'mariadb') await t.ds.query('ANALYZE');
    const migration = new SearchById1764900000001();
    const q = t.ds.createQueryRunner();
    try {
      await migration.down(q);
      expect(await alone()).toBe(false);
      if (TEST_DB !== 'mariadb') await t.ds.query("DELETE FROM sqlite_stat1 WHERE idx = 'IDX_accreditation_search'");
      await migration.up(q);
    } finally {
      await q.release();
    }
    expect(await alone()).toBe(true);
    if (TEST_DB !== 'mariadb')
      expect(
        (await t.ds.query("SELECT stat FROM sqlite_stat1 WHERE idx = 'IDX_accreditation_search'"))[0].stat.split(' '),
      ).toHaveLength(5);
    expect((await list({ text: 'x00' }, 700)).data.map((r: { id: number }) => r.id)).toEqual(want.slice(6990, 7000));
  });

  it("keeps the marks of a broad text's walk: deep pages and the exact count read once, read again after any change", async () => {
    const want = () => rows.filter((r) => r.search.includes('x00')).map((r) => r.id);
    const deep = async (page: number, exactCount = false) => {
      const got = await list({ text: 'x00' }, page, exactCount);
      return { ids: got.data.map((r: { id: number }) => r.id) as number[], max: got.max, maxCapped: got.maxCapped };
    };
    const last = () => Math.ceil(want().length / 10);
    const expectPages = async () => {
      for (const page of [1, 450, 701, last()])
        expect((await deep(page)).ids).toEqual(want().slice((page - 1) * 10, page * 10));
      expect(await deep(last() + 1)).toEqual({ ids: [], max: COUNT_CAP, maxCapped: true });
      expect(await deep(900, true)).toEqual({
        ids: want().slice(8990, 9000),
        max: want().length,
        maxCapped: false,
      });
    };
    await expectPages();
    // once marked, a deep page and the exact count skip fewer than MARK_EVERY matches
    const skips = (sent: [string, unknown[]][]) =>
      sent
        .filter(([sql]) => /search\W*( COLLATE utf8mb4_bin)? LIKE/.test(sql))
        .map(([sql]) => Number(/OFFSET (\d+)/.exec(sql)?.[1] ?? 0));
    for (const body of [
      [{ text: 'x00' }, 1000],
      [{ text: 'x00' }, 600, true],
    ] as Parameters<typeof list>[]) {
      const offsets = skips(await sentBy(body));
      expect(offsets.length).toBeGreaterThan(0);
      expect(Math.max(...offsets)).toBeLessThan(MARK_EVERY);
    }
    // (SQLite: the text's trigrams were weighed once, rareTrigrams keeps its answer a minute)
    const weighs = (await sentBy([{ text: 'x00' }, 1000])).filter(([sql]) => /MATCH \? LIMIT 1 OFFSET/.test(sql));
    expect(weighs).toEqual([]);
    // and reads from a mark as a range of the text's index (subject, action, id), not every entry
    // above it (MariaDB took the (subject, action) ref for a USE INDEX)
    const fromMark = await planOf(
      [{ text: 'x00' }, 1000],
      (sql) => /search\W*( COLLATE utf8mb4_bin)? LIKE/.test(sql) && /<= \?/.test(sql),
    );
    if (TEST_DB === 'mariadb')
      expect([fromMark[0].key, fromMark[0].type, Number(fromMark[0].key_len)]).toEqual([
        'IDX_accreditation_search',
        'range',
        12,
      ]);
    else
      expect(fromMark.map((p) => String(p.detail))).toEqual([
        expect.stringMatching(/COVERING INDEX IDX_accreditation_search \(subjectId=\? AND actionId=\? AND id<\?\)/),
      ]);
    // a new person who matches, their e-mail changed so they no longer do, a search text changed
    // by a statement of its own (the change feed records it: migration 1765000000001), a delete:
    // each moves every page after it
    const created = (
      await post('user', { actionId: action.id, firstname: 'Marked', lastname: 'Walk', email: 'x00walk@example.com' })
    ).body.data;
    rows.unshift({ id: created.id, customId: 0, search: 'marked walk x00walk@example.com', printCount: 0 });
    await expectPages();
    await t.api('PUT', `/api/admin/v1/user/${created.id}`, {
      token: admin,
      body: { actionId: action.id, firstname: 'Marked', lastname: 'Walk', email: 'walk@example.com' },
    });
    rows[0].search = 'marked walk walk@example.com';
    await expectPages();
    const matching = rows.find((r) => r.search.includes('x00'));
    await t.ds.query('UPDATE accreditation SET search = ? WHERE id = ?', ['changed by hand', matching?.id]);
    const before = matching?.search ?? '';
    if (matching) matching.search = 'changed by hand';
    // the first read after it mends the marks (counts again between the two marks around the
    // change) rather than walking from the newest
    const mended = await sentBy([{ text: 'x00' }, 600, true]);
    expect(Math.max(...skips(mended))).toBeLessThan(MARK_EVERY);
    expect(mended.filter(([sql]) => /\) w WHERE w\.id > \?$/.test(sql))).toHaveLength(1);
    await expectPages();
    await t.ds.query('UPDATE accreditation SET search = ? WHERE id = ?', [before, matching?.id]);
    if (matching) matching.search = before;
    await post('user/delete', { actionId: action.id, userId: [created.id], type: 1 });
    rows.shift();
    await expectPages();
  });

  it('reads a long walk of a broad text in two halves at once on MariaDB: the same pages and counts', async () => {
    // marks every 256 (a walk split from 1,024 on): these 11,500 rows walked as a million are
    const service = t.app.get(AccreditationService) as unknown as { walkMarks: WalkMarks };
    const kept = service.walkMarks;
    service.walkMarks = new WalkMarks(256);
    // the walk's reads on the driver, how many at once
    const reader = preparedReader(t.ds);
    const arrays = reader.arrays.bind(reader);
    let [inFlight, most] = [0, 0];
    const spy = vi.spyOn(reader, 'arrays').mockImplementation(async (sql, params) => {
      most = Math.max(most, ++inFlight);
      try {
        return await arrays(sql, params);
      } finally {
        inFlight--;
      }
    });
    try {
      const want = rows.filter((r) => r.search.includes('x00')).map((r) => r.id);
      for (const [page, exactCount] of [
        [450, false],
        [1000, false],
        [150, true],
        [Math.ceil(want.length / 10), false],
        [700, true],
      ] as const) {
        const got = await list({ text: 'x00' }, page, exactCount);
        expect(got.data.map((r: { id: number }) => r.id)).toEqual(want.slice((page - 1) * 10, page * 10));
        if (exactCount)
          expect({ max: got.max, maxCapped: got.maxCapped }).toEqual({ max: want.length, maxCapped: false });
      }
      expect(most).toBe(TEST_DB === 'mariadb' ? 2 : 1);
      // after a change to the action, mended from the marks the two halves left
      const created = (
        await post('user', { actionId: action.id, firstname: 'Split', lastname: 'Walk', email: 'x00split@example.com' })
      ).body.data;
      const again = [created.id, ...want];
      for (const page of [2, 601, Math.ceil(again.length / 10)])
        expect((await list({ text: 'x00' }, page, true)).data.map((r: { id: number }) => r.id)).toEqual(
          again.slice((page - 1) * 10, page * 10),
        );
      await post('user/delete', { actionId: action.id, userId: [created.id], type: 1 });
    } finally {
      spy.mockRestore();
      service.walkMarks = kept;
    }
  });

  it('filters by group, zone, printed and entrance exactly, few or many', async () => {
    expect(await expectFilter({ groupId: groups[0].id }, (r) => inGroup.get(groups[0].id)!.has(r.id))).toBe(
      Math.ceil(ROWS / 3),
    );
    expect(await expectFilter({ groupId: groups[1].id }, (r) => inGroup.get(groups[1].id)!.has(r.id))).toBe(
      Math.ceil(ROWS / 500),
    );
    expect(await expectFilter({ zoneId: zone.id }, (r) => inZone.has(r.id))).toBe(7);
    expect(await expectFilter({ printed: 1 }, (r) => r.printCount > 0)).toBeGreaterThan(1000);
    expect(await expectFilter({ printed: -1 }, (r) => r.printCount === 0)).toBeGreaterThan(9000);
    const any = entered.get('any')!;
    const day1 = entered.get(DAY1)!;
    const day2 = entered.get(DAY2)!;
    expect(await expectFilter({ entrance: 1 }, (r) => any.has(r.id))).toBe(any.size);
    expect(await expectFilter({ entrance: 2, entranceDate: DAY1 }, (r) => day1.has(r.id))).toBe(day1.size);
    expect(await expectFilter({ entrance: 2, entranceDate: DAY2 }, (r) => day2.has(r.id))).toBe(day2.size);
    expect(await expectFilter({ entrance: 3 }, (r) => !any.has(r.id))).toBe(ROWS + 4 - any.size);
    expect(await expectFilter({ entrance: 4, entranceDate: DAY1 }, (r) => !day1.has(r.id))).toBe(ROWS + 4 - day1.size);
    expect(await expectFilter({ entrance: 4, entranceDate: DAY2 }, (r) => !day2.has(r.id))).toBe(ROWS + 4 - day2.size);
    expect(await expectFilter({ entrance: 2, entranceDate: '2027-06-01' }, () => false)).toBe(0);
    expect(await expectFilter({ entrance: 4, entranceDate: '2027-06-01' }, () => true)).toBe(ROWS + 4);
    // combined: each condition's path, and the result is their intersection
    expect(
      await expectFilter(
        { groupId: groups[0].id, printed: -1, entrance: 3, text: 'p1' },
        (r) => inGroup.get(groups[0].id)!.has(r.id) && r.printCount === 0 && !any.has(r.id) && r.search.includes('p1'),
      ),
    ).toBeGreaterThan(10);
    expect(
      await expectFilter(
        { groupId: groups[1].id, entrance: 2, entranceDate: DAY2, text: 'x00' },
        (r) => inGroup.get(groups[1].id)!.has(r.id) && day2.has(r.id) && r.search.includes('x00'),
      ),
    ).toBeGreaterThan(0);
  });

  it('filters by two or more conditions driven by the smaller group or zone, on any page', async () => {
    const many = inGroup.get(groups[0].id)!;
    const any = entered.get('any')!;
    const day1 = entered.get(DAY1)!;
    /** expectFilter, and a deep page and the last one (read by OFFSET over the driving links) */
    const expectAll = async (filterData: object, match: (r: (typeof rows)[number]) => boolean) => {
      const n = await expectFilter(filterData, match);
      const want = rows.filter(match).map((r) => r.id);
      for (const page of [Math.floor(n / 20), Math.ceil(n / 10), Math.ceil(n / 10) + 1]) {
        if (page < 1) continue;
        const got = await list(filterData, page, false, 10);
        expect(
          got.data.map((r: { id: number }) => r.id),
          `page ${page}`,
        ).toEqual(want.slice((page - 1) * 10, page * 10));
      }
      return n;
    };
    expect(await expectAll({ zoneId: wideZone.id }, (r) => inWideZone.has(r.id))).toBe(inWideZone.size);
    expect(
      await expectAll({ groupId: groups[0].id, zoneId: wideZone.id }, (r) => many.has(r.id) && inWideZone.has(r.id)),
    ).toBeGreaterThan(1000);
    expect(
      await expectAll({ groupId: groups[0].id, printed: 1 }, (r) => many.has(r.id) && r.printCount > 0),
    ).toBeGreaterThan(500);
    expect(
      await expectAll({ zoneId: wideZone.id, printed: -1 }, (r) => inWideZone.has(r.id) && r.printCount === 0),
    ).toBeGreaterThan(1000);
    // the wide zone holds no one of every 14th; printed are every 7th of customId: some shared
    expect(
      await expectAll({ zoneId: wideZone.id, printed: 1 }, (r) => inWideZone.has(r.id) && r.printCount > 0),
    ).toBeGreaterThan(0);
    expect(
      await expectAll({ zoneId: wideZone.id, entrance: 3 }, (r) => inWideZone.has(r.id) && !any.has(r.id)),
    ).toBeGreaterThan(100);
    expect(
      await expectAll(
        { groupId: groups[0].id, zoneId: wideZone.id, printed: -1, entrance: 2, entranceDate: DAY1, text: 'q1' },
        (r) =>
          many.has(r.id) && inWideZone.has(r.id) && r.printCount === 0 && day1.has(r.id) && r.search.includes('q1'),
      ),
    ).toBeGreaterThan(10);
    expect(
      await expectAll(
        { groupId: groups[0].id, customField: { [company.id]: 'Praha' } },
        (r) => many.has(r.id) && (companyOf.get(r.id) ?? '').includes('Praha'),
      ),
    ).toBeGreaterThan(100);
    // a group of no action whose links hold people of another action too: the driver's links are
    // not all this action's people, so the people are read with them (and the others' left out)
    const both = (await post('groups', { name: 'Both' })).body.data;
    const inBoth = new Set(rows.filter((_, i) => i % 3 === 1).map((r) => r.id));
    const others: { id: number }[] = await t.ds.query('SELECT id FROM accreditation WHERE actionId = ? LIMIT 600', [
      other.id,
    ]);
    const bothLinks = [...[...inBoth].map((id) => [id, both.id]), ...others.map((r) => [Number(r.id), both.id])];
    for (let k = 0; k < bothLinks.length; k += 300) {
      const chunk = bothLinks.slice(k, k + 300);
      await t.ds.query(
        `INSERT INTO accreditation_group (accreditationId, groupId) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
        chunk.flat(),
      );
    }
    expect(
      await expectAll({ groupId: both.id, zoneId: wideZone.id }, (r) => inBoth.has(r.id) && inWideZone.has(r.id)),
    ).toBeGreaterThan(100);
    expect(
      await expectAll({ groupId: both.id, printed: -1 }, (r) => inBoth.has(r.id) && r.printCount === 0),
    ).toBeGreaterThan(100);
    // a pair that shares no one: none, counted as none
    expect(
      await expectAll({ zoneId: wideZone.id, groupId: groups[1].id, printed: 1 }, (r) =>
        Boolean(inWideZone.has(r.id) && inGroup.get(groups[1].id)!.has(r.id) && r.printCount > 0),
      ),
    ).toBeGreaterThanOrEqual(0);
  });

  it("keeps the count and marks of two conditions' walk, read again after a link changes", async () => {
    const many = inGroup.get(groups[0].id)!;
    const filterData = { groupId: groups[0].id, zoneId: wideZone.id };
    const want = () => rows.filter((r) => many.has(r.id) && inWideZone.has(r.id)).map((r) => r.id);
    const expectPages = async () => {
      for (const page of [1, 3, Math.ceil(want().length / 10)]) {
        const got = await list(filterData, page);
        expect(got.data.map((r: { id: number }) => r.id)).toEqual(want().slice((page - 1) * 10, page * 10));
        expect(got.max).toBe(want().length);
      }
    };
    await expectPages();
    // once marked, page 1 again reads no more than a page and counts nothing
    const sent = await sentBy([filterData, 1]);
    // (the links' own count, whether they are all this action's people, is one index range: not the walk)
    expect(
      sent.filter(
        ([sql]) => /COUNT\(/.test(sql) && !/^SELECT COUNT\(\*\) AS n FROM accreditation_group g WHERE/.test(sql),
      ),
    ).toEqual([]);
    expect(
      sent.filter(([sql]) => /LIMIT/.test(sql) && /\bdrv\b/.test(sql)).map(([sql]) => /LIMIT (\d+)/.exec(sql)?.[1]),
    ).toEqual(['10']);
    // the newest of them leaves the zone (a link deleted by a statement of its own: the change
    // feed's trigger), and comes back
    const [newest] = want();
    await t.ds.query('DELETE FROM accreditation_zone WHERE accreditationId = ? AND zoneId = ?', [newest, wideZone.id]);
    inWideZone.delete(newest);
    await expectPages();
    await t.ds.query('INSERT INTO accreditation_zone (accreditationId, zoneId) VALUES (?, ?)', [newest, wideZone.id]);
    inWideZone.add(newest);
    await expectPages();
  });

  it('keeps the marks of a group and "printed", mended after a first print (the feed records it), not a reprint', async () => {
    const many = inGroup.get(groups[0].id)!;
    const filterData = { groupId: groups[0].id, printed: 1 };
    const want = () => rows.filter((r) => many.has(r.id) && r.printCount > 0).map((r) => r.id);
    const expectPages = async () => {
      for (const page of [1, 3, Math.ceil(want().length / 10)]) {
        const got = await list(filterData, page, true);
        expect(got.data.map((r: { id: number }) => r.id)).toEqual(want().slice((page - 1) * 10, page * 10));
        expect(got.max).toBe(want().length);
      }
    };
    await expectPages();
    // marked: page 1 again reads a page and counts nothing
    const again = await sentBy([filterData, 1, true]);
    expect(again.filter(([sql]) => /COUNT\(/.test(sql) && /printCount/.test(sql))).toEqual([]);
    // the newest of the group not printed yet is printed (a statement of its own, as the print
    // service's): one entry in the feed, and the pages after it move
    const person = rows.find((r) => many.has(r.id) && r.printCount === 0)!;
    const feed = async () => Number((await t.ds.query('SELECT COUNT(*) AS n FROM accreditation_change'))[0].n);
    const before = await feed();
    await t.ds.query('UPDATE accreditation SET printCount = printCount + 1 WHERE id = ?', [person.id]);
    person.printCount = 1;
    expect(await feed()).toBe(before + 1);
    await expectPages();
    // a reprint is no entry
    await t.ds.query('UPDATE accreditation SET printCount = printCount + 1 WHERE id = ?', [person.id]);
    person.printCount = 2;
    expect(await feed()).toBe(before + 1);
    // prints taken back: not printed again, an entry
    await t.ds.query('UPDATE accreditation SET printCount = 0 WHERE id = ?', [person.id]);
    person.printCount = 0;
    expect(await feed()).toBe(before + 2);
    await expectPages();
  });

  it('filters by a text user field as "contains" exactly, few or many, with LIKE characters taken literally', async () => {
    const contains = (q: string) =>
      expectFilter({ customField: { [company.id]: q } }, (r) =>
        (companyOf.get(r.id) ?? '').toLowerCase().includes(q.toLowerCase()),
      );
    expect(await contains('Company 123 ')).toBeGreaterThan(10);
    expect(await contains('company 12')).toBeGreaterThan(100);
    expect(await contains('y 1')).toBeGreaterThan(1000);
    expect(await contains('PRAHA')).toBeGreaterThan(SELECTIVE_CHECK);
    expect(await contains('s.r.o.')).toBeGreaterThan(COUNT_CAP - 1000);
    expect(await contains('50% off_')).toBeGreaterThan(10);
    expect(await contains('_2!')).toBeGreaterThan(0);
    expect(await contains('co')).toBeGreaterThan(COUNT_CAP - 1000);
    expect(await contains('nobody')).toBe(0);
    // with a second condition: the intersection
    expect(
      await expectFilter(
        { customField: { [company.id]: 'company 1' }, printed: 1 },
        (r) => (companyOf.get(r.id) ?? '').includes('Company 1') && r.printCount > 0,
      ),
    ).toBeGreaterThan(100);
  });

  it('pages a user field\'s broad "contains" from its values alone, to any page', async () => {
    const want = rows.filter((r) => (companyOf.get(r.id) ?? '').includes('s.r.o.')).map((r) => r.id);
    expect(want.length).toBeGreaterThan(COUNT_CAP - 1000);
    const filterData = { customField: { [company.id]: 's.r.o.' } };
    const last = Math.ceil(want.length / 10);
    for (const page of [2, 700, last, last + 1]) {
      const got = await list(filterData, page);
      expect(got.data.map((r: { id: number }) => r.id)).toEqual(want.slice((page - 1) * 10, page * 10));
    }
    expect((await list(filterData, 1, true)).max).toBe(want.length);
    // a person deleted with their values is gone from every page; the person of another action
    // whose value is the same is never on one
    const gone = want[25];
    expect((await post('user/delete', { actionId: action.id, userId: [gone], type: 1 })).status).toBeLessThan(300);
    rows = rows.filter((r) => r.id !== gone);
    companyOf.delete(gone);
    const after = want.filter((id) => id !== gone);
    expect((await list(filterData, 3)).data.map((r: { id: number }) => r.id)).toEqual(after.slice(20, 30));
    // the page's statement reads IDX_accreditation_value_person (field, action, person, value)
    // alone, in its order (migration 1764900000002), from the nearest mark of the walk
    const page = (sql: string) =>
      /ORDER BY/.test(sql) && /FROM\W+accreditation_value\W/.test(sql) && !/COUNT/.test(sql);
    expect(readsAlone(await planOf([filterData, 700], page), 'IDX_accreditation_value_person')).toBe(true);
  });

  it('keeps the marks of a user field\'s broad "contains": mended after an edit, no one once the field is deleted', async () => {
    const want = () => rows.filter((r) => (companyOf.get(r.id) ?? '').includes('s.r.o.')).map((r) => r.id);
    const filterData = { customField: { [company.id]: 's.r.o.' } };
    const expectPages = async () => {
      const all = want();
      for (const page of [1, 300, Math.ceil(all.length / 10)]) {
        const got = await list(filterData, page, true);
        expect(got.data.map((r: { id: number }) => r.id)).toEqual(all.slice((page - 1) * 10, page * 10));
        expect({ max: got.max, maxCapped: got.maxCapped }).toEqual({ max: all.length, maxCapped: false });
      }
    };
    await expectPages();
    const walks = (sql: string) => /FROM\W+accreditation_value\W/.test(sql) && /ORDER BY/.test(sql);
    const skips = (sent: [string, unknown[]][]) =>
      sent.filter(([sql]) => walks(sql)).map(([sql]) => Number(/OFFSET (\d+)/.exec(sql)?.[1] ?? 0));
    // once marked, a deep page with the exact count skips fewer than MARK_EVERY values
    const marked = await sentBy([filterData, 500, true]);
    expect(skips(marked).length).toBeGreaterThan(0);
    expect(Math.max(...skips(marked))).toBeLessThan(MARK_EVERY);
    // from a mark: a range of the values' (field, action, person) index, read alone
    const fromMark = await planOf([filterData, 500, true], (sql) => walks(sql) && /<= \?/.test(sql));
    if (TEST_DB === 'mariadb')
      expect([fromMark[0].key, fromMark[0].type]).toEqual(['IDX_accreditation_value_person', 'range']);
    else
      expect(fromMark.map((p) => String(p.detail))).toEqual([
        expect.stringMatching(
          /COVERING INDEX IDX_accreditation_value_person \(fieldId=\? AND actionId=\? AND accreditationId<\?\)/,
        ),
      ]);
    // a person's value edited out of the filter: the next read mends the marks (counts again
    // between two of them), it does not walk from the newest
    const edited = want()[40];
    const [person] = await t.ds.query('SELECT firstname, lastname, email FROM accreditation WHERE id = ?', [edited]);
    const put = await t.api('PUT', `/api/admin/v1/user/${edited}`, {
      token: admin,
      body: { actionId: action.id, ...person, customField: [{ id: company.id, value: 'Jiná a.s.' }] },
    });
    expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
    companyOf.set(edited, 'Jiná a.s.');
    const mended = await sentBy([filterData, 500, true]);
    expect(Math.max(...skips(mended))).toBeLessThan(MARK_EVERY);
    expect(mended.filter(([sql]) => /\) w WHERE w\.id > \?$/.test(sql))).toHaveLength(1);
    await expectPages();
    // a field deleted takes its values with it, in no entry of the change feed: its filter finds
    // no one (its first read finds none, so it is no longer the marked walk; a checkbox's values
    // written by hand for everyone, then the field, unused, deleted)
    const extra = (await post('custom-field', { name: 'extra', label: ml('Extra'), customFieldType: 2 })).body.data;
    await t.ds.query(
      "INSERT INTO accreditation_value (accreditationId, fieldId, actionId, value) SELECT id, ?, actionId, '1' FROM accreditation WHERE actionId = ?",
      [extra.id, action.id],
    );
    const byExtra = { customField: { [extra.id]: '1' } };
    expect((await list(byExtra, 2, true)).max).toBe(rows.length);
    expect((await t.api('DELETE', `/api/admin/v1/custom-field/${extra.id}`, { token: admin })).status).toBeLessThan(
      300,
    );
    expect(await list(byExtra, 2, true)).toMatchObject({ data: [], max: 0 });
  });

  it('keeps "not entered" in step with passages, their deletion, new and deleted people', async () => {
    // accreditation_not_entered (migration 1764200000001) is kept by triggers: what it holds is
    // what the entry log says, on every change below
    const notEntered = async (actionId: number) =>
      (await post('user/filter', { actionId, page: 1, pageSize: 10, exactCount: true, filterData: { entrance: 3 } }))
        .body as { data: { id: number }[]; max: number };
    const reference = async (actionId: number) =>
      (
        await t.ds.query(
          'SELECT a.id FROM accreditation a WHERE a.actionId = ? AND NOT EXISTS (SELECT 1 FROM entrance e WHERE e.accreditationId = a.id AND +e.actionId = a.actionId AND +e.type = 1) ORDER BY a.id DESC',
          [actionId],
        )
      ).map((r: { id: number }) => Number(r.id)) as number[];
    const expectInStep = async (actionId: number) => {
      const want = await reference(actionId);
      const got = await notEntered(actionId);
      expect(got.max).toBe(want.length);
      expect(got.data.map((r) => r.id)).toEqual(want.slice(0, 10));
      const kept = (
        await t.ds.query(
          'SELECT accreditationId AS id FROM accreditation_not_entered WHERE actionId = ? ORDER BY 1 DESC',
          [actionId],
        )
      ).map((r: { id: number }) => Number(r.id));
      expect(kept).toEqual(want);
      return want;
    };
    const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
    const pass = (actionId: number, id: number, type: number, day = DAY2) =>
      t.ds.query(
        'INSERT INTO entrance (subjectId, actionId, accreditationId, type, day, createdAt) SELECT subjectId, ?, ?, ?, ?, ? FROM action WHERE id = ?',
        [actionId, id, type, day, now, actionId],
      );
    const before = await expectInStep(action.id);
    // everyone of the other action entered: none (the empty list), then one whose entry is deleted
    expect(await expectInStep(other.id)).toEqual([]);
    const [{ id: someone }] = await t.ds.query('SELECT MAX(accreditationId) AS id FROM entrance WHERE actionId = ?', [
      other.id,
    ]);
    await t.ds.query('DELETE FROM entrance WHERE actionId = ? AND accreditationId = ?', [other.id, someone]);
    expect(await expectInStep(other.id)).toEqual([Number(someone)]);
    // an exit is no entry; an entry (twice) is; deleting one of two entries leaves them entered
    const [a, b] = before;
    await pass(action.id, a, 0);
    expect(await expectInStep(action.id)).toContain(a);
    await pass(action.id, a, 1);
    await pass(action.id, a, 1, DAY1);
    expect(await expectInStep(action.id)).not.toContain(a);
    await t.ds.query('DELETE FROM entrance WHERE accreditationId = ? AND day = ? AND type = 1', [a, DAY1]);
    expect(await expectInStep(action.id)).not.toContain(a);
    await t.ds.query('DELETE FROM entrance WHERE accreditationId = ? AND type = 1', [a]);
    expect(await expectInStep(action.id)).toContain(a);
    // an entry in another action's log does not make the person entered here
    await pass(other.id, b, 1);
    expect(await expectInStep(action.id)).toContain(b);
    await t.ds.query('DELETE FROM entrance WHERE actionId = ? AND accreditationId = ?', [other.id, b]);
    // a new person has not entered; a deleted one is gone, with the passages
    const created = (
      await post('user', { actionId: action.id, firstname: 'Nora', lastname: 'Newcomer', email: 'nora@example.com' })
    ).body.data;
    expect((await expectInStep(action.id))[0]).toBe(created.id);
    await pass(action.id, created.id, 1);
    expect(await expectInStep(action.id)).not.toContain(created.id);
    await post('user/delete', { actionId: action.id, userId: [created.id], type: 1 });
    expect(await expectInStep(action.id)).toEqual(before);
    const [{ n }] = await t.ds.query('SELECT COUNT(*) AS n FROM accreditation_not_entered WHERE accreditationId = ?', [
      created.id,
    ]);
    expect(Number(n)).toBe(0);
  });

  it('keeps the text index in step with edits and deletes', async () => {
    const created = (
      await post('user', {
        actionId: action.id,
        firstname: 'Quirin',
        lastname: 'Zzyzx',
        email: 'quirin@example.com',
        customField: [{ id: company.id, value: 'Zzyzx Corp' }],
      })
    ).body.data;
    const found = async (filterData: object) =>
      (await list(filterData)).data.map((r: { id: number }) => r.id) as number[];
    const firm = (q: string) => ({ customField: { [company.id]: q } });
    expect(await found({ text: 'zzyzx' })).toEqual([created.id]);
    expect(await found(firm('zzyzx corp'))).toEqual([created.id]);
    // the unfiltered count (the dashboard's counts) follows a new person and a deleted one
    expect((await list(null, 1, true)).max).toBe(rows.length + 1);
    await t.api('PUT', `/api/admin/v1/user/${created.id}`, {
      token: admin,
      body: {
        actionId: action.id,
        firstname: 'Quirin',
        lastname: 'Yyxyz',
        email: 'quirin@example.com',
        customField: [{ id: company.id, value: 'Yyxyz Corp' }],
      },
    });
    expect(await found({ text: 'zzyzx' })).toEqual([]);
    expect(await found(firm('zzyzx'))).toEqual([]);
    expect(await found({ text: 'yyxyz' })).toEqual([created.id]);
    expect(await found(firm('yyxyz corp'))).toEqual([created.id]);
    await post('user/delete', { actionId: action.id, userId: [created.id], type: 1 });
    expect(await found({ text: 'yyxyz' })).toEqual([]);
    expect(await found(firm('yyxyz'))).toEqual([]);
    expect((await list(null, 1, true)).max).toBe(rows.length);
  });

  it('answers a text or a "contains" made of common trigrams as a LIKE scan does, whichever trigrams it is read from', async () => {
    // a shared long prefix, capitals and diacritics in user-field values (kept as typed: SQLite's
    // LIKE folds ASCII case only, MariaDB's collation case and accents too) and in names (folded)
    const made: number[] = [];
    for (const [k, value] of [
      'Společnost Čechy a.s.',
      'SPOLEČNOST ČECHY A.S.',
      'Společnost Morava a.s.',
      'Škoda Company 123 s.r.o.',
      'škoda company 45 S.R.O. Praha',
    ].entries()) {
      const res = await post('user', {
        actionId: action.id,
        firstname: `Čeněk${k}`,
        lastname: k % 2 ? 'ŠŤASTNÝ' : 'Šťastný',
        email: `cenek${k}@example.com`,
        customField: [{ id: company.id, value }],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.push(res.body.data.id);
    }
    const ids = (found: { id: number }[]) => found.map((r) => Number(r.id));
    // what a LIKE over every row answers, newest first
    const scan = {
      text: async (q: string) =>
        ids(
          await t.ds.query(
            "SELECT id FROM accreditation WHERE actionId = ? AND search LIKE ? ESCAPE '!' ORDER BY id DESC",
            [action.id, containing(foldSearch(q))],
          ),
        ),
      field: async (q: string) =>
        ids(
          await t.ds.query(
            "SELECT a.id FROM accreditation a JOIN accreditation_value v ON v.accreditationId = a.id AND v.fieldId = ? WHERE a.actionId = ? AND v.value LIKE ? ESCAPE '!' ORDER BY a.id DESC",
            [company.id, action.id, containing(q)],
          ),
        ),
    };
    // the filter's answer: its exact count and its rows, every page of 500 (the first when many)
    const expectLikeScan = async (kind: 'text' | 'field', q: string) => {
      const want = await scan[kind](q);
      const filterData = kind === 'text' ? { text: q } : { customField: { [company.id]: q } };
      const got: number[] = [];
      for (let page = 1; page === 1 || (got.length === (page - 1) * 500 && want.length <= 2500); page++) {
        const body = await list(filterData, page, true, 500);
        expect({ q, max: body.max, maxCapped: body.maxCapped }).toEqual({ q, max: want.length, maxCapped: false });
        got.push(...ids(body.data));
      }
      expect(got, q).toEqual(want.slice(0, got.length));
      expect(got.length, q).toBe(Math.min(want.length, want.length <= 2500 ? want.length : 500));
      return want.length;
    };
    const fields = [
      'Company 123 s.r.o.',
      'company 45 S.R.O. Praha',
      'Company 123 s.r.o',
      'mpany 69',
      'any 7 s',
      'ompany 1',
      'Company',
      's.r.o. Praha',
      'Společnost',
      'SPOLEČNOST čechy',
      'čechy a.s.',
      'ŠKODA',
      'škoda company',
      '50% off_',
      'Company 9999',
      '"Company" 12* ^:(',
      'č',
      'Š',
      'a.',
      'o',
    ];
    const texts = [
      'x0001234',
      'x001',
      'q123 s',
      ' q1',
      'p12',
      'x00',
      'Čeněk',
      'ŠŤASTNÝ',
      'ceněk1 stastny',
      'ce',
      'e',
      'nobody',
      'q12" ^*:(x',
    ];
    const round = async () => {
      const n: Record<string, number> = {};
      for (const q of fields) n[`field ${q}`] = await expectLikeScan('field', q);
      for (const q of texts) n[`text ${q}`] = await expectLikeScan('text', q);
      return n;
    };
    try {
      const n = await round();
      expect(n['field Company']).toBeGreaterThan(COUNT_CAP);
      expect(n['field Company 123 s.r.o.']).toBeGreaterThan(10);
      expect(n['field Společnost']).toBe(TEST_DB === 'sqlite' ? 2 : 3);
      expect(n['text Čeněk']).toBe(5);
      expect(n['text x0001234']).toBe(1);
      // SQLite: trigrams weighed at 100 rows, then at 300; one of at most 300 rows drives, only
      // those of at most 2,000 are intersected (as the common ones of a million): the same answers
      if (TEST_DB === 'sqlite') {
        const kept = { ...FTS_TRIGRAMS };
        Object.assign(FTS_TRIGRAMS, { first: 100, rare: 300, short: 2000 });
        try {
          expect(await round()).toEqual(n);
        } finally {
          Object.assign(FTS_TRIGRAMS, kept);
        }
      }
    } finally {
      await post('user/delete', { actionId: action.id, userId: made, type: 1 });
    }
  });
});
