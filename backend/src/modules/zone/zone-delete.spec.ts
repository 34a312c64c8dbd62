import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

describe('DELETE zone/{id} (issue 15)', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    otherToken = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(() => t.close());

  const newZone = async (name: string) =>
    (await t.api('POST', '/api/admin/v1/zone', { token, body: { name, onAccreditation: name.slice(0, 2) } })).body.data
      .id as number;

  it('deletes an unused zone, which is then gone (404)', async () => {
    const id = await newZone('Hall');
    const res = await t.api('DELETE', `/api/admin/v1/zone/${id}`, { token });
    expect(res.status).toBe(200);
    expect((await t.api('GET', `/api/admin/v1/zone/${id}`, { token })).status).toBe(404);
  });

  it('refuses a zone groups use with 409 ZONE_USED_BY_GROUPS naming the groups; free again once they drop it', async () => {
    const id = await newZone('Backstage');
    const crew = await t.api('POST', '/api/admin/v1/groups', { token, body: { name: 'Crew', zoneId: [id] } });
    const band = await t.api('POST', '/api/admin/v1/groups', { token, body: { name: 'Band', zoneId: [id] } });
    const res = await t.api('DELETE', `/api/admin/v1/zone/${id}`, { token, headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ZONE_USED_BY_GROUPS');
    expect(res.body.error.details.usedBy).toEqual(['Crew', 'Band']);
    expect(res.body.error.message).toBe('The zone cannot be deleted: it is used by Crew, Band.');
    expect((await t.api('GET', `/api/admin/v1/zone/${id}`, { token })).status).toBe(200);
    for (const [group, name] of [
      [crew, 'Crew'],
      [band, 'Band'],
    ] as const)
      await t.api('PUT', `/api/admin/v1/groups/${group.body.data.id}`, { token, body: { name, zoneId: [] } });
    expect((await t.api('DELETE', `/api/admin/v1/zone/${id}`, { token })).status).toBe(200);
  });

  it("answers another subject's zone with 404, and needs the right", async () => {
    const id = await newZone('Gate');
    expect((await t.api('DELETE', `/api/admin/v1/zone/${id}`, { token: otherToken })).status).toBe(404);
    const subjectOf = (await t.ds.query('SELECT subjectId FROM zone WHERE id = ?', [id]))[0].subjectId;
    const limited = await loginAs(
      t,
      await createAdminUser(t, { id: Number(subjectOf) } as never, { grant: [['zone', 'get']] }),
    );
    expect((await t.api('DELETE', `/api/admin/v1/zone/${id}`, { token: limited })).status).toBe(403);
    expect((await t.api('GET', `/api/admin/v1/zone/${id}`, { token })).status).toBe(200);
  });
});
