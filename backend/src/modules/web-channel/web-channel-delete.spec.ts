import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

describe('DELETE web-channel/{id} (issue 15)', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let actionId: number;
  beforeAll(async () => {
    t = await createTestApp();
    token = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    otherToken = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    const action = await t.api('POST', '/api/admin/v1/action', {
      token,
      body: { name: { cs: 'Veletrh' }, dateFrom: '2030-05-10T08:00', dateTo: '2030-05-11T18:00' },
    });
    actionId = action.body.data.id;
  });
  afterAll(() => t.close());

  const newChannel = async (name: string) => {
    const res = await t.api('POST', '/api/admin/v1/web-channel', { token, body: { name, actionId } });
    expect(res.status).toBe(201);
    return res.body.data as { id: number; channelKey: string };
  };

  it('deletes a channel nobody registered through; it is gone for the admin and the public', async () => {
    const c = await newChannel('Spare');
    expect((await t.api('DELETE', `/api/admin/v1/web-channel/${c.id}`, { token: otherToken })).status).toBe(404);
    expect((await t.api('DELETE', `/api/admin/v1/web-channel/${c.id}`, { token })).status).toBe(200);
    expect((await t.api('GET', `/api/admin/v1/web-channel/${c.id}`, { token })).status).toBe(404);
    const pub = await t.api('GET', `/api/online/v1/web-channel/${c.channelKey}`);
    expect(pub.body.error.code).toBe('WEB_CHANNEL_DOESNT_EXIST');
  });

  it('refuses a channel people registered through: 409 WEB_CHANNEL_HAS_REGISTRATIONS with how many', async () => {
    const c = await newChannel('Visitors');
    for (const n of [1, 2]) {
      const res = await t.api('POST', `/api/online/v1/accreditation/${c.channelKey}`, {
        body: { firstname: `Jan${n}`, lastname: 'Novák', email: `jan${n}@example.com` },
      });
      expect(res.status).toBe(201);
    }
    const res = await t.api('DELETE', `/api/admin/v1/web-channel/${c.id}`, {
      token,
      headers: { 'accept-language': 'en' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('WEB_CHANNEL_HAS_REGISTRATIONS');
    expect(res.body.error.details).toMatchObject({ count: 2 });
    expect(res.body.error.message).toContain('2 people');
    expect((await t.api('GET', `/api/admin/v1/web-channel/${c.id}`, { token })).status).toBe(200);
  });
});
