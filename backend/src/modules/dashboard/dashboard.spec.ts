import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ml, seedPeople } from '../../testing/mail.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { AccreditationEntity, AccreditationGroupEntity } from '../accreditation/accreditation.entity.js';
import { MailQueueEntity, type MailStatus } from '../mail/mail-queue.entity.js';

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
    await repo.save([mail('sent'), mail('sent'), mail('waiting'), mail('sending'), mail('error'), mail('sent', null)]);

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
    });
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
});
