import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

describe('subject settings and the subject switch', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reads and saves the current subject’s settings', async () => {
    const subject = await createSubject(t, { name: 'Old', multiLanguage: true });
    const token = await loginAs(
      t,
      await createAdminUser(t, subject, {
        grant: [
          ['subject', 'get'],
          ['subject', 'update'],
        ],
      }),
    );
    const got = await t.api('GET', '/api/admin/v1/subject', { token });
    expect(got.body.data).toMatchObject({
      id: subject.id,
      name: 'Old',
      multiLanguage: true,
      key: subject.key,
      pathToFiles: subject.pathToFiles,
    });
    const saved = await t.api('PUT', '/api/admin/v1/subject', {
      token,
      body: { name: 'New', multiLanguage: false, timeZone: 'Europe/Bratislava' },
    });
    expect(saved.body.data).toMatchObject({
      name: 'New',
      multiLanguage: false,
      timeZone: 'Europe/Bratislava',
      key: subject.key,
    });
    const bad = await t.api('PUT', '/api/admin/v1/subject', { token, body: { name: ' ', timeZone: 'Mars/Olympus' } });
    expect(bad.body.error.details.fields).toEqual([
      { path: 'name', key: 'basics.requireField' },
      { path: 'timeZone', key: 'subject.timeZoneInvalid' },
    ]);
    const readOnly = await loginAs(t, await createAdminUser(t, subject, { grant: [['subject', 'get']] }));
    expect((await t.api('PUT', '/api/admin/v1/subject', { token: readOnly, body: { name: 'X' } })).status).toBe(403);
  });

  it('lets a manageuser list all subjects and switch; others see only their own and may not switch', async () => {
    const home = await createSubject(t, { name: 'Home' });
    const away = await createSubject(t, { name: 'Away' });
    const plain = await loginAs(t, await createAdminUser(t, home, { superuser: true }));
    expect(
      (await t.api('GET', '/api/admin/v1/subject/all', { token: plain })).body.data.map((s: { id: number }) => s.id),
    ).toEqual([home.id]);
    expect(
      (await t.api('POST', '/api/admin/v1/actual/subject', { token: plain, body: { subjectId: away.id } })).status,
    ).toBe(403);

    const awayUser = await createAdminUser(t, away, { name: 'Away user' });
    const manager = await loginAs(t, await createAdminUser(t, home, { manageuser: true }));
    const all = (await t.api('GET', '/api/admin/v1/subject/all', { token: manager })).body.data.map(
      (s: { id: number }) => s.id,
    );
    expect(all).toEqual(expect.arrayContaining([home.id, away.id]));
    expect((await t.api('GET', `/api/admin/v1/admin-user/${awayUser.id}`, { token: manager })).status).toBe(404);

    const switched = await t.api('POST', '/api/admin/v1/actual/subject', {
      token: manager,
      body: { subjectId: away.id },
    });
    expect(switched.body.data.subject).toMatchObject({ id: away.id, name: 'Away' });
    expect(switched.body.data.token).toBe(manager);
    expect((await t.api('GET', `/api/admin/v1/admin-user/${awayUser.id}`, { token: manager })).body.data.name).toBe(
      'Away user',
    );
    expect((await t.api('GET', '/api/admin/v1/subject', { token: manager })).body.data.id).toBe(away.id);
    expect(
      (await t.api('POST', '/api/admin/v1/actual/subject', { token: manager, body: { subjectId: 999999 } })).body.error
        .code,
    ).toBe('SUBJECT_DOESNT_EXIST');
  });
});
