import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  TEST_DB,
  type TestApp,
} from '../../testing/test-app.js';
import { TRIGRAM_WRITES, TrigramWorker } from './trigram-worker.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

/**
 * MariaDB's trigram rows written after the person's transaction (migration 1764300000001,
 * trigram-worker.ts): a new person is found by text and by a user field's "contains" at once,
 * while only listed as pending, and the same after the worker wrote their rows; the rows are what
 * the triggers of 1764108100000 wrote; an edit or a removal while pending changes nothing found.
 */
describe.skipIf(TEST_DB !== 'mariadb')('trigram rows written after the transaction (MariaDB, issue 16)', () => {
  let t: TestApp;
  let admin: string;
  let worker: TrigramWorker;
  let action: { id: number };
  let company: { id: number };
  const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token: admin, body });
  const put = (path: string, body: unknown) => t.api('PUT', `/api/admin/v1/${path}`, { token: admin, body });
  const found = async (filterData: object) =>
    (await post('user/filter', { actionId: action.id, page: 1, pageSize: 50, exactCount: true, filterData })).body.data
      .map((r: { id: number }) => r.id)
      .sort((a: number, b: number) => a - b);
  const pending = async () =>
    (await t.ds.query('SELECT accreditationId AS id FROM trigram_pending WHERE actionId = ?', [action.id]))
      .map((r: { id: number }) => Number(r.id))
      .sort((a: number, b: number) => a - b);
  const person = (n: number, firm: string, lastname = `Nováková${n}`) => ({
    actionId: action.id,
    firstname: `Žofie${n}`,
    lastname,
    email: `zofie${n}@example.com`,
    customField: [{ id: company.id, value: firm }],
  });

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    company = (await post('custom-field', { name: 'company', label: ml('Firma'), customFieldType: 1 })).body.data;
    action = (await post('action', { name: ml('Trigrams'), customField: [{ id: company.id }] })).body.data;
    // the worker stopped, so that the people stay pending until the test drains them
    worker = t.app.get(TrigramWorker);
    worker.stopPolling();
    await worker.drain();
  });
  afterAll(() => t?.close());

  it('finds a new person by text and by a field while pending, and after the worker wrote the rows', async () => {
    const ids: number[] = [];
    for (const [n, firm] of [
      [1, 'Zzyzx Corp'],
      [2, 'Acme 50% off_'],
      [3, 'Zzyzx Holding'],
    ] as const) {
      const res = await post('user', person(n, firm));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.data.id);
    }
    expect(await pending()).toEqual(ids);
    const [{ n: rows }] = await t.ds.query(
      'SELECT COUNT(*) AS n FROM accreditation_trigram WHERE accreditationId IN (?, ?, ?)',
      ids,
    );
    expect(Number(rows)).toBe(0);
    const expectations = async () => {
      expect(await found({ text: 'ovákov' })).toEqual(ids);
      expect(await found({ text: 'nováková2' })).toEqual([ids[1]]);
      expect(await found({ text: 'zzz-nothing' })).toEqual([]);
      expect(await found({ customField: { [company.id]: 'zyzx' } })).toEqual([ids[0], ids[2]]);
      expect(await found({ customField: { [company.id]: '50% off_' } })).toEqual([ids[1]]);
      expect(await found({ customField: { [company.id]: 'Holding' } })).toEqual([ids[2]]);
    };
    await expectations();

    expect(await worker.drain()).toBe(3);
    expect(await pending()).toEqual([]);
    await expectations();
    // the rows the insert triggers of 1764108100000 wrote: every distinct trigram of the text
    const person1 = (await t.ds.query('SELECT search FROM accreditation WHERE id = ?', [ids[0]]))[0].search as string;
    const chars = Array.from(person1);
    const want = new Set(
      chars.slice(2).map((_, i) =>
        chars
          .slice(i, i + 3)
          .join('')
          .toLowerCase(),
      ),
    );
    const have = await t.ds.query('SELECT trigram FROM accreditation_trigram WHERE accreditationId = ?', [ids[0]]);
    expect(new Set(have.map((r: { trigram: string }) => r.trigram.toLowerCase()))).toEqual(want);
    const values = await t.ds.query(
      'SELECT COUNT(*) AS n FROM accreditation_value_trigram WHERE accreditationId = ? AND fieldId = ?',
      [ids[0], company.id],
    );
    expect(Number(values[0].n)).toBe('zzyzx corp'.length - 2);
  });

  it('follows an edit and a removal of a person still pending', async () => {
    const a = (await post('user', person(4, 'Quuxly Ltd'))).body.data;
    const b = (await post('user', person(5, 'Quuxly Ltd'))).body.data;
    expect(await pending()).toEqual([a.id, b.id]);
    const edited = await put(`user/${a.id}`, person(4, 'Plumbus AG', 'Dvořáková4'));
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await t.ds.query('DELETE FROM accreditation WHERE id = ?', [b.id]);
    const expectations = async () => {
      expect(await found({ text: 'dvořákov' })).toEqual([a.id]);
      expect(await found({ text: 'nováková4' })).toEqual([]);
      expect(await found({ text: 'nováková5' })).toEqual([]);
      expect(await found({ customField: { [company.id]: 'uuxly' } })).toEqual([]);
      expect(await found({ customField: { [company.id]: 'lumbus' } })).toEqual([a.id]);
    };
    await expectations();
    await worker.drain();
    expect(await pending()).toEqual([]);
    await expectations();
  });

  it("reads only the batch's people, by their primary key, whatever the table's size", async () => {
    // MariaDB's own choice for the values of a small event was every position against every value
    // of the table (a join buffer); the batch's statements name their plan
    const ids: number[] = [];
    for (let n = 10; n < 40; n++) ids.push((await post('user', person(n, `Firm ${n} s.r.o.`))).body.data.id);
    await t.ds.query('ANALYZE TABLE accreditation, accreditation_value, trigram_position');
    // a batch of most of the table: where MariaDB itself chose to read all values
    for (const { select } of TRIGRAM_WRITES) {
      const [row] = await t.ds.query(`EXPLAIN FORMAT=JSON ${select(ids.map(() => '?').join(', '))}`, ids);
      const plan = JSON.parse(Object.values(row)[0] as string);
      const tables: { table_name: string; access_type: string; key?: string }[] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(walk);
        else if (node && typeof node === 'object') {
          const o = node as Record<string, unknown>;
          if (typeof o.table_name === 'string') tables.push(o as (typeof tables)[number]);
          Object.values(o).forEach(walk);
        }
      };
      walk(plan);
      expect(JSON.stringify(plan)).not.toContain('block-nl-join');
      expect(tables[0]).toMatchObject({ access_type: 'range', key: 'PRIMARY' });
      expect(tables[1]).toMatchObject({ table_name: 'p' });
    }
    await worker.drain();
    expect(await found({ customField: { [company.id]: 'firm 27 s.r' } })).toEqual([ids[17]]);
  });

  it('waits longer after each failed drain, up to a minute, and polls at its pace again once one works', async () => {
    expect(worker.nextPollMs).toBe(250);
    const spy = vi.spyOn(t.ds, 'query').mockRejectedValue(new Error('the database went away'));
    try {
      for (const wait of [500, 1000, 2000, 4000]) {
        expect(await worker.drain()).toBe(0);
        expect(worker.nextPollMs).toBe(wait);
      }
      for (let k = 0; k < 12; k++) await worker.drain();
      expect(worker.nextPollMs).toBe(60_000);
    } finally {
      spy.mockRestore();
    }
    await worker.drain();
    expect(worker.nextPollMs).toBe(250);
  });
});
