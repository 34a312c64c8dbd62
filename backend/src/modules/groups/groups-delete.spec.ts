import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccreditations } from '../../testing/seed.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import type { SubjectEntity } from '../subject/subject.entity.js';

describe('DELETE groups/{id} (issue 15)', () => {
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

  const newGroup = async (name: string) =>
    (await t.api('POST', '/api/admin/v1/groups', { token, body: { name } })).body.data.id as number;

  it('deletes an unused group, which is then gone (404)', async () => {
    const id = await newGroup('Empty');
    const res = await t.api('DELETE', `/api/admin/v1/groups/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: true });
    expect((await t.api('GET', `/api/admin/v1/groups/${id}`, { token })).status).toBe(404);
    expect((await t.api('DELETE', `/api/admin/v1/groups/${id}`, { token })).status).toBe(404);
  });

  it('refuses a group people are in with 409 GROUP_HAS_PEOPLE and how many', async () => {
    const action = await t.api('POST', '/api/admin/v1/action', {
      token,
      body: { name: { cs: 'Fest' }, dateFrom: '2030-01-01T00:00', dateTo: '2030-01-02T00:00' },
    });
    const actionId = action.body.data?.id as number;
    const id = await newGroup('Crew');
    const people = await seedAccreditations(t.ds, { subjectId: subject.id, actionId, count: 3 });
    for (const accreditationId of people)
      await t.ds.query('INSERT INTO accreditation_group (accreditationId, groupId) VALUES (?, ?)', [
        accreditationId,
        id,
      ]);
    const res = await t.api('DELETE', `/api/admin/v1/groups/${id}`, {
      token,
      headers: { 'accept-language': 'en' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('GROUP_HAS_PEOPLE');
    expect(res.body.error.details).toMatchObject({ count: 3 });
    expect(res.body.error.message).toContain('3 people');
    expect((await t.api('GET', `/api/admin/v1/groups/${id}`, { token })).status).toBe(200);
  });

  it("answers another subject's group with 404 and leaves it, and needs the right", async () => {
    const id = await newGroup('Mine');
    expect((await t.api('DELETE', `/api/admin/v1/groups/${id}`, { token: otherToken })).status).toBe(404);
    const limited = await loginAs(t, await createAdminUser(t, subject, { grant: [['groups', 'get']] }));
    expect((await t.api('DELETE', `/api/admin/v1/groups/${id}`, { token: limited })).status).toBe(403);
    expect((await t.api('GET', `/api/admin/v1/groups/${id}`, { token })).status).toBe(200);
  });

  it('takes a deleted group out of the web channels that offered it', async () => {
    const action = await t.api('POST', '/api/admin/v1/action', {
      token,
      body: { name: { cs: 'Expo' }, dateFrom: '2030-01-01T00:00', dateTo: '2030-01-02T00:00' },
    });
    const actionId = action.body.data.id as number;
    const make = async (name: string) =>
      (await t.api('POST', '/api/admin/v1/groups', { token, body: { name, actionId } })).body.data.id as number;
    const [gone, kept] = [await make('Gone'), await make('Kept')];
    const channel = await t.api('POST', '/api/admin/v1/web-channel', {
      token,
      body: { name: 'Form', actionId, viewGroups: true, groupsId: [gone, kept] },
    });
    expect(channel.status).toBe(201);
    expect((await t.api('DELETE', `/api/admin/v1/groups/${gone}`, { token })).status).toBe(200);
    const after = await t.api('GET', `/api/admin/v1/web-channel/${channel.body.data.id}`, { token });
    expect(after.body.data.groupsId).toEqual([kept]);
  });
});
