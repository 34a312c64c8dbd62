import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../../config/config.js';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  operatorToken,
  type TestApp,
} from '../../testing/test-app.js';
import type { AdminUserEntity } from '../admin-user/admin-user.entity.js';
import type { SubjectEntity } from '../subject/subject.entity.js';
import { SESSION_CACHE_MAX, SESSION_CACHE_TTL_MS, SessionCache } from './session-cache.service.js';
import type { SessionTokenEntity } from './session-token.entity.js';
import { TokenService } from './token.service.js';

const admin = (t: TestApp, method: string, path: string, token: string, body?: unknown) =>
  t.api(method, `/api/admin/v1/${path}`, { token, body });
const status = async (res: Promise<{ status: number; body: any }>) => {
  const r = await res;
  return r.status === 200 || r.status === 201 ? r.status : [r.status, r.body?.error?.code];
};

/** Issue 16: signed-in calls resolve their session from memory; every change is seen by the very next request. */
describe('session cache on the request path', () => {
  let t: TestApp;
  let subject: SubjectEntity;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    subject = await createSubject(t);
    superToken = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  /** A signed-in user whose cache entry is warm (two calls made). */
  async function warm(options: Parameters<typeof createAdminUser>[2] = {}) {
    const user = await createAdminUser(t, subject, options);
    const token = await loginAs(t, user);
    for (let i = 0; i < 2; i++) expect(await status(admin(t, 'GET', 'actual', token))).toBe(200);
    return { user, token };
  }

  it('reads the token and the user once, then answers from memory (the sliding expiry still holds)', async () => {
    const user = await createAdminUser(t, subject);
    const token = await loginAs(t, user);
    const tokens = t.app.get(TokenService);
    const reads = vi.spyOn(tokens as unknown as { resolveHash(): Promise<SessionTokenEntity> }, 'resolveHash');
    for (let i = 0; i < 5; i++) expect(await status(admin(t, 'GET', 'authorization', token))).toBe(200);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('refuses a token at once after logout', async () => {
    const { token } = await warm();
    expect(await status(admin(t, 'POST', 'logout', token))).toBe(200);
    expect(await status(admin(t, 'GET', 'actual', token))).toEqual([401, 'TOKEN_INVALID']);
    expect(await status(admin(t, 'GET', 'authorization', token))).toEqual([401, 'TOKEN_INVALID']);
  });

  it('applies a rights change on the very next request, both ways', async () => {
    const { user, token } = await warm({ grant: [['adminUser', 'get']] });
    expect(await status(admin(t, 'GET', 'admin-user', token))).toBe(200);
    const setRights = (is: boolean) =>
      status(
        admin(t, 'PUT', `admin-user/${user.id}`, superToken, {
          login: user.login,
          name: user.name,
          rights: { adminUser: { get: { is } } },
        }),
      );
    expect(await setRights(false)).toBe(200);
    expect(await status(admin(t, 'GET', 'admin-user', token))).toEqual([403, 'FORBIDDEN']);
    expect((await admin(t, 'GET', 'authorization', token)).body.data.rights.adminUser.get.is).toBe(false);
    expect(await setRights(true)).toBe(200);
    expect(await status(admin(t, 'GET', 'admin-user', token))).toBe(200);
  });

  it('signs a deactivated user out on the very next request', async () => {
    const { user, token } = await warm();
    expect(
      await status(
        admin(t, 'PUT', `admin-user/${user.id}`, superToken, { login: user.login, name: 'x', active: false }),
      ),
    ).toBe(200);
    expect(await status(admin(t, 'GET', 'actual', token))).toEqual([401, 'TOKEN_INVALID']);
  });

  it('ends the other sessions of a password change at once, and shows the new profile in this one', async () => {
    const { user, token } = await warm({ grant: [['adminUser', 'getActualAdminUser']] });
    const other = await loginAs(t, user);
    expect(await status(admin(t, 'GET', 'actual', other))).toBe(200);
    const body = { name: 'Renamed', language: 'de', password: 'brand-new-pass', confirmPassword: 'brand-new-pass' };
    expect(await status(admin(t, 'PUT', 'actual', token, body))).toBe(200);
    expect(await status(admin(t, 'GET', 'actual', other))).toEqual([401, 'TOKEN_INVALID']);
    expect((await admin(t, 'GET', 'actual', token)).body.data).toMatchObject({ name: 'Renamed', language: 'de' });
  });

  it('follows the subject switcher and the current action at once', async () => {
    const away = await createSubject(t, { name: 'Away' });
    const { token } = await warm({ manageuser: true });
    expect((await admin(t, 'GET', 'actual', token)).body.data.subject.id).toBe(subject.id);
    expect(await status(admin(t, 'POST', 'actual/subject', token, { subjectId: away.id }))).toBe(200);
    expect((await admin(t, 'GET', 'actual', token)).body.data.subject.id).toBe(away.id);
    expect((await admin(t, 'GET', 'authorization', token)).body.data.subject.id).toBe(away.id);

    const action = (
      await admin(t, 'POST', 'action', token, {
        name: { cs: 'A' },
        dateFrom: '2027-05-10T08:00',
        dateTo: '2027-05-10T18:00',
      })
    ).body.data;
    expect(await status(admin(t, 'PUT', 'actual/action', token, { actionId: action.id }))).toBe(200);
    expect((await admin(t, 'GET', 'actual', token)).body.data.lastAction).toBe(action.id);
  });

  it('applies a manage-module change of a user (role, subject) and an operator logout at once', async () => {
    const { user, token } = await warm();
    const operator = await operatorToken(t);
    const manage = (method: string, path: string, body?: unknown) =>
      t.api(method, `/api/manage/v1/${path}`, { manageToken: operator, body });
    expect(await status(manage('GET', 'admin-user'))).toBe(200);
    expect(await status(admin(t, 'GET', 'subject/all', token))).toBe(200);
    expect(
      await status(
        manage('PUT', `admin-user/${user.id}`, {
          login: user.login,
          name: user.name,
          subjectId: subject.id,
          manageuser: true,
        }),
      ),
    ).toBe(200);
    expect((await admin(t, 'GET', 'authorization', token)).body.data.manageuser).toBe(true);
    expect(await status(manage('POST', 'logout'))).toBe(200);
    expect(await status(manage('GET', 'admin-user'))).toEqual([401, 'TOKEN_INVALID']);
  });

  it('shows a change of the subject (own or through the manage module) in the next session answer', async () => {
    const own = await createSubject(t, { name: 'Before' });
    const token = await loginAs(t, await createAdminUser(t, own, { superuser: true }));
    expect((await admin(t, 'GET', 'authorization', token)).body.data.subject.name).toBe('Before');
    const body = { name: 'After', multiLanguage: true, timeZone: 'Europe/Bratislava' };
    expect(await status(admin(t, 'PUT', 'subject', token, body))).toBe(200);
    expect((await admin(t, 'GET', 'authorization', token)).body.data.subject).toMatchObject(body);

    const operator = await operatorToken(t);
    const manage = { name: 'Managed', key: own.key, pathToFiles: own.pathToFiles, extensions: [1] };
    const res = await t.api('PUT', `/api/manage/v1/subject/${own.id}`, { manageToken: operator, body: manage });
    expect(res.status).toBe(200);
    expect((await admin(t, 'GET', 'authorization', token)).body.data.subject).toMatchObject({
      name: 'Managed',
      extensions: [1],
    });
  });

  it('refuses a token that expires while cached, with TOKEN_EXPIRED, and deletes it', async () => {
    const { token } = await warm();
    const tokens = t.app.get(TokenService);
    const cached = await tokens.resolveAdmin(token);
    expect((await tokens.resolveAdmin(token)).token).toBe(cached.token); // the cached row itself
    cached.token.expiresAt = new Date(Date.now() - 1000);
    expect(await status(admin(t, 'GET', 'actual', token))).toEqual([401, 'TOKEN_EXPIRED']);
    expect(await status(admin(t, 'GET', 'actual', token))).toEqual([401, 'TOKEN_INVALID']);
  });
});

describe('SessionCache bounds', () => {
  const cache = () => new SessionCache({ redisPrefix: 'unit' } as AppConfig);
  const session = (id: number, principalId = id) => ({
    kind: 'admin' as const,
    token: { id, principalId } as SessionTokenEntity,
    principal: { id: principalId } as AdminUserEntity,
  });
  afterEach(() => vi.useRealTimers());

  it('keeps at most SESSION_CACHE_MAX entries, dropping the least recently used', () => {
    const c = cache();
    for (let i = 0; i < SESSION_CACHE_MAX; i++) c.put(`h${i}`, session(i), c.version);
    expect(c.get('h0')).toBeDefined(); // h0 is now the most recently used
    c.put('new', session(-1), c.version);
    expect(c.size).toBe(SESSION_CACHE_MAX);
    expect(c.get('h1')).toBeUndefined();
    expect(c.get('h0')).toBeDefined();
    expect(c.get('new')).toBeDefined();
  });

  it("keeps online visitors' tokens apart: a rush of them does not push a staff session out", async () => {
    const c = cache();
    c.put('staff', session(1), c.version);
    const visitor = (id: number) => ({
      kind: 'online-user' as const,
      token: { id, principalId: id } as SessionTokenEntity,
      principal: null,
    });
    for (let i = 0; i < SESSION_CACHE_MAX + 10; i++) c.put(`v${i}`, visitor(1000 + i), c.version);
    expect(c.get('staff')).toBeDefined();
    expect(c.size).toBe(SESSION_CACHE_MAX + 1);
    expect(c.get('v0')).toBeUndefined();
    expect(c.get(`v${SESSION_CACHE_MAX + 9}`)?.kind).toBe('online-user');
    // invalidations reach both: a visitor's token, a visitor, and a staff principal of the same id
    await c.tokenChanged(1000 + SESSION_CACHE_MAX + 9);
    expect(c.get(`v${SESSION_CACHE_MAX + 9}`)).toBeUndefined();
    c.put('v-same', visitor(1), c.version);
    await c.principalChanged('online-user', 1);
    expect([c.get('v-same'), c.get('staff')?.kind]).toEqual([undefined, 'admin']);
    c.clear();
    expect(c.size).toBe(0);
  });

  it('forgets an entry after the TTL, and never stores a read that an invalidation overtook', async () => {
    vi.useFakeTimers();
    const c = cache();
    c.put('a', session(1), c.version);
    vi.advanceTimersByTime(SESSION_CACHE_TTL_MS - 1);
    expect(c.get('a')).toBeDefined();
    vi.advanceTimersByTime(2);
    expect(c.get('a')).toBeUndefined();

    const before = c.version;
    await c.principalChanged('admin', 2);
    c.put('b', session(2), before);
    expect(c.get('b')).toBeUndefined();

    c.put('c', session(3, 7), c.version);
    c.put('d', session(4, 7), c.version);
    c.put('e', session(5, 8), c.version);
    await c.principalChanged('admin', 7);
    await c.principalChanged('manage', 8);
    expect([c.get('c'), c.get('d')]).toEqual([undefined, undefined]);
    expect(c.get('e')).toBeDefined();
    await c.tokenChanged(5);
    expect(c.get('e')).toBeUndefined();
  });
});
