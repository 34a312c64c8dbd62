import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue } from 'bullmq';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.factory.js';
import { randomCode } from './common/crypto.js';
import { entryRules, type GateWorld, gateWorld } from './modules/device/device-testing.js';
import { BadgePdfService } from './modules/pdf/badge-pdf.service.js';
import { PdfJobEntity } from './modules/pdf/pdf-job.entity.js';
import { pngDataUrl } from './testing/images.js';
import { waitForQueue } from './testing/mail.js';
import { startS3, type TestS3 } from './testing/s3.js';
import { startSmtp } from './testing/smtp.js';
import { type ApiResult, createTestApp, TEST_DB, type TestApp } from './testing/test-app.js';
import { REDIS_URL, redisReachable } from './testing/redis.js';

// MariaDB is the database of several instances (SQLite is one machine's); in CI Redis must be there
const skip = TEST_DB !== 'mariadb' || (!process.env.CI && !(await redisReachable()));

/**
 * Issue 16 "a scale-out test": two instances on one MariaDB, one Redis and one S3 bucket, the load
 * split between them, each with a DATA_DIR of its own (no shared folder). What one instance stores
 * the other serves (a photo, a PDF job's file); a code race and a registration rush sent alternately
 * to both hold their counts; each mail is sent once. (Sign-out and rights
 * changes across instances: session-cache-redis.spec.ts; mass mail across instances:
 * mail-bullmq.spec.ts.) The README's "Scaling out" says how to run it.
 */
describe.skipIf(skip)('two instances behind one address', () => {
  const prefix = `accredo-test-${randomCode(8).toLowerCase()}`;
  const BUCKET = 'scale-out';
  let s3: TestS3;
  let secondDir: string;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  let second: NestFastifyApplication;
  let urls: string[];
  let w: GateWorld;

  beforeAll(async () => {
    s3 = await startS3([BUCKET]);
    smtp = await startSmtp();
    t = await createTestApp({
      REDIS_URL,
      REDIS_PREFIX: prefix,
      SMTP_URL: smtp.url,
      STORAGE_URL: s3.storageUrl(BUCKET),
    });
    // the same database, Redis and bucket; a folder of its own, as on another machine
    secondDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-second-'));
    second = await createApp({ ...t.config, dataDir: secondDir });
    await second.listen(0, '127.0.0.1');
    urls = [t.url, `http://127.0.0.1:${(second.getHttpServer().address() as { port: number }).port}`];
    w = await gateWorld(t);
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await smtp?.close();
    await s3?.close();
    if (secondDir) fs.rmSync(secondDir, { recursive: true, force: true });
    for (const name of ['mail', 'pdf']) {
      const queue = new Queue(name, { connection: { url: REDIS_URL }, prefix });
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  /** A call to instance `i` (0 or 1), as TestApp.api does. */
  async function on(i: number, method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(urls[i % 2] + p, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed, headers: res.headers } as ApiResult;
  }

  it('serves from either instance a photo stored through the other', async () => {
    const png = pngDataUrl(4, 4);
    const created = await on(
      1,
      'POST',
      '/api/admin/v1/image',
      { name: 'crest', type: 3, baseData: png },
      {
        authorization: w.admin,
      },
    );
    expect(created.status).toBe(201);
    for (const i of [0, 1]) {
      const res = await fetch(urls[i] + created.body.data.path);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(png.split(',')[1], 'base64'))).toBe(true);
    }
    // nothing in the instances' own folders: the bucket is the only copy
    expect(localFiles('files')).toEqual([]);
  });

  /** Files under `folder` of either instance's DATA_DIR. */
  const localFiles = (folder: string) =>
    [t.dataDir, secondDir].flatMap((dir) => {
      const local = path.join(dir, folder);
      return fs.existsSync(local)
        ? (fs.readdirSync(local, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((d) => d.isFile())
        : [];
    });

  it("serves from either instance a PDF job's file that the other one rendered", async () => {
    const template = (
      await w.post('template', {
        name: 'Badge',
        pageSize: 'A6',
        htmlData: '<h1>{{firstname}}</h1>{{user_image}}{{bc}}',
      })
    ).body.data;
    const press = (await w.post('groups', { name: 'Press', actionId: w.action.id, adminTemplateId: template.id })).body
      .data;
    const ids: number[] = [];
    for (let k = 0; k < 3; k++)
      ids.push((await w.person(500 + k, { groupIds: [press.id], imageData: pngDataUrl(3, 3) })).id);
    const [first, other] = [t.app, second].map((app) => app.get(BadgePdfService));
    for (const service of [first, other]) {
      service.syncMax = 2;
      service.chunkSize = 1;
    }
    // the instance asked takes no PDF work: the other one renders the job
    await other.hold(true);
    let job: PdfJobEntity;
    try {
      const started = await on(
        1,
        'POST',
        '/api/admin/v1/user/print',
        { actionId: w.action.id, userId: ids, type: 'pdf' },
        { authorization: w.admin },
      );
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const until = Date.now() + 60_000;
      for (;;) {
        job = await t.ds.getRepository(PdfJobEntity).findOneByOrFail({ id: started.body.data.id });
        if (job.state !== 'waiting' && job.state !== 'running') break;
        if (Date.now() > until) throw new Error(`PDF job still ${job.state}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await other.hold(false);
      for (const service of [first, other]) {
        service.syncMax = 200;
        service.chunkSize = 100;
      }
    }
    expect(job).toMatchObject({ state: 'done', done: 3, printed: 3 });
    const stored = await s3.objects(BUCKET, `_pdf-jobs/${job.id}/`);
    expect(stored.map((o) => o.key)).toEqual([`_pdf-jobs/${job.id}/badges.pdf`]);
    for (const i of [1, 0]) {
      const res = await fetch(`${urls[i]}/api/admin/v1/user/print/job/${job.id}/file`, {
        headers: { authorization: w.admin },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(Number(res.headers.get('content-length'))).toBe(stored[0].size);
      expect((await PDFDocument.load(Buffer.from(await res.arrayBuffer()))).getPageCount()).toBe(3);
    }
    expect(localFiles('pdf-jobs')).toEqual([]);
  });

  it('lets in exactly the allowed count when one code is scanned at once through both instances', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 3));
    const gates = [await w.device('so-a', tpl.id), await w.device('so-b', tpl.id), await w.device('so-c', tpl.id)];
    const eva = await w.person(1);
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        on(
          i,
          'POST',
          '/api/device/v1/scan',
          { code: eva.bc, nonce: `so-${i}`, direction: 'entry' },
          { authorization: gates[i % 3].token },
        ),
      ),
    );
    expect(answers.map((a) => a.status).every((s) => s === 200)).toBe(true);
    expect(answers.filter((a) => a.body.data.allowed)).toHaveLength(3);
    const [{ n }] = await t.ds.query('SELECT COUNT(*) AS n FROM entrance WHERE accreditationId = ? AND type = 1', [
      eva.id,
    ]);
    expect(Number(n)).toBe(3);
    const [{ scans }] = await t.ds.query('SELECT COUNT(*) AS scans FROM device_scan WHERE accreditationId = ?', [
      eva.id,
    ]);
    expect(Number(scans)).toBe(120);
  });

  it('holds a registration rush split between both instances: last code uses once, each e-mail once, each mail sent once', async () => {
    const template = (
      await w.post('mail-template', { name: 'Thanks', subjectFrom: 'Welcome {{firstname}}', html: '<p>Hi</p>' })
    ).body.data;
    const open = (await w.post('web-channel', { name: 'Rush', actionId: w.action.id, mailTemplateId: template.id }))
      .body.data;
    const coded = (
      await w.post('web-channel', {
        name: 'Invited',
        actionId: w.action.id,
        withAuthorization: true,
        authorizationType: 3,
        numberUseExtCode: 3,
        externalCode: [{ code: 'LAST', numberOfUse: 3 }],
      })
    ).body.data;
    const visitor = (k: number) => ({ firstname: `Rush${k}`, lastname: 'Crowd', email: `rush${k}@example.com` });

    // 60 visitors, each sent twice at once (a double click), alternately to the two instances
    const rush = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        on(i, 'POST', `/api/online/v1/accreditation/${open.channelKey}`, visitor(i >> 1)),
      ),
    );
    const statuses = rush.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(60);
    expect(
      rush.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.body.error.code === 'EMAIL_EXIST'),
    ).toBe(true);
    const rows: { email: string; bc: string }[] = await t.ds.query(
      "SELECT email, bc FROM accreditation WHERE actionId = ? AND email LIKE 'rush%'",
      [w.action.id],
    );
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r) => r.email)).size).toBe(60);
    expect(new Set(rows.map((r) => r.bc)).size).toBe(60);

    // 20 holders of the same code with 3 uses left, alternately on both instances
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++)
      tokens.push(
        (await on(i, 'POST', '/api/online/v1/web-channel/login', { channelKey: coded.channelKey, code: 'last' })).body
          .data.token,
      );
    const coders = await Promise.all(
      tokens.map((token, i) =>
        on(i + 1, 'POST', `/api/online/v1/accreditation/${coded.channelKey}`, visitor(1000 + i), {
          'authorization-online': token,
        }),
      ),
    );
    expect(coders.filter((r) => r.status === 201)).toHaveLength(3);
    expect(
      coders
        .filter((r) => r.status !== 201)
        .every((r) => r.status === 403 && r.body.error.code === 'USED_WEB_CHANNEL_CODE'),
    ).toBe(true);
    const [code] = await t.ds.query('SELECT used, numberOfUse FROM web_channel_code WHERE code = ?', ['LAST']);
    expect([Number(code.used), Number(code.numberOfUse)]).toEqual([3, 3]);

    // the welcome mails: the workers of both instances share them, each sent once
    const queue = await waitForQueue(t, 60_000);
    const welcome = queue.filter((m) => /^rush\d+@example\.com$/.test(m.recipient));
    expect(welcome).toHaveLength(60);
    expect(welcome.every((m) => m.status === 'sent')).toBe(true);
    for (let k = 0; k < 60; k++)
      expect(
        smtp.mails.filter((m) => m.to.includes(`rush${k}@example.com`)),
        `rush${k}`,
      ).toHaveLength(1);
  });
});
