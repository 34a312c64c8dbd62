import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { MailQueueEntity } from './mail-queue.entity.js';
import { MailService } from './mail.service.js';

describe('mail queue', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 9 (discard) on loopback: nothing listens, every send fails at once.
    t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
  });
  afterAll(() => t.close());

  it('retries a failed send with back-off, then marks it error with the reason', async () => {
    const mail = t.app.get(MailService);
    const queued = await mail.enqueue({ to: 'someone@example.com', subject: 'Hi', text: 'Body', subjectId: null });
    const repo = t.ds.getRepository(MailQueueEntity);
    await mail.flush();
    let row = await repo.findOneByOrFail({ id: queued.id });
    expect(row).toMatchObject({ status: 'waiting', attempts: 1 });
    expect(row.failReason).toMatch(/ECONNREFUSED|connect/i);
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);

    for (let i = 0; i < 4; i++) {
      await repo.update({ id: queued.id }, { nextAttemptAt: new Date(Date.now() - 1000) });
      await mail.flush();
    }
    row = await repo.findOneByOrFail({ id: queued.id });
    expect(row).toMatchObject({ status: 'error', attempts: 5 });
    expect(await mail.counts(0)).toEqual({ sent: 0, waiting: 0, error: 0 });
  });

  it('puts a mail claimed by a worker that died back into the queue', async () => {
    const repo = t.ds.getRepository(MailQueueEntity);
    const stuck = await repo.save(
      repo.create({
        recipient: 'x@example.com',
        subject: 's',
        bodyText: 'b',
        status: 'sending',
        attempts: 0,
        claimedAt: new Date(Date.now() - 10 * 60_000),
        nextAttemptAt: new Date(),
        createdAt: new Date(),
      }),
    );
    await t.app.get(MailService).flush();
    await new Promise((r) => setTimeout(r, 50));
    await t.app.get(MailService).flush();
    const row = await repo.findOneByOrFail({ id: stuck.id });
    expect(row.status).not.toBe('sending');
    expect(row.attempts).toBe(1);
  });
});
