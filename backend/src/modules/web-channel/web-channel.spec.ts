import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngDataUrl } from '../../testing/images.js';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  operatorToken,
  type TestApp,
} from '../../testing/test-app.js';
import { WebChannelCodeEntity, WebChannelEntity } from './web-channel.entity.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const csv = (text: string) => `data:text/csv;base64,${Buffer.from(text, 'utf8').toString('base64')}`;

describe('web channels in the admin application (spec §3 Web channel, §4, §5, §7)', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let noExport: string;
  let stranger: string;
  let action: { id: number };
  let otherAction: { id: number };
  let strangerAction: { id: number };
  let group: { id: number };
  let logo: { id: number };

  const call = (method: string, path: string, body?: unknown, token = admin) =>
    t.api(method, `/api/admin/v1/${path}`, { token, body });
  const channel = (extra: Record<string, unknown> = {}) => ({
    name: 'Public registration',
    actionId: action.id,
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    reader = await loginAs(t, await createAdminUser(t, subject, { grant: [['webChannel', 'get']] }));
    noExport = await loginAs(
      t,
      await createAdminUser(t, subject, {
        grant: [
          ['webChannel', 'get'],
          ['webChannel', 'create'],
          ['webChannel', 'update'],
        ],
      }),
    );
    stranger = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    action = (
      await call('POST', 'action', {
        name: ml('Fair'),
        dateFrom: '2027-05-10T08:00',
        dateTo: '2027-05-11T18:00',
        multiDay: true,
        days: [
          { id: '2027-05-10', name: ml('Mon'), onAccreditation: 'MO' },
          { id: '2027-05-11', name: ml('Tue'), onAccreditation: 'TU' },
        ],
      })
    ).body.data;
    otherAction = (await call('POST', 'action', { name: ml('Other') })).body.data;
    strangerAction = (await call('POST', 'action', { name: ml('Foreign') }, stranger)).body.data;
    group = (await call('POST', 'groups', { name: 'Visitors', actionId: action.id })).body.data;
    logo = (await call('POST', 'image', { type: 3, name: 'Logo', baseData: pngDataUrl(20, 10) })).body.data;
  });
  afterAll(() => t.close());

  it('answers 401 without a session and 403 without the right', async () => {
    expect((await t.api('GET', '/api/admin/v1/web-channel')).status).toBe(401);
    expect((await call('POST', 'web-channel', channel(), reader)).status).toBe(403);
    const created = (await call('POST', 'web-channel', channel())).body.data;
    expect((await call('PUT', `web-channel/${created.id}`, channel(), reader)).status).toBe(403);
    expect((await call('GET', `web-channel/${created.id}`, undefined, reader)).status).toBe(200);
    const parse = { dataFile: csv('a\nb') };
    expect((await call('POST', 'web-channel/external-code/import', parse, reader)).status).toBe(403);
    expect((await call('POST', 'web-channel/external-code/import', parse, noExport)).status).toBe(200);
    const exported = await call('GET', `web-channel/external-code/${created.id}`, undefined, noExport);
    expect([exported.status, exported.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('creates a channel with an unguessable key, derives the authorization type and never returns the password', async () => {
    const res = await call(
      'POST',
      'web-channel',
      channel({
        dateFrom: '2027-05-01',
        dateTo: '2027-05-09',
        withAuthorization: true,
        authorizationType: 1,
        password: 'channel-secret',
        authorizationText: ml('Ask the organiser for the password'),
        viewGroups: true,
        groupsId: [group.id],
        groupsSelectName: ml('Your role'),
        defaultDays: ['2027-05-11', '2027-05-10'],
        imageId: logo.id,
        afterAdd: { action: 2 },
      }),
    );
    expect(res.status).toBe(201);
    const c = res.body.data;
    expect(c.channelKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(c).toMatchObject({
      link: `/app/online/${c.channelKey}`,
      dateFrom: '2027-05-01T00:00',
      dateTo: '2027-05-09T23:59',
      withAuthorization: true,
      authorizationType: 1,
      byPassword: true,
      byCode: false,
      hasPassword: true,
      groupsId: [group.id],
      defaultDays: ['2027-05-10', '2027-05-11'],
      afterAdd: { action: 2 },
      image: { id: logo.id },
      users: [],
      externalCode: [],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/channel-secret|passwordHash|scrypt/);
    expect(c.image.path).toMatch(/^\/api\/file\//);
    const second = (await call('POST', 'web-channel', channel())).body.data;
    expect(second.channelKey).not.toBe(c.channelKey);
    expect(second).toMatchObject({ withAuthorization: false, authorizationType: 2, hasPassword: false });

    // Type 3 saves byCode, type 2 neither flag (spec §4).
    const byCode = await call('PUT', `web-channel/${c.id}`, {
      ...channel(),
      withAuthorization: true,
      authorizationType: 3,
      numberUseExtCode: 2,
    });
    expect(byCode.body.data).toMatchObject({ authorizationType: 3, byCode: true, byPassword: false });
    const byLogin = await call('PUT', `web-channel/${c.id}`, {
      ...channel(),
      withAuthorization: true,
      authorizationType: 2,
      byPassword: true,
      byCode: true,
    });
    expect(byLogin.body.data).toMatchObject({ authorizationType: 2, byCode: false, byPassword: false });
  });

  it('requires the password for type 1 on create, and on edit only when none is stored; blank keeps it', async () => {
    const missing = await call('POST', 'web-channel', channel({ withAuthorization: true, authorizationType: 1 }));
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.fields).toEqual([{ path: 'password', key: 'basics.requireField' }]);

    const plain = (await call('POST', 'web-channel', channel())).body.data;
    const stillMissing = await call(
      'PUT',
      `web-channel/${plain.id}`,
      channel({ withAuthorization: true, authorizationType: 1 }),
    );
    expect(stillMissing.body.error.details.fields).toEqual([{ path: 'password', key: 'basics.requireField' }]);

    const withPassword = await call(
      'PUT',
      `web-channel/${plain.id}`,
      channel({ withAuthorization: true, authorizationType: 1, password: 'first-secret' }),
    );
    expect(withPassword.body.data.hasPassword).toBe(true);
    const repo = t.ds.getRepository(WebChannelEntity);
    const hash = (await repo.findOneByOrFail({ id: plain.id })).passwordHash;
    const kept = await call(
      'PUT',
      `web-channel/${plain.id}`,
      channel({ withAuthorization: true, authorizationType: 1, password: '' }),
    );
    expect(kept.status).toBe(200);
    expect((await repo.findOneByOrFail({ id: plain.id })).passwordHash).toBe(hash);
    await call(
      'PUT',
      `web-channel/${plain.id}`,
      channel({ withAuthorization: true, authorizationType: 1, password: 'new-one' }),
    );
    expect((await repo.findOneByOrFail({ id: plain.id })).passwordHash).not.toBe(hash);
  });

  it('checks the spec §5 rules: name, action, authorization type, uses, date order, groups and days of the action', async () => {
    const empty = await call('POST', 'web-channel', {});
    expect(empty.body.error.details.fields).toEqual([
      { path: 'name', key: 'basics.requireField' },
      { path: 'actionId', key: 'basics.requireField' },
    ]);
    const noType = await call('POST', 'web-channel', channel({ withAuthorization: true }));
    expect(noType.body.error.details.fields).toEqual([{ path: 'authorizationType', key: 'basics.requireField' }]);
    const noUses = await call('POST', 'web-channel', channel({ withAuthorization: true, authorizationType: 3 }));
    expect(noUses.body.error.details.fields).toEqual([{ path: 'numberUseExtCode', key: 'basics.requireField' }]);
    // a cleared field (null or "") is empty, not 0 = unlimited (issue 10 item 9)
    const before = (await call('GET', 'web-channel')).body.data.length;
    for (const cleared of [null, '', ' ']) {
      const res = await call(
        'POST',
        'web-channel',
        channel({ withAuthorization: true, authorizationType: 3, numberUseExtCode: cleared }),
      );
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields).toEqual([{ path: 'numberUseExtCode', key: 'basics.requireField' }]);
    }
    expect((await call('GET', 'web-channel')).body.data.length).toBe(before);
    const limited = (
      await call('POST', 'web-channel', channel({ withAuthorization: true, authorizationType: 3, numberUseExtCode: 3 }))
    ).body.data;
    const clearedOnEdit = await call(
      'PUT',
      `web-channel/${limited.id}`,
      channel({ withAuthorization: true, authorizationType: 3, numberUseExtCode: null }),
    );
    expect(clearedOnEdit.body.error.details.fields).toEqual([{ path: 'numberUseExtCode', key: 'basics.requireField' }]);
    expect((await call('GET', `web-channel/${limited.id}`)).body.data.numberUseExtCode).toBe(3);
    const negative = await call(
      'POST',
      'web-channel',
      channel({ withAuthorization: true, authorizationType: 3, numberUseExtCode: -1 }),
    );
    expect(negative.body.error.details.fields).toEqual([
      { path: 'numberUseExtCode', key: 'webChannelRules.positiveNumber' },
    ]);
    const order = await call('POST', 'web-channel', channel({ dateFrom: '2027-06-02T10:00', dateTo: '2027-06-01' }));
    expect(order.body.error.details.fields).toEqual([
      { path: 'dateFrom', key: 'webChannelRules.dateFromAfterTo' },
      { path: 'dateTo', key: 'webChannelRules.dateToBeforeFrom' },
    ]);
    const badDate = await call('POST', 'web-channel', channel({ dateFrom: '2027-13-45T10:00' }));
    expect(badDate.body.error.details.fields).toEqual([{ path: 'dateFrom', key: 'basics.enterCorrectDate' }]);
    const foreignAction = await call('POST', 'web-channel', channel({ actionId: strangerAction.id }));
    expect(foreignAction.body.error.details.fields).toEqual([{ path: 'actionId', key: 'basics.invalidValue' }]);
    const wrongGroup = await call('POST', 'web-channel', channel({ actionId: otherAction.id, groupsId: [group.id] }));
    expect(wrongGroup.body.error.details.fields).toEqual([{ path: 'groupsId', key: 'webChannelRules.groupsOfAction' }]);
    const wrongDay = await call('POST', 'web-channel', channel({ defaultDays: ['2027-05-12'] }));
    expect(wrongDay.body.error.details.fields).toEqual([{ path: 'defaultDays', key: 'basics.dateNotInActionRange' }]);
  });

  it('keeps login users unique per channel, their passwords write-only, and applies the list on save', async () => {
    const dup = await call(
      'POST',
      'web-channel',
      channel({
        users: [
          { login: 'desk', password: 'pw-1', active: true },
          { login: ' DESK ', password: 'pw-2', active: true },
          { login: 'nopass' },
        ],
      }),
    );
    expect(dup.status).toBe(400);
    expect(dup.body.error.details.fields).toEqual([
      { path: 'users.2.password', key: 'basics.requireField' },
      { path: 'users.1.login', key: 'webChannelRules.userLoginExists' },
    ]);
    const created = (
      await call(
        'POST',
        'web-channel',
        channel({
          withAuthorization: true,
          authorizationType: 2,
          users: [
            { login: 'Desk', password: 'pw-1' },
            { login: 'gate', password: 'pw-2', active: false },
          ],
        }),
      )
    ).body.data;
    expect(created.users).toEqual([
      { id: expect.any(Number), login: 'desk', active: true },
      { id: expect.any(Number), login: 'gate', active: false },
    ]);
    expect(JSON.stringify(created)).not.toMatch(/pw-1|passwordHash/);
    const [desk, gate] = created.users;
    // Rename, swap-free; drop one; add one; an existing user's password is ignored.
    const updated = await call('PUT', `web-channel/${created.id}`, {
      ...channel({ withAuthorization: true, authorizationType: 2 }),
      users: [
        { id: desk.id, login: 'front-desk', active: false, password: 'ignored' },
        { login: 'new', password: 'pw-3' },
      ],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.users).toEqual([
      { id: desk.id, login: 'front-desk', active: false },
      { id: expect.any(Number), login: 'new', active: true },
    ]);
    expect(updated.body.data.users.some((u: { id: number }) => u.id === gate.id)).toBe(false);
    const foreignId = await call('PUT', `web-channel/${created.id}`, {
      ...channel(),
      users: [{ id: 999999, login: 'x' }],
    });
    expect(foreignId.body.error.details.fields).toEqual([{ path: 'users.0.id', key: 'basics.invalidValue' }]);
  });

  it('keeps codes unique per channel (case-insensitive), not negative, and refuses to remove a used one', async () => {
    const dup = await call(
      'POST',
      'web-channel',
      channel({ externalCode: [{ code: 'abc' }, { code: 'ABC ', numberOfUse: 2 }, { code: 'X', numberOfUse: -3 }] }),
    );
    expect(dup.body.error.details.fields).toEqual([
      { path: 'externalCode.2.numberOfUse', key: 'webChannelRules.positiveNumber' },
      { path: 'externalCode.1.code', key: 'webChannelRules.codeExists' },
    ]);
    const created = (
      await call(
        'POST',
        'web-channel',
        channel({
          withAuthorization: true,
          authorizationType: 3,
          numberUseExtCode: 1,
          externalCode: [
            { code: 'vip-1', numberOfUse: 0 },
            { code: 'vip-2', numberOfUse: 5 },
            { code: 'vip-3', numberOfUse: 1 },
          ],
        }),
      )
    ).body.data;
    expect(
      created.externalCode.map((c: { code: string; used: number; log: unknown[] }) => [c.code, c.used, c.log]),
    ).toEqual([
      ['VIP-1', 0, []],
      ['VIP-2', 0, []],
      ['VIP-3', 0, []],
    ]);
    // Register once with VIP-2 through the public form: the code now has a use and a log entry.
    const login = await t.api('POST', '/api/online/v1/web-channel/login', {
      body: { channelKey: created.channelKey, code: 'vip-2' },
    });
    expect(login.status).toBe(200);
    const registered = await t.api('POST', `/api/online/v1/accreditation/${created.channelKey}`, {
      headers: { 'authorization-online': login.body.data.token },
      body: { firstname: 'Eva', lastname: 'Malá', email: 'eva@example.com' },
    });
    expect(registered.status).toBe(201);
    const [vip1, vip2, vip3] = (await call('GET', `web-channel/${created.id}`)).body.data.externalCode;
    expect(vip2).toMatchObject({
      used: 1,
      log: [{ firstname: 'Eva', lastname: 'Malá', email: 'eva@example.com', date: expect.any(String) }],
    });
    const base = channel({ withAuthorization: true, authorizationType: 3, numberUseExtCode: 1 });
    const removeUsed = await call('PUT', `web-channel/${created.id}`, { ...base, externalCode: [vip1, vip3] });
    expect([removeUsed.status, removeUsed.body.error.code, removeUsed.body.error.details.codes]).toEqual([
      409,
      'EXTERNAL_CODE_USED',
      ['VIP-2'],
    ]);
    // Changes apply only on save, together: remove an unused code, edit a used one, add one.
    const saved = await call('PUT', `web-channel/${created.id}`, {
      ...base,
      externalCode: [
        { id: vip2.id, code: 'vip-2', numberOfUse: 9 },
        { id: vip3.id, code: 'vip-three', numberOfUse: 3 },
        { code: 'new', numberOfUse: 0 },
      ],
    });
    expect(saved.status).toBe(200);
    expect(
      saved.body.data.externalCode.map((c: { code: string; numberOfUse: number; used: number }) => [
        c.code,
        c.numberOfUse,
        c.used,
      ]),
    ).toEqual([
      ['VIP-2', 9, 1],
      ['VIP-THREE', 3, 0],
      ['NEW', 0, 0],
    ]);
    expect(await t.ds.getRepository(WebChannelCodeEntity).countBy({ channelId: created.id })).toBe(3);
  });

  it('parses a CSV of codes for the form and lists the lines it skips', async () => {
    const res = await call('POST', 'web-channel/external-code/import', {
      dataFile: csv(
        '\uFEFFcode;numberOfUse\r\nalpha;3\r\nbeta\r\n"gamma",7\r\n\r\nalpha;1\r\ndelta;x\r\n;4\r\nepsilon\t-1\r\nzeta;2;0\r\nexisting\n' +
          `${'L'.repeat(65)}\n`,
      ),
      numberUseExtCode: 5,
      existing: ['Existing'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.codes).toEqual([
      { code: 'ALPHA', numberOfUse: 3 },
      { code: 'BETA', numberOfUse: 5 },
      { code: 'GAMMA', numberOfUse: 7 },
      { code: 'ZETA', numberOfUse: 2 },
    ]);
    expect(res.body.data.skipped.map((s: { line: number; reason: string }) => [s.line, s.reason])).toEqual([
      [6, 'duplicate'],
      [7, 'badNumber'],
      [8, 'empty'],
      [9, 'badNumber'],
      [11, 'duplicate'],
      [12, 'tooLong'],
    ]);
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]).toString('base64');
    const notCsv = await call('POST', 'web-channel/external-code/import', { dataFile: zip });
    expect([notCsv.status, notCsv.body.error.code]).toEqual([400, 'INVALID_IMPORT_FILE_FORMAT']);
    const garbage = await call('POST', 'web-channel/external-code/import', { dataFile: 'data:text/csv;base64,@@@' });
    expect([garbage.status, garbage.body.error.code]).toEqual([400, 'DATA_BASE64_INVALID']);
    const none = await call('POST', 'web-channel/external-code/import', {});
    expect(none.body.error.details.fields).toEqual([{ path: 'dataFile', key: 'webChannelRules.chooseCsvFile' }]);
  });

  it('exports the codes as CSV with a file name, a file the import reads back', async () => {
    const created = (
      await call(
        'POST',
        'web-channel',
        channel({ name: 'Tisková akreditace', externalCode: [{ code: 'one', numberOfUse: 2 }, { code: 'two' }] }),
      )
    ).body.data;
    const res = await fetch(`${t.url}/api/admin/v1/web-channel/external-code/${created.id}`, {
      headers: { authorization: admin },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="external-codes-tiskova-akreditace.csv"');
    const text = await res.text();
    expect(text).toBe('code;numberOfUse;used\r\nONE;2;0\r\nTWO;0;0\r\n');
    const back = await call('POST', 'web-channel/external-code/import', { dataFile: csv(text) });
    expect(back.body.data).toEqual({
      codes: [
        { code: 'ONE', numberOfUse: 2 },
        { code: 'TWO', numberOfUse: 0 },
      ],
      skipped: [],
    });
  });

  it('lists channels, by action too, and hides another subject’s channel (404)', async () => {
    const onOther = (await call('POST', 'web-channel', channel({ actionId: otherAction.id, name: 'Other one' }))).body
      .data;
    const all = (await call('GET', 'web-channel')).body.data;
    expect(all.length).toBeGreaterThan(3);
    expect(all.find((c: { id: number }) => c.id === onOther.id)).toMatchObject({
      name: 'Other one',
      state: 'open',
      link: `/app/online/${onOther.channelKey}`,
      authorizationType: null,
    });
    const byAction = (await call('GET', `web-channel?actionId=${otherAction.id}`)).body.data;
    expect(byAction.map((c: { id: number }) => c.id)).toEqual([onOther.id]);
    expect((await call('GET', 'web-channel?actionId=abc')).status).toBe(400);
    expect((await call('GET', 'web-channel', undefined, stranger)).body.data).toEqual([]);
    for (const [method, path, body] of [
      ['GET', `web-channel/${onOther.id}`, undefined],
      ['PUT', `web-channel/${onOther.id}`, { name: 'x', actionId: strangerAction.id }],
      ['GET', `web-channel/external-code/${onOther.id}`, undefined],
    ] as const) {
      const res = await call(method, path, body, stranger);
      expect([path, res.status, res.body.error.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    expect((await call('GET', 'web-channel/999999')).status).toBe(404);
  });

  it('gives the manage module a subject’s channels with their links and authorization', async () => {
    const op = await operatorToken(t);
    const subject = await createSubject(t);
    const user = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    const a = (await call('POST', 'action', { name: ml('A') }, user)).body.data;
    const c = (
      await call(
        'POST',
        'web-channel',
        { name: 'Gate', actionId: a.id, withAuthorization: true, authorizationType: 1, password: 'pw' },
        user,
      )
    ).body.data;
    const res = await t.api('GET', `/api/manage/v1/web-channel/${subject.id}`, { manageToken: op });
    expect(res.body.data).toEqual([
      { id: c.id, name: 'Gate', channelKey: c.channelKey, authorizationType: 1, link: `/app/online/${c.channelKey}` },
    ]);
  });
});
