import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionTokenEntity } from './session-token.entity.js';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  linkFrom,
  loginAs,
  type TestApp,
  TEST_PASSWORD,
} from '../../testing/test-app.js';

describe('admin session (spec §7 Session)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('signs in, answers authorization and actual, signs out and refuses the token after', async () => {
    const subject = await createSubject(t, { name: 'Expo' });
    const user = await createAdminUser(t, subject, { grant: [['adminUser', 'get']] });
    const res = await t.api('POST', '/api/admin/v1/login', {
      body: { login: user.login.toUpperCase(), password: TEST_PASSWORD },
    });
    expect(res.status).toBe(200);
    const session = res.body.data;
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(session).toMatchObject({ superuser: false, manageuser: false, subject: { id: subject.id, name: 'Expo' } });
    expect(session.rights.adminUser.get.is).toBe(true);
    expect(session.rights.adminUser.create.is).toBe(false);

    const auth = await t.api('GET', '/api/admin/v1/authorization', { token: session.token });
    expect(auth.status).toBe(200);
    expect(auth.body.data.token).toBe(session.token);

    const actual = await t.api('GET', '/api/admin/v1/actual', { token: `Bearer ${session.token}` });
    expect(actual.body.data).toMatchObject({ id: user.id, login: user.login, subject: { id: subject.id } });
    expect(actual.body.data.passwordHash).toBeUndefined();

    expect((await t.api('POST', '/api/admin/v1/logout', { token: session.token })).status).toBe(200);
    const after = await t.api('GET', '/api/admin/v1/actual', { token: session.token });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('TOKEN_INVALID');
  });

  it('stores only the hash of a token', async () => {
    const subject = await createSubject(t);
    const user = await createAdminUser(t, subject);
    const token = await loginAs(t, user);
    const rows = await t.ds.getRepository(SessionTokenEntity).findBy({ principalId: user.id, kind: 'admin' });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.tokenHash).not.toBe(token);
  });

  it('refuses an expired token with TOKEN_EXPIRED', async () => {
    const subject = await createSubject(t);
    const user = await createAdminUser(t, subject);
    const token = await loginAs(t, user);
    await t.ds
      .getRepository(SessionTokenEntity)
      .update({ principalId: user.id, kind: 'admin' }, { expiresAt: new Date(Date.now() - 1000) });
    const res = await t.api('GET', '/api/admin/v1/actual', { token });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('TOKEN_EXPIRED');
  });

  it('answers 401 without a token and says nothing about whether an account exists', async () => {
    expect((await t.api('GET', '/api/admin/v1/actual')).body.error.code).toBe('UNAUTHORIZED');
    const subject = await createSubject(t);
    const user = await createAdminUser(t, subject);
    const wrong = await t.api('POST', '/api/admin/v1/login', {
      body: { login: user.login, password: 'wrong-password' },
    });
    const missing = await t.api('POST', '/api/admin/v1/login', {
      body: { login: 'nobody@example.com', password: 'wrong-password' },
    });
    expect(wrong.status).toBe(401);
    expect(missing.status).toBe(401);
    expect(wrong.body).toEqual(missing.body);
    expect(wrong.body.error.code).toBe('INVALID_LOGIN');
  });

  it('validates the login body with the spec message keys', async () => {
    const res = await t.api('POST', '/api/admin/v1/login', { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.fields).toEqual([
      { path: 'login', key: 'basics.requireField' },
      { path: 'password', key: 'basics.requireField' },
    ]);
    const bad = await t.api('POST', '/api/admin/v1/login', { raw: '{"login": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('BAD_REQUEST');
  });

  it('rate-limits failed logins per account and address (more in rate-limit.spec.ts)', async () => {
    const subject = await createSubject(t);
    const user = await createAdminUser(t, subject);
    for (let i = 0; i < 5; i++) {
      expect(
        (await t.api('POST', '/api/admin/v1/login', { body: { login: user.login, password: 'nope-nope' } })).status,
      ).toBe(401);
    }
    const blocked = await t.api('POST', '/api/admin/v1/login', {
      body: { login: user.login, password: TEST_PASSWORD },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses an unverified or inactive user', async () => {
    const subject = await createSubject(t);
    const unverified = await createAdminUser(t, subject, { verified: false });
    const res = await t.api('POST', '/api/admin/v1/login', {
      body: { login: unverified.login, password: TEST_PASSWORD },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('ADMIN_USER_NOT_VERIFIED');
    const inactive = await createAdminUser(t, subject, { active: false });
    expect(
      (await t.api('POST', '/api/admin/v1/login', { body: { login: inactive.login, password: TEST_PASSWORD } })).body
        .error.code,
    ).toBe('INVALID_LOGIN');
  });

  it('renews a password through a single-use e-mailed link', async () => {
    const subject = await createSubject(t);
    const user = await createAdminUser(t, subject);
    const unknown = await t.api('POST', '/api/admin/v1/login/forgot-password', {
      body: { login: 'ghost@example.com', language: 'en' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('EMAIL_NOT_FOUND');

    expect(
      (await t.api('POST', '/api/admin/v1/login/forgot-password', { body: { login: user.login, language: 'de' } }))
        .status,
    ).toBe(200);
    const mail = (await t.mails()).filter((m) => m.recipient === user.login).at(-1)!;
    expect(mail.status).toBe('sent');
    expect(mail.subject).toBe('Ändern Sie Ihr Accredo-Passwort');
    const link = linkFrom(mail, 'forgot-password');
    expect(fs.readdirSync(path.join(t.dataDir, 'outbox')).length).toBeGreaterThan(0);

    const check = await t.api('POST', '/api/admin/v1/login/pass-link-authorize', { body: { passwordLink: link } });
    expect(check.body.data).toEqual({ email: user.login });
    const mismatch = await t.api('POST', '/api/admin/v1/login/renew-password', {
      body: { email: user.login, password: 'new-password-1', confirmPassword: 'new-password-2', passwordLink: link },
    });
    expect(mismatch.body.error.details.fields).toEqual([{ path: 'confirmPassword', key: 'basics.passwordsNotSame' }]);
    const ok = await t.api('POST', '/api/admin/v1/login/renew-password', {
      body: { email: user.login, password: 'new-password-1', confirmPassword: 'new-password-1', passwordLink: link },
    });
    expect(ok.status).toBe(200);
    const again = await t.api('POST', '/api/admin/v1/login/renew-password', {
      body: { email: user.login, password: 'new-password-3', confirmPassword: 'new-password-3', passwordLink: link },
    });
    expect(again.body.error.code).toBe('LINK_INVALID');
    expect(
      (await t.api('POST', '/api/admin/v1/login', { body: { login: user.login, password: 'new-password-1' } })).status,
    ).toBe(200);
    expect(
      (await t.api('POST', '/api/admin/v1/login/pass-link-authorize', { body: { passwordLink: 'made-up' } })).body.error
        .code,
    ).toBe('LINK_INVALID');
  });
});

import fs from 'node:fs';
import path from 'node:path';
