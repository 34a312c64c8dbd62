import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngDataUrl } from '../../testing/images.js';
import { seedAccreditations } from '../../testing/seed.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

describe('accreditations (spec §7 Accreditations, §5, §8)', () => {
  let t: TestApp;
  let admin: string;
  let stranger: string;
  let reader: string;
  let action: { id: number };
  let fields: Record<string, { id: number; options: { id: string; value: string }[] }>;
  let groups: { id: number }[];
  let zone: { id: number };
  let subjectId: number;

  const post = (path: string, body: unknown, token = admin) => t.api('POST', `/api/admin/v1/${path}`, { token, body });
  const put = (path: string, body: unknown, token = admin) => t.api('PUT', `/api/admin/v1/${path}`, { token, body });
  const get = (path: string, token = admin) => t.api('GET', `/api/admin/v1/${path}`, { token });
  const person = (n: number, extra: Record<string, unknown> = {}) => ({
    actionId: action.id,
    firstname: `Anna${n}`,
    lastname: `Nováková${n}`,
    email: `anna${n}@example.com`,
    customField: [
      { id: fields.phone.id, value: '+420 601 234 567' },
      { id: fields.vip.id, value: n % 2 === 0 },
    ],
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    subjectId = subject.id;
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    reader = await loginAs(t, await createAdminUser(t, subject, { grant: [['user', 'getUser']] }));
    stranger = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    const f = async (name: string, customFieldType: number, options?: { value: string }[]) =>
      (await post('custom-field', { name, label: ml(name), customFieldType, options })).body.data;
    fields = {
      phone: await f('phone', 8),
      vip: await f('vip', 7),
      size: await f('size', 4, [{ value: 'S' }, { value: 'M' }]),
      address: await f('address', 5),
      company: await f('company', 1),
    };
    action = (
      await post('action', {
        name: ml('Veletrh'),
        dateFrom: '2027-05-10T08:00',
        dateTo: '2027-05-11T18:00',
        multiDay: true,
        isCredit: true,
        days: [
          { id: '2027-05-10', name: ml('Po'), onAccreditation: 'PO' },
          { id: '2027-05-11', name: ml('Út'), onAccreditation: 'ÚT' },
        ],
        customField: [
          { id: fields.phone.id, isMandatory: true },
          { id: fields.vip.id },
          { id: fields.size.id },
          { id: fields.address.id },
          { id: fields.company.id },
        ],
      })
    ).body.data;
    zone = (await post('zone', { name: 'VIP', actionId: action.id })).body.data;
    groups = [
      (await post('groups', { name: 'Press', actionId: action.id })).body.data,
      (await post('groups', { name: 'Staff', actionId: action.id })).body.data,
    ];
  });
  afterAll(() => t.close());

  it('registers a person with user fields, groups, zones, days and a photo; the code is unique and unguessable', async () => {
    const res = await post(
      'user',
      person(1, {
        groupIds: [groups[0].id],
        zones: [zone.id],
        days: ['2027-05-10'],
        imageData: pngDataUrl(8, 8),
        customField: [
          { id: fields.phone.id, value: '+420 601 234 567' },
          { id: fields.size.id, value: fields.size.options[1].id },
          { id: fields.address.id, value: { street: 'Náměstí 1', city: 'Brno', zip: '60200' } },
        ],
      }),
    );
    expect(res.status).toBe(201);
    const a = res.body.data;
    expect(a).toMatchObject({
      customId: 1,
      email: 'anna1@example.com',
      groups: [{ id: groups[0].id, name: 'Press' }],
      zones: [{ id: zone.id, name: 'VIP' }],
      days: ['2027-05-10'],
    });
    expect(a.bc).toMatch(/^[A-Z0-9]{16}$/);
    expect(a.image.path).toMatch(/^\/api\/file\//);
    expect(a.customField).toEqual(
      expect.arrayContaining([
        { id: fields.size.id, value: fields.size.options[1].id },
        { id: fields.address.id, value: { street: 'Náměstí 1', city: 'Brno', zip: '60200', gps: '' } },
        { id: fields.vip.id, value: false },
      ]),
    );
    const second = (await post('user', person(2))).body.data;
    expect(second.customId).toBe(2);
    expect(second.bc).not.toBe(a.bc);
    expect((await get(`user/${action.id}/${a.id}`)).body.data.email).toBe('anna1@example.com');
    expect((await get(`user/check/${a.bc}`)).body.data.id).toBe(a.id);
    const missing = await get('user/check/NOPE0000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('BC_NOT_EXIST');
  });

  it('rejects a duplicate e-mail, an invalid e-mail and bad user-field values with their codes', async () => {
    const dup = await post('user', person(1));
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('EMAIL_EXIST');
    const bad = await post(
      'user',
      person(50, {
        email: 'not-an-email',
        customField: [
          { id: fields.phone.id, value: '12' },
          { id: fields.size.id, value: 'nope' },
          { id: fields.address.id, value: { city: 'Brno' } },
        ],
      }),
    );
    expect(bad.body.error.details.fields).toEqual([{ path: 'email', key: 'basics.emailNotValid' }]);
    const values = await post(
      'user',
      person(51, {
        customField: [
          { id: fields.phone.id, value: '12' },
          { id: fields.size.id, value: 'nope' },
          { id: fields.address.id, value: { city: 'Brno' } },
        ],
      }),
    );
    expect(values.body.error.details.fields).toEqual([
      { path: `customField.${fields.phone.id}`, key: 'basics.phoneInvalid' },
      { path: `customField.${fields.size.id}`, key: 'basics.invalidValue' },
      { path: `customField.${fields.address.id}`, key: 'accreditation.addressInvalid' },
    ]);
    const mandatory = await post('user', person(52, { customField: [] }));
    expect(mandatory.body.error.details.fields).toEqual([
      { path: `customField.${fields.phone.id}`, key: 'basics.requireField' },
    ]);
    const otherDay = await post('user', person(53, { days: ['2027-06-01'] }));
    expect(otherDay.body.error.details.fields).toEqual([{ path: 'days', key: 'basics.dateNotInActionRange' }]);

    // a single-day action has no participation days to give, on one person or in bulk
    const single = (
      await post('action', { name: { cs: 'Jednodenní' }, dateFrom: '2027-05-10T08:00', dateTo: '2027-05-10T18:00' })
    ).body.data;
    const withDays = await post('user', {
      ...person(54, { days: ['2027-05-10'] }),
      actionId: single.id,
      customField: [],
    });
    expect(withDays.body.error.details.fields).toEqual([{ path: 'days', key: 'accreditation.daysOnlyMultiDay' }]);
    const plain = await post('user', { ...person(55), actionId: single.id, customField: [] });
    expect(plain.status).toBe(201);
    const bulk = await post('user/assign-days', {
      actionId: single.id,
      userId: [plain.body.data.id],
      days: ['2027-05-10'],
    });
    expect(bulk.body.error.details.fields).toEqual([{ path: 'days', key: 'accreditation.daysOnlyMultiDay' }]);
  });

  it('edits: keeps the photo unless replaced or cleared, and keeps the rest of the subject out', async () => {
    const a = (await post('user', person(3, { imageData: pngDataUrl() }))).body.data;
    const kept = await put(`user/${a.id}`, person(3, { firstname: 'Eva' }));
    expect(kept.body.data).toMatchObject({ firstname: 'Eva', image: { id: a.image.id } });
    const cleared = await put(`user/${a.id}`, person(3, { imageId: null }));
    expect(cleared.body.data.image).toBeNull();
    expect((await get(`user/${action.id}/${a.id}`, stranger)).status).toBe(404);
    expect((await put(`user/${a.id}`, person(3), stranger)).status).toBe(404);
    expect((await get(`user/check/${a.bc}`, stranger)).status).toBe(404);
    expect((await post('user', person(4), reader)).status).toBe(403);
  });

  it('finds by page and by filter: text, group, zone, printed, boolean and text user fields', async () => {
    for (let n = 10; n < 22; n++) {
      await post(
        'user',
        person(n, {
          groupIds: n < 15 ? [groups[1].id] : [],
          customField: [
            { id: fields.phone.id, value: '+420601234567' },
            { id: fields.vip.id, value: n % 2 === 0 },
            { id: fields.company.id, value: n === 21 ? 'Acme Corp' : 'Other' },
          ],
        }),
      );
    }
    const all = await post('user/all', { actionId: action.id, page: 1, pageSize: 10 });
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(10);
    expect(all.body.max).toBeGreaterThanOrEqual(15);
    expect(all.body.customField.map((f: { name: string }) => f.name)).toEqual([
      'phone',
      'vip',
      'size',
      'address',
      'company',
    ]);
    const page2 = await post('user/all', { actionId: action.id, page: 2, pageSize: 10 });
    expect(page2.body.data[0].id).toBeLessThan(all.body.data[9].id);

    const filter = (filterData: object) =>
      post('user/filter', { actionId: action.id, page: 1, pageSize: 50, filterData });
    // Capitals with diacritics match on both databases (SQLite's LIKE folds ASCII only).
    expect((await filter({ text: 'NOVÁKOVÁ21' })).body.data.map((r: { email: string }) => r.email)).toEqual([
      'anna21@example.com',
    ]);
    expect((await filter({ text: 'anna21' })).body.data.map((r: { email: string }) => r.email)).toEqual([
      'anna21@example.com',
    ]);
    // …and diacritics are ignored both ways, alike on SQLite and MariaDB: "novakova21" finds "Nováková21"
    for (const text of ['novakova21', 'NOVAKOVA21', 'nóvåkövá21'])
      expect((await filter({ text })).body.data.map((r: { email: string }) => r.email)).toEqual(['anna21@example.com']);
    expect((await filter({ groupId: groups[1].id })).body.max).toBe(5);
    expect((await filter({ zoneId: zone.id })).body.max).toBe(1);
    expect((await filter({ printed: 1 })).body.max).toBe(0);
    const vip = (await filter({ customField: { [fields.vip.id]: 1 } })).body.data;
    expect(vip.length).toBeGreaterThan(0);
    expect(
      vip.every(
        (r: { customField: { id: number; value: unknown }[] }) =>
          r.customField.find((c) => c.id === fields.vip.id)?.value === true,
      ),
    ).toBe(true);
    expect(
      (await filter({ customField: { [fields.company.id]: 'acme' } })).body.data.map((r: { email: string }) => r.email),
    ).toEqual(['anna21@example.com']);
    expect((await filter({ text: '%' })).body.max).toBe(0);
    expect((await post('user/all', { actionId: action.id }, stranger)).body.error.code).toBe('ACTION_DOESNT_EXIST');
    // a day that is not in the calendar, a user field named otherwise than by its id: said, not ignored
    const badDay = await filter({ entrance: 2, entranceDate: '2026-02-31' });
    expect(badDay.status).toBe(400);
    expect(badDay.body.error.details.fields).toEqual([
      { path: 'filterData.entranceDate', key: 'basics.enterCorrectDate' },
    ]);
    const badField = await filter({ customField: { company: 'Acme' } });
    expect(badField.status).toBe(400);
    expect(badField.body.error.details.fields[0].path).toMatch(/^filterData\.customField/);
  });

  it('changes in bulk on ids or on a whole filter, and deletes from the action or the system', async () => {
    const other = (await post('action', { name: ml('Jiná') })).body.data;
    const ids = [];
    for (let n = 30; n < 34; n++) ids.push((await post('user', person(n))).body.data.id);
    const byFilter = await post('user/assign-groups', {
      actionId: action.id,
      all: true,
      filterData: { text: 'anna3' },
      groupsId: [groups[0].id],
    });
    expect(byFilter.body.data.changed).toBe(5); // anna3 and anna30…33
    const grouped = await post('user/filter', {
      actionId: action.id,
      page: 1,
      pageSize: 50,
      filterData: { groupId: groups[0].id },
    });
    expect(grouped.body.max).toBeGreaterThanOrEqual(5);

    // add keeps what people hold (twice is still once); replace (the default) leaves only the chosen groups
    const groupsOf = async (id: number) =>
      ((await get(`user/${action.id}/${id}`)).body.data.groupIds as number[]).slice().sort((a, b) => a - b);
    const add = { actionId: action.id, userId: [ids[0]], groupsId: [groups[1].id], mode: 'add' };
    expect((await post('user/assign-groups', add)).body.data.changed).toBe(1);
    expect((await post('user/assign-groups', add)).body.data.changed).toBe(1);
    expect(await groupsOf(ids[0])).toEqual([groups[0].id, groups[1].id].sort((a, b) => a - b));
    await post('user/assign-groups', { actionId: action.id, userId: [ids[0]], groupsId: [groups[0].id] });
    expect(await groupsOf(ids[0])).toEqual([groups[0].id]);
    const badMode = await post('user/assign-groups', { ...add, mode: 'merge' });
    expect(badMode.body.error.details.fields.map((f: { path: string }) => f.path)).toEqual(['mode']);

    expect(
      (await post('user/assign-zone', { actionId: action.id, userId: ids.slice(0, 2), zones: [zone.id] })).body.data
        .changed,
    ).toBe(2);
    expect(
      (await post('user/assign-days', { actionId: action.id, userId: ids, days: ['2027-05-11'] })).body.data.changed,
    ).toBe(4);
    expect((await get(`user/${action.id}/${ids[0]}`)).body.data).toMatchObject({
      zoneIds: [zone.id],
      days: ['2027-05-11'],
    });
    const none = await post('user/assign-groups', { actionId: action.id, userId: [], groupsId: [groups[0].id] });
    expect(none.body.error.details.fields).toEqual([{ path: 'userId', key: 'accreditation.chooseUsers' }]);
    const noGroup = await post('user/assign-groups', { actionId: action.id, userId: ids, groupsId: [] });
    expect(noGroup.body.error.details.fields).toEqual([{ path: 'groupsId', key: 'accreditation.chooseGroup' }]);

    // The same person in another action: type 1 removes one row, type 2 the person everywhere.
    await post('user', { ...person(30), actionId: other.id, customField: [] });
    expect((await post('user/delete', { actionId: action.id, userId: [ids[1]], type: 1 })).body.data.changed).toBe(1);
    expect((await get(`user/${action.id}/${ids[1]}`)).status).toBe(404);
    // the confirmation is told first how many go and from which actions; the preview deletes nothing
    const preview = await post('user/delete/preview', { actionId: action.id, userId: [ids[0]], type: 2 });
    expect(preview.status).toBe(200);
    expect(preview.body.data.count).toBe(2);
    expect(preview.body.data.actions.map((a: { id: number; count: number }) => [a.id, a.count]).sort()).toEqual(
      [
        [action.id, 1],
        [other.id, 1],
      ].sort(),
    );
    expect(preview.body.data.actions.find((a: { id: number }) => a.id === other.id).name.cs).toBe('Jiná');
    expect(
      (await post('user/delete/preview', { actionId: action.id, userId: [ids[0]], type: 1 })).body.data.count,
    ).toBe(1);
    expect((await get(`user/${action.id}/${ids[0]}`)).status).toBe(200);
    expect((await post('user/delete', { actionId: action.id, userId: [ids[0]], type: 2 })).body.data.changed).toBe(2);
    expect(
      (await post('user/filter', { actionId: other.id, page: 1, pageSize: 10, filterData: { text: 'anna30' } })).body
        .max,
    ).toBe(0);
    // Another subject's ids are not touched.
    expect(
      (await post('user/delete', { actionId: action.id, userId: [ids[2]], type: 1 }, stranger)).body.error.code,
    ).toBe('ACTION_DOESNT_EXIST');
  });

  it('copies people to another action, skipping those already there', async () => {
    const target = (await post('action', { name: ml('Cíl'), customField: [{ id: fields.company.id }] })).body.data;
    const a = (
      await post(
        'user',
        person(60, {
          customField: [
            { id: fields.phone.id, value: '+420601234567' },
            { id: fields.company.id, value: 'Acme' },
          ],
        }),
      )
    ).body.data;
    const b = (await post('user', person(61))).body.data;
    await post('user', { ...person(61), actionId: target.id, customField: [] });
    const res = await post('user/copy', { actualAction: action.id, actionId: target.id, userId: [a.id, b.id] });
    expect(res.body.data).toEqual({ changed: 1, skipped: 1 });
    const copied = (
      await post('user/filter', { actionId: target.id, page: 1, pageSize: 10, filterData: { text: 'anna60' } })
    ).body.data[0];
    expect(copied).toMatchObject({
      firstname: 'Anna60',
      customId: 2,
      customField: [{ id: fields.company.id, value: 'Acme' }],
    });
    expect(copied.bc).not.toBe(a.bc);
    const none = await post('user/copy', { actualAction: action.id, userId: [a.id] });
    expect(none.body.error.details.fields).toEqual([{ path: 'actionId', key: 'accreditation.chooseAction' }]);
  });

  it('credit: adds and removes, never below zero even when two removals race', async () => {
    const a = (await post('user', person(40))).body.data;
    const empty = await get(`user-credit/${a.id}`);
    expect(empty.body.data).toEqual({ credit: null, isUnlimited: false, history: [] });
    expect((await put(`user-credit/${a.id}`, { price: 0, type: 1 })).body.error.details.fields).toEqual([
      { path: 'price', key: 'credit.amountPositive' },
    ]);
    const added = await put(`user-credit/${a.id}`, { price: 100, type: 1 });
    expect(added.body.data.credit).toBe(100);
    const races = await Promise.all([1, 2, 3].map(() => put(`user-credit/${a.id}`, { price: 60, type: 3 })));
    expect(races.filter((r) => r.status === 200)).toHaveLength(1);
    expect(races.filter((r) => r.body.error?.code === 'CREDIT_NOT_ENOUGH')).toHaveLength(2);
    const after = (await get(`user-credit/${a.id}`)).body.data;
    expect(after.credit).toBe(40);
    expect(after.history.map((h: { type: number; price: number }) => [h.type, h.price])).toEqual([
      [3, -60],
      [1, 100],
    ]);
    expect(after.history[0].adminUser).toBe('Test User');
  });

  it('counts and pages a broad user-field filter (more matches than are read at once) exactly', async () => {
    // 2,100 people in one action, 2,050 of them at Big Co; the same field holds Big Co for 30
    // people of another action, who must not count.
    const make = async (n: number) =>
      (await post('action', { name: ml(`Broad ${n}`), customField: [{ id: fields.company.id }] })).body.data;
    const [broad, other] = [await make(1), await make(2)];
    const ids = await seedAccreditations(t.ds, {
      subjectId,
      actionId: broad.id,
      count: 2100,
      values: (n) => ({ [fields.company.id]: n <= 2050 ? 'Big Co' : 'Small Co' }),
    });
    await seedAccreditations(t.ds, {
      subjectId,
      actionId: other.id,
      count: 30,
      values: () => ({ [fields.company.id]: 'Big Co' }),
    });
    const filter = (filterData: object, page = 1) =>
      post('user/filter', { actionId: broad.id, page, pageSize: 10, filterData });

    const first = (await filter({ customField: { [fields.company.id]: 'big' } })).body;
    expect(first.max).toBe(2050);
    expect(first.data.map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 2050).reverse().slice(0, 10));
    const last = (await filter({ customField: { [fields.company.id]: 'big' } }, 205)).body;
    expect(last.data.map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 10).reverse());
    expect((await filter({ customField: { [fields.company.id]: 'small' } })).body.max).toBe(50);
    expect((await filter({ customField: { [fields.company.id]: 'co' } })).body.max).toBe(2100);
    // With a second condition the count comes from the combined query.
    expect((await filter({ text: 'p20', customField: { [fields.company.id]: 'big' } })).body.max).toBe(62);
    expect((await filter({ customField: { [fields.company.id]: 'nobody' } })).body).toMatchObject({
      max: 0,
      data: [],
    });
  });
});
