import { localDay } from '@accredo/access';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardCounts1764102000000 } from '../../database/migrations/1764102000000-dashboard-counts.js';
import { MailTotals1764102200000 } from '../../database/migrations/1764102200000-mail-totals.js';
import { ml, seedPeople } from '../../testing/mail.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { readDate } from '../device/sql.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { offsetSegments } from './dashboard.service.js';
import { AccreditationEntity, AccreditationGroupEntity } from '../accreditation/accreditation.entity.js';
import { MailQueueEntity, type MailStatus } from '../mail/mail-queue.entity.js';

const HOUR = 3_600_000;

describe('dashboard (spec §2 Dashboard, §3 Dashboard data, §7 GET dashboard)', () => {
  let t: TestApp;
  let admin: string;
  let stranger: string;
  let noRight: string;
  let subjectId: number;

  const get = (token?: string) => t.api('GET', '/api/admin/v1/dashboard', { token });
  const post = (path: string, body: unknown, token = admin) => t.api('POST', `/api/admin/v1/${path}`, { token, body });

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    subjectId = subject.id;
    admin = await loginAs(
      t,
      await createAdminUser(t, subject, { grant: [['dashboard', 'getDashboardData']], superuser: true }),
    );
    noRight = await loginAs(t, await createAdminUser(t, subject, { grant: [['user', 'getUser']] }));
    stranger = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(() => t?.close());

  it('refuses without a session (401) and without the right (403)', async () => {
    expect((await get()).status).toBe(401);
    expect((await get(noRight)).status).toBe(403);
  });

  it('starts at zero', async () => {
    const res = await get(admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      accreditationChartData: [],
      accreditationByActionChartData: [],
      actionPieChartData: [],
      listOfAccreditation: [],
      basicData: {
        actionCount: 0,
        webChannelCount: 0,
        userCount: 0,
        emailSentCount: 0,
        emailInQueue: 0,
        emailErrorCount: 0,
      },
    });
  });

  it("counts the subject's actions, web channels, accreditations and mails, and nothing of another subject", async () => {
    const body = { dateFrom: '2027-05-10T08:00', dateTo: '2027-05-10T18:00' };
    const action = (await post('action', { name: ml('One'), ...body })).body.data;
    await post('action', { name: ml('Two'), ...body });
    const channel = await post('web-channel', { name: 'Public', actionId: action.id });
    expect(channel.status).toBe(201);
    await seedPeople(t, subjectId, action.id, [
      { firstname: 'A', lastname: 'A', email: 'a@example.com' },
      { firstname: 'B', lastname: 'B', email: 'b@example.com' },
      { firstname: 'C', lastname: 'C', email: 'c@example.com' },
    ]);
    // the other subject's data
    const theirs = (await post('action', { name: ml('Theirs'), ...body }, stranger)).body.data;
    await post('web-channel', { name: 'Theirs', actionId: theirs.id }, stranger);

    const repo = t.ds.getRepository(MailQueueEntity);
    const mail = (status: MailStatus, owner: number | null = subjectId) =>
      repo.create({
        subjectId: owner,
        recipient: 'x@example.com',
        subject: 's',
        bodyText: 'b',
        status,
        attempts: status === 'waiting' ? 0 : 1,
        // not due: the worker leaves it alone during the test
        nextAttemptAt: new Date(Date.now() + 3_600_000),
        createdAt: new Date(),
      });
    const saved = await repo.save([
      mail('sent'),
      mail('sent'),
      mail('waiting'),
      mail('sending'),
      mail('error'),
      mail('sent', null),
    ]);

    expect((await get(admin)).body.data.basicData).toEqual({
      actionCount: 2,
      webChannelCount: 1,
      userCount: 3,
      emailSentCount: 2,
      emailInQueue: 2,
      emailErrorCount: 1,
    });
    expect((await get(stranger)).body.data.basicData).toMatchObject({
      actionCount: 1,
      webChannelCount: 1,
      userCount: 0,
      emailSentCount: 0,
    });

    // the mail tiles follow the workers (waiting → sent), a removed mail and one of another subject
    await repo.update({ id: saved[2].id }, { status: 'sent' });
    await repo.delete({ id: saved[0].id });
    await repo.update({ id: saved[5].id }, { subjectId });
    const mails = (await get(admin)).body.data.basicData;
    expect([mails.emailSentCount, mails.emailInQueue, mails.emailErrorCount]).toEqual([3, 1, 1]);
    // the migration fills the totals from the mails there
    const migration = new MailTotals1764102200000();
    const q = t.ds.createQueryRunner();
    try {
      await migration.down(q);
      await migration.up(q);
    } finally {
      await q.release();
    }
    expect((await get(admin)).body.data.basicData).toEqual(mails);
  });

  it('charts: per day, action and source; by action; the pie in percent to 2 decimals; the latest registrations', async () => {
    const body = { dateFrom: '2027-06-10T08:00', dateTo: '2027-06-10T18:00' };
    const a = (await post('action', { name: ml('Alpha'), ...body })).body.data;
    const b = (await post('action', { name: ml('Beta'), ...body })).body.data;
    const group = (await post('groups', { name: 'Crew', actionId: a.id })).body.data;
    const ids = await seedPeople(t, subjectId, a.id, [
      { firstname: 'A1', lastname: 'X', email: 'a1@example.com' },
      { firstname: 'A2', lastname: 'X', email: 'a2@example.com' },
    ]);
    const [b1] = await seedPeople(t, subjectId, b.id, [{ firstname: 'B1', lastname: 'Y', email: 'b1@example.com' }]);
    const repo = t.ds.getRepository(AccreditationEntity);
    await repo.update({ id: ids[0] }, { createdAt: new Date('2027-01-01T10:00:00Z'), source: 'web' });
    await repo.update({ id: ids[1] }, { createdAt: new Date('2027-01-02T23:30:00Z') });
    await repo.update({ id: b1 }, { createdAt: new Date('2027-01-02T08:00:00Z') });
    await t.ds.getRepository(AccreditationGroupEntity).insert({ accreditationId: ids[1], groupId: group.id });

    const data = (await get(admin)).body.data;
    const mine = (rows: { actionId: number }[]) => rows.filter((r) => r.actionId === a.id || r.actionId === b.id);
    // days of the subject's time zone (Prague, UTC+1 in January): 23:30 UTC on the 2nd is the 3rd there
    expect(mine(data.accreditationChartData)).toEqual([
      { date: '2027-01-01', actionId: a.id, source: 'web', count: 1 },
      { date: '2027-01-02', actionId: b.id, source: 'admin', count: 1 },
      { date: '2027-01-03', actionId: a.id, source: 'admin', count: 1 },
    ]);
    expect(mine(data.accreditationByActionChartData)).toEqual([
      { date: '2027-01-01', actionId: a.id, count: 1 },
      { date: '2027-01-02', actionId: b.id, count: 1 },
      { date: '2027-01-03', actionId: a.id, count: 1 },
    ]);
    const total = data.actionPieChartData.reduce((n: number, r: { count: number }) => n + r.count, 0);
    const alpha = data.actionPieChartData.find((r: { actionId: number }) => r.actionId === a.id);
    expect(alpha).toMatchObject({ name: ml('Alpha'), count: 2 });
    expect(alpha.percent).toBe(Math.round((2 / total) * 10_000) / 100);
    expect(data.listOfAccreditation[0]).toMatchObject({
      id: b1,
      actionId: b.id,
      actionName: ml('Beta'),
      firstname: 'B1',
      lastname: 'Y',
      groupName: null,
      image: null,
    });
    expect(data.listOfAccreditation[1]).toMatchObject({ id: ids[1], groupName: 'Crew' });
    expect(data.listOfAccreditation.length).toBeLessThanOrEqual(10);
    // nothing of another subject
    expect((await get(stranger)).body.data.listOfAccreditation).toEqual([]);
  });

  /**
   * The charts read counts the database triggers keep (migration 1764102000000): after every way an
   * accreditation comes, goes or moves they equal a count of the accreditations themselves.
   */
  it('finds the UTC offsets of a time zone over a span, one stretch per daylight-saving change', () => {
    const at = (iso: string) => Date.parse(iso);
    expect(offsetSegments(at('2025-01-01T00:00:00Z'), at('2025-12-31T23:00:00Z'), 'Europe/Prague')).toEqual([
      { from: '2025-01-01 00', offset: 60 },
      { from: '2025-03-30 01', offset: 120 },
      { from: '2025-10-26 01', offset: 60 },
    ]);
    expect(offsetSegments(at('2025-03-30T05:00:00Z'), at('2025-03-30T05:00:00Z'), 'Asia/Kolkata')).toEqual([
      { from: '2025-03-30 05', offset: 330 },
    ]);
    expect(offsetSegments(at('2025-03-01T00:00:00Z'), at('2025-03-20T00:00:00Z'), 'America/New_York')).toEqual([
      { from: '2025-03-01 00', offset: -300 },
      { from: '2025-03-09 07', offset: -240 },
    ]);
  });

  describe('counts kept by every path', () => {
    let token: string;
    let subject: number;
    const call = (method: string, path: string, body?: unknown) =>
      t.api(method, `/api/admin/v1/${path}`, { token, body });
    const chart = async () => {
      const res = await t.api('GET', '/api/admin/v1/dashboard', { token });
      expect(res.status).toBe(200);
      return res.body.data as {
        accreditationChartData: { date: string; actionId: number; source: string; count: number }[];
        basicData: { userCount: number };
      };
    };
    /**
     * The same rows counted straight from the accreditations, on days of the zone (Prague): each on
     * the local day its UTC hour begins in, as the chart counts by the hour (in a zone off the hour,
     * 18:40 UTC in Kolkata is 00:10 of the next day, yet on the day 18:00 UTC is).
     */
    const truth = async (timeZone = 'Europe/Prague') => {
      const rows = await t.ds
        .getRepository(AccreditationEntity)
        .find({ where: { subjectId: subject }, select: { id: true, actionId: true, source: true, createdAt: true } });
      const out = new Map<string, { date: string; actionId: number; source: string; count: number }>();
      for (const r of rows) {
        const date = localDay(Math.floor(readDate(r.createdAt) / HOUR) * HOUR, timeZone);
        const source = r.source === 'web' ? 'web' : 'admin';
        const key = `${date} ${r.actionId} ${source}`;
        const row = out.get(key) ?? { date, actionId: r.actionId, source, count: 0 };
        row.count++;
        out.set(key, row);
      }
      return [...out.values()].sort(
        (a, b) => a.date.localeCompare(b.date) || a.actionId - b.actionId || a.source.localeCompare(b.source),
      );
    };
    /** Totals per action and source, and the chart equal to the truth. */
    const expectCounts = async (expected: Record<string, number>) => {
      const data = await chart();
      expect(data.accreditationChartData).toEqual(await truth());
      const totals: Record<string, number> = {};
      for (const r of data.accreditationChartData)
        totals[`${r.actionId}:${r.source}`] = (totals[`${r.actionId}:${r.source}`] ?? 0) + r.count;
      expect(totals).toEqual(expected);
      expect(data.basicData.userCount).toBe(Object.values(expected).reduce((a, b) => a + b, 0));
    };
    const importSheet = async (actionId: number, rows: string[][]) => {
      const res = await fetch(`${t.url}/api/admin/v1/user/import/template/${actionId}`, {
        headers: { authorization: token },
      });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await res.arrayBuffer()) as never);
      for (const r of rows) wb.worksheets[0].addRow(r);
      const dataFile = `data:application/vnd.openxmlformats-officedocument.spreadsheetml.sheet;base64,${Buffer.from(await wb.xlsx.writeBuffer()).toString('base64')}`;
      return call('POST', 'user/import', { actionId, dataFile, zonesImportType: 1 });
    };

    beforeAll(async () => {
      const s = await createSubject(t, { timeZone: 'Europe/Prague' });
      subject = s.id;
      token = await loginAs(t, await createAdminUser(t, s, { superuser: true }));
    });

    it('admin create, online registration, import (and a failed one), copy, both deletes, a move and a new time', async () => {
      const body = { dateFrom: '2027-07-01T08:00', dateTo: '2027-07-03T18:00' };
      const a = (await call('POST', 'action', { name: ml('Gamma'), ...body })).body.data;
      const b = (await call('POST', 'action', { name: ml('Delta'), ...body })).body.data;
      const person = (n: number, actionId = a.id) => ({
        actionId,
        firstname: `P${n}`,
        lastname: 'Count',
        email: `p${n}@example.com`,
      });
      await expectCounts({});

      // the office adds two
      const p1 = (await call('POST', 'user', person(1))).body.data;
      expect((await call('POST', 'user', person(2))).status).toBe(201);
      await expectCounts({ [`${a.id}:admin`]: 2 });

      // one registers on the web channel
      const channel = (await call('POST', 'web-channel', { name: 'Web', actionId: a.id })).body.data;
      const online = await t.api('POST', `/api/online/v1/accreditation/${channel.channelKey}`, {
        body: { firstname: 'W', lastname: 'Eb', email: 'web@example.com', customField: [] },
      });
      expect(online.status).toBe(201);
      await expectCounts({ [`${a.id}:admin`]: 2, [`${a.id}:web`]: 1 });

      // an import of two; a sheet with a bad row imports nothing and counts nothing
      const imported = await importSheet(b.id, [
        ['Imp', 'One', 'imp1@example.com'],
        ['Imp', 'Two', 'imp2@example.com'],
      ]);
      expect(imported.body).toEqual({ data: { imported: 2 } });
      const failed = await importSheet(b.id, [
        ['Imp', 'Three', 'imp3@example.com'],
        ['Imp', 'Four', 'not-an-email'],
      ]);
      expect(failed.status).toBe(400);
      await expectCounts({ [`${a.id}:admin`]: 2, [`${a.id}:web`]: 1, [`${b.id}:admin`]: 2 });

      // p1 copied to the other action: one more there
      const copied = await call('POST', 'user/copy', { actualAction: a.id, actionId: b.id, userId: [p1.id] });
      expect(copied.status).toBe(200);
      await expectCounts({ [`${a.id}:admin`]: 2, [`${a.id}:web`]: 1, [`${b.id}:admin`]: 3 });

      // removed from the action (type 1), then p1 deleted from the system (type 2: both actions)
      const [imp1] = await t.ds
        .getRepository(AccreditationEntity)
        .find({ where: { subjectId: subject, email: 'imp1@example.com' } });
      expect((await call('POST', 'user/delete', { actionId: b.id, userId: [imp1.id], type: 1 })).status).toBe(200);
      await expectCounts({ [`${a.id}:admin`]: 2, [`${a.id}:web`]: 1, [`${b.id}:admin`]: 2 });
      expect((await call('POST', 'user/delete', { actionId: a.id, userId: [p1.id], type: 2 })).status).toBe(200);
      await expectCounts({ [`${a.id}:admin`]: 1, [`${a.id}:web`]: 1, [`${b.id}:admin`]: 1 });

      // any statement that moves a person to another action, source or time moves the count
      const repo = t.ds.getRepository(AccreditationEntity);
      const [web] = await repo.find({ where: { subjectId: subject, source: 'web' } });
      await repo.update({ id: web.id }, { actionId: b.id });
      await expectCounts({ [`${a.id}:admin`]: 1, [`${b.id}:web`]: 1, [`${b.id}:admin`]: 1 });
      await repo.update({ id: web.id }, { source: 'admin', createdAt: new Date('2025-03-01T23:30:00Z') });
      await expectCounts({ [`${a.id}:admin`]: 1, [`${b.id}:admin`]: 2 });
      // 23:30 UTC is the next day in Prague
      expect((await chart()).accreditationChartData[0]).toEqual({
        date: '2025-03-02',
        actionId: b.id,
        source: 'admin',
        count: 1,
      });
      // a change of another column leaves the counts alone
      await repo.update({ id: web.id }, { firstname: 'Renamed', createdAt: new Date('2025-03-01T23:59:00Z') });
      await expectCounts({ [`${a.id}:admin`]: 1, [`${b.id}:admin`]: 2 });
      // an emptied hour leaves no row behind
      const [{ n }] = await t.ds.query(
        'SELECT COUNT(*) AS n FROM accreditation_hourly WHERE subjectId = ? AND registrations <= 0',
        [subject],
      );
      expect(Number(n)).toBe(0);
    });

    it("puts each hour on its day of the subject's time zone across daylight-saving changes", async () => {
      const action = (
        await call('POST', 'action', { name: ml('Dst'), dateFrom: '2025-03-29T08:00', dateTo: '2025-10-27T18:00' })
      ).body.data;
      const times = [
        '2025-03-29T23:30:00Z', // Prague +1: 00:30 on the 30th
        '2025-03-30T21:30:00Z', // +2 since 01:00 UTC: 23:30 on the 30th
        '2025-03-30T22:30:00Z', // 00:30 on the 31st
        '2025-10-25T22:30:00Z', // +2: 00:30 on the 26th
        '2025-10-26T22:30:00Z', // +1 since 01:00 UTC: 23:30 on the 26th
        '2025-10-26T23:00:00Z', // 00:00 on the 27th
      ];
      const ids = await seedPeople(
        t,
        subject,
        action.id,
        times.map((_, i) => ({ firstname: `D${i}`, lastname: 'St', email: `dst${i}@example.com` })),
      );
      const repo = t.ds.getRepository(AccreditationEntity);
      for (const [i, id] of ids.entries()) await repo.update({ id }, { createdAt: new Date(times[i]) });
      const data = await chart();
      expect(data.accreditationChartData).toEqual(await truth());
      expect(data.accreditationChartData.filter((r) => r.actionId === action.id)).toEqual(
        [
          ['2025-03-30', 2],
          ['2025-03-31', 1],
          ['2025-10-26', 2],
          ['2025-10-27', 1],
        ].map(([date, count]) => ({ date, actionId: action.id, source: 'admin', count })),
      );
    });

    it('days of a zone behind UTC and of one off the hour, after the subject changes its zone', async () => {
      const action = (
        await call('POST', 'action', { name: ml('Zones'), dateFrom: '2025-03-08T08:00', dateTo: '2025-06-02T18:00' })
      ).body.data;
      const times = [
        '2025-03-09T04:30:00Z', // New York -5: 23:30 on the 8th
        '2025-03-09T05:10:00Z', // 00:10 on the 9th
        '2025-03-10T03:30:00Z', // -4 since 07:00 UTC on the 9th: 23:30 on the 9th
        '2025-03-10T04:00:00Z', // 00:00 on the 10th
        '2025-06-01T18:00:00Z', // Kolkata +5:30: 23:30 on 1 June
        '2025-06-01T18:40:00Z', // 00:10 on 2 June, counted with its hour on 1 June
        '2025-06-01T19:00:00Z', // 00:30 on 2 June
      ];
      const ids = await seedPeople(
        t,
        subject,
        action.id,
        times.map((_, i) => ({ firstname: `Z${i}`, lastname: 'One', email: `zone${i}@example.com` })),
      );
      const repo = t.ds.getRepository(AccreditationEntity);
      for (const [i, id] of ids.entries()) await repo.update({ id }, { createdAt: new Date(times[i]) });
      const mine = async () => (await chart()).accreditationChartData.filter((r) => r.actionId === action.id);
      const subjects = t.ds.getRepository(SubjectEntity);
      try {
        await subjects.update({ id: subject }, { timeZone: 'America/New_York' });
        expect((await chart()).accreditationChartData).toEqual(await truth('America/New_York'));
        expect((await mine()).map((r) => [r.date, r.count])).toEqual([
          ['2025-03-08', 1],
          ['2025-03-09', 2],
          ['2025-03-10', 1],
          ['2025-06-01', 3],
        ]);
        await subjects.update({ id: subject }, { timeZone: 'Asia/Kolkata' });
        expect((await chart()).accreditationChartData).toEqual(await truth('Asia/Kolkata'));
        expect((await mine()).map((r) => [r.date, r.count])).toEqual([
          ['2025-03-09', 2],
          ['2025-03-10', 2],
          ['2025-06-01', 2],
          ['2025-06-02', 1],
        ]);
      } finally {
        await subjects.update({ id: subject }, { timeZone: 'Europe/Prague' });
      }
    });

    it('the migration fills the counts from the accreditations already there', async () => {
      const before = await chart();
      expect(before.basicData.userCount).toBeGreaterThan(0);
      const migration = new DashboardCounts1764102000000();
      const q = t.ds.createQueryRunner();
      try {
        await migration.down(q);
        await migration.up(q);
      } finally {
        await q.release();
      }
      expect(await chart()).toEqual(before);
      await expectCounts({
        ...Object.fromEntries(
          before.accreditationChartData.map((r) => [
            `${r.actionId}:${r.source}`,
            before.accreditationChartData
              .filter((x) => x.actionId === r.actionId && x.source === r.source)
              .reduce((n, x) => n + x.count, 0),
          ]),
        ),
      });
    });
  });
});
