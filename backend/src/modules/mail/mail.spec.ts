import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.factory.js';
import { dataSourceOptions } from '../../database/data-source.js';
import { ml, seedPeople, waitForQueue } from '../../testing/mail.js';
import { startSmtp } from '../../testing/smtp.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { MailQueueEntity } from './mail-queue.entity.js';
import { MAX_ATTEMPTS, MailService } from './mail.service.js';

describe('mail queue', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp({
      rejectRecipient: (address) => (address.startsWith('bounce') ? 'Mailbox unavailable' : null),
    });
    t = await createTestApp({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('retries a mail the SMTP server refuses with back-off, then marks it error with the reason', async () => {
    const mail = t.app.get(MailService);
    const queued = await mail.enqueue({ to: 'bounce@example.com', subject: 'Hi', text: 'Body', subjectId: null });
    const repo = t.ds.getRepository(MailQueueEntity);
    await mail.flush();
    let row = await repo.findOneByOrFail({ id: queued.id });
    expect(row).toMatchObject({ status: 'waiting', attempts: 1 });
    expect(row.failReason).toMatch(/550.*Mailbox unavailable/);
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);

    const delays: number[] = [];
    for (let i = 1; i < MAX_ATTEMPTS; i++) {
      await repo.update({ id: queued.id }, { nextAttemptAt: new Date(Date.now() - 1000) });
      const before = Date.now();
      await mail.flush();
      row = await repo.findOneByOrFail({ id: queued.id });
      delays.push(Math.round((row.nextAttemptAt.getTime() - before) / 1000));
    }
    expect(row).toMatchObject({ status: 'error', attempts: MAX_ATTEMPTS, sentAt: null });
    expect(row.failReason).toMatch(/Mailbox unavailable/);
    // 30 s, 1 min, 2 min, 4 min between the attempts
    expect(delays.slice(0, 3).map((d) => Math.round(d / 30) * 30)).toEqual([60, 120, 240]);
    expect(smtp.mails.filter((m) => m.to.includes('bounce@example.com'))).toHaveLength(0);
  });

  it('sends again a mail whose worker died mid-send (marked uncertain), and leaves a fresh claim alone', async () => {
    const repo = t.ds.getRepository(MailQueueEntity);
    const row = (claimedAt: Date) =>
      repo.create({
        recipient: 'claimed@example.com',
        subject: 's',
        bodyText: 'b',
        status: 'sending',
        attempts: 0,
        claimedAt,
        nextAttemptAt: new Date(),
        createdAt: new Date(),
      });
    const stuck = await repo.save(row(new Date(Date.now() - 10 * 60_000)));
    const busy = await repo.save(row(new Date()));
    await t.app.get(MailService).flush();
    expect(await repo.findOneByOrFail({ id: stuck.id })).toMatchObject({
      status: 'sent',
      uncertain: true,
      failReason: null,
      claimedAt: null,
    });
    expect(await repo.findOneByOrFail({ id: busy.id })).toMatchObject({ status: 'sending', uncertain: false });
    expect(smtp.mails.filter((m) => m.to.includes('claimed@example.com'))).toHaveLength(1);
    await repo.delete({ id: busy.id });
  });

  it('sends a mail another instance wrote to the table within the poll interval', async () => {
    const repo = t.ds.getRepository(MailQueueEntity);
    const row = await repo.save(
      repo.create({
        recipient: 'polled@example.com',
        subject: 'Polled',
        bodyText: 'b',
        status: 'waiting',
        attempts: 0,
        nextAttemptAt: new Date(),
        createdAt: new Date(),
      }),
    );
    await waitForQueue(t, 15_000);
    expect(await repo.findOneByOrFail({ id: row.id })).toMatchObject({ status: 'sent', attempts: 1 });
    expect(smtp.mails.filter((m) => m.to.includes('polled@example.com'))).toHaveLength(1);
  });
});

describe('mail queue across a restart', () => {
  let t: TestApp;
  let second: NestFastifyApplication | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp({ delayMs: 40 });
    t = await createTestApp({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await smtp?.close();
  });

  it('loses nothing and sends nothing twice when the server stops with mails waiting', async () => {
    const subject = await createSubject(t);
    const token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token, body });
    const action = (await post('action', { name: ml('A'), dateFrom: '2027-05-10T08:00', dateTo: '2027-05-10T18:00' }))
      .body.data;
    const template = (await post('mail-template', { name: 'T', subjectFrom: 'Hello', html: '<p>{{firstname}}</p>' }))
      .body.data;
    const count = 40;
    const ids = await seedPeople(
      t,
      subject.id,
      action.id,
      Array.from({ length: count }, (_, i) => ({
        firstname: `R${i}`,
        lastname: 'Restart',
        email: `restart${i}@example.com`,
      })),
    );
    expect(
      (await post('email/send', { actionId: action.id, userIds: ids, mailTemplate: template.id })).body.data,
    ).toEqual({ queued: count, error: [] });
    const repo = t.ds.getRepository(MailQueueEntity);
    for (let i = 0; i < 200 && (await repo.countBy({ status: 'sent' })) < 3; i++)
      await new Promise((r) => setTimeout(r, 20));
    await t.app.close();

    // Stopped: the mails being sent were finished and recorded, the rest waits.
    const look = await new DataSource(dataSourceOptions(t.config.database)).initialize();
    const stopped = await look.getRepository(MailQueueEntity).find();
    await look.destroy();
    expect(stopped.filter((m) => m.status === 'waiting').length).toBeGreaterThan(0);
    expect(stopped.filter((m) => m.status === 'sending')).toHaveLength(0);
    expect(smtp.mails.length).toBe(stopped.filter((m) => m.status === 'sent').length);

    // A new server on the same database and data folder.
    second = await createApp(t.config);
    const ds = second.get<DataSource>(getDataSourceToken());

    const rows = await waitForQueue({ ds }, 30_000);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(count);
    for (let i = 0; i < count; i++) {
      expect(
        smtp.mails.filter((m) => m.to.includes(`restart${i}@example.com`)),
        `restart${i}`,
      ).toHaveLength(1);
    }
  });
});
