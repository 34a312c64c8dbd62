import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.factory.js';
import { pngDataUrl } from '../../testing/images.js';
import { rendererFailingAfter } from '../../testing/pdf.js';
import { startS3, type TestS3 } from '../../testing/s3.js';
import {
  type ApiResult,
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  type TestApp,
} from '../../testing/test-app.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { BadgePdfService } from './badge-pdf.service.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

/**
 * PDF jobs with STORAGE_URL (issue 16 "Beyond one machine"): a job's parts and its finished file
 * live in the bucket (`_pdf-jobs/<id>/` under the URL's folder), never under DATA_DIR/pdf-jobs, so
 * two instances with folders of their own serve, resume and sweep each other's jobs. Against a real
 * S3 protocol server (s3rver) started here, on either database.
 */
describe('PDF jobs in S3-compatible storage', () => {
  const BUCKET = 'accredo-pdf';
  const FOLDER = 'site';
  let s3: TestS3;
  let t: TestApp;
  let second: NestFastifyApplication;
  let secondDir: string;
  let urls: string[];
  let admin: string;
  let otherAdmin: string;
  let action: { id: number };
  const people: { id: number; bc: string }[] = [];

  const services = () => [t.app, second].map((app) => app.get(BadgePdfService));
  const post = (i: number, p: string, body: unknown, token = admin): Promise<ApiResult> =>
    fetch(`${urls[i]}/api/admin/v1/${p}`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: await res.json(), headers: res.headers }));
  /** The job's file through instance `i`: status, headers, bytes. */
  const download = async (i: number, id: number, token = admin) => {
    const res = await fetch(`${urls[i]}/api/admin/v1/user/print/job/${id}/file`, {
      headers: { authorization: token, 'accept-language': 'en' },
    });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const jobObjects = async (id?: number) =>
    (await s3.objects(BUCKET, `${FOLDER}/_pdf-jobs/${id === undefined ? '' : `${id}/`}`)).map((o) => ({
      ...o,
      key: o.key.slice(`${FOLDER}/_pdf-jobs/`.length),
    }));
  /** Files under either instance's DATA_DIR/pdf-jobs (there must be none). */
  const localJobFiles = () =>
    [t.dataDir, secondDir].flatMap((dir) => {
      const jobs = path.join(dir, 'pdf-jobs');
      return fs.existsSync(jobs)
        ? (fs.readdirSync(jobs, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((d) => d.isFile())
        : [];
    });
  const printCount = async (id: number) =>
    (await t.ds.getRepository(AccreditationEntity).findOneByOrFail({ id })).printCount;
  /** Holds an instance's in-process worker (its poll takes no job) so that the other one runs the job. */
  const hold = (service: BadgePdfService, held: boolean) => service.hold(held);

  /** A job of the three people started on instance `i` (one badge per part), run there to its end. */
  const bigJob = async (i: number) => {
    const other = services()[1 - i];
    await hold(other, true);
    let started: ApiResult;
    try {
      started = await post(i, 'user/print', { actionId: action.id, userId: people.map((p) => p.id), type: 'pdf' });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      await services()[i].flush();
    } finally {
      await hold(other, false);
    }
    const status = await fetch(`${urls[i]}/api/admin/v1/user/print/job/${started.body.data.id}`, {
      headers: { authorization: admin },
    });
    return ((await status.json()) as { data: { id: number; state: string; done: number; printed: number } }).data;
  };

  beforeAll(async () => {
    s3 = await startS3([BUCKET]);
    t = await createTestApp({ STORAGE_URL: s3.storageUrl(BUCKET, FOLDER) });
    // the same database and bucket, a folder of its own: nothing is shared on disk
    secondDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-second-'));
    second = await createApp({ ...t.config, dataDir: secondDir });
    await second.listen(0, '127.0.0.1');
    urls = [t.url, `http://127.0.0.1:${(second.getHttpServer().address() as { port: number }).port}`];
    for (const service of services()) {
      service.syncMax = 2;
      service.chunkSize = 1;
    }

    const subject = await createSubject(t);
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    otherAdmin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    action = (await post(0, 'action', { name: ml('Bucket') })).body.data;
    const template = (
      await post(0, 'template', {
        name: 'B',
        pageSize: 'A6',
        htmlData: '<h1>{{firstname}}</h1>{{user_image}}<div>{{bc}}</div>',
      })
    ).body.data;
    const group = (await post(0, 'groups', { name: 'Crew', actionId: action.id, adminTemplateId: template.id })).body
      .data;
    for (const name of ['One', 'Two', 'Three']) {
      const res = await post(0, 'user', {
        actionId: action.id,
        firstname: name,
        lastname: 'Bucket',
        email: `${name.toLowerCase()}@example.com`,
        groupIds: [group.id],
        imageData: pngDataUrl(),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      people.push({ id: res.body.data.id, bc: res.body.data.bc });
    }
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await s3?.close();
    fs.rmSync(secondDir, { recursive: true, force: true });
  });

  it('renders a job into the bucket, and the other instance streams its file with the same rights', async () => {
    const job = await bigJob(0);
    expect(job).toMatchObject({ state: 'done', done: 3, printed: 3 });
    // the parts are gone once merged; the file is the bucket's only copy
    const objects = await jobObjects(job.id);
    expect(objects.map((o) => o.key)).toEqual([`${job.id}/badges.pdf`]);
    expect(localJobFiles()).toEqual([]);

    for (const i of [1, 0]) {
      const file = await download(i, job.id);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename=".*\.pdf"$/);
      expect(Number(file.headers.get('content-length'))).toBe(objects[0].size);
      expect(file.bytes.length).toBe(objects[0].size);
      expect((await PDFDocument.load(file.bytes)).getPageCount()).toBe(3);
    }
    // another admin's job is not found on either instance; without a session, 401
    for (const i of [0, 1]) expect((await download(i, job.id, otherAdmin)).status).toBe(404);
    expect((await fetch(`${urls[1]}/api/admin/v1/user/print/job/${job.id}/file`)).status).toBe(401);
  });

  it('goes on in another instance from the parts the first one left in the bucket', async () => {
    const [mine, other] = services();
    // the first instance renders two chunks (one badge each, side by side), then fails on the third
    const spy = rendererFailingAfter(t.app, 2);
    const before = await Promise.all(people.map((p) => printCount(p.id)));
    let failed: { id: number; state: string; done: number };
    try {
      failed = await bigJob(0);
    } finally {
      spy.mockRestore();
    }
    expect(failed).toMatchObject({ state: 'error', done: 2, printed: 2 });
    expect((await jobObjects(failed.id)).map((o) => o.key)).toEqual([
      `${failed.id}/part-000000.pdf`,
      `${failed.id}/part-000001.pdf`,
    ]);

    // the retry is asked of the second instance, whose own folder has none of the parts
    await hold(mine, true);
    try {
      const retried = await post(1, `user/print/job/${failed.id}/retry`, {});
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      await other.flush();
    } finally {
      await hold(mine, false);
    }
    const file = await download(0, failed.id);
    expect(file.status).toBe(200);
    expect((await PDFDocument.load(file.bytes)).getPageCount()).toBe(3);
    expect((await jobObjects(failed.id)).map((o) => o.key)).toEqual([`${failed.id}/badges.pdf`]);
    // each badge counted once, across the two instances
    expect(await Promise.all(people.map((p) => printCount(p.id)))).toEqual(before.map((n) => n + 1));
    expect(localJobFiles()).toEqual([]);
  });

  it('sweeps the bucket: files a day after they finish, past the bound, and folders without a job', async () => {
    const [mine, other] = services();
    const first = await bigJob(0);
    const latest = await bigJob(1);
    expect([first.state, latest.state]).toEqual(['done', 'done']);
    await s3.client.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: `${FOLDER}/_pdf-jobs/987654/part-000000.pdf`,
        Body: 'left behind',
      }),
    );
    // a subject's file beside the jobs is never touched by their sweep
    const photos = (await s3.objects(BUCKET, `${FOLDER}/`)).filter((o) => !o.key.startsWith(`${FOLDER}/_pdf-jobs/`));
    expect(photos.length).toBeGreaterThan(0);

    // the bound holds one file: the older one goes, the newer one stays (swept by the other instance)
    const size = (await jobObjects(latest.id))[0].size;
    other.maxBytes = size;
    try {
      const swept = await other.sweep();
      expect(swept.removed).toBe(1);
      expect(swept.expired).toBeGreaterThanOrEqual(1);
    } finally {
      other.maxBytes = 5 * 1024 ** 3;
    }
    expect(await jobObjects(987654)).toEqual([]);
    expect(await jobObjects(first.id)).toEqual([]);
    for (const i of [0, 1]) {
      const gone = await download(i, first.id);
      expect([gone.status, JSON.parse(gone.bytes.toString()).error.code]).toEqual([410, 'PDF_JOB_EXPIRED']);
      expect((await download(i, latest.id)).status).toBe(200);
    }

    // a day later the newer one goes too (swept by the first instance)
    await mine.sweep(Date.now() + 25 * 60 * 60_000);
    expect(await jobObjects()).toEqual([]);
    for (const i of [0, 1]) expect((await download(i, latest.id)).status).toBe(410);
    expect((await s3.objects(BUCKET, `${FOLDER}/`)).filter((o) => !o.key.startsWith(`${FOLDER}/_pdf-jobs/`))).toEqual(
      photos,
    );
  });
});
