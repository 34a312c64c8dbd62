import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

describe('DELETE custom-field/{id} (issue 15)', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    otherToken = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(() => t.close());

  const newField = async (name: string) => {
    const res = await t.api('POST', '/api/admin/v1/custom-field', {
      token,
      body: { name, label: { cs: name }, customFieldType: 1 },
    });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };

  it('deletes a field no action uses; another subject gets 404', async () => {
    const id = await newField('tricko');
    expect((await t.api('DELETE', `/api/admin/v1/custom-field/${id}`, { token: otherToken })).status).toBe(404);
    const res = await t.api('DELETE', `/api/admin/v1/custom-field/${id}`, { token });
    expect(res.status).toBe(200);
    expect((await t.api('GET', `/api/admin/v1/custom-field/${id}`, { token })).status).toBe(404);
  });

  it('refuses a field an action uses with 409 CUSTOM_FIELD_USED_BY_ACTIONS naming the action', async () => {
    const id = await newField('firma');
    const action = await t.api('POST', '/api/admin/v1/action', {
      token,
      body: {
        name: { cs: 'Festival' },
        dateFrom: '2030-01-01T00:00',
        dateTo: '2030-01-02T00:00',
        customField: [{ id }],
      },
    });
    expect(action.status).toBe(201);
    const res = await t.api('DELETE', `/api/admin/v1/custom-field/${id}`, { token });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CUSTOM_FIELD_USED_BY_ACTIONS');
    expect(res.body.error.details.usedBy).toEqual(['Festival']);
    expect(res.body.error.message).toContain('Festival');
    expect((await t.api('GET', `/api/admin/v1/custom-field/${id}`, { token })).status).toBe(200);
  });
});
