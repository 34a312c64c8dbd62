import { localDay } from '@accredo/access';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { DeviceScanEntity } from './device.entity.js';
import { wallClockToEpoch } from './simulate.service.js';
import { sqlDate } from './sql.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const TZ = 'Europe/Prague';

describe('live view: GET report/live (issue 11)', () => {
  let t: TestApp;
  let admin: string;
  let subjectId: number;
  let action: { id: number };
  let other: { id: number };
  let hall: { id: number };
  let people: { id: number }[];
  let today: string;
  let yesterday: string;
  let scan = 0;

  const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token: admin, body });
  const live = (query: string, token = admin) =>
    t.api('GET', `/api/admin/v1/report/live${query}`, { token, headers: { 'accept-language': 'en' } });
  const passage = (
    actionId: number,
    accreditationId: number,
    templateId: number | null,
    day: string,
    time: string,
    type = 1,
  ) =>
    t.ds.query(
      'INSERT INTO entrance (subjectId, actionId, accreditationId, type, deviceTemplateId, day, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        subjectId,
        actionId,
        accreditationId,
        type,
        templateId,
        day,
        sqlDate(t.ds, new Date(wallClockToEpoch(`${day}T${time}`, TZ))),
      ],
    );
  const scanRow = (actionId: number, day: string, allowed: boolean, reason: string) => {
    const repo = t.ds.getRepository(DeviceScanEntity);
    scan++;
    return repo.save(
      repo.create({
        subjectId,
        deviceId: 1,
        nonce: `n${scan}`,
        requestHash: 'x',
        actionId,
        deviceTemplateId: null,
        accreditationId: null,
        direction: 1,
        allowed,
        reason,
        decision: {},
        offline: false,
        violation: false,
        scanAt: new Date(),
        day,
        deviceTime: null,
        createdAt: new Date(),
      }),
    );
  };

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t, { timeZone: TZ });
    subjectId = subject.id;
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    action = (await post('action', { name: ml('Festival') })).body.data;
    other = (await post('action', { name: ml('Other') })).body.data;
    hall = (await post('zone', { name: 'Hall', actionId: action.id })).body.data;
    const rule = { mode: 1, rules: [], globalRule: { enabled: true, entrances: 0 } };
    const inHall = (
      await post('device-template', { name: 'Hall gate', actionId: action.id, zoneId: hall.id, data: rule })
    ).body.data;
    const main = (await post('device-template', { name: 'Main gate', actionId: action.id, data: rule })).body.data;
    people = [];
    for (const name of ['Ada', 'Bob', 'Cyril']) {
      people.push(
        (await post('user', { actionId: action.id, firstname: name, lastname: 'X', email: `${name}@ex.com` })).body
          .data,
      );
    }
    today = localDay(Date.now(), TZ);
    yesterday = localDay(Date.now() - 86_400_000, TZ);
    const [ada, bob, cyril] = people;
    // Hall today: 3 entries (Ada twice), 1 exit -> 2 inside; the main gate: 1 entry
    await passage(action.id, ada.id, inHall.id, today, '08:10');
    await passage(action.id, bob.id, inHall.id, today, '08:50');
    await passage(action.id, ada.id, inHall.id, today, '09:05', 0);
    await passage(action.id, ada.id, inHall.id, today, '10:30');
    await passage(action.id, cyril.id, main.id, today, '10:45');
    // not today, or another action: not counted
    await passage(action.id, cyril.id, inHall.id, yesterday, '10:00');
    await passage(other.id, cyril.id, null, today, '10:00');
    await scanRow(action.id, today, true, 'OK');
    await scanRow(action.id, today, true, 'OK_EXIT');
    await scanRow(action.id, today, false, 'ENTRANCES_USED');
    await scanRow(action.id, today, false, 'ENTRANCES_USED');
    await scanRow(action.id, today, false, 'NO_GROUP');
    await scanRow(action.id, yesterday, false, 'NO_RULE');
    await scanRow(other.id, today, false, 'NO_RULE');
  });
  afterAll(() => t.close());

  it('shows people inside per zone, entries per hour and refusals by reason of today', async () => {
    const res = await live(`?actionId=${action.id}`);
    expect(res.status).toBe(200);
    const view = res.body.data;
    expect(view.day).toBe(today);
    expect(view.zones).toEqual([
      { zoneId: hall.id, name: 'Hall', entries: 3, exits: 1, inside: 2 },
      { zoneId: null, name: null, entries: 1, exits: 0, inside: 1 },
    ]);
    expect(view.hours).toHaveLength(24);
    expect(view.hours.filter((h: { entries: number; exits: number }) => h.entries || h.exits)).toEqual([
      { hour: 8, entries: 2, exits: 0 },
      { hour: 9, entries: 0, exits: 1 },
      { hour: 10, entries: 2, exits: 0 },
    ]);
    expect(view.scans).toEqual({ total: 5, allowed: 2, refused: 3 });
    expect(view.refusals).toEqual([
      { reason: 'ENTRANCES_USED', count: 2, message: expect.stringContaining('All entries used') },
      { reason: 'NO_GROUP', count: 1, message: 'The accreditation has no group' },
    ]);
    expect(view.parking).toEqual([]);
  });

  it('shows another day when asked', async () => {
    const view = (await live(`?actionId=${action.id}&day=${yesterday}`)).body.data;
    expect(view.zones).toEqual([{ zoneId: hall.id, name: 'Hall', entries: 1, exits: 0, inside: 1 }]);
    expect(view.refusals.map((r: { reason: string }) => r.reason)).toEqual(['NO_RULE']);
  });

  it('refuses a missing or foreign action, a bad day and users without the report right', async () => {
    expect((await live('')).status).toBe(400);
    expect((await live('?actionId=abc')).status).toBe(400);
    expect((await live(`?actionId=${action.id}&day=2027-02-30`)).body.error.details.fields).toEqual([
      { path: 'day', key: 'basics.enterCorrectDate' },
    ]);
    const stranger = await createSubject(t);
    const strangerAdmin = await loginAs(t, await createAdminUser(t, stranger, { superuser: true }));
    const theirs = await live(`?actionId=${action.id}`, strangerAdmin);
    expect(theirs.status).toBe(400);
    expect(theirs.body.error.code).toBe('VALIDATION_ERROR');
    const subject = await createSubject(t);
    const noRight = await loginAs(t, await createAdminUser(t, subject, { grant: [['deviceTemplate', 'get']] }));
    expect((await live(`?actionId=${action.id}`, noRight)).status).toBe(403);
  });
});
