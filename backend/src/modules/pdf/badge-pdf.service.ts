import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { printSchema } from '@accredo/domain';
import type { PrintPage } from '@accredo/templates';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import type { AdminAuth } from '../../common/request.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { currentSubjectId, runInTenant } from '../../database/tenant.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { type PrintError, type PrintRun, PrintService } from '../accreditation/print.service.js';
import { MailService } from '../mail/mail.service.js';
import { PdfJobEntity } from './pdf-job.entity.js';
import { mergePdfFiles } from './pdf-merge.js';
import { PDF_RENDER_CHUNK, PdfRenderer } from './pdf-renderer.service.js';

type PrintInput = z.output<typeof printSchema>;

/** Most badges one request renders into a PDF; a bigger print becomes a job (POST answers 202). */
export const PDF_SYNC_MAX = 200;
/** How often an idle instance looks for waiting jobs (new ones start at once in the instance that made them). */
const POLL_MS = 5_000;
/** A job still `running` this long after its last progress belongs to a process that died. */
const STALE_MS = 10 * 60_000;
/** Tries of one chunk of a job before the job fails. */
const CHUNK_ATTEMPTS = 3;

export type PdfPrintResult =
  | { kind: 'file'; file: Buffer; fileName: string; error: PrintError[]; printed: number }
  | { kind: 'empty'; fileName: string; error: PrintError[] }
  | { kind: 'job'; job: PdfJobDto };

export interface PdfJobDto {
  id: number;
  state: PdfJobEntity['state'];
  total: number;
  done: number;
  printed: number;
  fileName: string;
  error: PdfJobEntity['errors'];
  failReason: string | null;
}

export const toJobDto = (job: PdfJobEntity): PdfJobDto => ({
  id: job.id,
  state: job.state,
  total: job.ids.length,
  done: job.done,
  printed: job.printed,
  fileName: job.fileName,
  error: job.errors,
  failReason: job.state === 'error' ? job.failReason : null,
});

/**
 * Badges as PDF (issue 13): `user/print` with type pdf (small runs answered at once, big runs as a
 * job of `pdf_job` rendered in chunks of 100 badges and merged), the badge attached to mails with
 * withAccreditation (rendered by the mail worker when it sends). Every printed badge is logged and
 * counted as an HTML print is.
 */
@Injectable()
export class BadgePdfService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PdfJobs');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  /** Badges answered at once; more become a job (tests lower it). */
  syncMax = PDF_SYNC_MAX;
  /** Badges per render of a job (tests lower it to see the parts merged in order). */
  chunkSize = PDF_RENDER_CHUNK;

  constructor(
    private readonly prints: PrintService,
    private readonly renderer: PdfRenderer,
    private readonly mail: MailService,
    @InjectRepository(PdfJobEntity) private readonly jobs: Repository<PdfJobEntity>,
    @InjectRepository(AccreditationEntity) private readonly accreditations: Repository<AccreditationEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.mail.badgeAttachment = (mail) => this.mailBadge(mail.accreditationId, mail.subjectId);
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** POST user/print with type pdf. */
  async print(input: PrintInput, actor: AdminAuth): Promise<PdfPrintResult> {
    const run = await this.prints.prepare(input, actor);
    const fileName = this.prints.fileName(input.actionId, 'pdf');
    if (run.ids.length > this.syncMax) {
      const job = await this.jobs.save(
        this.jobs.create({
          subjectId: currentSubjectId(),
          adminUserId: actor.user.id,
          actionId: input.actionId,
          language: actor.user.language,
          state: 'waiting',
          ids: run.ids,
          replace: run.replace,
          done: 0,
          printed: 0,
          errors: run.error,
          filePath: null,
          fileName,
          failReason: null,
          claimedAt: null,
          createdAt: new Date(),
          finishedAt: null,
        }),
      );
      this.kick();
      return { kind: 'job', job: toJobDto(job) };
    }
    const { pages, printed, error, versions } = await this.prints.render(run, run.ids);
    const errors = [...run.error, ...error];
    if (!pages.length) return { kind: 'empty', fileName, error: errors };
    const file = await this.renderer.render(pages, { title: run.title, lang: run.language });
    await this.prints.record(printed, actor.user.id, { versions, replace: run.replace });
    return { kind: 'file', file, fileName, error: errors, printed: printed.length };
  }

  /** A job of the admin (another admin's job, or another subject's, is not found). */
  async job(id: number, actor: AdminAuth): Promise<PdfJobEntity> {
    const job = await this.jobs.findOneBy({ id, subjectId: currentSubjectId(), adminUserId: actor.user.id });
    if (!job) throw AppError.notFound();
    return job;
  }

  async jobFile(id: number, actor: AdminAuth): Promise<{ stream: fs.ReadStream; fileName: string; size: number }> {
    const job = await this.job(id, actor);
    if (job.state !== 'done' || !job.filePath) throw new AppError('PDF_JOB_NOT_READY', { state: job.state });
    const file = path.join(this.config.dataDir, job.filePath);
    const { size } = await fsp.stat(file);
    return { stream: fs.createReadStream(file), fileName: job.fileName, size };
  }

  /** The badge of one person for the mail worker (null when the person has no badge to print). */
  private async mailBadge(
    accreditationId: number | null,
    subjectId: number | null,
  ): Promise<{ filename: string; content: Buffer; contentType: string } | null> {
    if (!accreditationId || !subjectId) return null;
    // a mailed badge is not a print: nothing is logged or counted
    const badge = await runInTenant(subjectId, () => this.personBadge(accreditationId)).catch((err) => {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return null; // deleted since
      throw err;
    });
    return badge?.file ? { filename: badge.fileName, content: badge.file, contentType: 'application/pdf' } : null;
  }

  /**
   * The badge of one person of the current subject as a PDF (the gate desk's call and the mail's
   * attachment); `file` is null, with the reason, when they have none (no group with a template, a
   * broken template).
   */
  async personBadge(
    accreditationId: number,
  ): Promise<{ file: Buffer | null; fileName: string; error: PrintError[]; versions: Map<number, number> }> {
    const person = await this.accreditations.findOneBy({ id: accreditationId, subjectId: currentSubjectId() });
    if (!person) throw AppError.notFound();
    // the subject's default language: neither a queued mail nor a device carries an admin's
    const run = await this.prints.runFor(person.actionId, [person.id], 'cs');
    const { pages, error, versions } = await this.prints.render(run, run.ids);
    const file = pages.length ? await this.renderer.render(pages, { title: run.title, lang: run.language }) : null;
    return { file, fileName: `badge-${person.bc}.pdf`, error, versions };
  }

  /** GET api/device/v1/badge/{id}: a station prints the person's badge at the gate desk; logged as a print. */
  async deviceBadge(accreditationId: number): Promise<{ file: Buffer; fileName: string }> {
    const badge = await this.personBadge(accreditationId);
    if (!badge.file) throw new AppError('NOTHING_TO_PRINT', { reason: badge.error[0]?.error ?? null });
    await this.prints.record([accreditationId], null, { versions: badge.versions });
    return { file: badge.file, fileName: badge.fileName };
  }

  /** Resolves when this instance's worker has nothing left to do (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Starts the worker of this instance if it is idle (or asks it to look again when it finishes). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => this.logger.error(`PDF jobs: ${(err as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async drain(): Promise<void> {
    // a job whose process died goes back to waiting and goes on from its progress
    await this.jobs.update(
      { state: 'running', claimedAt: LessThan(new Date(Date.now() - STALE_MS)) },
      { state: 'waiting', claimedAt: null },
    );
    while (!this.stopped) {
      const next = await this.jobs.findOne({ where: { state: 'waiting' }, order: { id: 'ASC' } });
      if (!next) return;
      const claim = await this.jobs.update(
        { id: next.id, state: 'waiting' },
        { state: 'running', claimedAt: new Date() },
      );
      if (!claim.affected) continue;
      try {
        await runInTenant(next.subjectId, () => this.runJob(next));
      } catch (err) {
        const reason = err instanceof AppError ? err.code : (err as Error).message;
        this.logger.warn(`PDF job ${next.id} failed: ${reason}`);
        await this.jobs.update(
          { id: next.id },
          { state: 'error', failReason: reason.slice(0, 2000), finishedAt: new Date(), claimedAt: null },
        );
      }
    }
  }

  /** One chunk of a job, tried up to 3 times (a busy machine, a Chromium that crashed and is launched again). */
  private async renderChunk(jobId: number, pages: PrintPage[], run: PrintRun): Promise<Buffer> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.renderer.render(pages, { title: run.title, lang: run.language });
      } catch (err) {
        if (attempt >= CHUNK_ATTEMPTS || (err instanceof AppError && err.code === 'PDF_RENDERER_MISSING')) throw err;
        this.logger.warn(
          `PDF job ${jobId}: a chunk failed (attempt ${attempt}), trying again: ${(err as Error).message}`,
        );
      }
    }
  }

  /** Renders a job in chunks of 100 badges, each its own part file (so memory stays flat), then merges them. */
  private async runJob(job: PdfJobEntity): Promise<void> {
    const folder = path.join('pdf-jobs', String(job.id));
    const dir = path.join(this.config.dataDir, folder);
    await fsp.mkdir(dir, { recursive: true });
    const run = await this.prints.runFor(job.actionId, job.ids, job.language, job.replace);
    let { done, printed } = job;
    const errors = [...job.errors];
    while (done < job.ids.length) {
      if (this.stopped) {
        await this.jobs.update({ id: job.id }, { state: 'waiting', claimedAt: null });
        return;
      }
      // two chunks at a time, one per page of the renderer's pool
      const offsets = [done, done + this.chunkSize].filter((o) => o < job.ids.length);
      const chunks = await Promise.all(
        offsets.map(async (offset) => {
          const ids = job.ids.slice(offset, offset + this.chunkSize);
          const started = performance.now();
          const part = await this.prints.render(run, ids);
          this.renderer.timings.templateMs += performance.now() - started;
          const pdf = part.pages.length ? await this.renderChunk(job.id, part.pages, run) : null;
          return { offset, ids, part, pdf };
        }),
      );
      for (const { offset, ids, part, pdf } of chunks) {
        if (pdf) {
          await fsp.writeFile(path.join(dir, `part-${String(offset).padStart(6, '0')}.pdf`), pdf);
          await this.prints.record(part.printed, job.adminUserId, { versions: part.versions, replace: run.replace });
        }
        done += ids.length;
        printed += part.printed.length;
        errors.push(...(part.error as PdfJobEntity['errors']));
      }
      await this.jobs.update({ id: job.id }, { done, printed, errors, claimedAt: new Date() });
    }
    const parts = (await fsp.readdir(dir)).filter((f) => /^part-\d+\.pdf$/.test(f)).sort();
    if (!parts.length) {
      await this.jobs.update(
        { id: job.id },
        { state: 'error', failReason: 'NOTHING_TO_PRINT', finishedAt: new Date(), claimedAt: null },
      );
      return;
    }
    // streamed part by part into the file: memory stays that of one part, whatever the job's size
    const merging = performance.now();
    const file = path.join(dir, 'badges.pdf');
    await mergePdfFiles(
      parts.map((f) => path.join(dir, f)),
      `${file}.part`,
      { title: run.title },
    );
    await fsp.rename(`${file}.part`, file);
    this.renderer.timings.mergeMs += performance.now() - merging;
    await Promise.all(parts.map((f) => fsp.rm(path.join(dir, f), { force: true })));
    await this.jobs.update(
      { id: job.id },
      { state: 'done', filePath: path.join(folder, 'badges.pdf'), finishedAt: new Date(), claimedAt: null },
    );
  }
}
