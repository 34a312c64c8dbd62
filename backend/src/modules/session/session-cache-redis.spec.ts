import { once } from 'node:events';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.factory.js';
import { randomCode } from '../../common/crypto.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import type { SubjectEntity } from '../subject/subject.entity.js';
import { SessionCache } from './session-cache.service.js';
import { REDIS_URL, redisReachable } from '../../testing/redis.js';

const skip = !process.env.CI && !(await redisReachable());

/**
 * The other instance hears of a change when Redis delivers the message to it: milliseconds, but its
 * next request may be read first, so a change is awaited for a short bound, never assumed.
 */
const DELIVERY = { timeout: 2000, interval: 5 };

/**
 * Issue 16, beyond one machine: two instances on one database and one Redis. Each keeps its own
 * session cache; a logout or a rights change on one is refused at once on the other.
 */
describe.skipIf(skip)('session cache across instances (REDIS_URL)', () => {
  const prefix = `accredo-test-${randomCode(8).toLowerCase()}`;
  let t: TestApp;
  let second: NestFastifyApplication;
  let secondUrl: string;
  let subject: SubjectEntity;
  let superToken: string;

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL, REDIS_PREFIX: prefix });
    second = await createApp(t.config);
    await second.listen(0, '127.0.0.1');
    secondUrl = `http://127.0.0.1:${(second.getHttpServer().address() as { port: number }).port}`;
    subject = await createSubject(t);
    superToken = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  /** GET on the second instance: the status, or the status and error code. */
  async function onSecond(path: string, token: string) {
    const res = await fetch(`${secondUrl}/api/admin/v1/${path}`, { headers: { authorization: token } });
    const body = (await res.json()) as { error?: { code: string } };
    return res.status === 200 ? 200 : [res.status, body.error?.code];
  }

  it('refuses a token on the other instance at once after a logout on one', async () => {
    const user = await createAdminUser(t, subject);
    const token = await loginAs(t, user);
    for (let i = 0; i < 3; i++) expect(await onSecond('actual', token)).toBe(200);
    expect(second.get(SessionCache).size).toBeGreaterThan(0);
    expect((await t.api('POST', '/api/admin/v1/logout', { token })).status).toBe(200);
    await expect.poll(() => onSecond('actual', token), DELIVERY).toEqual([401, 'TOKEN_INVALID']);
  });

  it('applies a rights change and a deactivation made on one instance at once on the other', async () => {
    const user = await createAdminUser(t, subject, { grant: [['adminUser', 'get']] });
    const token = await loginAs(t, user);
    expect(await onSecond('admin-user', token)).toBe(200);
    const put = (body: object) =>
      t.api('PUT', `/api/admin/v1/admin-user/${user.id}`, {
        token: superToken,
        body: { login: user.login, name: user.name, ...body },
      });
    expect((await put({ rights: { adminUser: { get: { is: false } } } })).status).toBe(200);
    await expect.poll(() => onSecond('admin-user', token), DELIVERY).toEqual([403, 'FORBIDDEN']);
    expect(await onSecond('actual', token)).toBe(200);
    expect((await put({ active: false })).status).toBe(200);
    await expect.poll(() => onSecond('actual', token), DELIVERY).toEqual([401, 'TOKEN_INVALID']);
  });

  it('starts empty after its Redis subscription was lost (messages may have been missed), then follows again', async () => {
    const token = await loginAs(t, await createAdminUser(t, subject));
    expect(await onSecond('actual', token)).toBe(200);
    const cache = second.get(SessionCache);
    expect(cache.size).toBeGreaterThan(0);
    const subscriber = (cache as unknown as { subscriber: Redis }).subscriber;
    const back = once(subscriber, 'ready');
    subscriber.disconnect(true);
    await back;
    expect(cache.size).toBe(0);
    expect(await onSecond('actual', token)).toBe(200);
    expect((await t.api('POST', '/api/admin/v1/logout', { token })).status).toBe(200);
    await expect.poll(() => onSecond('actual', token), DELIVERY).toEqual([401, 'TOKEN_INVALID']);
  });

  it("shows a subject's change made on one instance in the other's next session answer", async () => {
    const own = await createSubject(t, { name: 'Before' });
    const token = await loginAs(t, await createAdminUser(t, own, { superuser: true }));
    const name = async () => {
      const res = await fetch(`${secondUrl}/api/admin/v1/authorization`, { headers: { authorization: token } });
      return ((await res.json()) as { data: { subject: { name: string } } }).data.subject.name;
    };
    expect(await name()).toBe('Before');
    const body = { name: 'After', multiLanguage: false, timeZone: 'Europe/Prague' };
    expect((await t.api('PUT', '/api/admin/v1/subject', { token, body })).status).toBe(200);
    await expect.poll(name, DELIVERY).toBe('After');
  });
});
