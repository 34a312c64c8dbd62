import fs from 'node:fs';
import path from 'node:path';
import { Not } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ml, seedPeople } from '../../testing/mail.js';
import { startSmtp } from '../../testing/smtp.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { MailQueueEntity } from './mail-queue.entity.js';
import { INTERRUPTED_REASON, MAX_ATTEMPTS, MailService } from './mail.service.js';
import { PART } from './mail-transport.js';

/** Long past the claim timeout: the worker that claimed the row died (kill -9) mid-send. */
const STALE = () => new Date(Date.now() - 10 * 60_000);

/** The Message-ID header of a raw mail. */
const messageIdOf = (raw: string) => /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1];

/** A person's mail history as the accreditation list shows it (the row tooltip). */
async function mailHistory(t: TestApp, token: string, actionId: number, accreditationId: number) {
  const res = await t.api('POST', '/api/admin/v1/user/filter', {
    token,
    body: { actionId, page: 1, pageSize: 50, filterData: {} },
  });
  expect(res.status).toBe(200);
  const row = res.body.data.find((r: { id: number }) => r.id === accreditationId);
  return row.history.mail as { status: string; uncertain: boolean; fail: string | null }[];
}

async function setUp(t: TestApp, count: number) {
  const subject = await createSubject(t);
  const token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
  const action = (
    await t.api('POST', '/api/admin/v1/action', {
      token,
      body: { name: ml('A'), dateFrom: '2027-05-10T08:00', dateTo: '2027-05-10T18:00' },
    })
  ).body.data;
  const ids = await seedPeople(
    t,
    subject.id,
    action.id,
    Array.from({ length: count }, (_, i) => ({
      firstname: `P${i}`,
      lastname: 'Crash',
      email: `crash${i}@example.com`,
    })),
  );
  return { subject, token, action, ids };
}

/** Queue rows as a worker leaves them when it is killed: `sending`, claimed long ago. */
async function crashedRows(t: TestApp, subjectId: number, actionId: number, ids: number[], tag: string) {
  const repo = t.ds.getRepository(MailQueueEntity);
  const rows: MailQueueEntity[] = [];
  for (const [i, accreditationId] of ids.entries())
    rows.push(
      await repo.save(
        repo.create({
          recipient: `${tag}${i}@example.com`,
          subject: `Crash ${i}`,
          bodyText: `Body of ${tag} ${i}`,
          subjectId,
          actionId,
          accreditationId,
          status: 'sending',
          attempts: 0,
          claimedAt: STALE(),
          nextAttemptAt: STALE(),
          createdAt: STALE(),
        }),
      ),
    );
  return rows;
}

describe('a crash during mass mail loses nothing, over SMTP (issue 10 item 8)', () => {
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

  it('sends the mails in flight again with the same Message-ID and shows them as uncertain', async () => {
    const { subject, token, action, ids } = await setUp(t, 3);
    const repo = t.ds.getRepository(MailQueueEntity);
    const mail = t.app.get(MailService);
    // The first mail reached the SMTP server, then the process died before recording it: its row is
    // still `sending`. The other two died before or during the send.
    const [delivered] = await crashedRows(t, subject.id, action.id, ids.slice(0, 1), 'smtp');
    await repo.update({ id: delivered.id }, { status: 'waiting' });
    await mail.flush();
    expect(smtp.mails.filter((m) => m.to.includes('smtp0@example.com'))).toHaveLength(1);
    await repo.update({ id: delivered.id }, { status: 'sending', claimedAt: STALE(), sentAt: null, attempts: 0 });
    const lost = (await crashedRows(t, subject.id, action.id, ids, 'smtp')).slice(1);
    await repo.delete({ recipient: 'smtp0@example.com', status: 'sending', id: Not(delivered.id) });

    await mail.flush();

    const rows = await repo.findBy({ subjectId: subject.id });
    expect(rows.map((r) => [r.status, r.uncertain, r.failReason])).toEqual([
      ['sent', true, null],
      ['sent', true, null],
      ['sent', true, null],
    ]);
    // the interrupted send counted as an attempt
    expect(rows.map((r) => r.attempts)).toEqual([2, 2, 2]);
    for (const [i, row] of [delivered, ...lost].entries()) {
      const got = smtp.mails.filter((m) => m.to.includes(`smtp${i}@example.com`));
      // at most the mails in flight arrive twice, and then with one Message-ID a receiver can drop
      expect(got).toHaveLength(i === 0 ? 2 : 1);
      for (const m of got) expect(messageIdOf(m.raw)).toBe(mail.messageId(row));
    }
    expect(new Set(rows.map((r) => mail.messageId(r))).size).toBe(3);

    // the admin sees it in the person's mail history
    const history = await mailHistory(t, token, action.id, ids[1]);
    expect(history).toEqual([expect.objectContaining({ status: 'sent', uncertain: true, fail: null })]);
  });

  it('leaves a fresh claim alone and gives up a mail whose every send was interrupted', async () => {
    const { subject, token, action, ids } = await setUp(t, 2);
    const repo = t.ds.getRepository(MailQueueEntity);
    const [busy, poison] = await crashedRows(t, subject.id, action.id, ids, 'poison');
    const received = smtp.mails.length;
    // another worker is sending this one right now
    await repo.update({ id: busy.id }, { claimedAt: new Date() });
    // this one was interrupted MAX_ATTEMPTS - 1 times already (it kills the worker every time)
    await repo.update({ id: poison.id }, { attempts: MAX_ATTEMPTS - 1 });

    await t.app.get(MailService).flush();

    expect(await repo.findOneByOrFail({ id: busy.id })).toMatchObject({ status: 'sending', uncertain: false });
    expect(await repo.findOneByOrFail({ id: poison.id })).toMatchObject({
      status: 'error',
      attempts: MAX_ATTEMPTS,
      failReason: INTERRUPTED_REASON,
      claimedAt: null,
    });
    expect(smtp.mails).toHaveLength(received);
    const history = await mailHistory(t, token, action.id, ids[1]);
    expect(history).toEqual([expect.objectContaining({ status: 'error', fail: INTERRUPTED_REASON })]);
    await repo.delete({ id: busy.id });
  });

  it('does not spin on a due mail that cannot leave the queue: each mail is tried once per drain', async () => {
    const { subject, action, ids } = await setUp(t, 1);
    const repo = t.ds.getRepository(MailQueueEntity);
    const [stuck] = await crashedRows(t, subject.id, action.id, ids, 'stuck');
    await repo.update({ id: stuck.id }, { status: 'waiting', claimedAt: null });
    const mail = t.app.get(MailService);
    // a send that cannot claim its row (as when the claim cannot be written): the row stays due
    const sends: number[] = [];
    const service = mail as unknown as { sendOne: (m: MailQueueEntity) => Promise<void> };
    const original = service.sendOne;
    service.sendOne = async (m) => {
      sends.push(m.id);
    };
    try {
      await mail.flush();
    } finally {
      service.sendOne = original;
    }
    // tried a bounded number of times (once per drain, two drains), not in a loop until the timeout
    expect(sends.filter((id) => id === stuck.id).length).toBeLessThanOrEqual(2);
    expect(await repo.findOneByOrFail({ id: stuck.id })).toMatchObject({ status: 'waiting' });
    await repo.delete({ id: stuck.id });
  });
});

describe('a crash during mass mail loses nothing, in the outbox (issue 10 item 8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes each mail’s file exactly once and whole, whatever the crash left', async () => {
    const { subject, token, action, ids } = await setUp(t, 3);
    const mail = t.app.get(MailService);
    const outbox = path.join(t.dataDir, 'outbox');
    const file = (id: number) => path.join(outbox, `${String(id).padStart(8, '0')}.eml`);
    fs.mkdirSync(outbox, { recursive: true });
    const [half, written, none] = await crashedRows(t, subject.id, action.id, ids, 'outbox');
    // killed while writing the first (a half-written temporary file) ...
    fs.writeFileSync(`${file(half.id)}${PART}`, 'Content-Type: text/pl');
    // ... after the second was written but before it was recorded ...
    fs.writeFileSync(file(written.id), 'the mail as it was written before the crash');
    // ... and before the third was started.

    await mail.flush();

    const rows = await t.ds.getRepository(MailQueueEntity).findBy({ subjectId: subject.id });
    // the outbox knows what was written: nothing is uncertain, nothing is an error
    expect(rows.map((r) => [r.status, r.uncertain])).toEqual([
      ['sent', false],
      ['sent', false],
      ['sent', false],
    ]);
    const files = fs.readdirSync(outbox).filter((f) => rows.some((r) => f.startsWith(String(r.id).padStart(8, '0'))));
    expect(files.sort()).toEqual([half, written, none].map((r) => path.basename(file(r.id))).sort());
    for (const row of [half, none]) {
      const text = fs.readFileSync(file(row.id), 'utf8');
      expect(text).toContain(`Message-ID: ${mail.messageId(row)}`);
      expect(text).toContain(row.bodyText);
    }
    expect(fs.readFileSync(file(written.id), 'utf8')).toBe('the mail as it was written before the crash');
    expect(fs.readdirSync(outbox).filter((f) => f.endsWith(PART))).toEqual([]);

    // sending a mail again (an admin's retry of the same row) does not write a second copy
    await t.ds.getRepository(MailQueueEntity).update({ id: none.id }, { status: 'waiting' });
    const before = fs.readFileSync(file(none.id), 'utf8');
    await mail.flush();
    expect(fs.readFileSync(file(none.id), 'utf8')).toBe(before);

    const history = await mailHistory(t, token, action.id, ids[0]);
    expect(history).toEqual([expect.objectContaining({ status: 'sent', uncertain: false })]);
  });
});
