import type { Logger } from '@nestjs/common';
import type { Job, JobsOptions, Queue, Worker } from 'bullmq';

/**
 * The way to the worker of work whose record is a table of the database (the mail queue, the badge
 * PDF jobs), the same for each: every instance works, and a row is claimed atomically in the table
 * by the worker that does it, so the table, not Redis, is the record.
 * - Without REDIS_URL: this process's worker, woken (`kick`) when work is added and by the poll.
 * - With REDIS_URL: BullMQ jobs shared by the instances (`add`), and the poll adds one `drain` job
 *   under a fixed id (one at a time across instances) that does whatever is due, so work whose job
 *   Redis lost, or that was added while Redis was away, is still done.
 * Adding jobs is never awaited by a request (a failure is logged: the poll finds the row); `close`
 * lets the adds in flight and the running drain finish.
 */
export interface RecordQueueOptions<D> {
  /** the BullMQ queue's name */
  name: string;
  /** the work's name in log lines ("Mail", "PDF") */
  label: string;
  logger: Logger;
  redisUrl: string | null | undefined;
  /** the keys' prefix in Redis (REDIS_PREFIX) */
  prefix: string;
  /** jobs one instance's BullMQ worker runs at once */
  concurrency: number;
  /** BullMQ's lock of a running job (renewed while it runs), for jobs that take minutes */
  lockDuration?: number;
  /** the poll's job id, one across instances */
  drainJobId: string;
  /** a BullMQ job other than `drain` */
  process: (job: { name: string; data: D }) => Promise<void>;
  /** does everything due, in this process */
  drain: () => Promise<void>;
}

/** Jobs sent to Redis in one call. */
const ADD_CHUNK = 500;

export class RecordQueue<D> {
  private queue?: Queue;
  private worker?: Worker;
  private runningDrain?: Promise<void>;
  private again = false;
  private stopped = false;
  private held = false;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly o: RecordQueueOptions<D>) {}

  /** `bullmq` with REDIS_URL (a queue shared by the instances), else `local` (this process's worker). */
  get mode(): 'bullmq' | 'local' {
    return this.o.redisUrl ? 'bullmq' : 'local';
  }

  /** The in-process drain running now, if any (tests and shutdown wait for it). */
  get running(): Promise<void> | undefined {
    return this.runningDrain;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** With REDIS_URL, BullMQ's queue and worker (BullMQ and ioredis are loaded only then). */
  async start(): Promise<void> {
    const { name, label, logger, redisUrl, prefix } = this.o;
    if (!redisUrl) return;
    const { Queue, Worker } = await import('bullmq');
    if (this.stopped) return;
    this.queue = new Queue(name, {
      prefix,
      connection: { url: redisUrl, maxRetriesPerRequest: 3 },
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    this.queue.on('error', (err) => logger.warn(`Redis (${name} queue): ${err.message}`));
    this.worker = new Worker(
      name,
      async (job: Job) => {
        if (this.stopped) return;
        if (job.name === 'drain') return this.o.drain();
        return this.o.process(job as unknown as { name: string; data: D });
      },
      {
        prefix,
        connection: { url: redisUrl, maxRetriesPerRequest: null },
        concurrency: this.o.concurrency,
        ...(this.o.lockDuration ? { lockDuration: this.o.lockDuration } : {}),
      },
    );
    this.worker.on('error', (err) => logger.warn(`Redis (${name} worker): ${err.message}`));
    logger.log(`${label} jobs go through BullMQ (queue "${name}", prefix "${prefix}")`);
  }

  /**
   * BullMQ jobs for new (or retried) rows; without Redis the in-process worker is woken instead,
   * unless every job is delayed (the poll comes back for those). No jobs at all (rows whose ids
   * the insert did not tell) still wakes the in-process worker; BullMQ's poll finds them.
   */
  add(jobs: { name: string; data: D; opts?: JobsOptions }[]): void {
    const queue = this.queue;
    if (!queue) {
      if (!jobs.length || jobs.some((j) => !j.opts?.delay)) this.kick();
      return;
    }
    if (!jobs.length) return;
    this.track(
      (async () => {
        for (let i = 0; i < jobs.length; i += ADD_CHUNK) await queue.addBulk(jobs.slice(i, i + ADD_CHUNK));
      })(),
      (err) => `${this.o.label} jobs not queued in Redis (the poll does them): ${err.message}`,
    );
  }

  /** The poll: a `drain` job (one at a time across instances) or the in-process worker. */
  poll(): void {
    if (this.stopped) return;
    if (!this.queue) {
      this.kick();
      return;
    }
    this.track(
      this.queue.add('drain', {}, { jobId: this.o.drainJobId }),
      (err) => `Redis (${this.o.name} poll): ${err.message}`,
    );
  }

  /**
   * This instance takes no work until released (the specs make another instance do it): the
   * in-process worker is not started, BullMQ's worker pauses (its jobs go to the other instances).
   */
  async hold(held: boolean): Promise<void> {
    this.held = held;
    if (!this.worker) return;
    if (held) await this.worker.pause();
    else this.worker.resume();
  }

  /** Runs the in-process worker now (or once more after the current run). */
  kick(): void {
    if (this.stopped || this.held) return;
    if (this.runningDrain) {
      this.again = true;
      return;
    }
    this.runningDrain = this.o
      .drain()
      .catch((err) => this.o.logger.error(`${this.o.label} worker failed: ${(err as Error).message}`))
      .finally(() => {
        this.runningDrain = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops taking work: the adds in flight and the running drain finish, BullMQ's worker and queue close. */
  async close(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.pending]);
    await this.worker?.close();
    await this.queue?.close();
    await this.runningDrain;
  }

  private track(work: Promise<unknown>, warning: (err: Error) => string): void {
    const tracked = work
      .catch((err: Error) => this.o.logger.warn(warning(err)))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}
