import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { pngDataUrl } from '../../testing/images.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const bytesOf = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
const dataUrlOf = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

/** Every file of a zip: name → bytes. */
async function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}

describe('image import and image export (spec §5 Import, §7 image/import, image export)', () => {
  let t: TestApp;
  let admin: string;
  let action: { id: number };
  const post = (path: string, body: unknown, token = admin) => t.api('POST', `/api/admin/v1/${path}`, { token, body });
  const get = (path: string, token = admin) => t.api('GET', `/api/admin/v1/${path}`, { token });

  async function sheet(rows: unknown[][]): Promise<string> {
    const res = await fetch(`${t.url}/api/admin/v1/user/import/template/${action.id}`, {
      headers: { authorization: admin },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0];
    for (const r of rows) ws.addRow(r);
    return `data:;base64,${Buffer.from(await wb.xlsx.writeBuffer()).toString('base64')}`;
  }
  const importSheet = async (rows: unknown[][]) =>
    post('user/import', { actionId: action.id, dataFile: await sheet(rows), zonesImportType: 1 });
  const byEmail = async (email: string) =>
    (await post('user/filter', { actionId: action.id, page: 1, pageSize: 5, filterData: { text: email } })).body
      .data[0];
  const photoBytes = async (person: { image: { path: string } | null }) =>
    Buffer.from(await (await fetch(`${t.url}${person.image?.path}`)).arrayBuffer());
  const exportZip = (body: unknown, token = admin) =>
    fetch(`${t.url}/api/admin/v1/user/export/images`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  // Different pictures, so a wrong pairing shows in the bytes.
  const annPhoto = pngDataUrl(5, 5);
  const strayPhoto = pngDataUrl(6, 4);
  const cyPhoto = pngDataUrl(3, 7);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    const note = (await post('custom-field', { name: 'note', label: ml('Note'), customFieldType: 1 })).body.data;
    action = (await post('action', { name: ml('Photos'), customField: [{ id: note.id }] })).body.data;
  });
  afterAll(() => t.close());

  it('adds the photo column to the template (before the language, issue 15), and refuses a photo name that is no image file', async () => {
    const res = await fetch(`${t.url}/api/admin/v1/user/import/template/${action.id}`, {
      headers: { authorization: admin },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.arrayBuffer()) as never);
    expect((wb.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual([
      'First name',
      'Last name',
      'E-mail',
      'Group',
      'Zones',
      'Code',
      'note',
      'Photo (file name)',
      'Language (cs, sk, en, de)',
    ]);

    const bad = await importSheet([
      ['Ann', 'A', 'ann@example.com', '', '', '', '', 'ann.png'],
      ['Bad', 'B', 'bad@example.com', '', '', '', '', 'notes.txt'],
      ['Dir', 'D', 'dir@example.com', '', '', '', '', 'photos/dir.png'],
      ['Far', 'F', 'far@example.com', '', '', '', '', 'far.png', '', 'extra'],
    ]);
    expect(bad.body.error.details.rows).toEqual([
      { row: 3, code: 'IMAGE_NAME_NOT_EXIST_ON_ROW_' },
      { row: 4, code: 'IMAGE_NAME_NOT_EXIST_ON_ROW_' },
      { row: 5, code: 'CUSTOM_FIELD_DOESNT_EXIST_ON_ROW_' },
    ]);
    expect((await get(`image/import/${action.id}`)).body.data).toEqual({ waiting: [], unpaired: [] });
  });

  it('sheet first: rows wait for their photos, which pair by name (any case) as they come', async () => {
    expect(
      (
        await importSheet([
          ['Ann', 'Able', 'ann@example.com', '', '', '', '', 'ann.png'],
          ['Bob', 'Best', 'bob@example.com', '', '', '', '', 'Bob Best.PNG'],
          ['Cy', 'Cole', 'cy@example.com', '', '', '', '', ''],
        ])
      ).body,
    ).toEqual({ data: { imported: 3 } });
    const ann = await byEmail('ann@example.com');
    const bob = await byEmail('bob@example.com');
    const before = (await get(`image/import/${action.id}`)).body.data;
    expect(before).toEqual({
      waiting: [
        { id: ann.id, name: 'Ann Able', imageName: 'ann.png' },
        { id: bob.id, name: 'Bob Best', imageName: 'Bob Best.PNG' },
      ],
      unpaired: [],
    });

    const res = await post('image/import', {
      actionId: action.id,
      images: [
        { imageName: 'ANN.png', imageData: annPhoto },
        { imageName: 'stray.png', imageData: strayPhoto },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      results: [
        {
          imageName: 'ANN.png',
          paired: true,
          by: 'imageName',
          accreditations: [{ id: ann.id, name: 'Ann Able' }],
        },
        { imageName: 'stray.png', paired: false, accreditations: [], reason: 'IMAGE_WAITING_FOR_ROW' },
      ],
      waiting: 1,
    });
    expect(await photoBytes(await byEmail('ann@example.com'))).toEqual(bytesOf(annPhoto));
    const after = (await get(`image/import/${action.id}`)).body.data;
    expect(after.waiting).toEqual([{ id: bob.id, name: 'Bob Best', imageName: 'Bob Best.PNG' }]);
    expect(after.unpaired.map((u: { imageName: string }) => u.imageName)).toEqual(['stray.png']);

    // The spec's one-image form pairs too; then nobody waits any more.
    const one = await post('image/import', { actionId: action.id, imageName: 'bob best.png', imageData: annPhoto });
    expect(one.body.data.results[0]).toMatchObject({ paired: true, by: 'imageName' });
    expect(one.body.data.waiting).toBe(0);
    expect((await get(`image/import/${action.id}`)).body.data.waiting).toEqual([]);
  });

  it('images first: a kept photo becomes the photo of the row that names it when the sheet comes', async () => {
    expect((await importSheet([['Dee', 'Dale', 'dee@example.com', '', '', '', '', 'Stray.png']])).status).toBe(200);
    const dee = await byEmail('dee@example.com');
    expect(await photoBytes(dee)).toEqual(bytesOf(strayPhoto));
    expect((await get(`image/import/${action.id}`)).body.data).toEqual({ waiting: [], unpaired: [] });
  });

  it('pairs a file named by the barcode (an exported photo), only within the action and subject', async () => {
    const cy = await byEmail('cy@example.com');
    const res = await post('image/import', {
      actionId: action.id,
      images: [{ imageName: `${cy.bc.toLowerCase()}.png`, imageData: cyPhoto }],
    });
    expect(res.body.data.results[0]).toEqual({
      imageName: `${cy.bc.toLowerCase()}.png`,
      paired: true,
      by: 'bc',
      accreditations: [{ id: cy.id, name: 'Cy Cole' }],
    });
    expect(await photoBytes(await byEmail('cy@example.com'))).toEqual(bytesOf(cyPhoto));

    // Another subject cannot reach this accreditation by its barcode: the photo is only kept there.
    const other = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    const theirs = (await post('action', { name: ml('Theirs') }, other)).body.data;
    const stranger = await post(
      'image/import',
      { actionId: theirs.id, images: [{ imageName: `${cy.bc}.png`, imageData: strayPhoto }] },
      other,
    );
    expect(stranger.body.data.results[0]).toMatchObject({ paired: false, reason: 'IMAGE_WAITING_FOR_ROW' });
    expect(await photoBytes(await byEmail('cy@example.com'))).toEqual(bytesOf(cyPhoto));
    // Another subject's action is not found, for reading and for importing.
    expect((await get(`image/import/${theirs.id}`)).status).toBe(404);
    const foreign = await post('image/import', {
      actionId: theirs.id,
      images: [{ imageName: 'x.png', imageData: strayPhoto }],
    });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'ACTION_DOESNT_EXIST']);
  });

  it('enforces the batch limits with clear codes', async () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ imageName: `p${i}.png`, imageData: annPhoto }));
    const tooMany = await post('image/import', { actionId: action.id, images: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.fields).toEqual([{ path: 'images', key: 'imageImport.tooManyImages' }]);
    const none = await post('image/import', { actionId: action.id, images: [] });
    expect(none.body.error.details.fields).toEqual([{ path: 'images', key: 'imageImport.chooseImages' }]);

    const png = bytesOf(annPhoto);
    const sixMb = Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)]);
    const res = await post('image/import', {
      actionId: action.id,
      images: [
        { imageName: 'big.png', imageData: dataUrlOf(sixMb) },
        { imageName: 'text.png', imageData: dataUrlOf(Buffer.from('just some text, not a picture')) },
        { imageName: 'broken.png', imageData: 'data:image/png;base64,***' },
        { imageName: 'notes.txt', imageData: annPhoto },
      ],
    });
    expect(res.status).toBe(200);
    expect(
      res.body.data.results.map((r: { imageName: string; paired: boolean; reason: string }) => [
        r.imageName,
        r.paired,
        r.reason,
      ]),
    ).toEqual([
      ['big.png', false, 'IMAGE_TOO_LARGE'],
      ['text.png', false, 'IMAGE_TYPE_INVALID'],
      ['broken.png', false, 'IMAGE_BASE64_INVALID'],
      ['notes.txt', false, 'IMAGE_NAME_INVALID'],
    ]);
    // None of them was kept.
    expect((await get(`image/import/${action.id}`)).body.data.unpaired).toEqual([]);
  });

  it('takes a batch larger than the app-wide 16 MB body limit (4 photos of 4.5 MB)', async () => {
    const big = dataUrlOf(Buffer.concat([bytesOf(annPhoto), Buffer.alloc(4.5 * 1024 * 1024)]));
    const res = await post('image/import', {
      actionId: action.id,
      images: ['w.png', 'x.png', 'y.png', 'z.png'].map((imageName) => ({ imageName, imageData: big })),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.results.map((r: { reason: string }) => r.reason)).toEqual(
      Array(4).fill('IMAGE_WAITING_FOR_ROW'),
    );
  });

  it('exports the chosen photos as a zip named so they re-import, and re-imports it', async () => {
    const res = await exportZip({ actionId: action.id, all: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="photos-${action.id}.zip"`);
    const files = await unzip(Buffer.from(await res.arrayBuffer()));
    const cy = await byEmail('cy@example.com');
    expect([...files.keys()].sort()).toEqual(['Bob Best.PNG', 'Stray.png', 'ann.png', `${cy.bc}.png`].sort());
    expect(files.get('ann.png')).toEqual(bytesOf(annPhoto));
    expect(files.get('Bob Best.PNG')).toEqual(bytesOf(annPhoto));
    expect(files.get('Stray.png')).toEqual(bytesOf(strayPhoto));
    expect(files.get(`${cy.bc}.png`)).toEqual(bytesOf(cyPhoto));

    // A filter narrows it like the xlsx export.
    const one = await exportZip({ actionId: action.id, all: true, filterData: { text: 'cy@' } });
    expect([...(await unzip(Buffer.from(await one.arrayBuffer()))).keys()]).toEqual([`${cy.bc}.png`]);

    // Re-import: every exported file pairs again, by its photo name or by the barcode.
    const again = await post('image/import', {
      actionId: action.id,
      images: [...files].map(([imageName, bytes]) => ({ imageName, imageData: dataUrlOf(bytes) })),
    });
    const results = again.body.data.results as { imageName: string; paired: boolean; by: string }[];
    expect(Object.fromEntries(results.map((r) => [r.imageName, [r.paired, r.by]]))).toEqual({
      'ann.png': [true, 'imageName'],
      'Bob Best.PNG': [true, 'imageName'],
      'Stray.png': [true, 'imageName'],
      [`${cy.bc}.png`]: [true, 'bc'],
    });
    expect(await photoBytes(await byEmail('cy@example.com'))).toEqual(bytesOf(cyPhoto));
  });

  it('refuses an export with nothing chosen, or whose choice has no photo', async () => {
    const none = await exportZip({ actionId: action.id, userId: [] });
    expect(none.status).toBe(400);
    expect(((await none.json()) as any).error.details.fields).toEqual([
      { path: 'userId', key: 'accreditation.chooseUsers' },
    ]);

    expect((await importSheet([['Eve', 'East', 'eve@example.com', '', '', '', '', '']])).status).toBe(200);
    const eve = await byEmail('eve@example.com');
    const noPhoto = await exportZip({ actionId: action.id, userId: [eve.id] });
    expect(noPhoto.status).toBe(400);
    expect(((await noPhoto.json()) as any).error.code).toBe('NO_PHOTOS_TO_EXPORT');
  });

  it('needs the rights of spec §6 and a session', async () => {
    const subject = await createSubject(t);
    const nobody = await loginAs(t, await createAdminUser(t, subject));
    expect((await get(`image/import/${action.id}`, nobody)).status).toBe(403);
    expect((await post('image/import', { actionId: action.id, images: [] }, nobody)).status).toBe(403);
    expect((await exportZip({ actionId: action.id, all: true }, nobody)).status).toBe(403);
    expect((await t.api('GET', `/api/admin/v1/image/import/${action.id}`)).status).toBe(401);

    // The image rights alone allow the import calls, not the export; exportUser alone the export.
    const importer = await loginAs(
      t,
      await createAdminUser(t, subject, {
        grant: [
          ['imageImport', 'getImageImport'],
          ['imageImport', 'importImage'],
        ],
      }),
    );
    expect((await get(`image/import/${action.id}`, importer)).status).toBe(404);
    expect((await exportZip({ actionId: action.id, all: true }, importer)).status).toBe(403);
  });
});
