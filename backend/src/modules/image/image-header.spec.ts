import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngDataUrl } from '../../testing/images.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

/** A real PNG whose IHDR then claims another size (a picture is never decoded: its header is its size). */
function pngClaiming(width: number, height: number): string {
  const bytes = Buffer.from(pngDataUrl(2, 2).split(',')[1], 'base64');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

// Found by bench/probe.mjs (issue 10, Done when): a PNG header of width 2^32-1 reached the int
// `width` column, a 500 on MariaDB ("Out of range value") and a stored nonsense size on SQLite.
describe('pictures whose PNG header breaks the format (every way a picture comes in)', () => {
  let t: TestApp;
  let admin: string;
  let action: { id: number };
  let person: { id: number; bc: string };
  const lying = [
    ['2^32-1 wide', pngClaiming(0xffffffff, 1)],
    ['2^31 high', pngClaiming(1, 0x80000000)],
    ['0 wide', pngClaiming(0, 5)],
  ] as const;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    action = (
      await t.api('POST', '/api/admin/v1/action', {
        token: admin,
        body: { name: { cs: 'Akce' }, dateFrom: '2030-01-01T00:00', dateTo: '2030-01-02T00:00' },
      })
    ).body.data;
    person = (
      await t.api('POST', '/api/admin/v1/user', {
        token: admin,
        body: { actionId: action.id, firstname: 'Ann', lastname: 'Lee', email: 'ann@example.com' },
      })
    ).body.data;
  });
  afterAll(() => t.close());

  it('are a field error of the gallery upload and the gallery edit, not a 500', async () => {
    const good = await t.api('POST', '/api/admin/v1/image', {
      token: admin,
      body: { name: 'ok', type: 3, baseData: pngDataUrl(2, 2) },
    });
    expect(good.status).toBe(201);
    for (const [name, data] of lying) {
      const create = await t.api('POST', '/api/admin/v1/image', {
        token: admin,
        body: { name, type: 3, baseData: data },
      });
      expect([name, create.status, create.body.error?.code, create.body.error?.details.fields]).toEqual([
        name,
        400,
        'VALIDATION_ERROR',
        [{ path: 'baseData', key: 'photo.invalidData' }],
      ]);
      const edit = await t.api('PUT', `/api/admin/v1/image/${good.body.data.id}`, {
        token: admin,
        body: { name, data },
      });
      expect([name, edit.status, edit.body.error?.details.fields]).toEqual([
        name,
        400,
        [{ path: 'data', key: 'photo.invalidData' }],
      ]);
    }
    const kept = await t.api('GET', `/api/admin/v1/image/${good.body.data.id}`, { token: admin });
    expect([kept.body.data.width, kept.body.data.height]).toEqual([2, 2]);
  });

  it("are a field error of a person's photo and a refused file of the image import", async () => {
    for (const [name, data] of lying) {
      const photo = await t.api('PUT', `/api/admin/v1/user/${person.id}`, {
        token: admin,
        body: { actionId: action.id, firstname: 'Ann', lastname: 'Lee', email: 'ann@example.com', imageData: data },
      });
      expect([name, photo.status, photo.body.error?.details.fields]).toEqual([
        name,
        400,
        [{ path: 'imageData', key: 'photo.invalidData' }],
      ]);
      const imported = await t.api('POST', '/api/admin/v1/image/import', {
        token: admin,
        body: { actionId: action.id, images: [{ imageName: `${person.bc}.png`, imageData: data }] },
      });
      expect([
        name,
        imported.status,
        imported.body.data?.results[0]?.paired,
        imported.body.data?.results[0]?.reason,
      ]).toEqual([name, 200, false, 'IMAGE_BASE64_INVALID']);
    }
  });

  it("are a field error of the online registration's photo, named as the form names it", async () => {
    const photoAction = (
      await t.api('POST', '/api/admin/v1/action', {
        token: admin,
        body: { name: { cs: 'S fotkou' }, withPhoto: true, dateFrom: '2030-01-01T00:00', dateTo: '2030-01-02T00:00' },
      })
    ).body.data;
    const channel = (
      await t.api('POST', '/api/admin/v1/web-channel', {
        token: admin,
        body: { name: 'Form', actionId: photoAction.id, active: true },
      })
    ).body.data;
    for (const [name, image] of lying) {
      const res = await t.api('POST', `/api/online/v1/accreditation/${channel.channelKey}`, {
        body: { firstname: 'Bo', lastname: 'Ray', email: 'bo@example.com', image },
      });
      expect([name, res.status, res.body.error?.details.fields]).toEqual([
        name,
        400,
        [{ path: 'image', key: 'photo.invalidData' }],
      ]);
    }
    const ok = await t.api('POST', `/api/online/v1/accreditation/${channel.channelKey}`, {
      body: { firstname: 'Bo', lastname: 'Ray', email: 'bo@example.com', image: pngDataUrl(2, 2) },
    });
    expect(ok.status).toBe(201);
  });

  it('keeps a PNG of the largest size the format allows, as it claims', async () => {
    const res = await t.api('POST', '/api/admin/v1/image', {
      token: admin,
      body: { name: 'wide', type: 3, baseData: pngClaiming(0x7fffffff, 1) },
    });
    expect(res.status).toBe(201);
    expect([res.body.data.width, res.body.data.height]).toEqual([0x7fffffff, 1]);
  });
});
