import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app.factory.js';
import { randomCode } from '../../common/crypto.js';
import { ml, seedPeople, waitForQueue } from '../../testing/mail.js';
import { startSmtp } from '../../testing/smtp.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { MailQueueEntity } from './mail-queue.entity.js';
import { MailService } from './mail.service.js';
import { REDIS_URL, redisReachable } from '../../testing/redis.js';

const skip = !process.env.CI && !(await redisReachable());

/** BullMQ mode (REDIS_URL): two server instances on one database share the work, each mail once. */
describe.skipIf(skip)('mail queue over BullMQ', () => {
  const prefix = `accredo-test-${randomCode(8).toLowerCase()}`;
  let t: TestApp;
  let second: NestFastifyApplication;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let redis: Redis;

  beforeAll(async () => {
    smtp = await startSmtp({ delayMs: 15 });
    t = await createTestApp({ SMTP_URL: smtp.url, REDIS_URL, REDIS_PREFIX: prefix });
    second = await createApp(t.config);
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await smtp?.close();
    const queue = new Queue('mail', { connection: { url: REDIS_URL }, prefix });
    await queue.obliterate({ force: true });
    await queue.close();
    redis?.disconnect();
  });

  it('sends a mass mail exactly once with two instances sharing the work', async () => {
    expect(t.app.get(MailService).mode).toBe('bullmq');
    const sends = [t.app, second].map((app) =>
      vi.spyOn((app.get(MailService) as unknown as { transport: { send(): Promise<void> } }).transport, 'send'),
    );
    const subject = await createSubject(t);
    const token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token, body });
    const action = (await post('action', { name: ml('A'), dateFrom: '2027-05-10T08:00', dateTo: '2027-05-10T18:00' }))
      .body.data;
    const template = (
      await post('mail-template', { name: 'T', subjectFrom: 'Hello {{firstname}}', html: '<p>Hi {{firstname}}</p>' })
    ).body.data;
    const count = 200;
    await seedPeople(
      t,
      subject.id,
      action.id,
      Array.from({ length: count }, (_, i) => ({
        firstname: `B${i}`,
        lastname: 'Bull',
        email: `bull${i}@example.com`,
      })),
    );
    const res = await post('email/send', {
      actionId: action.id,
      all: true,
      filterData: { text: 'bull' },
      mailTemplate: template.id,
    });
    expect(res.body.data).toEqual({ queued: count, error: [] });

    // No flush: the BullMQ workers of both instances send on their own.
    const rows = await waitForQueue(t, 60_000);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(count);
    for (let i = 0; i < count; i++) {
      const got = smtp.mails.filter((m) => m.to.includes(`bull${i}@example.com`));
      expect(got, `bull${i}`).toHaveLength(1);
      expect(got[0].raw).toMatch(new RegExp(`^Subject: Hello B${i}\\r?$`, 'm'));
    }
    const [first, other] = sends.map((s) => s.mock.calls.length);
    expect(first + other).toBe(count);
    expect(first).toBeGreaterThan(0);
    expect(other).toBeGreaterThan(0);
    expect(await redis.exists(`${prefix}:mail:meta`)).toBe(1);
  });

  it('sends mails that are on record but have no job (Redis lost them, or an older run left them)', async () => {
    const repo = t.ds.getRepository(MailQueueEntity);
    const row = await repo.save(
      repo.create({
        recipient: 'orphan@example.com',
        subject: 'Orphan',
        bodyText: 'b',
        status: 'waiting',
        attempts: 0,
        nextAttemptAt: new Date(),
        createdAt: new Date(),
      }),
    );
    await waitForQueue(t, 15_000);
    expect(await repo.findOneByOrFail({ id: row.id })).toMatchObject({ status: 'sent', attempts: 1 });
    expect(smtp.mails.filter((m) => m.to.includes('orphan@example.com'))).toHaveLength(1);
  });

  it('sends again, with the same Message-ID, a mail whose worker died mid-send, and marks it uncertain', async () => {
    const repo = t.ds.getRepository(MailQueueEntity);
    const stale = new Date(Date.now() - 10 * 60_000);
    // as a worker killed during the send leaves it (issue 10 item 8)
    const row = await repo.save(
      repo.create({
        recipient: 'killed@example.com',
        subject: 'Killed',
        bodyText: 'b',
        status: 'sending',
        attempts: 0,
        claimedAt: stale,
        nextAttemptAt: stale,
        createdAt: stale,
      }),
    );
    // No flush: a drain job of the instances' poll recovers it.
    await waitForQueue(t, 15_000);
    expect(await repo.findOneByOrFail({ id: row.id })).toMatchObject({ status: 'sent', uncertain: true, attempts: 2 });
    const got = smtp.mails.filter((m) => m.to.includes('killed@example.com'));
    expect(got).toHaveLength(1);
    expect(got[0].raw).toContain(`Message-ID: ${t.app.get(MailService).messageId(row)}`);
  });
});
