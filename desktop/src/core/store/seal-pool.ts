import * as nodeCrypto from 'node:crypto';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { type SealedPage, sealPage } from './crypto.js';

/** A snapshot page as the server sends it, without its people and other-action codes. */
export type PageMeta = Record<string, unknown>;

interface Job {
  meta: (m: PageMeta) => void;
  sealed: (s: SealedPage) => void;
  fail: (e: Error) => void;
}

/**
 * The worker: parses a page's JSON text (the server's `{data: page}` envelope), answers its
 * metadata at once (so the next page can be asked for), then seals its people with `sealPage` —
 * the same function, its source run here — and hands the buffers over without copying.
 */
const WORKER_SOURCE = `
const c = require('node:crypto');
const { parentPort } = require('node:worker_threads');
const sealPage = ${sealPage.toString()};
parentPort.on('message', ({ id, prk, text }) => {
  let page;
  try {
    page = JSON.parse(text).data;
    if (!page || typeof page !== 'object' || !Array.isArray(page.people)) throw new Error('not a snapshot page');
    const { people, others, ...meta } = page;
    parentPort.postMessage({ id, meta });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
    return;
  }
  try {
    const sealed = sealPage(c, Buffer.from(prk), page.people, Array.isArray(page.others) ? page.others : []);
    parentPort.postMessage({ id, sealed }, [sealed.buffer, sealed.people.buffer, sealed.others.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

/** pages shorter than this (characters of JSON, ~150 people) are sealed in this thread */
const SMALL_PAGE = 64 * 1024;

/**
 * Seals snapshot pages in worker threads (issue 12: a full sync of 100,000 people < 10 s), so the
 * station's main thread only downloads and inserts while the cores seal. `threads: 0` (and a small
 * page) seals in this thread, with the same function. Workers start with the first page and end with `close()`.
 */
export class SealPool {
  readonly #workers: Worker[] = [];
  readonly #jobs = new Map<number, Job>();
  #next = 0;
  #turn = 0;
  #broken: Error | null = null;

  constructor(
    private readonly prk: Buffer,
    readonly threads = Math.min(2, os.availableParallelism()),
  ) {}

  /** The page's metadata as soon as it is parsed, and its sealed records later. */
  seal(text: string): { meta: Promise<PageMeta>; sealed: Promise<SealedPage> } {
    // a small page (a small action, the last page) is not worth a thread's start and a copy
    if (this.threads <= 0 || text.length < SMALL_PAGE) return this.#inThread(text);
    if (this.#broken) throw this.#broken;
    if (!this.#workers.length)
      for (let i = 0; i < this.threads; i++) {
        const w = new Worker(WORKER_SOURCE, { eval: true });
        w.on('message', (m: { id: number; meta?: PageMeta; sealed?: SealedPage; error?: string }) => {
          const job = this.#jobs.get(m.id);
          if (!job) return;
          if (m.error !== undefined) {
            this.#jobs.delete(m.id);
            job.fail(new Error(`snapshot page: ${m.error}`));
          } else if (m.meta) job.meta(m.meta);
          else if (m.sealed) {
            this.#jobs.delete(m.id);
            job.sealed(m.sealed);
          }
        });
        w.on('error', (err) => this.#fail(err));
        w.on('exit', (code) => {
          if (code !== 0) this.#fail(new Error(`sealing thread exited with ${code}`));
        });
        this.#workers.push(w);
      }
    const id = this.#next++;
    let meta!: (m: PageMeta) => void;
    let sealed!: (s: SealedPage) => void;
    let failMeta!: (e: Error) => void;
    let failSealed!: (e: Error) => void;
    const metaP = new Promise<PageMeta>((res, rej) => {
      meta = res;
      failMeta = rej;
    });
    const sealedP = new Promise<SealedPage>((res, rej) => {
      sealed = res;
      failSealed = rej;
    });
    // a failure is reported on both; the caller may await only one of them
    metaP.catch(() => undefined);
    sealedP.catch(() => undefined);
    this.#jobs.set(id, {
      meta,
      sealed,
      fail: (e) => {
        failMeta(e);
        failSealed(e);
      },
    });
    const worker = this.#workers[this.#turn++ % this.#workers.length];
    worker.postMessage({ id, prk: this.prk, text });
    return { meta: metaP, sealed: sealedP };
  }

  async close(): Promise<void> {
    const workers = this.#workers.splice(0);
    this.#fail(new Error('sealing stopped'));
    await Promise.all(workers.map((w) => w.terminate()));
  }

  #fail(err: Error) {
    this.#broken ??= err;
    for (const job of this.#jobs.values()) job.fail(err);
    this.#jobs.clear();
  }

  #inThread(text: string): { meta: Promise<PageMeta>; sealed: Promise<SealedPage> } {
    try {
      const page = (JSON.parse(text) as { data?: Record<string, unknown> }).data;
      if (!page || typeof page !== 'object' || !Array.isArray(page.people)) throw new Error('not a snapshot page');
      const { people, others, ...meta } = page;
      const sealed = sealPage(
        nodeCrypto,
        this.prk,
        people as { id: number; bc: string }[],
        Array.isArray(others) ? (others as { id: number; h: string }[]) : [],
      );
      return { meta: Promise.resolve(meta), sealed: Promise.resolve(sealed) };
    } catch (err) {
      const e = new Error(`snapshot page: ${(err as Error).message}`);
      const meta = Promise.reject(e);
      const sealed = Promise.reject(e);
      meta.catch(() => undefined);
      sealed.catch(() => undefined);
      return { meta, sealed };
    }
  }
}
