import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccreditations } from '../../testing/seed.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import type { SubjectEntity } from '../subject/subject.entity.js';

describe('DELETE action/{id} (issue 15)', () => {
  let t: TestApp;
  let subject: SubjectEntity;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    subject = await createSubject(t);
    token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    otherToken = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(() => t.close());

  const post = async (path: string, body: unknown) => {
    const res = await t.api('POST', `/api/admin/v1/${path}`, { token, body });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };
  const newAction = (cs: string) =>
    post('action', { name: { cs }, dateFrom: '2030-05-10T08:00', dateTo: '2030-05-11T18:00' });

  it('deletes an empty action with its web channels; its groups and zones stay, not assigned', async () => {
    const id = await newAction('Empty');
    const zone = await post('zone', { name: 'Hall', actionId: id });
    const group = await post('groups', { name: 'Crew', actionId: id, zoneId: [zone] });
    const channel = await post('web-channel', { name: 'Form', actionId: id });
    expect((await t.api('DELETE', `/api/admin/v1/action/${id}`, { token: otherToken })).status).toBe(404);
    const res = await t.api('DELETE', `/api/admin/v1/action/${id}`, { token });
    expect(res.status).toBe(200);
    expect((await t.api('GET', `/api/admin/v1/action/${id}`, { token })).status).toBe(404);
    expect((await t.api('GET', `/api/admin/v1/web-channel/${channel}`, { token })).status).toBe(404);
    expect((await t.api('GET', `/api/admin/v1/groups/${group}`, { token })).body.data).toMatchObject({
      actionId: null,
      zoneId: [zone],
    });
    expect((await t.api('GET', `/api/admin/v1/zone/${zone}`, { token })).body.data.actionId).toBeNull();
  });

  it('refuses an action with people: 409 ACTION_HAS_ACCREDITATIONS with how many', async () => {
    const id = await newAction('Festival');
    await seedAccreditations(t.ds, { subjectId: subject.id, actionId: id, count: 4 });
    const res = await t.api('DELETE', `/api/admin/v1/action/${id}`, { token, headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ACTION_HAS_ACCREDITATIONS');
    expect(res.body.error.details).toMatchObject({ count: 4 });
    expect(res.body.error.message).toContain('4 accreditations');
    expect((await t.api('GET', `/api/admin/v1/action/${id}`, { token })).status).toBe(200);
  });
});
