import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app.factory.js';
import { randomCode } from '../../common/crypto.js';
import { ml, seedPeople, waitForQueue } from '../../testing/mail.js';
import { startSmtp } from '../../testing/smtp.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { preparedReader } from '../../database/prepared.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { MailQueueEntity } from './mail-queue.entity.js';
import { type DeferredMailRequest, MAX_ATTEMPTS, MailService } from './mail.service.js';
import { REDIS_URL, redisReachable } from '../../testing/redis.js';

/** Seeds a subject with an action, a template and people; returns what a deferred mail names. */
async function seed(t: TestApp, count: number, prefix: string) {
  const subject = await createSubject(t);
  const token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
  const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token, body });
  const action = (await post('action', { name: ml('A'), dateFrom: '2027-05-10T08:00', dateTo: '2027-05-10T18:00' }))
    .body.data;
  const template = (
    await post('mail-template', { name: 'T', subjectFrom: 'Hello {{firstname}}', html: '<p>Hi {{firstname}}</p>' })
  ).body.data;
  const ids = await seedPeople(
    t,
    subject.id,
    action.id,
    Array.from({ length: count }, (_, i) => ({
      firstname: `${prefix}${i}`,
      lastname: 'D',
      email: `${prefix}${i}@example.com`,
    })),
  );
  return {
    subjectId: subject.id as number,
    actionId: action.id as number,
    templateId: template.id as number,
    ids,
    post,
  };
}

/** Queues deferred mails as a registration does: in a transaction, the workers told after the commit. */
async function queue(app: NestFastifyApplication | TestApp['app'], t: TestApp, requests: DeferredMailRequest[]) {
  const mail = app.get(MailService);
  const ids: number[] = [];
  await t.ds.transaction(async (m) => {
    for (const r of requests) ids.push(await mail.enqueueDeferred(m, r));
  });
  mail.notifyQueued(ids);
  return ids;
}

/** Mails from a template queued unwritten and written by the worker (issue 16: the online registration's mail). */
describe('deferred template mails (written by the worker)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('writes the mail with the person’s data as they are when it is sent, and sends it once', async () => {
    const s = await seed(t, 1, 'later');
    const repo = t.ds.getRepository(MailQueueEntity);
    // The small row is all a registration writes: no text yet.
    const [id] = await t.ds.transaction(async (m) => [
      await t.app.get(MailService).enqueueDeferred(m, {
        subjectId: s.subjectId,
        accreditationId: s.ids[0],
        actionId: s.actionId,
        mailTemplateId: s.templateId,
        to: 'later0@example.com',
        language: 'cs',
        note: 'online',
      }),
    ]);
    expect(await repo.findOneByOrFail({ id })).toMatchObject({ status: 'waiting', bodyText: '', bodyHtml: null });
    await t.ds.getRepository(AccreditationEntity).update({ id: s.ids[0] }, { firstname: 'Renamed' });
    t.app.get(MailService).notifyQueued([id]);
    await t.app.get(MailService).flush();
    const row = await repo.findOneByOrFail({ id });
    expect(row).toMatchObject({
      status: 'sent',
      attempts: 1,
      subject: 'Hello Renamed',
      recipient: 'later0@example.com',
      note: 'online',
      mailTemplateId: s.templateId,
    });
    expect(row.bodyHtml).toContain('Hi Renamed');
    expect(smtp.mails.filter((m) => m.to.includes('later0@example.com'))).toHaveLength(1);
  });

  it('writes the person’s groups and zones as they are linked when it is sent', async () => {
    const s = await seed(t, 2, 'linked');
    const zone = async (name: string) => (await s.post('zone', { name, actionId: s.actionId })).body.data.id as number;
    const [hall, stage] = [await zone('Hall'), await zone('Stage')];
    const crew = (await s.post('groups', { name: 'Crew', actionId: s.actionId })).body.data.id as number;
    const template = (
      await s.post('mail-template', {
        name: 'Links',
        subjectFrom: 'Links {{firstname}}',
        html: '<p>[{{group}}] [{{zones[0]}}] [{{zones[1]}}]</p>',
      })
    ).body.data.id as number;
    await t.ds.query('INSERT INTO accreditation_group (accreditationId, groupId) VALUES (?, ?)', [s.ids[0], crew]);
    await t.ds.query('INSERT INTO accreditation_zone (accreditationId, zoneId) VALUES (?, ?), (?, ?)', [
      s.ids[0],
      stage,
      s.ids[0],
      hall,
    ]);
    const ids = await queue(
      t.app,
      t,
      s.ids.map((accreditationId, i) => ({
        subjectId: s.subjectId,
        accreditationId,
        actionId: s.actionId,
        mailTemplateId: template,
        to: `linked${i}@example.com`,
        language: 'cs' as const,
      })),
    );
    const reads = vi.spyOn(preparedReader(t.ds), 'all');
    await t.app.get(MailService).flush();
    // the links come with the person: no read of them alone
    const sql = reads.mock.calls.map(([text]) => text);
    reads.mockRestore();
    expect(sql.filter((text) => text.includes('FROM accreditation a '))).toHaveLength(2);
    expect(
      sql.filter((text) => /FROM accreditation_(group|zone)/.test(text) && !text.includes('FROM accreditation a ')),
    ).toEqual([]);
    const repo = t.ds.getRepository(MailQueueEntity);
    const [linked, alone] = await Promise.all(ids.map((id) => repo.findOneByOrFail({ id })));
    expect(linked.status).toBe('sent');
    expect(linked.bodyHtml).toContain('[Crew] [Hall] [Stage]');
    // no links: empty, not another person's
    expect(alone.status).toBe('sent');
    expect(alone.bodyHtml).toContain('[] [] []');
  });

  it('keeps a mail that cannot be written on record: retried with back-off, then error with the reason', async () => {
    const s = await seed(t, 1, 'gone');
    const repo = t.ds.getRepository(MailQueueEntity);
    const [id] = await t.ds.transaction(async (m) => [
      await t.app.get(MailService).enqueueDeferred(m, {
        subjectId: s.subjectId,
        accreditationId: s.ids[0],
        actionId: s.actionId,
        mailTemplateId: s.templateId,
        to: 'gone0@example.com',
        language: 'cs',
      }),
    ]);
    // the person is removed before the worker writes the mail (the row is queued already)
    await t.ds.getRepository(AccreditationEntity).delete({ id: s.ids[0] });
    await t.app.get(MailService).flush();
    let row = await repo.findOneByOrFail({ id });
    expect(row).toMatchObject({ status: 'waiting', attempts: 1 });
    expect(row.failReason).toMatch(/person was removed/);
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    for (let i = 1; i < MAX_ATTEMPTS; i++) {
      await repo.update({ id }, { nextAttemptAt: new Date(Date.now() - 1000) });
      await t.app.get(MailService).flush();
    }
    row = await repo.findOneByOrFail({ id });
    expect(row).toMatchObject({ status: 'error', attempts: MAX_ATTEMPTS, sentAt: null });
    expect(row.failReason).toMatch(/person was removed before the mail was written/);
    expect(smtp.mails.filter((m) => m.to.includes('gone0@example.com'))).toHaveLength(0);
  });
});

const skip = !process.env.CI && !(await redisReachable());

describe.skipIf(skip)('deferred template mails over BullMQ', () => {
  const prefix = `accredo-test-${randomCode(8).toLowerCase()}`;
  let t: TestApp;
  let second: NestFastifyApplication;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    smtp = await startSmtp({ delayMs: 5 });
    t = await createTestApp({ SMTP_URL: smtp.url, REDIS_URL, REDIS_PREFIX: prefix });
    second = await createApp(t.config);
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await smtp?.close();
    const q = new Queue('mail', { connection: { url: REDIS_URL }, prefix });
    await q.obliterate({ force: true });
    await q.close();
  });

  it('writes and sends each mail exactly once with two instances queueing and sending', async () => {
    const sends = [t.app, second].map((app) =>
      vi.spyOn((app.get(MailService) as unknown as { transport: { send(): Promise<void> } }).transport, 'send'),
    );
    const count = 60;
    const s = await seed(t, count, 'bulldef');
    const request = (i: number) => ({
      subjectId: s.subjectId,
      accreditationId: s.ids[i],
      actionId: s.actionId,
      mailTemplateId: s.templateId,
      to: `bulldef${i}@example.com`,
      language: 'cs',
    });
    // half queued through each instance, one registration's transaction each
    for (let i = 0; i < count; i++) await queue(i % 2 ? second : t.app, t, [request(i)]);
    const rows = (await waitForQueue(t)).filter((r) => r.recipient.startsWith('bulldef'));
    expect(rows).toHaveLength(count);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1 && r.subject.startsWith('Hello bulldef'))).toBe(
      true,
    );
    const received = smtp.mails.filter((m) => m.to.some((to: string) => to.startsWith('bulldef')));
    expect(received).toHaveLength(count);
    expect(sends.reduce((n, spy) => n + spy.mock.calls.length, 0)).toBe(count);
  });
});
