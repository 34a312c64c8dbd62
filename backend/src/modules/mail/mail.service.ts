import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, LessThanOrEqual, type Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
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
  note?: string;
}

const MAX_ATTEMPTS = 5;
/** A claim older than this belongs to a worker that died: the mail goes back to waiting. */
const CLAIM_TIMEOUT_MS = 5 * 60_000;
const POLL_MS = 5_000;

/**
 * Every mail goes into the queue of record (mail_queue) first and is sent by the worker: nothing is
 * lost when the server stops, and a failed send is retried with back-off, then marked error with
 * its reason. The in-process worker polls the table and is woken at once by a new mail.
 */
@Injectable()
export class MailService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MailQueue');
  private readonly transport: MailTransport;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    @InjectRepository(MailQueueEntity) private readonly queue: Repository<MailQueueEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.transport = new MailTransport(config.smtpUrl, `${config.dataDir}/outbox`);
  }

  async enqueue(request: MailRequest): Promise<MailQueueEntity> {
    const now = new Date();
    const row = await this.queue.save(
      this.queue.create({
        recipient: request.to,
        subject: request.subject,
        bodyText: request.text,
        bodyHtml: request.html ?? null,
        subjectId: request.subjectId ?? null,
        adminUserId: request.adminUserId ?? null,
        mailTemplateId: request.mailTemplateId ?? null,
        note: request.note ?? null,
        status: 'waiting',
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      }),
    );
    this.wake();
    return row;
  }

  onApplicationBootstrap(): void {
    this.logger.log(
      this.transport.mode === 'smtp'
        ? 'Sending mail over SMTP'
        : `No SMTP_URL: mails are written to ${this.config.dataDir}/outbox`,
    );
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    this.transport.close();
  }

  /** Runs the worker now (or once more after the current run). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => this.logger.error(`Mail worker failed: ${(err as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Runs the worker until nothing is due (tests and shutdown await it). */
  async flush(): Promise<void> {
    this.wake();
    for (;;) {
      if (this.running) {
        await this.running;
        continue;
      }
      const due = await this.queue.count({ where: { status: 'waiting', nextAttemptAt: LessThanOrEqual(new Date()) } });
      if (!due || this.stopped) return;
      this.wake();
    }
  }

  /** Sends everything due; resolves when the queue has nothing due. */
  private async drain(): Promise<void> {
    await this.queue.update(
      { status: 'sending', claimedAt: LessThan(new Date(Date.now() - CLAIM_TIMEOUT_MS)) },
      { status: 'waiting', claimedAt: null },
    );
    for (;;) {
      if (this.stopped) return;
      const due = await this.queue.find({
        where: { status: 'waiting', nextAttemptAt: LessThanOrEqual(new Date()) },
        order: { id: 'ASC' },
        take: 20,
      });
      if (!due.length) return;
      for (const mail of due) await this.sendOne(mail);
    }
  }

  private async sendOne(mail: MailQueueEntity): Promise<void> {
    // Claim the row atomically, so two workers never send the same mail.
    const claim = await this.queue.update(
      { id: mail.id, status: 'waiting' },
      { status: 'sending', claimedAt: new Date() },
    );
    if (!claim.affected) return;
    try {
      await this.transport.send({
        id: mail.id,
        from: this.config.mailFrom,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.bodyText,
        html: mail.bodyHtml,
      });
      await this.queue.update(
        { id: mail.id },
        { status: 'sent', sentAt: new Date(), claimedAt: null, failReason: null, attempts: mail.attempts + 1 },
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
          status: final ? 'error' : 'waiting',
          attempts,
          failReason: reason,
          claimedAt: null,
          nextAttemptAt: new Date(Date.now() + delay),
        },
      );
      this.logger.warn(`Mail ${mail.id} to ${mail.recipient} failed (attempt ${attempts}): ${reason}`);
    }
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
