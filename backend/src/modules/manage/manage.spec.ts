import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailText, startSmtp } from '../../testing/smtp.js';
import { createTestApp, operatorToken, type TestApp, TEST_PASSWORD } from '../../testing/test-app.js';

/**
 * The journey of issue 2 over the API: an operator creates a subject and its first admin; the admin
 * verifies the account from the e-mailed link (sent over real SMTP), signs in and creates a user.
 */
describe('manage module and the first admin of a subject', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let op: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url });
    op = await operatorToken(t);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('signs the operator in from OPERATOR_EMAIL/OPERATOR_PASSWORD and refuses bad credentials', async () => {
    const bad = await t.api('POST', '/api/manage/v1/login', {
      body: { login: 'operator@test.local', password: 'nope' },
    });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('INVALID_LOGIN');
    const auth = await t.api('POST', '/api/manage/v1/authorize', { manageToken: op });
    expect(auth.body.data.operator.email).toBe('operator@test.local');
  });

  it('creates a subject, keeps key and path unique and the path fixed', async () => {
    const body = { name: 'Brno Expo', key: 'brno-expo', pathToFiles: 'brno', multiLanguage: true, extensions: [2, 1] };
    const created = await t.api('POST', '/api/manage/v1/subject', { manageToken: op, body });
    expect(created.status).toBe(201);
    const subject = created.body.data;
    expect(subject).toMatchObject({
      name: 'Brno Expo',
      key: 'brno-expo',
      pathToFiles: 'brno',
      multiLanguage: true,
      extensions: [1, 2],
    });
    expect(subject.deviceKey).toMatch(/^[A-Z0-9]{16}$/);

    const dupKey = await t.api('POST', '/api/manage/v1/subject', {
      manageToken: op,
      body: { ...body, pathToFiles: 'other' },
    });
    expect(dupKey.status).toBe(409);
    expect(dupKey.body.error.code).toBe('SUBJECT_KEY_EXIST');
    const dupPath = await t.api('POST', '/api/manage/v1/subject', { manageToken: op, body: { ...body, key: 'other' } });
    expect(dupPath.body.error.code).toBe('SUBJECT_PATH_EXIST');

    const fixed = await t.api('PUT', `/api/manage/v1/subject/${subject.id}`, {
      manageToken: op,
      body: { ...body, pathToFiles: 'moved' },
    });
    expect(fixed.status).toBe(409);
    expect(fixed.body.error.code).toBe('SUBJECT_PATH_FIXED');
    const renamed = await t.api('PUT', `/api/manage/v1/subject/${subject.id}`, {
      manageToken: op,
      body: { ...body, name: 'Brno Fair' },
    });
    expect(renamed.body.data.name).toBe('Brno Fair');
    expect((await t.api('GET', `/api/manage/v1/subject/${subject.id}`, { manageToken: op })).body.data.name).toBe(
      'Brno Fair',
    );
    expect(
      (await t.api('GET', '/api/manage/v1/subject', { manageToken: op })).body.data.map((s: { key: string }) => s.key),
    ).toContain('brno-expo');
    expect((await t.api('GET', `/api/manage/v1/web-channel/${subject.id}`, { manageToken: op })).body.data).toEqual([]);
    expect((await t.api('GET', '/api/manage/v1/web-channel/999999', { manageToken: op })).status).toBe(404);
    expect((await t.api('GET', '/api/manage/v1/subject/999999', { manageToken: op })).status).toBe(404);

    const invalid = await t.api('POST', '/api/manage/v1/subject', { manageToken: op, body: { key: 'x y' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.fields).toEqual(
      expect.arrayContaining([
        { path: 'name', key: 'basics.requireField' },
        { path: 'pathToFiles', key: 'basics.requireField' },
        { path: 'key', key: 'subject.keyInvalid' },
      ]),
    );
  });

  it('creates the first admin, who verifies by the mailed link, signs in and creates a user with rights', async () => {
    const subject = (
      await t.api('POST', '/api/manage/v1/subject', {
        manageToken: op,
        body: { name: 'Fair', key: 'fair', pathToFiles: 'fair' },
      })
    ).body.data;
    const missingSubject = await t.api('POST', '/api/manage/v1/admin-user', {
      manageToken: op,
      body: { login: 'boss@fair.cz', password: 'initial-pass', name: 'Boss' },
    });
    expect(missingSubject.body.error.details.fields).toEqual([{ path: 'subjectId', key: 'basics.requireField' }]);

    const created = await t.api('POST', '/api/manage/v1/admin-user', {
      manageToken: op,
      body: { subjectId: subject.id, login: 'Boss@Fair.cz', password: 'initial-pass', name: 'Boss', superuser: true },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      login: 'boss@fair.cz',
      superuser: true,
      verified: false,
      subjectId: subject.id,
    });
    const dup = await t.api('POST', '/api/manage/v1/admin-user', {
      manageToken: op,
      body: { subjectId: subject.id, login: 'boss@fair.cz', password: 'initial-pass', name: 'Boss 2' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('USER_EXIST');

    // Not verified yet: no sign-in.
    expect(
      (await t.api('POST', '/api/admin/v1/login', { body: { login: 'boss@fair.cz', password: 'initial-pass' } })).body
        .error.code,
    ).toBe('ADMIN_USER_NOT_VERIFIED');

    await t.mails();
    const mail = smtp.mails.find((m) => m.to.includes('boss@fair.cz'));
    expect(mail).toBeDefined();
    const text = mailText(mail!.raw);
    expect(text).toContain('Fair');
    const link = text.match(/http:\/\/accredo\.test\/verify\/([A-Za-z0-9_-]+)/)![1];

    const check = await t.api('POST', '/api/admin/v1/login/verify-authorize', { body: { confirmLink: link } });
    expect(check.body.data).toEqual({ email: 'boss@fair.cz' });
    const verify = await t.api('POST', '/api/admin/v1/login/verify-account', {
      body: { email: 'boss@fair.cz', password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD, confirmLink: link },
    });
    expect(verify.status).toBe(200);
    const second = await t.api('POST', '/api/admin/v1/login/verify-authorize', { body: { confirmLink: link } });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('ADMIN_USER_ALREADY_VERIFIED');

    const login = await t.api('POST', '/api/admin/v1/login', {
      body: { login: 'boss@fair.cz', password: TEST_PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ superuser: true, subject: { id: subject.id, name: 'Fair' } });
    expect(login.body.data.rights.webChannel.update.is).toBe(true);
    const token = login.body.data.token;

    const clerk = await t.api('POST', '/api/admin/v1/admin-user', {
      token,
      body: {
        login: 'clerk@fair.cz',
        password: 'clerk-pass-1',
        name: 'Clerk',
        rights: { adminUser: { get: { is: true } } },
      },
    });
    expect(clerk.status).toBe(201);
    expect(clerk.body.data.rights.adminUser.get.is).toBe(true);
    expect(clerk.body.data.rights.adminUser.create.is).toBe(false);

    const listed = await t.api('GET', `/api/manage/v1/admin-user?subjectId=${subject.id}`, { manageToken: op });
    expect(listed.body.data.map((u: { login: string }) => u.login).sort()).toEqual(['boss@fair.cz', 'clerk@fair.cz']);
    const updated = await t.api('PUT', `/api/manage/v1/admin-user/${clerk.body.data.id}`, {
      manageToken: op,
      body: { subjectId: subject.id, login: 'clerk@fair.cz', name: 'Clerk Two', active: false },
    });
    expect(updated.body.data).toMatchObject({ name: 'Clerk Two', active: false });
    expect(
      (await t.api('GET', `/api/manage/v1/admin-user/${clerk.body.data.id}`, { manageToken: op })).body.data.name,
    ).toBe('Clerk Two');
  });

  it('signs the operator out', async () => {
    const token = await operatorToken(t);
    expect((await t.api('POST', '/api/manage/v1/logout', { manageToken: token })).status).toBe(200);
    expect((await t.api('GET', '/api/manage/v1/subject', { manageToken: token })).status).toBe(401);
  });
});
