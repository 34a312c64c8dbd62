import { localDay } from '@accredo/access';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { DeviceEntity } from './device.entity.js';
import { wallClockToEpoch } from './simulate.service.js';
import { sqlDate } from './sql.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const AT = '2027-05-10T10:00';
const TZ = 'Europe/Prague';

describe('rule simulator: POST device-template/simulate and device/simulate-person (issue 11)', () => {
  let t: TestApp;
  let admin: string;
  let reportOnly: string;
  let subjectId: number;
  let action: { id: number };
  let hall: { id: number };
  let press: { id: number };
  let staff: { id: number };
  const people: Record<string, { id: number }> = {};

  const post = (path: string, body: unknown, token = admin) =>
    t.api('POST', `/api/admin/v1/${path}`, { token, body, headers: { 'accept-language': 'en' } });
  const mode1 = (entrances: number) => ({
    mode: 1,
    rules: [{ groupId: press.id, entrances, daily: false, levelId: 0, info: false, customRule: [] }],
    globalRule: { enabled: false, entrances: 0, daily: false, levelId: 0, info: false },
  });
  const counts = async () => {
    const [e] = await t.ds.query('SELECT COUNT(*) AS c FROM entrance');
    const [s] = await t.ds.query('SELECT COUNT(*) AS c FROM device_scan');
    return [Number(e.c), Number(s.c)];
  };
  const entrance = (accreditationId: number, templateId: number, local: string, type = 1) =>
    t.ds.query(
      'INSERT INTO entrance (subjectId, actionId, accreditationId, type, deviceTemplateId, day, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        subjectId,
        action.id,
        accreditationId,
        type,
        templateId,
        local.slice(0, 10),
        sqlDate(t.ds, new Date(wallClockToEpoch(local, TZ))),
      ],
    );
  const device = async (name: string, deviceTemplateId: number | null, owner = subjectId) => {
    const repo = t.ds.getRepository(DeviceEntity);
    const now = new Date();
    return repo.save(
      repo.create({
        subjectId: owner,
        name,
        uid: `uid-${name}`,
        deviceTemplateId,
        tokenHash: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
  };

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t, { timeZone: TZ });
    subjectId = subject.id;
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    reportOnly = await loginAs(t, await createAdminUser(t, subject, { grant: [['report', 'getReport']] }));
    action = (await post('action', { name: ml('Festival') })).body.data;
    hall = (await post('zone', { name: 'Hall', actionId: action.id })).body.data;
    press = (await post('groups', { name: 'Press', actionId: action.id })).body.data;
    staff = (await post('groups', { name: 'Staff', actionId: action.id })).body.data;
    const add = async (firstname: string, extra: Record<string, unknown>) => {
      const res = await post('user', {
        actionId: action.id,
        firstname,
        lastname: 'X',
        email: `${firstname}@ex.com`,
        ...extra,
      });
      expect(res.status).toBe(201);
      people[firstname] = res.body.data;
    };
    await add('Ada', { groupIds: [press.id], zones: [hall.id] });
    await add('Bob', { groupIds: [staff.id] });
    await add('Cyril', {});
    await add('Dana', { groupIds: [press.id] });
  });
  afterAll(() => t.close());

  it('counts the action’s people allowed and refused by reason under the unsaved form, writing nothing', async () => {
    const before = await counts();
    const res = await post('device-template/simulate', { actionId: action.id, zoneId: null, data: mode1(1), at: AT });
    expect(res.status).toBe(200);
    const sim = res.body.data;
    expect(sim).toMatchObject({
      total: 4,
      allowed: 2,
      refused: 2,
      at: new Date(wallClockToEpoch(AT, TZ)).toISOString(),
    });
    const byReason = Object.fromEntries(sim.reasons.map((r: { reason: string; count: number }) => [r.reason, r.count]));
    expect(byReason).toEqual({ OK: 2, NO_RULE: 1, NO_GROUP: 1 });
    expect(sim.reasons.find((r: { reason: string }) => r.reason === 'NO_GROUP').message).toBe(
      'The accreditation has no group',
    );
    // an enabled global rule lets Bob in (D4), Cyril still needs a group in mode 1 (D3)
    const withGlobal = {
      ...mode1(1),
      globalRule: { enabled: true, entrances: 0, daily: false, levelId: 0, info: false },
    };
    const res2 = await post('device-template/simulate', { actionId: action.id, data: withGlobal, at: AT });
    expect(res2.body.data).toMatchObject({ allowed: 3, refused: 1 });
    // the template's zone is required too (D12): only Ada holds Hall
    const res3 = await post('device-template/simulate', {
      actionId: action.id,
      zoneId: hall.id,
      data: mode1(0),
      at: AT,
    });
    expect(res3.body.data.reasons.map((r: { reason: string; count: number }) => [r.reason, r.count])).toEqual(
      expect.arrayContaining([
        ['OK', 1],
        ['ZONE_NOT_ALLOWED', 1],
      ]),
    );
    expect(await counts()).toEqual(before);
  });

  it('reads the saved template’s entry history before the chosen moment (D1, D2)', async () => {
    const saved = (await post('device-template', { name: 'Main gate', actionId: action.id, data: mode1(1) })).body.data;
    await entrance(people.Ada.id, saved.id, '2027-05-10T09:00');
    await entrance(people.Dana.id, saved.id, '2027-05-10T11:00'); // after the moment: not counted
    const res = await post('device-template/simulate', {
      templateId: saved.id,
      actionId: action.id,
      data: mode1(1),
      at: AT,
    });
    expect(res.status).toBe(200);
    const byReason = Object.fromEntries(
      res.body.data.reasons.map((r: { reason: string; count: number }) => [r.reason, r.count]),
    );
    expect(byReason).toEqual({ OK: 1, ENTRANCES_USED: 1, NO_RULE: 1, NO_GROUP: 1 });
    // the unsaved form's budget of 2 lets Ada in again
    const res2 = await post('device-template/simulate', {
      templateId: saved.id,
      actionId: action.id,
      data: mode1(2),
      at: AT,
    });
    expect(res2.body.data.allowed).toBe(2);
    // the same rules without the template's history: nobody has entered
    const res3 = await post('device-template/simulate', { actionId: action.id, data: mode1(1), at: AT });
    expect(res3.body.data.allowed).toBe(2);
  });

  it('decides one person at every device of the action, and under the unsaved form first', async () => {
    const main = (await post('device-template', { name: 'Gate 1', actionId: action.id, data: mode1(1) })).body.data;
    const check = (
      await post('device-template', {
        name: 'Hall check',
        actionId: action.id,
        zoneId: hall.id,
        data: { mode: 3, rules: [] },
      })
    ).body.data;
    const other = (await post('action', { name: ml('Other') })).body.data;
    const foreign = (
      await post('device-template', { name: 'Elsewhere', actionId: other.id, data: { mode: 3, rules: [] } })
    ).body.data;
    await entrance(people.Ada.id, main.id, '2027-05-10T08:00');
    const d1 = await device('A gate', main.id);
    const d2 = await device('B hall', check.id);
    await device('C elsewhere', foreign.id);
    await device('D idle', null);
    const res = await post('device/simulate-person', {
      accreditationId: people.Ada.id,
      at: AT,
      template: { actionId: action.id, zoneId: null, data: mode1(0) },
    });
    expect(res.status).toBe(200);
    const sim = res.body.data;
    expect(sim.person).toMatchObject({ id: people.Ada.id, firstname: 'Ada' });
    const rows = sim.rows.map((r: Record<string, unknown>) => [r.deviceId, r.templateName, r.allowed, r.reason]);
    expect(rows).toEqual([
      [null, null, true, 'OK'],
      [d1.id, 'Gate 1', false, 'ENTRANCES_USED'],
      [d2.id, 'Hall check', true, 'OK'],
    ]);
    expect(sim.rows[2].message).toBe('Access to zone Hall confirmed');
    // Bob has no zone Hall
    const bob = await post('device/simulate-person', { accreditationId: people.Bob.id, at: AT });
    expect(bob.body.data.rows.map((r: { reason: string }) => r.reason)).toEqual(['NO_RULE', 'ZONE_NOT_ALLOWED']);
  });

  it('refuses bad input with field errors, another subject’s records and users without the right', async () => {
    const bad = await post('device-template/simulate', {
      actionId: action.id,
      data: { mode: 1, rules: [{ groupId: null, entrances: 1 }] },
      at: AT,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual([{ path: 'data.rules.0.groupId', key: 'basics.requireField' }]);
    const noMode = await post('device-template/simulate', { actionId: action.id, data: {}, at: AT });
    expect(noMode.status).toBe(400);
    expect(noMode.body.error.details.fields[0].path).toBe('data.mode');
    for (const at of ['2027-02-30T10:00', '2027-05-10 10:00', '2027-05-10T24:00', '']) {
      const res = await post('device-template/simulate', { actionId: action.id, data: mode1(1), at });
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields).toEqual([{ path: 'at', key: expect.any(String) }]);
    }
    const stranger = await createSubject(t);
    const strangerAdmin = await loginAs(t, await createAdminUser(t, stranger, { superuser: true }));
    const theirs = await post(
      'device-template/simulate',
      { actionId: action.id, data: mode1(1), at: AT },
      strangerAdmin,
    );
    expect(theirs.status).toBe(400);
    expect(theirs.body.error.details.fields).toEqual([{ path: 'actionId', key: 'basics.invalidValue' }]);
    const person = await post('device/simulate-person', { accreditationId: people.Ada.id, at: AT }, strangerAdmin);
    expect(person.status).toBe(404);
    expect(
      (await post('device-template/simulate', { actionId: action.id, data: mode1(1), at: AT }, reportOnly)).status,
    ).toBe(403);
    expect((await post('device/simulate-person', { accreditationId: people.Ada.id, at: AT }, reportOnly)).status).toBe(
      403,
    );
  });

  it('without a moment decides now on the server clock, counting the entries of this very minute', async () => {
    const saved = (await post('device-template', { name: 'Now gate', actionId: action.id, data: mode1(1) })).body.data;
    const justNow = new Date(Date.now() - 1000);
    await t.ds.query(
      'INSERT INTO entrance (subjectId, actionId, accreditationId, type, deviceTemplateId, day, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [subjectId, action.id, people.Dana.id, 1, saved.id, localDay(justNow.getTime(), TZ), sqlDate(t.ds, justNow)],
    );
    const before = Date.now();
    const res = await post('device-template/simulate', { templateId: saved.id, actionId: action.id, data: mode1(1) });
    expect(res.status).toBe(200);
    const at = Date.parse(res.body.data.at);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    const byReason = Object.fromEntries(
      res.body.data.reasons.map((r: { reason: string; count: number }) => [r.reason, r.count]),
    );
    expect(byReason).toMatchObject({ OK: 1, ENTRANCES_USED: 1 });
    await device('Now device', saved.id);
    const dana = await post('device/simulate-person', { accreditationId: people.Dana.id, at: null });
    expect(dana.status).toBe(200);
    expect(dana.body.data.rows.find((r: { templateName: string }) => r.templateName === 'Now gate')).toMatchObject({
      allowed: false,
      reason: 'ENTRANCES_USED',
    });
  });

  it('names the user field of a refused date rule in one person’s decisions', async () => {
    const field = (
      await post('custom-field', {
        name: 'valid_from',
        label: { cs: 'Platné od', sk: '', en: 'Valid from', de: '' },
        customFieldType: 1,
      })
    ).body.data;
    const data = {
      mode: 1,
      rules: [
        {
          groupId: staff.id,
          entrances: 0,
          customRule: [
            { customField: field.id, type: 'date', values: { system: 'today', check: 'gte', entrances: 0 } },
          ],
        },
      ],
      globalRule: null,
    };
    const bob = await post('device/simulate-person', {
      accreditationId: people.Bob.id,
      at: AT,
      template: { actionId: action.id, zoneId: null, data },
    });
    expect(bob.status).toBe(200);
    expect(bob.body.data.rows[0]).toMatchObject({
      deviceId: null,
      allowed: false,
      reason: 'CUSTOM_DATE_INVALID',
      message: 'The date in the field Valid from is missing or invalid',
    });
  });
});
