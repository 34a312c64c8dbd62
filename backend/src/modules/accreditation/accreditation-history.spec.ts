import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccreditations } from '../../testing/seed.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { AccreditationMailService } from '../mail/accreditation-mail.service.js';
import { AccreditationHistoryService, HISTORY_SIZE } from './accreditation-history.service.js';
import { localDay } from './entrance.entity.js';
import { PrintLogEntity } from './print-log.entity.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });
/** the time zone of the subjects createSubject makes: the day of their entry log */
const ZONE = 'Europe/Prague';

describe('accreditation list: entrance filters and row history (spec §2 Accreditation list)', () => {
  let t: TestApp;
  let admin: string;
  let history: AccreditationHistoryService;
  let action: { id: number };
  let subjectId: number;
  const people: { id: number; subjectId: number; actionId: number; firstname: string }[] = [];

  const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token: admin, body });
  const names = async (filterData: Record<string, unknown>) => {
    const res = await post('user/filter', { actionId: action.id, page: 1, pageSize: 50, filterData });
    expect(res.status).toBe(200);
    return (res.body.data as { firstname: string }[]).map((p) => p.firstname).sort();
  };

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    subjectId = subject.id;
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    history = t.app.get(AccreditationHistoryService);
    action = (await post('action', { name: ml('Festival') })).body.data;
    for (const name of ['Ada', 'Bob', 'Cyril', 'Dana']) {
      const res = await post('user', { actionId: action.id, firstname: name, lastname: 'X', email: `${name}@ex.com` });
      expect(res.status).toBe(201);
      people.push({ ...res.body.data, subjectId: subject.id, actionId: action.id });
    }
    const [ada, bob, cyril] = people;
    const yesterday = new Date(Date.now() - 86_400_000);
    // Ada entered today and yesterday, Bob only yesterday, Cyril only left (an exit is no entry).
    await history.recordEntrance(ada, 1, 7, yesterday);
    await history.recordEntrance(ada, 1, 7);
    await history.recordEntrance(bob, 1, null, yesterday);
    await history.recordEntrance(cyril, 0, 7);
  });
  afterAll(() => t.close());

  it('filters entered (1), entered on a day (2), not entered (3) and not entered on a day (4)', async () => {
    const yesterday = localDay(Date.now() - 86_400_000, ZONE);
    expect(await names({ entrance: 1 })).toEqual(['Ada', 'Bob']);
    expect(await names({ entrance: 3 })).toEqual(['Cyril', 'Dana']);
    // The day defaults to today, as the date picker does.
    expect(await names({ entrance: 2 })).toEqual(['Ada']);
    expect(await names({ entrance: 4 })).toEqual(['Bob', 'Cyril', 'Dana']);
    expect(await names({ entrance: 2, entranceDate: yesterday })).toEqual(['Ada', 'Bob']);
    expect(await names({ entrance: 4, entranceDate: yesterday })).toEqual(['Cyril', 'Dana']);
    // Combined with another filter, and on the select-all form of a bulk call.
    expect(await names({ entrance: 1, text: 'bob' })).toEqual(['Bob']);
  });

  it('counts broad entrance filters exactly, and a deleted person leaves the entry log', async () => {
    // 2,100 people: 2,050 entered today (the first 20 twice, the next 10 also yesterday), 10
    // only left; past the list's selective cap, so the counts come from the entry log's index.
    const festival = (await post('action', { name: ml('Big festival') })).body.data;
    const ids = await seedAccreditations(t.ds, { subjectId, actionId: festival.id, count: 2100 });
    const today = localDay(Date.now(), ZONE);
    const yesterday = localDay(Date.now() - 86_400_000, ZONE);
    const log: [number, number, string][] = [
      ...ids.slice(0, 2050).map((id) => [id, 1, today] as [number, number, string]),
      ...ids.slice(0, 20).map((id) => [id, 1, today] as [number, number, string]),
      ...ids.slice(20, 30).map((id) => [id, 1, yesterday] as [number, number, string]),
      ...ids.slice(2050, 2060).map((id) => [id, 0, today] as [number, number, string]),
    ];
    for (let k = 0; k < log.length; k += 300) {
      const chunk = log.slice(k, k + 300);
      await t.ds.query(
        `INSERT INTO entrance (subjectId, actionId, accreditationId, type, day, createdAt) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap(([id, type, day]) => [subjectId, festival.id, id, type, day, `${day} 10:00:00.000`]),
      );
    }
    const filter = async (filterData: object) =>
      (await post('user/filter', { actionId: festival.id, page: 1, pageSize: 10, filterData })).body;
    const entered = await filter({ entrance: 1 });
    expect(entered.max).toBe(2050);
    expect(entered.data.map((r: { id: number }) => r.id)).toEqual(ids.slice(2040, 2050).reverse());
    expect((await filter({ entrance: 2 })).max).toBe(2050);
    expect((await filter({ entrance: 2, entranceDate: yesterday })).max).toBe(10);
    const notEntered = await filter({ entrance: 3 });
    expect(notEntered.max).toBe(50);
    expect(notEntered.data.map((r: { id: number }) => r.id)).toEqual(ids.slice(2090).reverse());
    expect((await filter({ entrance: 4 })).max).toBe(50);
    expect((await filter({ entrance: 4, entranceDate: yesterday })).max).toBe(2090);
    expect((await filter({ entrance: 1, text: 'p205' })).max).toBe(1 + 1);

    const gone = ids.slice(0, 100);
    expect((await post('user/delete', { actionId: festival.id, userId: gone, type: 1 })).body.data.changed).toBe(100);
    const [left] = await t.ds.query(`SELECT COUNT(*) AS n FROM entrance WHERE accreditationId IN (${gone.join(',')})`);
    expect(Number(left.n)).toBe(0);
    expect((await filter({ entrance: 1 })).max).toBe(1950);
    expect((await filter({ entrance: 3 })).max).toBe(50);
  });

  it("takes today and writes passages in the subject's time zone, not the server's (D19)", async () => {
    // a zone whose day differs from the server's now (+13/+14 and -11 never share a day)
    const pad = (n: number) => String(n).padStart(2, '0');
    const d = new Date();
    const serverDay = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    const zone = ['Pacific/Auckland', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'].find(
      (z) => localDay(d, z) !== serverDay,
    ) as string;
    expect(localDay(d, zone)).not.toBe(serverDay);
    const far = await createSubject(t);
    await t.ds.query('UPDATE subject SET timeZone = ? WHERE id = ?', [zone, far.id]);
    const farAdmin = await loginAs(t, await createAdminUser(t, far, { superuser: true }));
    const farPost = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token: farAdmin, body });
    const farAction = (await farPost('action', { name: ml('Auckland') })).body.data;
    const kiri = (
      await farPost('user', { actionId: farAction.id, firstname: 'Kiri', lastname: 'X', email: 'kiri@ex.com' })
    ).body.data;
    await farPost('user', { actionId: farAction.id, firstname: 'Tane', lastname: 'X', email: 'tane@ex.com' });
    const row = await history.recordEntrance({ ...kiri, subjectId: far.id, actionId: farAction.id }, 1, null, d);
    expect(row.day).toBe(localDay(d, zone));
    const farNames = async (filterData: Record<string, unknown>) =>
      (
        (await farPost('user/filter', { actionId: farAction.id, page: 1, pageSize: 50, filterData })).body.data as {
          firstname: string;
        }[]
      ).map((p) => p.firstname);
    // "entered today" and "not entered today" without a day: the subject's today
    expect(await farNames({ entrance: 2 })).toEqual(['Kiri']);
    expect(await farNames({ entrance: 4 })).toEqual(['Tane']);
    expect(await farNames({ entrance: 2, entranceDate: serverDay })).toEqual([]);
  });

  it('rejects a malformed day and an unknown entrance type with field errors', async () => {
    const bad = await post('user/filter', {
      actionId: action.id,
      filterData: { entrance: 2, entranceDate: '22.11.2026' },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error.details)).toContain('basics.enterCorrectDate');
    expect((await post('user/filter', { actionId: action.id, filterData: { entrance: 5 } })).status).toBe(400);
  });

  it('carries the latest passages, prints and mails on every list row, newest first, at most five', async () => {
    const ada = people[0];
    for (let i = 0; i < HISTORY_SIZE + 2; i++) await history.recordEntrance(ada, i % 2 === 0 ? 1 : 0, 9);
    const res = await post('user/all', { actionId: action.id, page: 1, pageSize: 10 });
    expect(res.status).toBe(200);
    const rows = res.body.data as { id: number; history: { entrance: { type: number; date: string }[] } }[];
    const adaRow = rows.find((r) => r.id === ada.id)!;
    expect(adaRow.history.entrance).toHaveLength(HISTORY_SIZE);
    const dates = adaRow.history.entrance.map((e) => e.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(adaRow.history.entrance[0]).toMatchObject({ type: 1, deviceId: 9 });
    expect(new Date(dates[0]).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const dana = rows.find((r) => r.id === people[3].id)!;
    expect(dana.history).toEqual({ mail: [], print: [], entrance: [] });
  });

  it('names the template and the admin user of mails and prints, and the state of the mail', async () => {
    const bob = people[1];
    const template = (
      await post('mail-template', {
        name: 'Welcome',
        type: 2,
        subjectFrom: 'Welcome!',
        html: '<p>Hi {{firstname}}</p>',
      })
    ).body.data;
    const me = (await t.api('GET', '/api/admin/v1/actual', { token: admin })).body.data;
    await t.app.get(AccreditationMailService).queueTemplateMail({
      subjectId: bob.subjectId,
      accreditationIds: [bob.id],
      mailTemplateId: template.id,
      adminUserId: me.id,
    });
    await t.ds
      .getRepository(PrintLogEntity)
      .save({ subjectId: bob.subjectId, accreditationId: bob.id, adminUserId: me.id, createdAt: new Date() });
    await t.mails();
    const rows = (await post('user/filter', { actionId: action.id, filterData: { text: 'bob' } })).body.data;
    expect(rows[0].history.mail).toEqual([
      expect.objectContaining({ mailTemplate: 'Welcome', adminUser: me.name, status: 'sent', fail: null }),
    ]);
    expect(rows[0].history.print).toEqual([expect.objectContaining({ adminUser: me.name })]);
    expect(rows[0].history.entrance).toEqual([expect.objectContaining({ type: 1, deviceId: null })]);
  });
});
