import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  TEST_PASSWORD,
  type TestApp,
} from '../../testing/test-app.js';
import { RateLimitEntity } from './rate-limit.entity.js';
import { RateLimitService, storedKey } from './rate-limit.service.js';

/**
 * Sign-in rate limits (issue 10 items 1, 2, 4): bounded keys, attempts counted before the password
 * is checked, growing waits per account and address instead of an account lockout.
 * The app trusts x-forwarded-for here (TRUST_PROXY), so each test signs in from addresses of its own.
 */
describe('sign-in rate limits', () => {
  let t: TestApp;
  let admin: string;
  let net = 0;
  /** A fresh /24 of addresses per test: counters of one test never touch another's. */
  const addresses = () => {
    net++;
    return (host: number) => `10.${net}.0.${host}`;
  };
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const adminLogin = (login: string, password: string, ip: string) =>
    t.api('POST', '/api/admin/v1/login', { body: { login, password }, headers: from(ip) });
  const statuses = (results: { status: number }[]) =>
    results.reduce<Record<number, number>>((acc, r) => {
      acc[r.status] = (acc[r.status] ?? 0) + 1;
      return acc;
    }, {});
  const rows = () => t.ds.getRepository(RateLimitEntity).find();

  beforeAll(async () => {
    const before = process.env.TRUST_PROXY;
    process.env.TRUST_PROXY = '1';
    try {
      t = await createTestApp();
    } finally {
      if (before === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = before;
    }
    admin = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(() => t.close());

  describe('keys that grow with input (item 1)', () => {
    it('answers a login of 251 characters promptly, on every sign-in, and stores bounded keys', async () => {
      const ip = addresses();
      const long = `${'a'.repeat(238)}@example.test`;
      const huge = `203.0.113.7, ${'x'.repeat(4000)}`;
      for (const [path, body] of [
        ['/api/admin/v1/login', { login: long, password: 'whatever-1' }],
        ['/api/manage/v1/login', { login: long, password: 'whatever-1' }],
        ['/api/admin/v1/login/forgot-password', { login: long }],
      ] as const) {
        const first = await t.api('POST', path, { body, headers: from(ip(1)) });
        const second = await t.api('POST', path, { body, headers: from(huge) });
        for (const res of [first, second]) {
          expect(res.status, path).toBeLessThan(500);
          expect([400, 401, 404], path).toContain(res.status);
          expect(res.body.error.code).toBeTruthy();
        }
      }
      const stored = await rows();
      expect(stored.length).toBeGreaterThan(0);
      for (const row of stored) expect(row.key).toMatch(/^[0-9a-f]{64}$/);
    });

    it('purges counters of windows long over', async () => {
      const repo = t.ds.getRepository(RateLimitEntity);
      await repo.insert({ key: storedKey('old'), count: 3, windowStart: new Date(Date.now() - 26 * 3600_000) });
      await repo.insert({ key: storedKey('recent'), count: 3, windowStart: new Date() });
      await t.app.get(RateLimitService).purge();
      expect(await repo.findOneBy({ key: storedKey('old') })).toBeNull();
      expect(await repo.findOneBy({ key: storedKey('recent') })).not.toBeNull();
    });
  });

  describe('admin sign-in', () => {
    it('checks at most 5 of 120 wrong passwords and the right one sent together', async () => {
      const ip = addresses();
      const user = await createAdminUser(t, await createSubject(t));
      const burst = await Promise.all([
        ...Array.from({ length: 120 }, (_, i) => adminLogin(user.login, `wrong-${i}`, ip(1))),
        adminLogin(user.login, TEST_PASSWORD, ip(1)),
      ]);
      const counts = statuses(burst);
      expect(counts[401] ?? 0).toBeGreaterThan(0);
      expect(counts[401]).toBeLessThanOrEqual(5);
      // The right one passes only when it is among the first five counted; everything else waits.
      expect((counts[200] ?? 0) + (counts[401] ?? 0)).toBeLessThanOrEqual(6);
      expect((counts[200] ?? 0) + (counts[401] ?? 0) + (counts[429] ?? 0)).toBe(121);
      if (!counts[200]) {
        const right = await adminLogin(user.login, TEST_PASSWORD, ip(1));
        expect([right.status, right.body.error.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
      }
    });

    it('throttles an address, not the account: the right password from another address signs in', async () => {
      const ip = addresses();
      const user = await createAdminUser(t, await createSubject(t));
      const answers: number[] = [];
      for (let i = 0; i < 15; i++) answers.push((await adminLogin(user.login, `wrong-${i}`, ip(1))).status);
      expect(answers).toEqual([...Array(5).fill(401), ...Array(10).fill(429)]);
      const blocked = await adminLogin(user.login, TEST_PASSWORD, ip(1));
      expect(blocked.status).toBe(429);
      const wait = Number(blocked.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      const elsewhere = await adminLogin(user.login, TEST_PASSWORD, ip(2));
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.body.data.token).toBeTruthy();
    });

    it('doubles the wait with each further failure, and a sign-in forgets the failures', async () => {
      const ip = addresses();
      const user = await createAdminUser(t, await createSubject(t));
      for (let i = 0; i < 5; i++) expect((await adminLogin(user.login, `wrong-${i}`, ip(1))).status).toBe(401);
      const repo = t.ds.getRepository(RateLimitEntity);
      const pair = storedKey(`admin:pair:${user.login}\n${ip(1)}`);
      const passTime = async (ms: number) => {
        const row = await repo.findOneByOrFail({ key: pair });
        await repo.update({ key: pair }, { windowStart: new Date(row.windowStart.getTime() - ms) });
      };
      const retryAfter = async () => {
        const res = await adminLogin(user.login, 'wrong-again', ip(1));
        expect(res.status).toBe(429);
        return Number(res.headers.get('retry-after'));
      };
      expect(await retryAfter()).toBeLessThanOrEqual(60);
      await passTime(61_000);
      expect((await adminLogin(user.login, 'wrong-6', ip(1))).status).toBe(401);
      const second = await retryAfter();
      expect(second).toBeGreaterThan(60);
      expect(second).toBeLessThanOrEqual(120);
      await passTime(121_000);
      expect((await adminLogin(user.login, 'wrong-7', ip(1))).status).toBe(401);
      const third = await retryAfter();
      expect(third).toBeGreaterThan(120);
      expect(third).toBeLessThanOrEqual(240);
      await passTime(241_000);
      expect((await adminLogin(user.login, TEST_PASSWORD, ip(1))).status).toBe(200);
      expect((await repo.findOneByOrFail({ key: pair })).count).toBe(0);
      expect((await adminLogin(user.login, 'wrong-8', ip(1))).status).toBe(401);
    });

    it('past 100 failures on an account an address gets one free failure, but the right password still signs in', async () => {
      const ip = addresses();
      const user = await createAdminUser(t, await createSubject(t));
      const spread = await Promise.all(
        Array.from({ length: 100 }, (_, i) => adminLogin(user.login, `wrong-${i}`, ip(10 + Math.floor(i / 4)))),
      );
      expect(statuses(spread)).toEqual({ 401: 100 });
      expect((await adminLogin(user.login, TEST_PASSWORD, ip(200))).status).toBe(200);
      expect((await adminLogin(user.login, 'wrong-x', ip(201))).status).toBe(401);
      const slowed = await adminLogin(user.login, TEST_PASSWORD, ip(201));
      expect(slowed.status).toBe(429);
      expect((await adminLogin(user.login, TEST_PASSWORD, ip(202))).status).toBe(200);
    });

    it('keeps the per-address limit: 100 failures in 15 minutes, whatever the accounts', async () => {
      const ip = addresses();
      const spread = await Promise.all(
        Array.from({ length: 100 }, (_, i) => adminLogin(`nobody-${net}-${i % 25}@example.com`, 'wrong-1', ip(1))),
      );
      expect(statuses(spread)).toEqual({ 401: 100 });
      const user = await createAdminUser(t, await createSubject(t));
      const blocked = await adminLogin(user.login, TEST_PASSWORD, ip(1));
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(60);
      expect((await adminLogin(user.login, TEST_PASSWORD, ip(2))).status).toBe(200);
    });

    it('takes back the attempt of a sign-in that succeeds', async () => {
      const ip = addresses();
      const user = await createAdminUser(t, await createSubject(t));
      expect((await adminLogin(user.login, 'wrong-1', ip(1))).status).toBe(401);
      for (let i = 0; i < 3; i++) expect((await adminLogin(user.login, TEST_PASSWORD, ip(1))).status).toBe(200);
      const repo = t.ds.getRepository(RateLimitEntity);
      const count = async (key: string) => (await repo.findOneByOrFail({ key: storedKey(key) })).count;
      expect(await count(`admin:ip:${ip(1)}`)).toBe(1);
      expect(await count(`admin:account:${user.login}`)).toBe(1);
      expect(await count(`admin:pair:${user.login}\n${ip(1)}`)).toBe(0);
    });

    it('counts forgot-password requests atomically, per address and per account', async () => {
      const ip = addresses();
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          t.api('POST', '/api/admin/v1/login/forgot-password', {
            body: { login: `nobody-${net}-${i}@example.com` },
            headers: from(ip(1)),
          }),
        ),
      );
      expect(statuses(burst)).toEqual({ 404: 20, 429: 20 });
      const one = `someone-${net}@example.com`;
      const answers: number[] = [];
      for (let i = 0; i < 7; i++)
        answers.push(
          (
            await t.api('POST', '/api/admin/v1/login/forgot-password', {
              body: { login: one },
              headers: from(ip(10 + i)),
            })
          ).status,
        );
      expect(answers).toEqual([404, 404, 404, 404, 404, 429, 429]);
    });
  });

  describe('manage sign-in', () => {
    const manageLogin = (password: string, ip: string) =>
      t.api('POST', '/api/manage/v1/login', {
        body: { login: 'operator@test.local', password },
        headers: from(ip),
      });

    it('counts attempts sent at once, throttles the address and lets the right password in from another', async () => {
      const ip = addresses();
      const burst = await Promise.all(Array.from({ length: 60 }, (_, i) => manageLogin(`wrong-${i}`, ip(1))));
      const counts = statuses(burst);
      expect(counts[401]).toBeLessThanOrEqual(5);
      expect((await manageLogin(TEST_PASSWORD, ip(1))).status).toBe(429);
      expect((await manageLogin(TEST_PASSWORD, ip(2))).status).toBe(200);
    });
  });

  describe('channel sign-in', () => {
    let channelKey: string;
    const channelLogin = (body: Record<string, unknown>, ip: string) =>
      t.api('POST', '/api/online/v1/web-channel/login', { body: { channelKey, ...body }, headers: from(ip) });

    beforeAll(async () => {
      const call = async (path: string, body: unknown) => {
        const res = await t.api('POST', `/api/admin/v1/${path}`, { token: admin, body });
        if (res.status !== 201) throw new Error(JSON.stringify(res.body));
        return res.body.data;
      };
      const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });
      const action = await call('action', {
        name: ml('Veletrh'),
        dateFrom: '2027-05-10T08:00',
        dateTo: '2027-05-11T18:00',
      });
      const channel = await call('web-channel', {
        name: 'Desk',
        actionId: action.id,
        withAuthorization: true,
        authorizationType: 2,
        users: [{ login: 'desk', password: 'desk-pass' }],
      });
      channelKey = channel.channelKey;
    });

    it('answers a login of 251 characters and stores a bounded key', async () => {
      const ip = addresses();
      const res = await channelLogin({ login: `${'a'.repeat(238)}@example.test`, password: 'x' }, ip(1));
      expect([res.status, res.body.error.code]).toEqual([401, 'USER_DOESNT_EXIST']);
      for (const row of await rows()) expect(row.key).toMatch(/^[0-9a-f]{64}$/);
    });

    it('counts attempts sent at once and throttles the address, not the user', async () => {
      const ip = addresses();
      const burst = await Promise.all(
        Array.from({ length: 60 }, (_, i) => channelLogin({ login: 'desk', password: `wrong-${i}` }, ip(1))),
      );
      expect(statuses(burst)[401]).toBeLessThanOrEqual(5);
      const blocked = await channelLogin({ login: 'desk', password: 'desk-pass' }, ip(1));
      expect([blocked.status, blocked.body.error.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
      expect((await channelLogin({ login: 'desk', password: 'desk-pass' }, ip(2))).status).toBe(200);
    });
  });
});
