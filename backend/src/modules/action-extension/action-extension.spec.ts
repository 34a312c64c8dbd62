import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, loginAs, type TestApp, createTestApp } from '../../testing/test-app.js';
import { DAYS, type ExtensionWorld, extensionWorld, ml } from './extension-testing.js';

const fields = (res: { body: { error?: { details?: { fields?: { path: string; key: string }[] } } } }) =>
  (res.body.error?.details?.fields ?? []).map((f) => `${f.path}:${f.key}`);

describe('action extensions (spec §7 Action extensions)', () => {
  let t: TestApp;
  let w: ExtensionWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await extensionWorld(t);
  });
  afterAll(() => t.close());

  describe('gating and rights', () => {
    it('answers 401 without a session and 403 without the right', async () => {
      expect((await t.api('GET', `/api/admin/v1/action-extension/1/${w.action.id}`)).status).toBe(401);
      const viewer = await w.adminWith({ grant: [['actionExtension', 'get']] });
      expect((await w.call('GET', `action-extension/1/${w.action.id}`, undefined, viewer)).status).toBe(200);
      const put = await w.call('PUT', `action-extension/${w.action.id}/1`, { items: [] }, viewer);
      expect(put.status).toBe(403);
      const assign = await w.call(
        'PUT',
        `action-extension/1/${w.action.id}/users`,
        { items: [], usersIds: [1], actionId: w.action.id },
        viewer,
      );
      expect(assign.status).toBe(403);
    });

    it('every route: 401 without a session, 403 without its right, 404 for another subject’s action', async () => {
      const a = w.action.id;
      const g = w.groups[0].id;
      const routes: [string, string, string, unknown][] = [
        ['GET', 'action-extension/1', 'get', undefined],
        ['POST', `action-extension/1/${a}`, 'active', { active: true }],
        ['GET', `action-extension/1/${a}`, 'get', undefined],
        ['PUT', `action-extension/${a}/1`, 'update', { items: [] }],
        ['POST', `action-extension/1/${a}/copy`, 'update', { fromDay: DAYS[0], toDays: [DAYS[1]] }],
        ['POST', `action-extension/1/${a}/users`, 'getUserExtension', {}],
        ['GET', `action-extension/1/${a}/users/1`, 'getUserExtension', undefined],
        ['PUT', `action-extension/1/${a}/users`, 'assignUserExtension', { items: [], usersIds: [1], actionId: a }],
        ['GET', `action-extension/1/${a}/groups/${g}`, 'getGroupsActionExtension', undefined],
        ['PUT', `action-extension/1/${a}/groups/${g}`, 'assignGroupsActionExtension', { items: [], actionId: a }],
        ['POST', `action-extension/1/${a}/report`, 'getActionExtensionReport', { responseType: 'json' }],
      ];
      const nobody = await w.adminWith({ grant: [['user', 'getUser']] });
      const other = await createSubject(t, { extensions: [1, 2] });
      const stranger = await loginAs(t, await createAdminUser(t, other, { superuser: true }));
      for (const [method, path, right, body] of routes) {
        expect((await t.api(method, `/api/admin/v1/${path}`, { body })).status, `${method} ${path}`).toBe(401);
        expect((await w.call(method, path, body, nobody)).status, `${method} ${path}`).toBe(403);
        const holder = await w.adminWith({ grant: [['actionExtension', right as 'get']] });
        expect((await w.call(method, path, body, holder)).status, `${method} ${path}`).not.toBe(403);
        if (path !== 'action-extension/1')
          expect((await w.call(method, path, body, stranger)).status, `${method} ${path}`).toBe(404);
      }
    });

    it('an unknown type is ACTION_EXTENSION_DOESNT_EXIST; a type the subject lacks is ACTION_DOESNT_HAVE_EXTENSION', async () => {
      const unknown = await w.call('GET', `action-extension/3/${w.action.id}`);
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'ACTION_EXTENSION_DOESNT_EXIST']);
      expect((await w.call('GET', 'action-extension/x')).body.error.code).toBe('ACTION_EXTENSION_DOESNT_EXIST');
      const other = await createSubject(t, { extensions: [1] });
      const token = await loginAs(t, await createAdminUser(t, other, { superuser: true }));
      const res = await w.call('GET', 'action-extension/2', undefined, token);
      expect([res.status, res.body.error.code]).toEqual([403, 'ACTION_DOESNT_HAVE_EXTENSION']);
      expect((await w.call('GET', 'action-extension/1', undefined, token)).status).toBe(200);
      // another subject's action is simply not found
      expect((await w.call('GET', `action-extension/1/${w.action.id}`, undefined, token)).status).toBe(404);
    });

    it('activates and deactivates per action; an inactive action has no extension to edit', async () => {
      const other = (
        await w.call('POST', 'action', { name: ml('Other'), dateFrom: '2026-07-01T00:00', dateTo: '2026-07-01T23:59' })
      ).body.data;
      let list = (await w.call('GET', 'action-extension/2')).body.data;
      expect(list.find((a: { id: number }) => a.id === other.id).active).toBe(false);
      expect(list.find((a: { id: number }) => a.id === w.action.id).active).toBe(true);
      const denied = await w.call('PUT', `action-extension/${other.id}/2`, { items: [] });
      expect([denied.status, denied.body.error.code]).toEqual([403, 'ACTION_DOESNT_HAVE_EXTENSION']);
      const on = await w.call('POST', `action-extension/2/${other.id}`, { active: true });
      expect(on.body.data).toEqual({ actionId: other.id, type: 2, active: true });
      list = (await w.call('GET', 'action-extension/2')).body.data;
      expect(list.find((a: { id: number }) => a.id === other.id).active).toBe(true);
      expect((await w.call('PUT', `action-extension/${other.id}/2`, { items: [] })).status).toBe(200);
      await w.call('POST', `action-extension/2/${other.id}`, { active: false });
      expect((await w.call('GET', `action-extension/2/${other.id}`)).body.data.active).toBe(false);
      expect((await w.call('POST', `action-extension/2/${other.id}`, { active: 'yes' })).status).toBe(400);
    });
  });

  describe('the edit screen (spec §5)', () => {
    it('refuses each broken rule with its message key', async () => {
      const slot = (over: Record<string, unknown> = {}) => ({
        label: ml('Lunch'),
        date: DAYS[0],
        timeFrom: '12:00',
        timeTo: '13:00',
        options: [],
        ...over,
      });
      const put = (items: unknown[]) => w.call('PUT', `action-extension/${w.action.id}/1`, { items });
      expect(fields(await put([slot({ date: '2026-06-04' })]))).toEqual([
        'items.0.date:actionExtension.dateIsNotActionDateArray',
      ]);
      expect(fields(await put([slot({ timeFrom: '14:00' })]))).toEqual(['items.0.timeTo:basics.timeSlotNotValid']);
      expect(fields(await put([slot(), slot({ timeFrom: '12:30', timeTo: '14:00' })]))).toEqual([
        'items.0.timeFrom:mealExtension.timeSlotsOverlap',
        'items.1.timeFrom:mealExtension.timeSlotsOverlap',
        'items:basics.timeSlotNotValid',
      ]);
      expect(
        fields(await put([slot({ label: ml(''), capacity: 0, options: [{ name: { en: 'Veg' }, capacity: -2 }] })])),
      ).toEqual([
        'items.0.label.cs:basics.requireField',
        'items.0.capacity:actionExtension.capacityPositive',
        'items.0.options.0.name.cs:mealExtension.mealNameRequired',
        'items.0.options.0.capacity:actionExtension.capacityPositive',
      ]);
      expect(fields(await put([slot({ date: '', timeTo: '' })]))).toEqual([
        'items.0.date:basics.requireField',
        'items.0.timeTo:basics.requireField',
      ]);
      const parking = await w.call('PUT', `action-extension/${w.action.id}/2`, {
        items: [{ label: ml(''), places: [{ name: ml(''), capacity: 'abc' }] }],
      });
      expect(fields(parking)).toEqual([
        'items.0.label.cs:basics.requireField',
        'items.0.places.0.name.cs:basics.requireField',
        'items.0.places.0.capacity:actionExtension.capacityPositive',
      ]);
      expect((await w.call('PUT', `action-extension/${w.action.id}/1`, { items: 'x' })).status).toBe(400);
    });

    it('saves items per day, keeps ids on an edit, and copies a day to the others', async () => {
      const saved = await w.call('PUT', `action-extension/${w.action.id}/1`, {
        items: [
          {
            label: ml('Breakfast'),
            date: DAYS[0],
            timeFrom: '07:00',
            timeTo: '09:00',
            capacity: '',
            options: [{ name: ml('Vegan'), note: 'oat milk', capacity: 5 }],
          },
        ],
      });
      expect(saved.status).toBe(200);
      const data = saved.body.data;
      expect(data.days.map((d: { day: string }) => d.day)).toEqual(DAYS);
      expect(data.days[0].name.cs).toBe('Day 1');
      expect(data.days[0].items).toHaveLength(1);
      const item = data.items[0];
      expect(item).toMatchObject({ capacity: null, taken: 0, full: false, timeFrom: '07:00' });
      expect(item.options[0]).toMatchObject({ name: ml('Vegan'), note: 'oat milk', capacity: 5, full: false });

      const copied = await w.call('POST', `action-extension/1/${w.action.id}/copy`, {
        fromDay: DAYS[0],
        toDays: [DAYS[1], DAYS[2]],
      });
      expect(copied.status).toBe(200);
      const items = copied.body.data.items;
      expect(items.map((i: { date: string }) => i.date)).toEqual(DAYS);
      expect(items[0].id).toBe(item.id);
      expect(new Set(items.map((i: { id: number }) => i.id)).size).toBe(3);
      expect(items[2].options[0].name.cs).toBe('Vegan');

      // edit one in place (same ids), drop the others
      const edited = await w.call('PUT', `action-extension/${w.action.id}/1`, {
        items: [{ ...items[0], label: ml('Snídaně'), options: [{ ...items[0].options[0], capacity: 7 }] }],
      });
      expect(edited.body.data.items).toHaveLength(1);
      expect(edited.body.data.items[0]).toMatchObject({ id: item.id, label: ml('Snídaně') });
      expect(edited.body.data.items[0].options[0]).toMatchObject({ id: item.options[0].id, capacity: 7 });
      // an id of another action's item is refused
      const foreign = await w.call('PUT', `action-extension/${w.action.id}/1`, {
        items: [{ ...items[0], id: 999_999 }],
      });
      expect([foreign.status, foreign.body.error.code]).toEqual([400, 'EXTENSION_ITEM_INVALID']);
    });
  });

  describe('people and capacities', () => {
    it('assigns items and options to a selection, refuses what is full, keeps a used meal locked', async () => {
      const lunches = (await w.lunches(2, 1)).body.data.items;
      const [a, b, c] = [await w.person(1), await w.person(2), await w.person(3)];
      const lunch = lunches[0];
      const veg = lunch.options[0].id;
      const path = `action-extension/1/${w.action.id}/users`;
      const assign = (usersIds: number[], items: unknown[]) =>
        w.call('PUT', path, { usersIds, actionId: w.action.id, items });

      expect((await assign([a.id], [{ itemId: lunch.id, option: veg }])).body.data).toEqual({ changed: 1 });
      // the option is full: nothing of this call is written
      const full = await assign([b.id, c.id], [{ itemId: lunch.id, option: veg }]);
      expect([full.status, full.body.error.code, full.body.error.details]).toEqual([
        409,
        'EXTENSION_CAPACITY_FULL',
        { itemId: lunch.id, option: veg },
      ]);
      expect((await w.call('GET', `${path}/${b.id}`)).body.data.items).toEqual([]);
      expect((await assign([b.id], [{ itemId: lunch.id }])).status).toBe(200);
      // the item is full (2)
      expect((await assign([c.id], [{ itemId: lunch.id }])).body.error.code).toBe('EXTENSION_CAPACITY_FULL');
      const data = (await w.call('GET', `action-extension/1/${w.action.id}`)).body.data;
      expect(data.items[0]).toMatchObject({ taken: 2, full: true });
      expect(data.items[0].options[0]).toMatchObject({ taken: 1, full: true });

      // a foreign item or an option of another item is refused
      expect((await assign([c.id], [{ itemId: lunches[1].id, option: veg }])).body.error.code).toBe(
        'EXTENSION_ITEM_INVALID',
      );
      expect((await assign([c.id, 999_999], [{ itemId: lunches[1].id }])).status).toBe(400);

      // the list with a day tab and the person's items
      const list = await w.call('POST', path, { day: DAYS[0], has: 'with', page: 1, pageSize: 10 });
      expect(list.body.data.max).toBe(2);
      expect(list.body.data.data.map((r: { id: number }) => r.id).sort()).toEqual([a.id, b.id].sort());
      expect(list.body.data.data.find((r: { id: number }) => r.id === a.id).items).toEqual([
        { itemId: lunch.id, option: veg, have: true, dateUsed: null, licencePlate: null },
      ]);
      const without = await w.call('POST', path, { day: DAYS[0], has: 'without', phrase: 'meal3' });
      expect(without.body.data.data.map((r: { id: number }) => r.id)).toEqual([c.id]);

      // a used meal is locked: no other option, no removal; the lunch stays used in the report
      await t.ds.query('UPDATE accreditation_extension SET dateUsed = ? WHERE accreditationId = ? AND itemId = ?', [
        t.ds.options.type === 'mariadb' ? new Date('2026-06-01T10:15:00Z') : '2026-06-01 10:15:00.000',
        a.id,
        lunch.id,
      ]);
      const locked = await assign([a.id], [{ itemId: lunch.id, option: null }]);
      expect([locked.status, locked.body.error.code]).toEqual([409, 'EXTENSION_MEAL_USED']);
      expect((await assign([a.id], [{ itemId: lunch.id, have: false }])).body.error.code).toBe('EXTENSION_MEAL_USED');
      expect((await w.call('GET', `${path}/${a.id}`)).body.data.items[0].dateUsed).toBe('2026-06-01T12:15');
      // the edit screen cannot delete a used lunch either
      const drop = await w.call('PUT', `action-extension/${w.action.id}/1`, { items: [] });
      expect(drop.body.error.code).toBe('EXTENSION_MEAL_USED');

      const report = await w.call('POST', `action-extension/1/${w.action.id}/report`, { responseType: 'json' });
      expect(report.body.data.rows[0]).toMatchObject({
        itemId: lunch.id,
        chose: 2,
        used: 1,
        options: [
          { option: veg, chose: 1, used: 1 },
          { option: null, chose: 1, used: 0 },
        ],
      });
      const xlsx = await t.api('POST', `/api/admin/v1/action-extension/1/${w.action.id}/report`, {
        token: w.admin,
        body: {},
      });
      expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
      const raw = await fetch(`${t.url}/api/admin/v1/action-extension/1/${w.action.id}/report`, {
        method: 'POST',
        headers: { authorization: w.admin, 'content-type': 'application/json' },
        body: '{}',
      });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await raw.arrayBuffer()) as never);
      const rows = wb.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
      expect(rows[0].slice(1, 4)).toEqual(['Day', 'Time', 'Meal']);
      expect(rows[1].slice(1, 8)).toEqual([DAYS[0], '12:00–13:00', `Lunch ${DAYS[0]}`, '', 2, 2, 1]);

      // removing unused items frees their places
      expect((await assign([b.id], [{ itemId: lunch.id, have: false }])).body.data).toEqual({ changed: 1 });
      expect((await assign([c.id], [{ itemId: lunch.id }])).status).toBe(200);
      // a person removed from the action takes their items along, freeing the place
      expect((await assign([b.id], [{ itemId: lunch.id }])).body.error.code).toBe('EXTENSION_CAPACITY_FULL');
      const removed = await w.call('POST', 'user/delete', { actionId: w.action.id, type: 1, userId: [c.id] });
      expect(removed.status).toBe(200);
      const [{ n }] = await t.ds.query('SELECT COUNT(*) AS n FROM accreditation_extension WHERE accreditationId = ?', [
        c.id,
      ]);
      expect(Number(n)).toBe(0);
      expect((await assign([b.id], [{ itemId: lunch.id }])).status).toBe(200);
    });

    it('parking: areas with places and a licence plate per person', async () => {
      const saved = await w.call('PUT', `action-extension/${w.action.id}/2`, {
        items: [
          { label: ml('P1'), capacity: 1, places: [{ name: ml('A1') }] },
          { label: ml('P2 day 2'), date: DAYS[1] },
        ],
      });
      expect(saved.status).toBe(200);
      const [p1, p2] = saved.body.data.items;
      expect(saved.body.data.days.map((d: { day: string | null }) => d.day)).toEqual([...DAYS, null]);
      const x = await w.person(10);
      const y = await w.person(11);
      const path = `action-extension/2/${w.action.id}/users`;
      const res = await w.call('PUT', path, {
        usersIds: [x.id],
        actionId: w.action.id,
        items: [{ itemId: p1.id, option: p1.options[0].id, licencePlate: '1ab 2345' }, { itemId: p2.id }],
      });
      expect(res.status).toBe(200);
      // the whole event's area first, then by date
      expect((await w.call('GET', `${path}/${x.id}`)).body.data.items).toEqual([
        { itemId: p1.id, option: p1.options[0].id, have: true, dateUsed: null, licencePlate: '1AB 2345' },
        { itemId: p2.id, option: null, have: true, dateUsed: null, licencePlate: null },
      ]);
      const full = await w.call('PUT', path, { usersIds: [y.id], actionId: w.action.id, items: [{ itemId: p1.id }] });
      expect(full.body.error.code).toBe('EXTENSION_CAPACITY_FULL');
      const tooLong = await w.call('PUT', path, {
        usersIds: [y.id],
        actionId: w.action.id,
        items: [{ itemId: p2.id, licencePlate: 'x'.repeat(21) }],
      });
      expect(fields(tooLong)).toEqual(['items.0.licencePlate:basics.tooLong']);
    });
  });

  describe('group defaults (assignDefaultMeal, assignDefaultParking)', () => {
    it('are given to people who join the group: create, assign-groups; not without the switch', async () => {
      const world = await extensionWorld(t, false);
      const items = (
        await world.call('PUT', `action-extension/${world.action.id}/1`, {
          items: [
            {
              label: ml('Dinner'),
              date: DAYS[1],
              timeFrom: '18:00',
              timeTo: '20:00',
              capacity: 2,
              options: [{ name: ml('Fish') }],
            },
          ],
        })
      ).body.data.items;
      const crew = world.groups[1];
      const set = await world.call('PUT', `action-extension/1/${world.action.id}/groups/${crew.id}`, {
        actionId: world.action.id,
        items: [{ itemId: items[0].id, option: items[0].options[0].id }],
      });
      expect(set.body.data).toEqual({
        groupId: crew.id,
        assignDefault: false,
        items: [{ itemId: items[0].id, option: items[0].options[0].id, have: true, licencePlate: null }],
      });
      const usersPath = `action-extension/1/${world.action.id}/users`;
      // the group's switch is off: nobody gets anything
      const before = await world.person(1, { groupIds: [crew.id] });
      expect((await world.call('GET', `${usersPath}/${before.id}`)).body.data.items).toEqual([]);
      await world.call('PUT', `groups/${crew.id}`, {
        name: 'Crew',
        actionId: world.action.id,
        assignDefaultMeal: true,
      });
      expect(
        (await world.call('GET', `action-extension/1/${world.action.id}/groups/${crew.id}`)).body.data.assignDefault,
      ).toBe(true);

      const joined = await world.person(2, { groupIds: [crew.id] });
      expect((await world.call('GET', `${usersPath}/${joined.id}`)).body.data.items).toMatchObject([
        { itemId: items[0].id, option: items[0].options[0].id },
      ]);
      const visitor = await world.person(3);
      const moved = await world.call('POST', 'user/assign-groups', {
        userId: [visitor.id, before.id],
        groupsId: [crew.id],
        actionId: world.action.id,
      });
      expect(moved.status).toBe(200);
      // capacity 2: the second joiner of this call is left out, never over capacity
      const got = await Promise.all(
        [visitor.id, before.id].map(
          async (id) => (await world.call('GET', `${usersPath}/${id}`)).body.data.items.length,
        ),
      );
      expect(got.reduce((s, n) => s + n, 0)).toBe(1);
      const data = (await world.call('GET', `action-extension/1/${world.action.id}`)).body.data;
      expect(data.items[0]).toMatchObject({ taken: 2, full: true });
      // another action's group is not found; a foreign item is refused
      expect((await world.call('GET', `action-extension/1/${world.action.id}/groups/${w.groups[0].id}`)).status).toBe(
        404,
      );
      const bad = await world.call('PUT', `action-extension/1/${world.action.id}/groups/${crew.id}`, {
        actionId: world.action.id,
        items: [{ itemId: 999_999 }],
      });
      expect(bad.body.error.code).toBe('EXTENSION_ITEM_INVALID');
    });

    it('are given to visitors who register online into the group as soon as the switch is on', async () => {
      const world = await extensionWorld(t, false);
      const items = (
        await world.call('PUT', `action-extension/${world.action.id}/2`, {
          items: [{ label: ml('Lot A'), date: DAYS[1], timeFrom: '08:00', timeTo: '20:00', capacity: 10 }],
        })
      ).body.data.items;
      const crew = world.groups[1];
      await world.call('PUT', `action-extension/2/${world.action.id}/groups/${crew.id}`, {
        actionId: world.action.id,
        items: [{ itemId: items[0].id }],
      });
      // the form puts everyone into Crew (the channel's automatic group)
      const channelKey = (
        await world.call('POST', 'web-channel', { name: 'Crew form', actionId: world.action.id, groupsId: [crew.id] })
      ).body.data.channelKey;
      const usersPath = `action-extension/2/${world.action.id}/users`;
      const register = async (k: number) => {
        const res = await t.api('POST', `/api/online/v1/accreditation/${channelKey}`, {
          body: { firstname: 'Lot', lastname: `Visitor${k}`, email: `lot${k}@example.com` },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return (await world.call('GET', `${usersPath}/${res.body.data.id}`)).body.data.items as unknown[];
      };
      // switch off: the form's set-up (kept per config version) knows the group gives nothing
      expect(await register(1)).toEqual([]);
      await world.call('PUT', `groups/${crew.id}`, {
        name: 'Crew',
        actionId: world.action.id,
        assignDefaultParking: true,
      });
      // switch on: the next visitor gets the lot, not the set-up read before the change
      expect(await register(2)).toMatchObject([{ itemId: items[0].id }]);
      await world.call('PUT', `groups/${crew.id}`, {
        name: 'Crew',
        actionId: world.action.id,
        assignDefaultParking: false,
      });
      expect(await register(3)).toEqual([]);
    });
  });
});
