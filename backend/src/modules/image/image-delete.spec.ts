import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngDataUrl } from '../../testing/images.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

describe('DELETE image/{id} (issue 15)', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    otherToken = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(() => t.close());

  const newImage = async (name: string) => {
    const res = await t.api('POST', '/api/admin/v1/image', {
      token,
      body: { name, type: 3, baseData: pngDataUrl(2, 2) },
    });
    expect(res.status).toBe(201);
    return res.body.data as { id: number; path: string };
  };

  /** whether the image's file is in storage (the file route's key is the file's name) */
  const stored = (image: { path: string }) =>
    (fs.readdirSync(t.dataDir, { recursive: true }) as string[]).some(
      (f) => path.basename(f) === path.basename(image.path),
    );

  it('deletes an unused image with its file; another subject gets 404', async () => {
    const image = await newImage('spare');
    expect(stored(image)).toBe(true);
    expect((await t.api('DELETE', `/api/admin/v1/image/${image.id}`, { token: otherToken })).status).toBe(404);
    expect((await t.api('DELETE', `/api/admin/v1/image/${image.id}`, { token })).status).toBe(200);
    expect((await t.api('GET', `/api/admin/v1/image/${image.id}`, { token })).status).toBe(404);
    expect(stored(image)).toBe(false);
    expect((await t.api('GET', image.path)).status).toBe(404);
  });

  it('refuses the logo of a web channel with 409 IMAGE_IN_USE naming the channel', async () => {
    const image = await newImage('logo');
    const action = await t.api('POST', '/api/admin/v1/action', {
      token,
      body: { name: { cs: 'Veletrh' }, dateFrom: '2030-05-10T08:00', dateTo: '2030-05-11T18:00' },
    });
    const channel = await t.api('POST', '/api/admin/v1/web-channel', {
      token,
      body: { name: 'Visitors', actionId: action.body.data.id, imageId: image.id },
    });
    expect(channel.status).toBe(201);
    const res = await t.api('DELETE', `/api/admin/v1/image/${image.id}`, { token });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('IMAGE_IN_USE');
    expect(res.body.error.details).toMatchObject({ count: 0, usedBy: ['Visitors'] });
    expect(stored(image)).toBe(true);
  });

  it("refuses an action's preview image, naming the action", async () => {
    const image = await newImage('preview');
    const action = await t.api('POST', '/api/admin/v1/action', {
      token,
      body: {
        name: { cs: 'Konference' },
        dateFrom: '2030-05-10T08:00',
        dateTo: '2030-05-11T18:00',
        previewData: { image: image.id },
      },
    });
    expect(action.status).toBe(201);
    const res = await t.api('DELETE', `/api/admin/v1/image/${image.id}`, { token });
    expect(res.status).toBe(409);
    expect(res.body.error.details).toMatchObject({
      count: 0,
      actions: [{ id: action.body.data.id, name: 'Konference' }],
    });
  });
});
