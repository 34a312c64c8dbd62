import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, LessThan, LessThanOrEqual, type Repository } from 'typeorm';
import { RecordQueue } from '../../common/record-queue.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { coreRunner, type Step } from '../../database/core-runner.js';
import { sqlDate } from '../device/sql.js';
import { codeImages } from './code-images.js';
import { MailQueueEntity } from './mail-queue.entity.js';
import { MailTransport } from './mail-transport.js';

export interface MailRequest {
  to: string;
  subject: string;
  text: string;
  html?: string;
  subjectId?: number | null;
  adminUserId?: number | null;
  mailTemplateId?: number | null;
  note?: string | null;
  /** the person the mail goes to (its mail history) and the action */
  accreditationId?: number | null;
  actionId?: number | null;
  /** copy addresses */
  cc?: string[];
  /** the code whose barcode and QR are attached as inline images */
  attachCode?: string | null;
  /** the person's badge goes with the mail as a PDF, rendered when the mail is sent (withAccreditation) */
  attachBadge?: boolean;
}

/**
 * A mail from a template written by the worker (issue 16): queued as a small row in the caller's
 * own transaction (the template, the person; the person's language is theirs at send time).
 */
export interface DeferredMailRequest {
  subjectId: number;
  accreditationId: number;
  actionId: number;
  mailTemplateId: number;
  /** the person's address as registered (the worker takes the current one) */
  to: string;
  /** the language the mail is written in, fixed now (the person's, as the subject offers it) */
  language: string;
  note?: string | null;
}

/** What the worker writes into a deferred row before it is sent. */
export type RenderedRow = Pick<
  MailQueueEntity,
  'recipient' | 'subject' | 'bodyText' | 'bodyHtml' | 'cc' | 'attachCode' | 'attachBadge'
>;

/** A row still to be written: no text, no HTML, a template and a person (a written mail always has HTML). */
export function isDeferred(
  mail: Pick<MailQueueEntity, 'bodyText' | 'bodyHtml' | 'mailTemplateId' | 'accreditationId'>,
) {
  return (
    mail.bodyHtml === null && mail.bodyText === '' && mail.mailTemplateId !== null && mail.accreditationId !== null
  );
}

/** A file attached to a mail at send time. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export const MAX_ATTEMPTS = 5;
/** A claim older than this belongs to a worker that died mid-send (a send gives up after 2 min). */
const CLAIM_TIMEOUT_MS = 5 * 60_000;
/** How often every instance looks for due mails (new ones are sent at once; this catches the rest). */
const POLL_MS = 5_000;
/** Rows per INSERT of a mass mail (a few hundred keeps every statement small on both databases). */
const INSERT_CHUNK = 200;
/** Mails one instance sends at once (the SMTP pool has as many connections). */
const CONCURRENCY = 4;
/** The reason of a mail whose every send was interrupted (a mail that kills the worker is not retried forever). */
export const INTERRUPTED_REASON = `Sending was interrupted ${MAX_ATTEMPTS} times (the server stopped during each send); given up`;

/**
 * Every mail goes into the queue of record (mail_queue) first and is then sent by a worker: nothing
 * is lost when the server stops, a failed send is retried with back-off and then marked error with
 * its reason, and a row is claimed atomically (waiting → sending) before it is sent, so no two
 * workers ever send the same mail.
 *
 * Without REDIS_URL the worker runs in the process: it polls the table and is woken at once by a
 * new mail. With REDIS_URL a BullMQ queue `mail` carries the ids of new mails (and 'drain' jobs from
 * the poll and the start), and a BullMQ worker in every instance runs the same send; the table stays
 * the record, so losing Redis loses nothing either.
 */
@Injectable()
export class MailService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MailQueue');
  private readonly transport: MailTransport;
  private timer?: NodeJS.Timeout;
  /** the way to the worker: in process, or BullMQ's queue `mail` with REDIS_URL */
  private readonly work: RecordQueue<{ id: number }>;
  /**
   * Renders the badge PDF of a mail with attachBadge (set by the PDF module, which needs the print
   * code; the mail module stays free of it). A mail whose badge cannot be rendered fails and is retried.
   */
  badgeAttachment?: (mail: MailQueueEntity) => Promise<MailAttachment | null>;
  /**
   * Writes a deferred mail (set by AccreditationMailService). A mail that cannot be written fails
   * like a failed send: retried with back-off, then error with the reason; the row stays on record.
   */
  renderDeferred?: (mail: MailQueueEntity) => Promise<RenderedRow>;

  constructor(
    @InjectRepository(MailQueueEntity) private readonly queue: Repository<MailQueueEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.transport = new MailTransport(config.smtpUrl, `${config.dataDir}/outbox`);
    this.work = new RecordQueue({
      name: 'mail',
      label: 'Mail',
      logger: this.logger,
      redisUrl: config.redisUrl,
      prefix: config.redisPrefix,
      concurrency: CONCURRENCY,
      drainJobId: 'drain',
      process: (job) => this.process(job.data.id),
      drain: () => this.drain(),
    });
  }

  get mode(): 'bullmq' | 'local' {
    return this.work.mode;
  }

  private get stopped(): boolean {
    return this.work.isStopped;
  }

  /**
   * The Message-ID of a queue row, the same on every attempt (a receiver may drop the second copy
   * of a mail re-sent after an interrupted send) and unique across installations and databases
   * (the row's creation instant and the server's host name, not the id alone).
   */
  messageId(mail: Pick<MailQueueEntity, 'id' | 'createdAt'>): string {
    return `<mail-${mail.id}.${mail.createdAt.getTime().toString(36)}@${this.host}>`;
  }

  private get host(): string {
    try {
      return new URL(this.config.publicUrl).hostname || 'accredo';
    } catch {
      return 'accredo';
    }
  }

  async enqueue(request: MailRequest): Promise<MailQueueEntity> {
    const row = await this.queue.save(this.toRow(request, new Date()));
    this.notify([row.id]);
    return row;
  }

  /**
   * Queues many mails at once (a mass mail): inserted in chunks inside one transaction, so either
   * all of them are on record or none; the workers hear of them once they are committed.
   */
  async enqueueMany(requests: MailRequest[]): Promise<number> {
    if (!requests.length) return 0;
    const now = new Date();
    const ids: number[] = [];
    await this.queue.manager.transaction(async (m) => {
      const repo = m.getRepository(MailQueueEntity);
      for (let i = 0; i < requests.length; i += INSERT_CHUNK) {
        const result = await repo.insert(requests.slice(i, i + INSERT_CHUNK).map((r) => this.toRow(r, now)));
        ids.push(...result.identifiers.map((x) => Number(x?.id)).filter((id) => id > 0));
      }
    });
    this.notify(ids);
    return requests.length;
  }

  /**
   * Queues a mail the worker writes (see DeferredMailRequest) in the caller's transaction `m`: one
   * INSERT, no reads. Call `notifyQueued` with the id once that transaction has committed.
   */
  async enqueueDeferred(m: EntityManager, request: DeferredMailRequest): Promise<number> {
    const now = new Date();
    const row = this.toRow(
      {
        to: request.to,
        subject: '',
        text: '',
        subjectId: request.subjectId,
        adminUserId: null,
        mailTemplateId: request.mailTemplateId,
        note: request.note ?? null,
        accreditationId: request.accreditationId,
        actionId: request.actionId,
      },
      now,
    );
    row.language = request.language;
    const result = await m
      .createQueryBuilder()
      .insert()
      .into(MailQueueEntity)
      .values(row)
      .updateEntity(false)
      .execute();
    const raw = result.raw as number | { insertId?: number };
    return Number(typeof raw === 'object' && raw !== null ? raw.insertId : raw);
  }

  /**
   * The same row as enqueueDeferred, as one prepared INSERT of a write core on the driver (the
   * online registration's transaction, issue 16): yield it and read the new id from `insertId`.
   * `at` is the queueing instant as the core's `env.date` gives it.
   */
  static deferredInsert(request: DeferredMailRequest, at: unknown): Step {
    return {
      sql: `INSERT INTO mail_queue (subjectId, recipient, subject, bodyText, bodyHtml, status, attempts, nextAttemptAt, uncertain, adminUserId, mailTemplateId, note, accreditationId, attachBadge, actionId, createdAt, language) VALUES (?, ?, '', '', NULL, 'waiting', 0, ?, 0, NULL, ?, ?, ?, 0, ?, ?, ?)`,
      params: [
        request.subjectId,
        request.to,
        at,
        request.mailTemplateId,
        request.note?.slice(0, 500) ?? null,
        request.accreditationId,
        request.actionId,
        at,
        request.language,
      ],
      kind: 'run',
    };
  }

  /** Tells the workers about mails committed by another transaction (see enqueueDeferred). */
  notifyQueued(ids: number[]): void {
    this.notify(ids.filter((id) => id > 0));
  }

  private toRow(request: MailRequest, now: Date): MailQueueEntity {
    return this.queue.create({
      recipient: request.to,
      subject: request.subject.slice(0, 500),
      bodyText: request.text,
      bodyHtml: request.html ?? null,
      subjectId: request.subjectId ?? null,
      adminUserId: request.adminUserId ?? null,
      mailTemplateId: request.mailTemplateId ?? null,
      note: request.note?.slice(0, 500) ?? null,
      accreditationId: request.accreditationId ?? null,
      actionId: request.actionId ?? null,
      cc: request.cc?.length ? request.cc.join(', ').slice(0, 1000) : null,
      attachCode: request.attachCode ?? null,
      attachBadge: Boolean(request.attachBadge && request.accreditationId),
      status: 'waiting',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.logger.log(
      this.transport.mode === 'smtp'
        ? 'Sending mail over SMTP'
        : `No SMTP_URL: mails are written to ${this.config.dataDir}/outbox`,
    );
    await this.work.start();
    this.timer = setInterval(() => this.work.poll(), POLL_MS);
    this.timer.unref();
    // Mails left waiting by the last run (or by another instance) are sent now.
    this.work.poll();
  }

  /** Before the database closes: the mail being sent is finished and recorded, the rest stays waiting. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.work.close();
    this.transport.close();
  }

  // ---- the way to the worker (common/record-queue.ts) ----

  /** A BullMQ job of one mail. */
  private async process(id: number): Promise<void> {
    const mail = await this.queue.findOneBy({ id, status: 'waiting' });
    // Sent already, or its retry is not due yet (a delayed job or the poll comes back for it).
    if (!mail || mail.nextAttemptAt.getTime() > Date.now()) return;
    await this.sendOne(mail);
  }

  /** Tells the workers about new mails: BullMQ jobs, or a wake-up of the in-process worker. */
  private notify(ids: number[], delay = 0): void {
    const attempt = Date.now().toString(36);
    this.work.add(ids.map((id) => ({ name: 'send', data: { id }, opts: { jobId: `mail-${id}-${attempt}`, delay } })));
  }

  /** Runs the in-process worker now (or once more after the current run). */
  wake(): void {
    this.work.kick();
  }

  /** Runs the worker here until nothing is due (the tests await it). */
  async flush(): Promise<void> {
    this.wake();
    let last = Number.POSITIVE_INFINITY;
    for (;;) {
      const running = this.work.running;
      if (running) {
        await running;
        continue;
      }
      const due = await this.queue.count({ where: { status: 'waiting', nextAttemptAt: LessThanOrEqual(new Date()) } });
      // done, stopped, or a drain that moved nothing: no loop without progress
      if (!due || this.stopped || due >= last) return;
      last = due;
      this.wake();
    }
  }

  // ---- the send (the same in both modes) ----

  /** Sends everything due; resolves when the queue has nothing due. */
  private async drain(): Promise<void> {
    await this.recoverInterrupted();
    // Each mail is tried once per drain: a row that somehow stays due (a claim that cannot be
    // written) ends the drain instead of spinning; the next wake tries again.
    const tried = new Set<number>();
    for (;;) {
      if (this.stopped) return;
      const due = (
        await this.queue.find({
          where: { status: 'waiting', nextAttemptAt: LessThanOrEqual(new Date()) },
          order: { id: 'ASC' },
          take: 20 + tried.size,
        })
      )
        .filter((mail) => !tried.has(mail.id))
        .slice(0, 20);
      if (!due.length) return;
      for (const mail of due) tried.add(mail.id);
      // A few lanes at once; each mail is still claimed on its own.
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, lane) => {
          for (let i = lane; i < due.length; i += CONCURRENCY) await this.sendOne(due[i]);
        }),
      );
    }
  }

  /**
   * Nothing is lost: a mail still 'sending' long after its claim belongs to a worker that died in
   * the middle of the send, and it is sent again with the same Message-ID. The outbox knows whether
   * it was written (its file exists whole or not at all); over SMTP the outcome is unknown, so at
   * most the mails in flight can arrive twice, and those are marked `uncertain` for the admin (the
   * person's mail history shows it). The interrupted send counts as an attempt: a mail whose send
   * kills the process every time is given up after MAX_ATTEMPTS with that reason.
   */
  async recoverInterrupted(): Promise<number> {
    const cutoff = new Date(Date.now() - CLAIM_TIMEOUT_MS);
    const stale = await this.queue.find({
      select: { id: true, attempts: true, recipient: true },
      where: { status: 'sending', claimedAt: LessThan(cutoff) },
      order: { id: 'ASC' },
    });
    const uncertain = this.transport.mode === 'smtp';
    let recovered = 0;
    for (const mail of stale) {
      const attempts = mail.attempts + 1;
      const final = attempts >= MAX_ATTEMPTS;
      // Conditional on the stale claim: another instance recovering the same row changes it once.
      const done = await this.queue.update(
        { id: mail.id, status: 'sending', claimedAt: LessThan(cutoff) },
        final
          ? { status: 'error', attempts, claimedAt: null, failReason: INTERRUPTED_REASON }
          : {
              status: 'waiting',
              attempts,
              claimedAt: null,
              nextAttemptAt: new Date(),
              ...(uncertain ? { uncertain } : {}),
            },
      );
      if (!done.affected) continue;
      recovered++;
      this.logger.warn(
        final
          ? `Mail ${mail.id} to ${mail.recipient}: ${INTERRUPTED_REASON}`
          : `Mail ${mail.id} to ${mail.recipient}: its send was interrupted; sending it again with the same Message-ID` +
              (uncertain ? ' (the first attempt may have arrived)' : ''),
      );
    }
    return recovered;
  }

  private async sendOne(mail: MailQueueEntity): Promise<void> {
    // Claim the row atomically, so two workers never send the same mail.
    // (the claim and the sent mark below are prepared statements on the driver, issue 16: a rush
    // of registrations has the worker write two rows per mail while the visitors keep coming)
    const claim = await this.writer.runOne(
      "UPDATE mail_queue SET status = 'sending', claimedAt = ? WHERE id = ? AND status = 'waiting'",
      [sqlDate(this.queue.manager.connection, new Date()), mail.id],
    );
    if (!claim.changes) return;
    // a deferred mail's text, stored with the send's outcome below (one write fewer per mail)
    let rendered: RenderedRow | null = null;
    try {
      if (isDeferred(mail)) {
        if (!this.renderDeferred) throw new Error('Mails from templates cannot be written in this process');
        rendered = await this.renderDeferred(mail);
        Object.assign(mail, rendered);
      }
      await this.transport.send({
        id: mail.id,
        messageId: this.messageId(mail),
        from: this.config.mailFrom,
        to: mail.recipient,
        cc: mail.cc,
        subject: mail.subject,
        text: mail.bodyText,
        html: mail.bodyHtml,
        attachments: await this.attachments(mail),
      });
      const text = rendered
        ? 'recipient = ?, subject = ?, bodyText = ?, bodyHtml = ?, cc = ?, attachCode = ?, attachBadge = ?, '
        : '';
      const values = rendered
        ? [
            rendered.recipient,
            rendered.subject,
            rendered.bodyText,
            rendered.bodyHtml,
            rendered.cc,
            rendered.attachCode,
            rendered.attachBadge ? 1 : 0,
          ]
        : [];
      await this.writer.runOne(
        `UPDATE mail_queue SET ${text}status = 'sent', sentAt = ?, claimedAt = NULL, failReason = NULL, attempts = ? WHERE id = ?`,
        [...values, sqlDate(this.queue.manager.connection, new Date()), mail.attempts + 1, mail.id],
      );
    } catch (err) {
      const attempts = mail.attempts + 1;
      const reason = (err as Error).message.slice(0, 2000);
      const final = attempts >= MAX_ATTEMPTS;
      // Back-off: 30 s, 1 min, 2 min, 4 min, then error.
      const delay = 30_000 * 2 ** (attempts - 1);
      await this.queue.update(
        { id: mail.id },
        {
          // Written once: a later attempt (after a failed send) sends the same text. A send cut
          // off by the process's end leaves it unwritten: the attempt after writes it again.
          ...rendered,
          status: final ? 'error' : 'waiting',
          attempts,
          failReason: reason,
          claimedAt: null,
          nextAttemptAt: new Date(Date.now() + delay),
        },
      );
      if (!final) this.notify([mail.id], delay);
      this.logger.warn(`Mail ${mail.id} to ${mail.recipient} failed (attempt ${attempts}): ${reason}`);
    }
  }

  /** Writes by prepared statements on the driver (accreditation/registration-write.ts). */
  private get writer() {
    return coreRunner(this.queue.manager.connection);
  }

  private async attachments(mail: MailQueueEntity) {
    const files: (MailAttachment & { cid?: string })[] = mail.attachCode ? await codeImages(mail.attachCode) : [];
    if (mail.attachBadge) {
      if (!this.badgeAttachment) throw new Error('Badge PDFs are not available in this process');
      const badge = await this.badgeAttachment(mail);
      if (badge) files.push(badge);
    }
    return files.length ? files : undefined;
  }

  async counts(subjectId: number): Promise<Record<'sent' | 'waiting' | 'error', number>> {
    const [sent, waiting, error] = await Promise.all([
      this.queue.count({ where: { subjectId, status: 'sent' } }),
      this.queue.count({ where: { subjectId, status: In(['waiting', 'sending']) } }),
      this.queue.count({ where: { subjectId, status: 'error' } }),
    ]);
    return { sent, waiting, error };
  }
}
