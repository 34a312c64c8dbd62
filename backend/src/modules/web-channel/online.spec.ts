import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pngDataUrl } from '../../testing/images.js';
import { holdWalSyncs } from '../../testing/wal-sync.js';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  TEST_DB,
  type TestApp,
} from '../../testing/test-app.js';
import { preparedReader } from '../../database/prepared.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { MailQueueEntity } from '../mail/mail-queue.entity.js';
import { SessionTokenEntity } from '../session/session-token.entity.js';
import { WebChannelCodeEntity, WebChannelCodeLogEntity } from './web-channel.entity.js';

const ml = (cs: string, en = '') => ({ cs, sk: '', en, de: '' });

describe('online registration (spec §7 Online, §4, §5 Online registration, §8 Online)', () => {
  let t: TestApp;
  let admin: string;
  let stranger: string;
  let action: { id: number };
  let fields: Record<string, { id: number; options: { id: string; value: string }[] }>;
  let groups: { id: number }[];
  let zone: { id: number };
  let mailTemplate: { id: number };
  let person = 0;

  const adminCall = (method: string, path: string, body?: unknown, token = admin) =>
    t.api(method, `/api/admin/v1/${path}`, { token, body });
  const online = (method: string, path: string, body?: unknown, token?: string) =>
    t.api(method, `/api/online/v1/${path}`, {
      body,
      headers: token ? { 'authorization-online': token } : {},
    });
  const newChannel = async (extra: Record<string, unknown> = {}, token = admin, actionId?: number) => {
    const res = await adminCall(
      'POST',
      'web-channel',
      { name: 'Form', actionId: actionId ?? action.id, ...extra },
      token,
    );
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.data as { id: number; channelKey: string; externalCode: { id: number; code: string }[] };
  };
  const visitor = (extra: Record<string, unknown> = {}) => {
    person++;
    return {
      firstname: `Jan${person}`,
      lastname: `Novák${person}`,
      email: `jan${person}@example.com`,
      customField: [{ id: fields.phone.id, value: '+420 601 234 567' }],
      ...extra,
    };
  };
  const error = (res: { status: number; body: { error?: { code: string } } }) => [res.status, res.body.error?.code];

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t, { timeZone: 'Europe/Prague' });
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    stranger = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    const f = async (name: string, customFieldType: number, options?: { value: string }[]) =>
      (
        await adminCall('POST', 'custom-field', {
          name,
          label: ml(name, `${name} (en)`),
          tooltip: ml(`<b>${name}</b>`),
          customFieldType,
          options,
        })
      ).body.data;
    fields = {
      phone: await f('phone', 8),
      company: await f('company', 1),
      size: await f('size', 4, [{ value: 'S' }, { value: 'M' }]),
      internal: await f('internal', 1),
      vip: await f('vip', 7),
    };
    mailTemplate = (
      await adminCall('POST', 'mail-template', {
        name: 'Thanks',
        type: 1,
        subjectFrom: 'Thank you for registering',
        html: '<p>Hello {{firstname}}</p>',
      })
    ).body.data;
    action = (
      await adminCall('POST', 'action', {
        name: ml('Veletrh', 'Fair'),
        dateFrom: '2027-05-10T08:00',
        dateTo: '2027-05-11T18:00',
        multiDay: true,
        days: [
          { id: '2027-05-10', name: ml('Pondělí'), onAccreditation: 'PO' },
          { id: '2027-05-11', name: ml('Úterý'), onAccreditation: 'ÚT' },
        ],
        withPhoto: true,
        textOnline: ml('Vítejte'),
        textAfterAdd: ml('Děkujeme'),
        customField: [
          { id: fields.phone.id, isMandatory: true },
          { id: fields.company.id },
          { id: fields.size.id },
          { id: fields.internal.id, isMandatory: true, notShow: true, defaultValue: 'from-web' },
          { id: fields.vip.id, notShow: true, defaultValue: '1' },
        ],
        checkingAttributes: [
          { id: 'gdpr', label: ml('Souhlasím se zpracováním údajů'), url: 'https://example.com/gdpr', required: true },
          { id: 'news', label: ml('Novinky'), required: false },
        ],
      })
    ).body.data;
    zone = (await adminCall('POST', 'zone', { name: 'Hall A', actionId: action.id })).body.data;
    groups = [
      (await adminCall('POST', 'groups', { name: 'Visitors', actionId: action.id, zoneId: [zone.id] })).body.data,
      (await adminCall('POST', 'groups', { name: 'Press', actionId: action.id })).body.data,
      (await adminCall('POST', 'groups', { name: 'Staff', actionId: action.id })).body.data,
    ];
  });
  afterAll(() => t.close());

  const ticked = { checkingAttributes: { gdpr: true } };

  describe('channel states (spec §4)', () => {
    it('answers each closed state and a missing channel with its code, on every call', async () => {
      const cases = [
        [{ active: false }, 'WEB_CHANNEL_NOT_ACTIVE'],
        [{ dateFrom: '2999-01-01T00:00' }, 'WEB_CHANNEL_NOT_ACTIVE_YET'],
        [{ dateTo: '2001-01-01' }, 'WEB_CHANNEL_IS_CLOSED'],
        [{ dateFrom: '2001-01-01T00:00', dateTo: '2999-12-31' }, null],
        [{ dateFrom: '2001-01-01T00:00' }, null],
        [{ dateTo: '2999-12-31T10:00' }, null],
      ] as const;
      for (const [extra, code] of cases) {
        const c = await newChannel(extra);
        for (const res of [
          await online('GET', `web-channel/${c.channelKey}`),
          await online('GET', `web-channel/data/${c.channelKey}`),
          await online('POST', `accreditation/${c.channelKey}`, visitor(ticked)),
        ]) {
          if (code) expect([JSON.stringify(extra), ...error(res)]).toEqual([JSON.stringify(extra), 403, code]);
          else expect([JSON.stringify(extra), res.status < 300]).toEqual([JSON.stringify(extra), true]);
        }
      }
      expect(
        error(await online('POST', 'web-channel/login', { channelKey: 'no-such-channel', password: 'x' })),
      ).toEqual([404, 'WEB_CHANNEL_DOESNT_EXIST']);
      for (const key of ['no-such-channel', 'a'.repeat(80), 'bad.key']) {
        expect(error(await online('GET', `web-channel/${key}`))).toEqual([404, 'WEB_CHANNEL_DOESNT_EXIST']);
        expect(error(await online('GET', `web-channel/data/${key}`))).toEqual([404, 'WEB_CHANNEL_DOESNT_EXIST']);
        expect(error(await online('POST', `accreditation/${key}`, visitor()))).toEqual([
          404,
          'WEB_CHANNEL_DOESNT_EXIST',
        ]);
      }
    });
  });

  describe('form data', () => {
    it('gives the texts, shown fields, offered groups and days, attributes and languages the form needs', async () => {
      const logo = (await adminCall('POST', 'image', { type: 3, name: 'Logo', baseData: pngDataUrl(30, 10) })).body
        .data;
      const c = await newChannel({
        viewGroups: true,
        groupsId: [groups[0].id, groups[1].id],
        groupsSelectName: ml('Kdo jste?'),
        viewDays: true,
        defaultDays: ['2027-05-10'],
        customNameFirstname: ml('Křestní jméno'),
        customField: [fields.phone.id, fields.size.id],
        imageId: logo.id,
        afterAdd: { action: 2 },
        mailTemplateId: mailTemplate.id,
      });
      const info = (await online('GET', `web-channel/${c.channelKey}`)).body.data;
      expect(info).toEqual({
        channelKey: c.channelKey,
        name: 'Form',
        languages: ['cs'],
        multiLanguage: false,
        logo: logo.path,
        withAuthorization: false,
        authorizationType: null,
        authorizationText: ml(''),
        actionName: ml('Veletrh', 'Fair'),
      });
      const data = (await online('GET', `web-channel/data/${c.channelKey}`)).body.data;
      expect(data).toMatchObject({
        afterAdd: { action: 2 },
        textOnline: ml('Vítejte'),
        textAfterAdd: ml('Děkujeme'),
        customNameFirstname: ml('Křestní jméno'),
        withPhoto: true,
        requirePhoto: false,
        viewGroups: true,
        groupsSelectName: ml('Kdo jste?'),
        groups: [
          { id: groups[1].id, name: 'Press' },
          { id: groups[0].id, name: 'Visitors' },
        ],
        viewDays: true,
        days: [
          { id: '2027-05-10', name: ml('Pondělí') },
          { id: '2027-05-11', name: ml('Úterý') },
        ],
        defaultDays: ['2027-05-10'],
        checkingAttributes: [
          { id: 'gdpr', label: ml('Souhlasím se zpracováním údajů'), url: 'https://example.com/gdpr', required: true },
          { id: 'news', label: ml('Novinky'), url: '', required: false },
        ],
        viewMealSelect: false,
        viewParkingSelect: false,
      });
      // Hidden by the action (internal, vip) or left out by the channel (company): not shown.
      expect(data.customField).toEqual([
        {
          id: fields.phone.id,
          name: 'phone',
          label: ml('phone', 'phone (en)'),
          tooltip: ml('<b>phone</b>'),
          customFieldType: 8,
          options: [],
          isMandatory: true,
        },
        expect.objectContaining({ id: fields.size.id, customFieldType: 4, options: fields.size.options }),
      ]);
      // Without viewGroups no group list; every group when the channel names none.
      const all = (await online('GET', `web-channel/data/${(await newChannel({ viewGroups: true })).channelKey}`)).body
        .data;
      expect(all.groups.map((g: { name: string }) => g.name)).toEqual(['Press', 'Staff', 'Visitors']);
      expect(all.customField.map((f: { id: number }) => f.id)).toEqual([
        fields.phone.id,
        fields.company.id,
        fields.size.id,
      ]);
    });

    it('offers the four languages when the subject is multi-language', async () => {
      const subject = await createSubject(t, { multiLanguage: true });
      const user = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
      const a = (await adminCall('POST', 'action', { name: ml('A') }, user)).body.data;
      const c = await newChannel({}, user, a.id);
      const info = (await online('GET', `web-channel/${c.channelKey}`)).body.data;
      expect(info).toMatchObject({ languages: ['cs', 'sk', 'en', 'de'], multiLanguage: true });
    });
  });

  describe('authorization (spec §4 Tokens, §8 Online login errors)', () => {
    it('by password: wrong password, missing password, token, authorize, logout', async () => {
      const c = await newChannel({
        withAuthorization: true,
        authorizationType: 1,
        password: 'open-sesame',
        authorizationText: ml('Heslo najdete v pozvánce'),
      });
      const info = (await online('GET', `web-channel/${c.channelKey}`)).body.data;
      expect(info).toMatchObject({
        withAuthorization: true,
        authorizationType: 1,
        authorizationText: ml('Heslo najdete v pozvánce'),
      });
      expect(error(await online('GET', `web-channel/data/${c.channelKey}`))).toEqual([401, 'AUTH_INVALID']);
      expect(error(await online('POST', `accreditation/${c.channelKey}`, visitor(ticked)))).toEqual([
        401,
        'AUTH_INVALID',
      ]);
      expect(error(await online('POST', `web-channel/authorize/${c.channelKey}`))).toEqual([401, 'AUTH_INVALID']);

      const missing = await online('POST', 'web-channel/login', { channelKey: c.channelKey });
      expect(missing.body.error.details.fields).toEqual([{ path: 'password', key: 'basics.requireField' }]);
      expect(error(await online('POST', 'web-channel/login', { channelKey: c.channelKey, password: 'wrong' }))).toEqual(
        [401, 'AUTH_INVALID'],
      );
      const login = await online('POST', 'web-channel/login', { channelKey: c.channelKey, password: 'open-sesame' });
      expect(login.status).toBe(200);
      const token = login.body.data.token;
      expect(login.body.data).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), authorizationType: 1 });
      expect((await online('POST', `web-channel/authorize/${c.channelKey}`, undefined, token)).body.data).toEqual({
        authorizationType: 1,
      });
      expect((await online('GET', `web-channel/data/${c.channelKey}`, undefined, token)).status).toBe(200);
      // A token opens only its own channel.
      const other = await newChannel({ withAuthorization: true, authorizationType: 1, password: 'open-sesame' });
      expect(error(await online('POST', `web-channel/authorize/${other.channelKey}`, undefined, token))).toEqual([
        401,
        'TOKEN_INVALID',
      ]);
      expect(error(await online('POST', `web-channel/authorize/${c.channelKey}`, undefined, 'forged'))).toEqual([
        401,
        'TOKEN_INVALID',
      ]);
      const registered = await online('POST', `accreditation/${c.channelKey}`, visitor(ticked), token);
      expect(registered.status).toBe(201);
      expect((await online('POST', `web-channel/logout/${c.channelKey}`, undefined, token)).body.data).toBe(true);
      expect(error(await online('POST', `web-channel/authorize/${c.channelKey}`, undefined, token))).toEqual([
        401,
        'TOKEN_INVALID',
      ]);
      expect(error(await online('POST', `web-channel/logout/${c.channelKey}`, undefined, token))).toEqual([
        401,
        'TOKEN_INVALID',
      ]);

      // An expired token says so; a changed channel password ends the sessions.
      const again = (await online('POST', 'web-channel/login', { channelKey: c.channelKey, password: 'open-sesame' }))
        .body.data.token;
      await t.ds
        .getRepository(SessionTokenEntity)
        .update({ kind: 'online-pass' }, { expiresAt: new Date(Date.now() - 1000) });
      expect(error(await online('POST', `web-channel/authorize/${c.channelKey}`, undefined, again))).toEqual([
        401,
        'TOKEN_EXPIRED',
      ]);
      const third = (await online('POST', 'web-channel/login', { channelKey: c.channelKey, password: 'open-sesame' }))
        .body.data.token;
      await adminCall('PUT', `web-channel/${c.id}`, {
        name: 'Form',
        actionId: action.id,
        withAuthorization: true,
        authorizationType: 1,
        password: 'changed-now',
      });
      expect(error(await online('POST', `web-channel/authorize/${c.channelKey}`, undefined, third))).toEqual([
        401,
        'TOKEN_INVALID',
      ]);
    });

    it('rate-limits failed logins like the admin login (429 with retry-after)', async () => {
      const c = await newChannel({ withAuthorization: true, authorizationType: 1, password: 'right-one' });
      for (let i = 0; i < 5; i++) {
        expect(
          error(await online('POST', 'web-channel/login', { channelKey: c.channelKey, password: `no${i}` })),
        ).toEqual([401, 'AUTH_INVALID']);
      }
      const blocked = await online('POST', 'web-channel/login', { channelKey: c.channelKey, password: 'right-one' });
      expect(error(blocked)).toEqual([429, 'TOO_MANY_REQUESTS']);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('by login users: unknown, wrong password and inactive users are refused alike; deactivation ends the session', async () => {
      const c = await newChannel({
        withAuthorization: true,
        authorizationType: 2,
        users: [
          { login: 'desk', password: 'desk-pass' },
          { login: 'off', password: 'off-pass', active: false },
        ],
      });
      const login = (body: Record<string, unknown>) =>
        online('POST', 'web-channel/login', { channelKey: c.channelKey, ...body });
      expect((await login({ password: 'desk-pass' })).body.error.details.fields).toEqual([
        { path: 'login', key: 'basics.requireField' },
      ]);
      expect(error(await login({ login: 'nobody', password: 'desk-pass' }))).toEqual([401, 'USER_DOESNT_EXIST']);
      expect(error(await login({ login: 'desk', password: 'wrong' }))).toEqual([401, 'USER_DOESNT_EXIST']);
      expect(error(await login({ login: 'off', password: 'off-pass' }))).toEqual([401, 'USER_DOESNT_EXIST']);
      const ok = await login({ login: ' DESK ', password: 'desk-pass' });
      expect(ok.body.data.authorizationType).toBe(2);
      const token = ok.body.data.token;
      expect((await online('POST', `accreditation/${c.channelKey}`, visitor(ticked), token)).status).toBe(201);
      const stored = (await adminCall('GET', `web-channel/${c.id}`)).body.data;
      await adminCall('PUT', `web-channel/${c.id}`, {
        name: 'Form',
        actionId: action.id,
        withAuthorization: true,
        authorizationType: 2,
        users: stored.users.map((u: { id: number; login: string }) => ({ ...u, active: false })),
      });
      expect(error(await online('POST', `web-channel/authorize/${c.channelKey}`, undefined, token))).toEqual([
        401,
        'TOKEN_INVALID',
      ]);
    });

    it('by external code: unknown code, exhausted code on login and on authorize', async () => {
      const c = await newChannel({
        withAuthorization: true,
        authorizationType: 3,
        numberUseExtCode: 1,
        externalCode: [
          { code: 'once', numberOfUse: 1 },
          { code: 'free', numberOfUse: 0 },
        ],
      });
      const login = (code?: string) => online('POST', 'web-channel/login', { channelKey: c.channelKey, code });
      expect((await login()).body.error.details.fields).toEqual([{ path: 'code', key: 'basics.requireField' }]);
      expect(error(await login('nope'))).toEqual([401, 'INVALID_WEB_CHANNEL_CODE']);
      const first = (await login(' Once ')).body.data.token;
      const second = (await login('ONCE')).body.data.token;
      expect(first).not.toBe(second);
      expect((await online('POST', `accreditation/${c.channelKey}`, visitor(ticked), first)).status).toBe(201);
      expect(error(await login('once'))).toEqual([403, 'USED_WEB_CHANNEL_CODE']);
      expect(error(await online('POST', `web-channel/authorize/${c.channelKey}`, undefined, second))).toEqual([
        403,
        'USED_WEB_CHANNEL_CODE',
      ]);
      expect(error(await online('POST', `accreditation/${c.channelKey}`, visitor(ticked), second))).toEqual([
        403,
        'USED_WEB_CHANNEL_CODE',
      ]);
      // Unlimited: any number of registrations.
      const free = (await login('free')).body.data.token;
      for (let i = 0; i < 3; i++)
        expect((await online('POST', `accreditation/${c.channelKey}`, visitor(ticked), free)).status).toBe(201);
      const codes = (await adminCall('GET', `web-channel/${c.id}`)).body.data.externalCode;
      expect(codes.map((x: { code: string; used: number; log: unknown[] }) => [x.code, x.used, x.log.length])).toEqual([
        ['ONCE', 1, 1],
        ['FREE', 3, 3],
      ]);
    });

    it('keeps a visitor token in the session cache: read once, refused at once when its code is removed or on logout', async () => {
      const c = await newChannel({
        withAuthorization: true,
        authorizationType: 3,
        numberUseExtCode: 0,
        externalCode: [
          { code: 'keep', numberOfUse: 0 },
          { code: 'drop', numberOfUse: 0 },
        ],
      });
      const login = async (code: string) =>
        (await online('POST', 'web-channel/login', { channelKey: c.channelKey, code })).body.data.token as string;
      const keep = await login('keep');
      const drop = await login('drop');
      expect((await online('POST', `accreditation/${c.channelKey}`, visitor(ticked), keep)).status).toBe(201);
      // an unused code can be removed: its visitor has only asked whether the token holds (cached)
      expect((await online('POST', `web-channel/authorize/${c.channelKey}`, undefined, drop)).status).toBe(200);
      // warm: the token is not read again (the code's row is: its uses are counted)
      const reader = preparedReader(t.ds);
      const reads = vi.spyOn(reader, 'all');
      expect((await online('POST', `accreditation/${c.channelKey}`, visitor(ticked), keep)).status).toBe(201);
      const sql = reads.mock.calls.map(([text]) => text);
      expect(sql.some((text) => text.includes('web_channel_code'))).toBe(true);
      expect(sql.some((text) => text.includes('session_token'))).toBe(false);
      reads.mockRestore();
      // the admin removes one code: its visitor is refused on the next call, the other goes on
      const codes = (await adminCall('GET', `web-channel/${c.id}`)).body.data.externalCode as { code: string }[];
      const saved = await adminCall('PUT', `web-channel/${c.id}`, {
        name: 'Form',
        actionId: action.id,
        withAuthorization: true,
        authorizationType: 3,
        numberUseExtCode: 0,
        externalCode: codes.filter((x) => x.code === 'KEEP'),
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(error(await online('POST', `web-channel/authorize/${c.channelKey}`, undefined, drop))).toEqual([
        401,
        'TOKEN_INVALID',
      ]);
      expect((await online('POST', `accreditation/${c.channelKey}`, visitor(ticked), keep)).status).toBe(201);
      // and a visitor who logs out is refused at once too
      expect((await online('POST', `web-channel/logout/${c.channelKey}`, undefined, keep)).status).toBe(200);
      expect(error(await online('POST', `accreditation/${c.channelKey}`, visitor(ticked), keep))).toEqual([
        401,
        'TOKEN_INVALID',
      ]);
    });
  });

  describe('registration (spec §5 Online registration)', () => {
    it('registers through the accreditation rules: source web, hidden defaults, automatic group, zones and days, mail queued', async () => {
      const c = await newChannel({
        groupsId: [groups[0].id],
        defaultDays: ['2027-05-11'],
        mailTemplateId: mailTemplate.id,
      });
      const body = visitor({
        ...ticked,
        email: 'Petra.Svobodova@Example.com',
        groups: [groups[2].id],
        days: ['2027-05-10'],
        customField: [
          { id: fields.phone.id, value: '+420 601 234 567' },
          { id: fields.size.id, value: fields.size.options[0].id },
          { id: fields.internal.id, value: 'typed by the visitor' },
        ],
        image: pngDataUrl(6, 6),
      });
      const res = await online('POST', `accreditation/${c.channelKey}`, body);
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        customId: expect.any(Number),
        afterAdd: { action: 1 },
        confirmationMail: true,
      });
      const a = (await adminCall('GET', `user/${action.id}/${res.body.data.id}`)).body.data;
      expect(a).toMatchObject({
        email: 'petra.svobodova@example.com',
        source: 'web',
        groupIds: [groups[0].id],
        zoneIds: [zone.id],
        days: ['2027-05-11'],
        image: { path: expect.stringMatching(/^\/api\/file\//) },
      });
      expect(a.customField).toEqual(
        expect.arrayContaining([
          { id: fields.internal.id, value: 'from-web' },
          { id: fields.vip.id, value: true },
          { id: fields.size.id, value: fields.size.options[0].id },
        ]),
      );
      const mails = await t.ds.getRepository(MailQueueEntity).findBy({ accreditationId: a.id });
      expect(mails).toEqual([
        expect.objectContaining({
          recipient: 'petra.svobodova@example.com',
          note: 'online',
          mailTemplateId: mailTemplate.id,
        }),
      ]);
      expect((await t.mails()).find((m) => m.accreditationId === a.id)?.status).toBe('sent');
    });

    it('uses the action’s after-registration mail when the channel names none, and sends none without either', async () => {
      const withActionMail = (
        await adminCall('POST', 'action', { name: ml('Mailed'), afterMailTemplateId: mailTemplate.id })
      ).body.data;
      const c = await newChannel({}, admin, withActionMail.id);
      const res = await online('POST', `accreditation/${c.channelKey}`, visitor({ customField: [] }));
      expect(res.status).toBe(201);
      expect(res.body.data.confirmationMail).toBe(true);
      expect(await t.ds.getRepository(MailQueueEntity).countBy({ accreditationId: res.body.data.id })).toBe(1);
      const silent = (await adminCall('POST', 'action', { name: ml('Silent') })).body.data;
      const quiet = await newChannel({}, admin, silent.id);
      const second = await online('POST', `accreditation/${quiet.channelKey}`, visitor({ customField: [] }));
      expect(second.status).toBe(201);
      // Without a template the thank-you page promises no mail.
      expect(second.body.data.confirmationMail).toBe(false);
      expect(await t.ds.getRepository(MailQueueEntity).countBy({ accreditationId: second.body.data.id })).toBe(0);
    });

    it('requires names, a valid e-mail, mandatory shown fields, ticked attributes, the group and the photo', async () => {
      const strict = (
        await adminCall('POST', 'action', {
          name: ml('Strict'),
          withPhoto: true,
          requirePhoto: true,
          customField: [{ id: fields.company.id, isMandatory: true }],
          checkingAttributes: [{ id: 'rules', label: ml('Pravidla'), required: true }],
        })
      ).body.data;
      const g = (await adminCall('POST', 'groups', { name: 'Guests', actionId: strict.id })).body.data;
      const c = await newChannel({ viewGroups: true }, admin, strict.id);
      const post = (body: unknown) => online('POST', `accreditation/${c.channelKey}`, body);

      const empty = await post({});
      expect(empty.body.error.details.fields).toEqual([
        { path: 'firstname', key: 'basics.requireField' },
        { path: 'lastname', key: 'basics.requireField' },
        { path: 'email', key: 'basics.requireField' },
      ]);
      const badEmail = await post({ firstname: 'A', lastname: 'B', email: 'not-an-email' });
      expect(error(badEmail)).toEqual([400, 'EMAIL_NOT_VALID']);
      expect(badEmail.body.error.details.fields).toEqual([{ path: 'email', key: 'basics.emailNotValid' }]);

      const rules = await post({ firstname: 'A', lastname: 'B', email: 'ab@example.com' });
      expect(error(rules)).toEqual([400, 'VALIDATION_ERROR']);
      expect(rules.body.error.details.fields).toEqual([
        { path: 'image', key: 'webChannelRules.photoRequired' },
        { path: 'groups', key: 'webChannelRules.groupRequired' },
        { path: 'checkingAttributes.rules', key: 'webChannelRules.checkingAttributeRequired' },
      ]);
      const notOffered = await post({
        firstname: 'A',
        lastname: 'B',
        email: 'ab@example.com',
        image: pngDataUrl(),
        groups: [groups[0].id],
        checkingAttributes: { rules: true },
      });
      expect(notOffered.body.error.details.fields).toEqual([{ path: 'groups', key: 'basics.invalidValue' }]);
      const mandatory = await post({
        firstname: 'A',
        lastname: 'B',
        email: 'ab@example.com',
        image: pngDataUrl(),
        groups: [g.id],
        checkingAttributes: { rules: true },
      });
      expect(mandatory.body.error.details.fields).toEqual([
        { path: `customField.${fields.company.id}`, key: 'basics.requireField' },
      ]);
      const tooBig = await post({
        firstname: 'A',
        lastname: 'B',
        email: 'ab@example.com',
        image: `data:image/png;base64,${Buffer.alloc(2_200_000).toString('base64')}`,
        groups: [g.id],
        checkingAttributes: { rules: true },
        customField: [{ id: fields.company.id, value: 'ACME' }],
      });
      expect(error(tooBig)[0]).toBe(400);
      const meal = await post({
        firstname: 'A',
        lastname: 'B',
        email: 'ab@example.com',
        image: pngDataUrl(),
        groups: [g.id],
        checkingAttributes: { rules: true },
        customField: [{ id: fields.company.id, value: 'ACME' }],
        mealItems: [{ itemId: 1 }],
      });
      expect(meal.body.error.details.fields).toEqual([{ path: 'mealItems', key: 'basics.invalidValue' }]);
      const ok = await post({
        firstname: 'A',
        lastname: 'B',
        email: 'ab@example.com',
        image: pngDataUrl(),
        groups: [g.id],
        checkingAttributes: { rules: true },
        customField: [{ id: fields.company.id, value: 'ACME' }],
      });
      expect(ok.status).toBe(201);
      const dup = await post({
        firstname: 'C',
        lastname: 'D',
        email: 'AB@example.com',
        image: pngDataUrl(),
        groups: [g.id],
        checkingAttributes: { rules: true },
        customField: [{ id: fields.company.id, value: 'ACME' }],
      });
      expect(error(dup)).toEqual([409, 'EMAIL_EXIST']);
    });

    it('takes no gallery image id for an image field from a visitor', async () => {
      const imageField = (
        await adminCall('POST', 'custom-field', { name: 'badge photo', label: ml('Foto'), customFieldType: 9 })
      ).body.data;
      const a = (await adminCall('POST', 'action', { name: ml('Images'), customField: [{ id: imageField.id }] })).body
        .data;
      const c = await newChannel({}, admin, a.id);
      const gallery = (await adminCall('POST', 'image', { type: 3, name: 'Secret', baseData: pngDataUrl() })).body.data;
      const res = await online(
        'POST',
        `accreditation/${c.channelKey}`,
        visitor({ customField: [{ id: imageField.id, value: gallery.id }] }),
      );
      expect(res.body.error.details.fields).toEqual([
        { path: `customField.${imageField.id}`, key: 'basics.invalidValue' },
      ]);
      const upload = await online(
        'POST',
        `accreditation/${c.channelKey}`,
        visitor({ customField: [{ id: imageField.id, value: pngDataUrl() }] }),
      );
      expect(upload.status).toBe(201);
    });
  });

  describe('races', () => {
    it('lets exactly 3 of 20 concurrent registrations use the last 3 uses of a code', async () => {
      const c = await newChannel({
        withAuthorization: true,
        authorizationType: 3,
        numberUseExtCode: 3,
        externalCode: [{ code: 'LAST', numberOfUse: 3 }],
      });
      const codeId = c.externalCode[0].id;
      const tokens: string[] = [];
      for (let i = 0; i < 20; i++)
        tokens.push(
          (await online('POST', 'web-channel/login', { channelKey: c.channelKey, code: 'last' })).body.data.token,
        );
      const before = await t.ds.getRepository(AccreditationEntity).countBy({ actionId: action.id });
      const results = await Promise.all(
        tokens.map((token) => online('POST', `accreditation/${c.channelKey}`, visitor(ticked), token)),
      );
      const statuses = results.map((r) => (r.status === 201 ? 201 : `${r.status} ${r.body.error?.code}`));
      expect(statuses.filter((s) => s === 201)).toHaveLength(3);
      expect(statuses.filter((s) => s !== 201).every((s) => s === '403 USED_WEB_CHANNEL_CODE')).toBe(true);
      const code = await t.ds.getRepository(WebChannelCodeEntity).findOneByOrFail({ id: codeId });
      expect([code.used, code.numberOfUse]).toEqual([3, 3]);
      const logs = await t.ds.getRepository(WebChannelCodeLogEntity).findBy({ codeId });
      expect(logs.map((l) => l.accreditationId).sort()).toEqual(
        results
          .filter((r) => r.status === 201)
          .map((r) => r.body.data.id)
          .sort(),
      );
      // The refused ones left nothing behind: no accreditation without its counted use.
      expect(await t.ds.getRepository(AccreditationEntity).countBy({ actionId: action.id })).toBe(before + 3);
    });

    it('registers one e-mail once even when the same visitor submits five times at once', async () => {
      const c = await newChannel({});
      const body = visitor(ticked);
      const results = await Promise.all(
        Array.from({ length: 5 }, () => online('POST', `accreditation/${c.channelKey}`, body)),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
      expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'EMAIL_EXIST')).toBe(true);
      expect(await t.ds.getRepository(AccreditationEntity).countBy({ actionId: action.id, email: body.email })).toBe(1);
    });

    it.runIf(TEST_DB === 'sqlite')(
      "SQLite: 'you are registered' waits until the log holding the person is on the disk; a failed sync is a 500, and the visitor's resubmission is told the e-mail is taken",
      async () => {
        const c = await newChannel({});
        const body = visitor(ticked);
        const wal = `${t.config.database.type === 'sqlite' ? t.config.database.file : ''}-wal`;
        const sync = holdWalSyncs();
        const { held } = sync;
        try {
          let answered = false;
          const pending = online('POST', `accreditation/${c.channelKey}`, body).then((r) => {
            answered = true;
            return r;
          });
          await vi.waitFor(() => expect(held).toHaveLength(1));
          // committed (readable), the log's file is the one synced, and nothing is answered yet
          expect(await t.ds.getRepository(AccreditationEntity).countBy({ email: body.email })).toBe(1);
          expect(sync.isOf(0, wal)).toBe(true);
          expect(answered).toBe(false);
          sync.release(0);
          expect((await pending).status).toBe(201);

          // the disk fails the sync: no "you are registered" (500, not a stack trace)
          const other = visitor(ticked);
          const failing = online('POST', `accreditation/${c.channelKey}`, other);
          await vi.waitFor(() => expect(held).toHaveLength(2));
          sync.fail(1);
          const failed = await failing;
          expect(failed.status).toBe(500);
          expect(JSON.stringify(failed.body)).not.toMatch(/EIO|fdatasync|at .*\.js/);
          sync.restore();
          expect(error(await online('POST', `accreditation/${c.channelKey}`, other))).toEqual([409, 'EMAIL_EXIST']);
        } finally {
          sync.restore();
        }
      },
    );
  });

  it('keeps another subject’s channel out of reach of its admin (404) but public by its key', async () => {
    const c = await newChannel({});
    expect(error(await adminCall('GET', `web-channel/${c.id}`, undefined, stranger))).toEqual([404, 'NOT_FOUND']);
    expect((await online('GET', `web-channel/${c.channelKey}`)).status).toBe(200);
  });
});
