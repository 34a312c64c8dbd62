import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import type { SubjectEntity } from '../subject/subject.entity.js';

describe('DELETE admin-user/{id} (issue 15)', () => {
  let t: TestApp;
  let subject: SubjectEntity;
  let superUser: { id: number };
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    subject = await createSubject(t);
    superUser = await createAdminUser(t, subject, { superuser: true });
    token = await loginAs(t, superUser as never);
  });
  afterAll(() => t.close());

  it('deletes another user, whose session ends at once', async () => {
    const victim = await createAdminUser(t, subject, { grant: [['adminUser', 'get']] });
    const victimToken = await loginAs(t, victim);
    expect((await t.api('GET', '/api/admin/v1/admin-user', { token: victimToken })).status).toBe(200);
    const res = await t.api('DELETE', `/api/admin/v1/admin-user/${victim.id}`, { token });
    expect(res.status).toBe(200);
    expect((await t.api('GET', `/api/admin/v1/admin-user/${victim.id}`, { token })).status).toBe(404);
    expect((await t.api('GET', '/api/admin/v1/admin-user', { token: victimToken })).status).toBe(401);
  });

  it('refuses one’s own account with 409 ADMIN_USER_DELETE_SELF', async () => {
    const res = await t.api('DELETE', `/api/admin/v1/admin-user/${superUser.id}`, {
      token,
      headers: { 'accept-language': 'en' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ADMIN_USER_DELETE_SELF');
    expect(res.body.error.message).toBe('You cannot delete your own account.');
  });

  it('needs the right; a superuser is deleted only by one; another subject’s user is a 404', async () => {
    const deleter = await loginAs(t, await createAdminUser(t, subject, { grant: [['adminUser', 'delete']] }));
    const plain = await createAdminUser(t, subject);
    const otherSuper = await createAdminUser(t, subject, { superuser: true });
    const stranger = await createAdminUser(t, await createSubject(t));
    const reader = await loginAs(t, await createAdminUser(t, subject, { grant: [['adminUser', 'get']] }));
    expect((await t.api('DELETE', `/api/admin/v1/admin-user/${plain.id}`, { token: reader })).status).toBe(403);
    expect((await t.api('DELETE', `/api/admin/v1/admin-user/${otherSuper.id}`, { token: deleter })).status).toBe(403);
    expect((await t.api('DELETE', `/api/admin/v1/admin-user/${stranger.id}`, { token })).status).toBe(404);
    expect((await t.api('DELETE', `/api/admin/v1/admin-user/${plain.id}`, { token: deleter })).status).toBe(200);
  });
});
