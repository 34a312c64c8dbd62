import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { DAYS, type ExtensionWorld, extensionWorld, ml } from './extension-testing.js';

/**
 * Capacities under races (issue 14): two admins, an import and a crowd registering online never
 * take the last place twice, on SQLite and MariaDB alike. Also the online form's selects and the
 * import's extensionImportType.
 */
describe('extension capacities under races, online form and import', () => {
  let t: TestApp;
  let w: ExtensionWorld;
  let channelKey: string;
  let person = 0;
  const online = (path: string, body?: unknown) =>
    t.api(body === undefined ? 'GET' : 'POST', `/api/online/v1/${path}`, { body });
  const visitor = (extra: Record<string, unknown> = {}) => {
    person++;
    return { firstname: `Jan${person}`, lastname: `Crowd${person}`, email: `crowd${person}@example.com`, ...extra };
  };
  const holders = async (itemId: number) =>
    Number((await t.ds.query('SELECT COUNT(*) AS n FROM accreditation_extension WHERE itemId = ?', [itemId]))[0].n);

  async function sheet(rows: unknown[][]): Promise<string> {
    const res = await fetch(`${t.url}/api/admin/v1/user/import/template/${w.action.id}`, {
      headers: { authorization: w.admin },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.arrayBuffer()) as never);
    for (const r of rows) wb.worksheets[0].addRow(r);
    return `data:application/vnd.openxmlformats-officedocument.spreadsheetml.sheet;base64,${Buffer.from(await wb.xlsx.writeBuffer()).toString('base64')}`;
  }

  beforeAll(async () => {
    t = await createTestApp();
    w = await extensionWorld(t);
    const channel = await w.call('POST', 'web-channel', {
      name: 'Form',
      actionId: w.action.id,
      viewMealSelect: true,
      viewParkingSelect: true,
    });
    channelKey = channel.body.data.channelKey;
  });
  afterAll(() => t.close());

  it('the online form offers the active items and stores the choices with their capacities', async () => {
    const items = (await w.lunches(null, 1)).body.data.items;
    // an inactive item is not offered
    await w.call('PUT', `action-extension/${w.action.id}/1`, {
      items: [
        ...items.map((i: { options: unknown[] }) => ({ ...i, options: i.options })),
        { label: ml('Late dinner'), date: DAYS[0], timeFrom: '21:00', timeTo: '22:00', active: false },
      ],
    });
    const data = (await online(`web-channel/data/${channelKey}`)).body.data;
    expect(data.viewMealSelect).toBe(true);
    expect(data.mealItems.map((i: { id: number }) => i.id)).toEqual(items.map((i: { id: number }) => i.id));
    expect(data.mealItems[0]).toMatchObject({ label: ml(`Lunch ${DAYS[0]}`), timeFrom: '12:00', full: false });
    expect(data.mealItems[0].options[0]).toMatchObject({ name: ml('Vegetarian'), note: 'no meat', full: false });
    expect(data.parkingItems).toEqual([]);

    const veg = items[0].options[0].id;
    const ok = await online(
      `accreditation/${channelKey}`,
      visitor({ mealItems: [{ itemId: items[0].id, option: veg }, { itemId: items[1].id }] }),
    );
    expect(ok.status).toBe(201);
    const mine = await w.call('GET', `action-extension/1/${w.action.id}/users/${ok.body.data.id}`);
    expect(mine.body.data.items.map((i: { itemId: number; option: number | null }) => [i.itemId, i.option])).toEqual([
      [items[0].id, veg],
      [items[1].id, null],
    ]);
    // the option is full now: shown as full, and a registration choosing it is refused whole
    expect((await online(`web-channel/data/${channelKey}`)).body.data.mealItems[0].options[0].full).toBe(true);
    const full = await online(
      `accreditation/${channelKey}`,
      visitor({ mealItems: [{ itemId: items[0].id, option: veg }] }),
    );
    expect([full.status, full.body.error.code]).toEqual([409, 'EXTENSION_CAPACITY_FULL']);
    const [{ n }] = await t.ds.query('SELECT COUNT(*) AS n FROM accreditation WHERE email = ?', [
      `crowd${person}@example.com`,
    ]);
    expect(Number(n)).toBe(0);
    // a foreign item and a malformed one are client errors
    const foreign = await online(`accreditation/${channelKey}`, visitor({ mealItems: [{ itemId: 999_999 }] }));
    expect([foreign.status, foreign.body.error.code]).toEqual([400, 'EXTENSION_ITEM_INVALID']);
    expect((await online(`accreditation/${channelKey}`, visitor({ mealItems: ['x'] }))).status).toBe(400);
    // no parking offered on this channel's action without areas: an empty list is fine
    expect((await online(`accreditation/${channelKey}`, visitor({ parkingItems: [] }))).status).toBe(201);
  });

  it('two admins and a crowd online race for the last 5 places: exactly 5 hold one', async () => {
    const saved = await w.call('PUT', `action-extension/${w.action.id}/2`, {
      items: [{ label: ml('VIP car park'), capacity: 5, places: [] }],
    });
    const area = saved.body.data.items[0];
    const other = await w.adminWith({
      grant: [
        ['actionExtension', 'get'],
        ['actionExtension', 'assignUserExtension'],
      ],
    });
    const people = await Promise.all(Array.from({ length: 12 }, (_, i) => w.person(100 + i)));
    const path = `action-extension/2/${w.action.id}/users`;
    const calls = [
      ...people.map((p, i) =>
        w.call(
          'PUT',
          path,
          { usersIds: [p.id], actionId: w.action.id, items: [{ itemId: area.id }] },
          i % 2 ? other : w.admin,
        ),
      ),
      ...Array.from({ length: 12 }, () =>
        online(`accreditation/${channelKey}`, visitor({ parkingItems: [{ itemId: area.id, licencePlate: 'AB 123' }] })),
      ),
    ];
    const answers = await Promise.all(calls);
    const won = answers.filter((a) => a.status === 200 || a.status === 201);
    expect(won).toHaveLength(5);
    expect(new Set(answers.filter((a) => !won.includes(a)).map((a) => `${a.status} ${a.body.error?.code}`))).toEqual(
      new Set(['409 EXTENSION_CAPACITY_FULL']),
    );
    expect(await holders(area.id)).toBe(5);
  });

  it('an import (extensionImportType 2) racing admins takes the group defaults only where room is left', async () => {
    const saved = await w.call('PUT', `action-extension/${w.action.id}/2`, {
      items: [{ label: ml('Crew car park'), capacity: 4, places: [] }],
    });
    const area = saved.body.data.items[0];
    const crew = w.groups[1];
    await w.call('PUT', `groups/${crew.id}`, { name: 'Crew', actionId: w.action.id, assignDefaultParking: true });
    await w.call('PUT', `action-extension/2/${w.action.id}/groups/${crew.id}`, {
      actionId: w.action.id,
      items: [{ itemId: area.id }],
    });
    const dataFile = await sheet(
      Array.from({ length: 6 }, (_, i) => [`Imp${i}`, `Crew${i}`, `imp${i}@example.com`, 'Crew']),
    );
    // the action has extensions: the import must say how to take them
    const missing = await w.call('POST', 'user/import', { actionId: w.action.id, dataFile, zonesImportType: 1 });
    expect(missing.body.error.details.fields).toEqual([{ path: 'extensionImportType', key: 'basics.requireField' }]);
    const admins = await Promise.all(Array.from({ length: 3 }, (_, i) => w.person(200 + i)));
    const answers = await Promise.all([
      w.call('POST', 'user/import', { actionId: w.action.id, dataFile, zonesImportType: 1, extensionImportType: 2 }),
      ...admins.map((p) =>
        w.call('PUT', `action-extension/2/${w.action.id}/users`, {
          usersIds: [p.id],
          actionId: w.action.id,
          items: [{ itemId: area.id }],
        }),
      ),
    ]);
    expect(answers[0].status).toBe(200);
    expect(answers[0].body.data.imported).toBe(6);
    expect(await holders(area.id)).toBe(4);
    const adminWon = answers.slice(1).filter((a) => a.status === 200).length;
    const [{ n }] = await t.ds.query(
      "SELECT COUNT(*) AS n FROM accreditation_extension e JOIN accreditation a ON a.id = e.accreditationId WHERE e.itemId = ? AND a.email LIKE 'imp%'",
      [area.id],
    );
    expect(Number(n)).toBe(4 - adminWon);

    // extensionImportType 1: nothing is given from the groups
    const manual = await sheet([['Man', 'Ual', 'manual@example.com', 'Crew']]);
    const before = await holders(area.id);
    await w.call('PUT', `action-extension/${w.action.id}/2`, {
      items: [{ ...area, capacity: null, options: undefined, places: [] }],
    });
    expect(
      (
        await w.call('POST', 'user/import', {
          actionId: w.action.id,
          dataFile: manual,
          zonesImportType: 1,
          extensionImportType: 1,
        })
      ).status,
    ).toBe(200);
    expect(await holders(area.id)).toBe(before);
  });
});
