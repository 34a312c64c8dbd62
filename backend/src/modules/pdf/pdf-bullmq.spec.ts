import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue } from 'bullmq';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.factory.js';
import { randomCode } from '../../common/crypto.js';
import { pngDataUrl } from '../../testing/images.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { BadgePdfService } from './badge-pdf.service.js';
import { PdfJobEntity } from './pdf-job.entity.js';
import { REDIS_URL, redisReachable } from '../../testing/redis.js';

const skip = !process.env.CI && !(await redisReachable());

/** Polls the job's row (no flush: the BullMQ workers run on their own) until it has finished. */
async function finished(t: TestApp, id: number, ms = 60_000): Promise<PdfJobEntity> {
  const until = Date.now() + ms;
  for (;;) {
    const job = await t.ds.getRepository(PdfJobEntity).findOneByOrFail({ id });
    if (job.state !== 'waiting' && job.state !== 'running') return job;
    if (Date.now() > until) throw new Error(`PDF job ${id} still ${job.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** BullMQ mode (REDIS_URL): a PDF job made by one instance is run by another. */
describe.skipIf(skip)('PDF jobs over BullMQ', () => {
  const prefix = `accredo-test-${randomCode(8).toLowerCase()}`;
  let t: TestApp;
  let second: NestFastifyApplication;

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL, REDIS_PREFIX: prefix });
    // the same database and DATA_DIR, as instances behind a load balancer share them
    second = await createApp(t.config);
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    const queue = new Queue('pdf', { connection: { url: REDIS_URL }, prefix });
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('runs a job made by one instance in another, whose file the first one serves', async () => {
    const [mine, other] = [t.app, second].map((app) => app.get(BadgePdfService));
    expect(mine.mode).toBe('bullmq');
    // this instance takes no PDF work: only the other one can run the job
    await mine.hold(true);
    mine.syncMax = 1;
    other.chunkSize = 1;

    const subject = await createSubject(t);
    const token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token, body });
    const action = (await post('action', { name: { cs: 'Bull', sk: '', en: '', de: '' } })).body.data;
    const template = (await post('template', { name: 'B', pageSize: 'A6', htmlData: '<h1>{{firstname}}</h1>{{bc}}' }))
      .body.data;
    const group = (await post('groups', { name: 'Crew', actionId: action.id, adminTemplateId: template.id })).body.data;
    for (const name of ['One', 'Two']) {
      const res = await post('user', {
        actionId: action.id,
        firstname: name,
        lastname: 'Bull',
        email: `${name.toLowerCase()}@example.com`,
        groupIds: [group.id],
        imageData: pngDataUrl(),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const started = await post('user/print', { actionId: action.id, all: true, filterData: {}, type: 'pdf' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);

    const job = await finished(t, started.body.data.id);
    expect(job).toMatchObject({ state: 'done', done: 2, printed: 2 });
    const file = await fetch(`${t.url}/api/admin/v1/user/print/job/${job.id}/file`, {
      headers: { authorization: token },
    });
    expect(file.status).toBe(200);
    expect((await PDFDocument.load(Buffer.from(await file.arrayBuffer()))).getPageCount()).toBe(2);
  });
});
