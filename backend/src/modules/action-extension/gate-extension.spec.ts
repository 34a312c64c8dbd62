import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { DAYS, type ExtensionWorld, extensionWorld, ml } from './extension-testing.js';

/**
 * Gates in mode 4 (meal, D14) and 5 (parking, D15) on the people's extension rows (issue 14):
 * online scans, offline uploads (earliest use wins) and the station's snapshot.
 */
describe('meal and parking gates', () => {
  let t: TestApp;
  let w: ExtensionWorld;
  const gate = async (uid: string, data: unknown) => {
    const tpl = await w.call('POST', 'device-template', { name: uid, actionId: w.action.id, data });
    if (tpl.status !== 201) throw new Error(JSON.stringify(tpl.body));
    const key = (await w.call('GET', 'device/key')).body.data;
    const paired = await t.api('POST', '/api/device/v1/pair', { body: { code: key.bc, uid, name: uid } });
    const { token, device } = paired.body.data;
    await w.call('PUT', `device/${device.id}`, { name: uid, uid, deviceTemplateId: tpl.body.data.id });
    return `Bearer ${token}`;
  };
  const scan = (token: string, body: Record<string, unknown>) =>
    t.api('POST', '/api/device/v1/scan', { token, body: { direction: 'entry', ...body } });
  const upload = (token: string, scans: Record<string, unknown>[]) =>
    t.api('POST', '/api/device/v1/upload', {
      token,
      body: { scans: scans.map((s) => ({ direction: 'entry', ...s })) },
    });
  // 12:30 and 12:10 in Prague (UTC+2 in June) on the first day
  const lunchTime = Date.parse(`${DAYS[0]}T10:30:00Z`);
  const earlier = Date.parse(`${DAYS[0]}T10:10:00Z`);

  beforeAll(async () => {
    t = await createTestApp();
    w = await extensionWorld(t);
  });
  afterAll(() => t.close());

  it('mode 4 uses the meal of the slot; a second use is MEAL_USED; an earlier offline use wins', async () => {
    const items = (await w.lunches()).body.data.items;
    const eva = await w.person(1);
    const jan = await w.person(2);
    const none = await w.person(3);
    await w.call('PUT', `action-extension/1/${w.action.id}/users`, {
      usersIds: [eva.id, jan.id],
      actionId: w.action.id,
      items: [{ itemId: items[0].id }, { itemId: items[1].id }],
    });
    const token = await gate('canteen', { mode: 4, rules: [], globalRule: { enabled: true } });
    const first = await upload(token, [
      { code: eva.bc, nonce: 'm-1', scanTime: lunchTime, allowed: true },
      { code: eva.bc, nonce: 'm-2', scanTime: lunchTime + 60_000, allowed: true },
      { code: none.bc, nonce: 'm-3', scanTime: lunchTime },
      { code: eva.bc, nonce: 'm-4', scanTime: lunchTime + 3 * 3600_000 },
    ]);
    expect(first.status).toBe(200);
    const results = first.body.data.results;
    // replayed in scan-time order
    expect(results.map((r: { reason: string }) => r.reason)).toEqual(['OK', 'MEAL_NONE', 'MEAL_USED', 'MEAL_NOT_NOW']);
    expect(results[2].violation).toBe(true);
    const used = async (id: number) =>
      (await w.call('GET', `action-extension/1/${w.action.id}/users/${id}`)).body.data.items[0].dateUsed;
    expect(await used(eva.id)).toBe(`${DAYS[0]}T12:30`);
    // another station was offline too: its earlier use replaces the later one (the earliest wins)
    const other = await gate('canteen-2', { mode: 4, rules: [], globalRule: { enabled: true } });
    const late = await upload(other, [{ code: eva.bc, nonce: 'o-1', scanTime: earlier, allowed: true }]);
    expect(late.body.data.results[0].reason).toBe('OK');
    expect(await used(eva.id)).toBe(`${DAYS[0]}T12:10`);
    // a used meal is locked for the admin
    const locked = await w.call('PUT', `action-extension/1/${w.action.id}/users`, {
      usersIds: [eva.id],
      actionId: w.action.id,
      items: [{ itemId: items[0].id, have: false }],
    });
    expect(locked.body.error.code).toBe('EXTENSION_MEAL_USED');
    const report = (await w.call('POST', `action-extension/1/${w.action.id}/report`, { responseType: 'json' })).body
      .data;
    expect(report.rows[0]).toMatchObject({ chose: 2, used: 1 });
    // the station's snapshot carries the slots with their use
    const snap = (await t.api('GET', '/api/device/v1/snapshot', { token })).body.data;
    const mine = snap.people.find((p: { id: number }) => p.id === eva.id);
    expect(mine.meals).toEqual([
      { id: expect.any(Number), date: DAYS[0], timeFrom: '12:00', timeTo: '13:00', used: true },
      { id: expect.any(Number), date: DAYS[1], timeFrom: '12:00', timeTo: '13:00', used: false },
    ]);
    // the rule simulator decides with the same rows
    const sim = await w.call('POST', 'device-template/simulate', {
      actionId: w.action.id,
      data: { mode: 4, rules: [], globalRule: { enabled: true } },
      at: `${DAYS[0]}T12:30`,
    });
    expect(
      Object.fromEntries(sim.body.data.reasons.map((r: { reason: string; count: number }) => [r.reason, r.count])),
    ).toEqual({ OK: 1, MEAL_USED: 1, MEAL_NONE: 1 });
    // the online decision of a second scan now: the slot of today does not cover now
    expect((await scan(token, { code: jan.bc, nonce: 'n-1' })).body.data.allowed).toBe(false);
  });

  it('mode 5 counts a car park: full at capacity, exits free a place, concurrent entries never exceed it', async () => {
    // an action running now (online scans decide at the server's clock)
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    w = await extensionWorld(t, false, [day(-1), day(0), day(1)]);
    const area = (
      await w.call('PUT', `action-extension/${w.action.id}/2`, {
        items: [{ label: ml('P1'), capacity: 3, places: [] }],
      })
    ).body.data.items[0];
    const people = await Promise.all(Array.from({ length: 8 }, (_, i) => w.person(10 + i)));
    await w
      .call('PUT', `action-extension/2/${w.action.id}/users`, {
        usersIds: people.map((p) => p.id),
        actionId: w.action.id,
        items: [{ itemId: area.id }],
      })
      .then((r) => expect(r.body.error.code).toBe('EXTENSION_CAPACITY_FULL'));
    // assignments beyond the car park's capacity are refused; raise it for the passes, keep 3 at the gate
    await w.call('PUT', `action-extension/${w.action.id}/2`, { items: [{ ...area, capacity: null, places: [] }] });
    await w.call('PUT', `action-extension/2/${w.action.id}/users`, {
      usersIds: people.map((p) => p.id),
      actionId: w.action.id,
      items: [{ itemId: area.id }],
    });
    await w.call('PUT', `action-extension/${w.action.id}/2`, { items: [{ ...area, capacity: 3, places: [] }] });
    const gates = [
      await gate('barrier-a', { mode: 5, rules: [], globalRule: { enabled: true } }),
      await gate('barrier-b', { mode: 5, rules: [], globalRule: { enabled: true } }),
    ];
    const answers = await Promise.all(people.map((p, i) => scan(gates[i % 2], { code: p.bc, nonce: `in-${i}` })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const inside = answers.filter((a) => a.body.data.allowed);
    expect(inside).toHaveLength(3);
    expect(new Set(answers.filter((a) => !a.body.data.allowed).map((a) => a.body.data.reason))).toEqual(
      new Set(['PARKING_FULL']),
    );
    const count = async () =>
      Number(
        (
          await t.ds.query('SELECT COUNT(*) AS n FROM accreditation_extension WHERE itemId = ? AND inside = 1', [
            area.id,
          ])
        )[0].n,
      );
    expect(await count()).toBe(3);
    const firstIn = people[answers.indexOf(inside[0])];
    expect((await scan(gates[0], { code: firstIn.bc, nonce: 'again' })).body.data.reason).toBe(
      'PARKING_ALREADY_INSIDE',
    );
    expect((await scan(gates[0], { code: firstIn.bc, nonce: 'out', direction: 'exit' })).body.data.reason).toBe(
      'OK_EXIT',
    );
    expect(await count()).toBe(2);
    const waiting = people[answers.findIndex((a) => !a.body.data.allowed)];
    expect((await scan(gates[1], { code: waiting.bc, nonce: 'next' })).body.data.allowed).toBe(true);
    // the snapshot: holds with their date, presence and each area's occupancy
    const snap = (await t.api('GET', '/api/device/v1/snapshot', { token: gates[0] })).body.data;
    expect(snap.parkingOccupancy).toEqual({ [area.id]: 3 });
    const shown = snap.people.find((p: { id: number }) => p.id === waiting.id);
    expect(shown.parking).toEqual([{ areaId: area.id, capacity: 3, date: null }]);
    expect(shown.parkingInside).toEqual([area.id]);
    const sim = await w.call('POST', 'device-template/simulate', {
      actionId: w.action.id,
      data: { mode: 5, rules: [], globalRule: { enabled: true } },
    });
    expect(
      Object.fromEntries(sim.body.data.reasons.map((r: { reason: string; count: number }) => [r.reason, r.count])),
    ).toEqual({ PARKING_ALREADY_INSIDE: 3, PARKING_FULL: 5 });
    // the live view shows the car park with the people inside
    const live = await w.call('GET', `report/live?actionId=${w.action.id}`);
    expect(live.body.data.parking).toEqual([{ areaId: area.id, name: 'P1', inside: 3, capacity: 3 }]);
    // and the change feed names a person whose presence changed
    const feed = await t.ds.query('SELECT COUNT(*) AS n FROM accreditation_change WHERE accreditationId = ?', [
      waiting.id,
    ]);
    expect(Number(feed[0].n)).toBeGreaterThan(1);
  });
});
