import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

describe('DELETE template/{id} and mail-template/{id} (issue 15)', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    otherToken = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(() => t.close());

  const post = async (path: string, body: unknown) => {
    const res = await t.api('POST', `/api/admin/v1/${path}`, { token, body });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };
  const badge = (name: string) => post('template', { name, type: 1, pageSize: 'A6', htmlData: '<p>{{firstname}}</p>' });
  const mail = (name: string) => post('mail-template', { name, subjectFrom: 'Hello', html: '<p>Hi</p>' });

  it('deletes unused templates of both kinds; another subject gets 404', async () => {
    for (const [path, id] of [
      ['template', await badge('Spare')],
      ['mail-template', await mail('Spare mail')],
    ] as const) {
      expect((await t.api('DELETE', `/api/admin/v1/${path}/${id}`, { token: otherToken })).status).toBe(404);
      expect((await t.api('DELETE', `/api/admin/v1/${path}/${id}`, { token })).status).toBe(200);
      expect((await t.api('GET', `/api/admin/v1/${path}/${id}`, { token })).status).toBe(404);
    }
  });

  it('refuses a badge template a group prints with: 409 TEMPLATE_IN_USE naming the group', async () => {
    const id = await badge('A6 crew');
    const group = await post('groups', { name: 'Crew', adminTemplateId: id });
    const res = await t.api('DELETE', `/api/admin/v1/template/${id}`, { token, headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('TEMPLATE_IN_USE');
    expect(res.body.error.details.groups).toEqual([{ id: group, name: 'Crew' }]);
    expect(res.body.error.message).toBe('The template cannot be deleted: it is used by Crew.');
  });

  it('refuses a mail template an action sends after registration, naming the action', async () => {
    const id = await mail('Welcome');
    const action = await post('action', {
      name: { cs: 'Festival' },
      dateFrom: '2030-01-01T00:00',
      dateTo: '2030-01-02T00:00',
      afterMailTemplateId: id,
    });
    const res = await t.api('DELETE', `/api/admin/v1/mail-template/${id}`, { token });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('TEMPLATE_IN_USE');
    expect(res.body.error.details.actions).toEqual([{ id: action, name: 'Festival' }]);
    expect((await t.api('GET', `/api/admin/v1/mail-template/${id}`, { token })).status).toBe(200);
  });
});
