import type { Readable } from 'node:stream';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language, type printSchema } from '@accredo/domain';
import type { PrintPage } from '@accredo/templates';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { RecordQueue } from '../../common/record-queue.js';
import type { AdminAuth } from '../../common/request.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { currentSubjectId, runInTenant } from '../../database/tenant.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { type PrintError, type PrintRun, PrintService } from '../accreditation/print.service.js';
import { MailService } from '../mail/mail.service.js';
import { type StorageArea, StorageService } from '../storage/storage.service.js';
import { PdfJobEntity } from './pdf-job.entity.js';
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
/** A finished job's file (or a failed job's parts) is kept this long, then removed: the job is `expired`. */
export const PDF_JOB_KEEP_MS = 24 * 60 * 60_000;
/** An expired job's row is deleted this long after the job finished. */
const ROW_KEEP_MS = 7 * 24 * 60 * 60_000;
/** Most bytes of finished PDFs kept (on disk or in the bucket); past it the oldest files expire early. */
export const PDF_JOBS_MAX_BYTES = 5 * 1024 ** 3;
/** How often every instance sweeps the job files (and once at start). */
const SWEEP_MS = 60 * 60_000;
/** How often the admin may start a failed job again. */
export const PDF_JOB_RETRIES = 1;
/**
 * A job's files are in the PDF jobs' storage (`StorageService.pdfJobs`: DATA_DIR/pdf-jobs, or
 * `_pdf-jobs/` in the bucket with STORAGE_URL), in a folder named by its id: its parts while it
 * runs (`<id>/part-000000.pdf`, one per 100 badges), then `<id>/badges.pdf`.
 */
const partKey = (id: number, offset: number) => `${id}/part-${String(offset).padStart(6, '0')}.pdf`;
const fileKey = (id: number) => `${id}/badges.pdf`;
const PART_KEY = /^\d+\/part-\d+\.pdf$/;
/** Part files removed at once when a job's file is done (a bucket takes one delete per object). */
const REMOVE_AT_ONCE = 8;

/**
 * The language of a person's own badge (the mail's attachment, the gate desk's print), where no
 * admin's language applies: the language the accreditation stores once it has one (issue 15 adds
 * it: the language the person registered or was written to in), else the subject's default, Czech
 * (spec §1). Actions have no languages of their own; a subject without multiLanguage renders Czech
 * whatever the person's language (`PrintService.runFor` applies `effectiveLanguage`).
 */
export function badgeLanguage(person: object): Language {
  const stored = (person as { language?: unknown }).language;
  return typeof stored === 'string' && (LANGUAGES as readonly string[]).includes(stored)
    ? (stored as Language)
    : FALLBACK_LANGUAGE;
}

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
  /** why the job failed: an error code (`PDF_RENDERER_MISSING`, `NOTHING_TO_PRINT`, …) or the renderer's message */
  failReason: string | null;
  /** a failed job the admin can start again (once); it goes on from its progress */
  canRetry: boolean;
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
  canRetry: job.state === 'error' && job.retries < PDF_JOB_RETRIES,
});

/**
 * Badges as PDF (issue 13): `user/print` with type pdf (small runs answered at once, big runs as a
 * job of `pdf_job` rendered in chunks of 100 badges and merged), the badge attached to mails with
 * withAccreditation (rendered by the mail worker when it sends). Every printed badge is logged and
 * counted as an HTML print is.
 */
@Injectable()
export class BadgePdfService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PdfJobs');
  private timer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  /** the way to the worker: in process, or BullMQ's queue `pdf` with REDIS_URL */
  private readonly work: RecordQueue<{ id: number }>;
  /** where the jobs' parts and files are: DATA_DIR/pdf-jobs, or the bucket with STORAGE_URL */
  private readonly files: StorageArea;
  /** Badges answered at once; more become a job (tests lower it). */
  syncMax = PDF_SYNC_MAX;
  /** Badges per render of a job (tests lower it to see the parts merged in order). */
  chunkSize = PDF_RENDER_CHUNK;
  /** How long job files are kept, and the disk they may take (tests lower them). */
  keepMs = PDF_JOB_KEEP_MS;
  maxBytes = PDF_JOBS_MAX_BYTES;

  constructor(
    private readonly prints: PrintService,
    private readonly renderer: PdfRenderer,
    private readonly mail: MailService,
    @InjectRepository(PdfJobEntity) private readonly jobs: Repository<PdfJobEntity>,
    @InjectRepository(AccreditationEntity) private readonly accreditations: Repository<AccreditationEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    storage: StorageService,
  ) {
    this.files = storage.pdfJobs;
    this.work = new RecordQueue({
      name: 'pdf',
      label: 'PDF',
      logger: this.logger,
      redisUrl: config.redisUrl,
      prefix: config.redisPrefix,
      // one job at a time per instance: the renderer's pool of 2 pages is already busy with its chunks
      concurrency: 1,
      // a 5,000-badge job takes minutes: its lock is renewed meanwhile, the table claim is the record
      lockDuration: 60_000,
      drainJobId: 'pdf-drain',
      process: (job) => this.process(job.data.id),
      drain: () => this.drain(),
    });
  }

  private get stopped(): boolean {
    return this.work.isStopped;
  }

  /** `bullmq` with REDIS_URL (a queue `pdf` shared by the instances), else `local` (this process's worker). */
  get mode(): 'bullmq' | 'local' {
    return this.work.mode;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.mail.badgeAttachment = (mail) => this.mailBadge(mail.accreditationId, mail.subjectId);
    await this.work.start();
    this.timer = setInterval(() => this.work.poll(), POLL_MS);
    this.timer.unref();
    this.sweepTimer = setInterval(() => this.startSweep(), SWEEP_MS);
    this.sweepTimer.unref();
    this.work.poll();
    this.startSweep();
  }

  /** Before the database closes: the chunk being rendered is finished and recorded, the job stays waiting. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.work.close();
    await this.sweeping;
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
      this.notify(job.id);
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

  /**
   * The finished file (409 before, 410 PDF_JOB_EXPIRED once a day has passed or the file is gone),
   * streamed from the disk or the bucket: any instance serves a job that any instance rendered.
   */
  async jobFile(id: number, actor: AdminAuth): Promise<{ stream: Readable; fileName: string; size: number }> {
    const job = await this.job(id, actor);
    const expired = () => new AppError('PDF_JOB_EXPIRED', { finishedAt: job.finishedAt?.toISOString() ?? null });
    if (job.state === 'expired') throw expired();
    if (job.state !== 'done' || !job.filePath) throw new AppError('PDF_JOB_NOT_READY', { state: job.state });
    if (job.finishedAt && job.finishedAt.getTime() < Date.now() - this.keepMs) {
      await this.expire(job);
      throw expired();
    }
    const stat = await this.files.stat(fileKey(job.id));
    if (!stat) {
      await this.expire(job);
      throw expired();
    }
    return { stream: this.files.read(fileKey(job.id)), fileName: job.fileName, size: stat.size };
  }

  /**
   * POST user/print/job/{id}/retry: a failed job of the admin starts again, once, from its progress
   * (the chunks already rendered stay; 409 PDF_JOB_NOT_FAILED for a job that did not fail,
   * PDF_JOB_RETRY_USED the second time).
   */
  async retry(id: number, actor: AdminAuth): Promise<PdfJobEntity> {
    const job = await this.job(id, actor);
    if (job.state !== 'error') throw new AppError('PDF_JOB_NOT_FAILED', { state: job.state });
    if (job.retries >= PDF_JOB_RETRIES) throw new AppError('PDF_JOB_RETRY_USED', { retries: job.retries });
    const claimed = await this.jobs.update(
      { id, state: 'error', retries: job.retries },
      { state: 'waiting', failReason: null, finishedAt: null, claimedAt: null, retries: job.retries + 1 },
    );
    // a second click at the same moment
    if (!claimed.affected) throw new AppError('PDF_JOB_RETRY_USED', { retries: job.retries + 1 });
    this.notify(id);
    return this.job(id, actor);
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
    // the person's language where known: neither a queued mail nor a device carries an admin's
    const run = await this.prints.runFor(person.actionId, [person.id], badgeLanguage(person));
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

  /** Resolves when this instance's in-process worker and sweep have nothing left to do (tests). */
  async flush(): Promise<void> {
    while (this.work.running || this.sweeping) await (this.work.running ?? this.sweeping);
  }

  // ---- the way to the worker (common/record-queue.ts) ----

  /** A BullMQ job of one PDF job. */
  private async process(id: number): Promise<void> {
    const row = await this.jobs.findOneBy({ id, state: 'waiting' });
    // taken by another instance already, or finished
    if (row) await this.claimAndRun(row);
  }

  /** This instance takes no PDF job until released (specs: another instance runs it). */
  hold(held: boolean): Promise<void> {
    return this.work.hold(held);
  }

  /** Tells the workers about a new (or retried) job: a BullMQ job, or a wake-up of the in-process worker. */
  private notify(id: number): void {
    this.work.add([{ name: 'run', data: { id }, opts: { jobId: `pdf-${id}-${Date.now().toString(36)}` } }]);
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
      await this.claimAndRun(next);
    }
  }

  /** Claims a waiting job atomically (waiting → running; any instance) and runs it; a failure is recorded with its reason. */
  private async claimAndRun(next: PdfJobEntity): Promise<void> {
    const claim = await this.jobs.update(
      { id: next.id, state: 'waiting' },
      { state: 'running', claimedAt: new Date() },
    );
    if (!claim.affected) return;
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

  // ---- the job files ----

  private startSweep(): void {
    if (this.stopped || this.sweeping) return;
    this.sweeping = this.sweep()
      .then(() => undefined)
      .catch((err) => this.logger.warn(`PDF job files: ${(err as Error).message}`))
      .finally(() => {
        this.sweeping = undefined;
      });
  }

  /** Removes a job's files; the row stays, `expired` (a running job's folder is never touched). */
  private async expire(job: Pick<PdfJobEntity, 'id'>): Promise<void> {
    const gone = await this.jobs.update(
      { id: job.id, state: In(['done', 'error']) },
      { state: 'expired', filePath: null, claimedAt: null },
    );
    if (gone.affected) await this.files.removeFolder(String(job.id));
  }

  /**
   * Keeps the storage of the jobs bounded, in every instance at start and hourly (idempotent, so
   * instances sharing the bucket may sweep at once): files of jobs finished more than a day ago
   * are removed (done or failed: the job becomes `expired`), the oldest finished files also when
   * the finished files together pass `maxBytes`, folders without a job (a row deleted, a crash
   * between folder and row) too; rows of expired jobs are deleted after a week. The sizes and the
   * folders come from one listing of the storage (a directory walk, or the bucket's object list).
   */
  async sweep(now = Date.now()): Promise<{ expired: number; removed: number }> {
    let expired = 0;
    const old = await this.jobs.find({
      select: { id: true },
      where: { state: In(['done', 'error']), finishedAt: LessThan(new Date(now - this.keepMs)) },
    });
    for (const job of old) {
      await this.expire(job);
      expired++;
    }
    const stored = await this.files.list();
    const sizes = new Map<number, number>();
    const present = new Set<string>();
    for (const { key, size } of stored) {
      const [folder] = key.split('/');
      if (!/^\d+$/.test(folder)) continue;
      present.add(folder);
      if (key === fileKey(Number(folder))) sizes.set(Number(folder), size);
    }
    // the storage bound: newest first, those past the bound go
    const finished = await this.jobs.find({
      select: { id: true, filePath: true },
      where: { state: 'done' },
      order: { finishedAt: 'DESC', id: 'DESC' },
    });
    let bytes = 0;
    for (const job of finished) {
      bytes += job.filePath ? (sizes.get(job.id) ?? 0) : 0;
      if (bytes > this.maxBytes) {
        await this.expire(job);
        present.delete(String(job.id));
        expired++;
      }
    }
    await this.jobs.delete({ state: 'expired', finishedAt: LessThan(new Date(now - ROW_KEEP_MS)) });
    // folders of jobs that are gone or expired
    let removed = 0;
    const folders = [...present];
    if (folders.length) {
      const live = new Set(
        (
          await this.jobs.find({
            select: { id: true },
            where: { id: In(folders.map(Number)), state: In(['waiting', 'running', 'done', 'error']) },
          })
        ).map((j) => String(j.id)),
      );
      for (const folder of folders) {
        if (live.has(folder)) continue;
        await this.files.removeFolder(folder);
        removed++;
      }
    }
    return { expired, removed };
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

  /**
   * Renders a job in chunks of 100 badges, each its own part file (so memory stays flat), then
   * merges them. The parts are stored where the file will be (the bucket with STORAGE_URL), so an
   * instance that takes up a job whose instance died goes on from its progress with its parts.
   */
  private async runJob(job: PdfJobEntity): Promise<void> {
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
          await this.files.put(partKey(job.id, offset), pdf, 'application/pdf');
          await this.prints.record(part.printed, job.adminUserId, { versions: part.versions, replace: run.replace });
        }
        done += ids.length;
        printed += part.printed.length;
        errors.push(...(part.error as PdfJobEntity['errors']));
      }
      await this.jobs.update({ id: job.id }, { done, printed, errors, claimedAt: new Date() });
    }
    const parts = (await this.files.list(String(job.id)))
      .map((f) => f.key)
      .filter((key) => PART_KEY.test(key))
      .sort();
    if (!parts.length) {
      await this.jobs.update(
        { id: job.id },
        { state: 'error', failReason: 'NOTHING_TO_PRINT', finishedAt: new Date(), claimedAt: null },
      );
      return;
    }
    // streamed part by part into the file (a local file, then renamed into place or streamed up to
    // the bucket): memory stays that of one part, whatever the job's size
    const merging = performance.now();
    // pdf-lib is loaded on the first merge, not at start (common/lazy-modules.ts)
    const { mergePdfFiles } = await import('./pdf-merge.js');
    await this.files.putWritten(
      fileKey(job.id),
      (file) =>
        mergePdfFiles(
          parts.map((key) => () => this.files.readBuffer(key)),
          file,
          { title: run.title },
        ),
      'application/pdf',
    );
    this.renderer.timings.mergeMs += performance.now() - merging;
    for (let i = 0; i < parts.length; i += REMOVE_AT_ONCE)
      await Promise.all(parts.slice(i, i + REMOVE_AT_ONCE).map((key) => this.files.remove(key)));
    await this.jobs.update(
      { id: job.id },
      { state: 'done', filePath: `pdf-jobs/${fileKey(job.id)}`, finishedAt: new Date(), claimedAt: null },
    );
  }
}
