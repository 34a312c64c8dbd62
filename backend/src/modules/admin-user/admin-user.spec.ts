import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  type TestApp,
  TEST_PASSWORD,
} from '../../testing/test-app.js';
import type { SubjectEntity } from '../subject/subject.entity.js';

describe('admin users (spec §7 admin-user, §5 Admin user, §6 rights)', () => {
  let t: TestApp;
  let subject: SubjectEntity;
  let other: SubjectEntity;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    subject = await createSubject(t);
    other = await createSubject(t);
    superToken = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
  });
  afterAll(() => t.close());

  it('lists only the users of the current subject and hides another subject’s user (404)', async () => {
    const mine = await createAdminUser(t, subject);
    const theirs = await createAdminUser(t, other);
    const list = await t.api('GET', '/api/admin/v1/admin-user', { token: superToken });
    const logins = list.body.data.map((u: { login: string }) => u.login);
    expect(logins).toContain(mine.login);
    expect(logins).not.toContain(theirs.login);
    expect((await t.api('GET', `/api/admin/v1/admin-user/${mine.id}`, { token: superToken })).body.data.login).toBe(
      mine.login,
    );
    for (const [method, path] of [
      ['GET', `/api/admin/v1/admin-user/${theirs.id}`],
      ['GET', `/api/admin/v1/admin-user/forgot-password/${theirs.id}`],
    ]) {
      const res = await t.api(method, path, { token: superToken });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const put = await t.api('PUT', `/api/admin/v1/admin-user/${theirs.id}`, {
      token: superToken,
      body: { login: theirs.login, name: 'Hijack' },
    });
    expect(put.status).toBe(404);
    expect((await t.api('GET', '/api/admin/v1/admin-user/abc', { token: superToken })).status).toBe(404);
  });

  it('creates a user (unverified, mail sent), rejects a duplicate login and validates fields', async () => {
    const res = await t.api('POST', '/api/admin/v1/admin-user', {
      token: superToken,
      body: { login: 'new.person@example.com', password: 'first-pass', name: 'New Person', active: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ login: 'new.person@example.com', verified: false, subjectId: subject.id });
    const mails = await t.mails();
    expect(
      mails.some(
        (m) => m.recipient === 'new.person@example.com' && m.status === 'sent' && m.note === 'account-link:verify',
      ),
    ).toBe(true);

    const dup = await t.api('POST', '/api/admin/v1/admin-user', {
      token: superToken,
      body: { login: 'NEW.person@example.com', password: 'first-pass', name: 'Again' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({
      code: 'USER_EXIST',
      details: { fields: [{ path: 'login', key: 'errors.USER_EXIST' }] },
    });

    const invalid = await t.api('POST', '/api/admin/v1/admin-user', {
      token: superToken,
      body: { login: 'not-an-email', name: '' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.fields).toEqual([
      { path: 'login', key: 'basics.emailNotValid' },
      { path: 'name', key: 'basics.requireField' },
      { path: 'password', key: 'basics.requireField' },
    ]);
  });

  it('keeps the password when the update leaves it blank, and signs a deactivated user out', async () => {
    const user = await createAdminUser(t, subject);
    const token = await loginAs(t, user);
    const res = await t.api('PUT', `/api/admin/v1/admin-user/${user.id}`, {
      token: superToken,
      body: { login: user.login, name: 'Renamed', password: '', active: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Renamed', active: false });
    expect((await t.api('GET', '/api/admin/v1/actual', { token })).status).toBe(401);
    await t.api('PUT', `/api/admin/v1/admin-user/${user.id}`, {
      token: superToken,
      body: { login: user.login, name: 'Renamed', active: true },
    });
    expect(
      (await t.api('POST', '/api/admin/v1/login', { body: { login: user.login, password: TEST_PASSWORD } })).status,
    ).toBe(200);
  });

  it('lets only a superuser or manageuser set rights; an ordinary admin’s rights in the body are ignored', async () => {
    const manager = await createAdminUser(t, subject, {
      grant: [
        ['adminUser', 'get'],
        ['adminUser', 'create'],
        ['adminUser', 'update'],
      ],
    });
    const token = await loginAs(t, manager);
    const res = await t.api('POST', '/api/admin/v1/admin-user', {
      token,
      body: {
        login: 'escalate@example.com',
        password: 'first-pass',
        name: 'E',
        rights: { subject: { update: { is: true } } },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.rights.subject.update.is).toBe(false);
    const superuser = await createAdminUser(t, subject, { superuser: true });
    const touch = await t.api('PUT', `/api/admin/v1/admin-user/${superuser.id}`, {
      token,
      body: { login: superuser.login, name: 'x', password: 'taken-over-1' },
    });
    expect(touch.status).toBe(403);
  });

  it('verifies manually only as manageuser, once', async () => {
    const pending = await createAdminUser(t, subject, { verified: false });
    expect((await t.api('PUT', `/api/admin/v1/admin-user/verify/${pending.id}`, { token: superToken })).status).toBe(
      403,
    );
    const manage = await loginAs(t, await createAdminUser(t, subject, { manageuser: true }));
    const ok = await t.api('PUT', `/api/admin/v1/admin-user/verify/${pending.id}`, { token: manage });
    expect(ok.body.data.verified).toBe(true);
    expect(
      (await t.api('PUT', `/api/admin/v1/admin-user/verify/${pending.id}`, { token: manage })).body.error.code,
    ).toBe('ADMIN_USER_ALREADY_VERIFIED');
  });

  it('sends a password-change request by e-mail', async () => {
    const user = await createAdminUser(t, subject);
    const res = await t.api('GET', `/api/admin/v1/admin-user/forgot-password/${user.id}`, { token: superToken });
    expect(res.body.data).toBe(true);
    const mails = await t.mails();
    expect(mails.some((m) => m.recipient === user.login && m.bodyText.includes('/forgot-password/'))).toBe(true);
  });

  it('updates the own profile: name, language and password (other sessions end)', async () => {
    const user = await createAdminUser(t, subject, { grant: [['adminUser', 'getActualAdminUser']] });
    const a = await loginAs(t, user);
    const b = await loginAs(t, user);
    const blank = await t.api('PUT', '/api/admin/v1/actual', { token: a, body: { name: '' } });
    expect(blank.body.error.details.fields).toEqual([{ path: 'name', key: 'basics.requireField' }]);
    const res = await t.api('PUT', '/api/admin/v1/actual', {
      token: a,
      body: { name: 'Me', language: 'de', password: 'brand-new-pass', confirmPassword: 'brand-new-pass' },
    });
    expect(res.body.data).toMatchObject({ name: 'Me', language: 'de' });
    expect((await t.api('GET', '/api/admin/v1/actual', { token: a })).status).toBe(200);
    expect((await t.api('GET', '/api/admin/v1/actual', { token: b })).status).toBe(401);
  });
});
