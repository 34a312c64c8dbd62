import fs from 'node:fs';
import path from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { pngDataUrl } from '../../testing/images.js';
import { startS3, type TestS3 } from '../../testing/s3.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { parseStorageUrl } from './storage-url.js';

/**
 * STORAGE_URL (issue 16): the files in an S3-compatible bucket, against a real S3 protocol server
 * (s3rver) started here. The files' URLs stay the application's own; nothing lands in DATA_DIR/files.
 */
describe('files in S3-compatible storage', () => {
  let s3: TestS3;
  let t: TestApp;
  let token: string;
  const BUCKET = 'accredo-files';

  beforeAll(async () => {
    s3 = await startS3([BUCKET]);
    t = await createTestApp({ STORAGE_URL: s3.storageUrl(BUCKET, 'tenant-a') });
    token = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  /** the bucket's object of an image's file URL, under the prefix and the subject's folder */
  const objectOf = async (fileUrl: string) => {
    const fileKey = fileUrl.split('/').pop()!;
    const [{ pathToFiles }] = await t.ds.query(
      'SELECT s.pathToFiles FROM subject s JOIN image i ON i.subjectId = s.id WHERE i.fileKey = ?',
      [fileKey],
    );
    return `tenant-a/${pathToFiles}/images/${fileKey}`;
  };
  const inBucket = async (key: string) => {
    try {
      return (await s3.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).ContentLength ?? 0;
    } catch {
      return null;
    }
  };
  const localFiles = () =>
    fs.existsSync(path.join(t.dataDir, 'files'))
      ? (fs.readdirSync(path.join(t.dataDir, 'files'), { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter(
          (d) => d.isFile(),
        ).length
      : 0;

  it('stores, serves, replaces and deletes an image through the bucket', async () => {
    const png = pngDataUrl(3, 2);
    const created = await t.api('POST', '/api/admin/v1/image', {
      token,
      body: { name: 'logo', type: 3, baseData: png },
    });
    expect(created.status).toBe(201);
    const image = created.body.data as { id: number; path: string };
    const key = await objectOf(image.path);
    const bytes = Buffer.from(png.split(',')[1], 'base64');
    expect(await inBucket(key)).toBe(bytes.length);
    expect(localFiles()).toBe(0);

    // the file's URL is the application's, streamed from the bucket with its type
    const res = await fetch(t.url + image.path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    // a new version is a new object; the old one is gone from the bucket and from the URL
    const edited = await t.api('PUT', `/api/admin/v1/image/${image.id}`, {
      token,
      body: { name: 'logo 2', data: pngDataUrl(5, 5) },
    });
    expect(edited.status).toBe(200);
    const next = edited.body.data as { path: string };
    expect(next.path).not.toBe(image.path);
    expect(await inBucket(await objectOf(next.path))).toBeGreaterThan(0);
    expect(await inBucket(key)).toBeNull();
    expect((await fetch(t.url + image.path)).status).toBe(404);

    const nextKey = await objectOf(next.path);
    expect((await t.api('DELETE', `/api/admin/v1/image/${image.id}`, { token })).status).toBe(200);
    expect(await inBucket(nextKey)).toBeNull();
    expect((await fetch(t.url + next.path)).status).toBe(404);
    expect(localFiles()).toBe(0);
  });

  it('answers 404 for a file whose object is missing from the bucket, not a 500', async () => {
    const created = await t.api('POST', '/api/admin/v1/image', {
      token,
      body: { name: 'gone', type: 3, baseData: pngDataUrl(2, 2) },
    });
    const image = created.body.data as { path: string };
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    await s3.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: await objectOf(image.path) }));
    const res = await fetch(t.url + image.path);
    expect(res.status).toBe(404);
  });
});

describe('STORAGE_URL', () => {
  it('reads the bucket, prefix, region and addressing', () => {
    expect(
      parseStorageUrl(
        's3://AK:se%2Fcret@s3.eu-central-1.amazonaws.com/my-bucket/acc/prod?region=eu-central-1&style=virtual',
      ),
    ).toEqual({
      endpoint: 'https://s3.eu-central-1.amazonaws.com',
      region: 'eu-central-1',
      bucket: 'my-bucket',
      prefix: 'acc/prod',
      accessKeyId: 'AK',
      secretAccessKey: 'se/cret',
      pathStyle: false,
    });
    expect(parseStorageUrl('s3+http://k:s@minio:9000/files')).toMatchObject({
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      prefix: '',
      pathStyle: true,
    });
  });

  it.each([
    ['http://k:s@host/bucket', /scheme/],
    ['s3://host/bucket', /access key and secret/],
    ['s3://k:s@host/', /no usable bucket/],
    ['s3://k:s@host/Bad_Bucket', /no usable bucket/],
    ['s3://k:s@host/bucket/../x', /folder|bucket/],
    ['s3://k:s@host/bucket?style=odd', /style/],
  ])('refuses %s at start with a message naming the variable', (value, message) => {
    expect(() => loadConfig({ STORAGE_URL: value })).toThrow(/STORAGE_URL/);
    expect(() => loadConfig({ STORAGE_URL: value })).toThrow(message);
  });
});
