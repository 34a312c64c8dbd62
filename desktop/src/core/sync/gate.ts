import { randomUUID } from 'node:crypto';
import {
  type Decision,
  decide,
  type Effect,
  type GateDecisionShown,
  type GatePersonShown,
  normalizeCode,
  type Passage,
} from '@accredo/access';
import type { SealedPage } from '../store/crypto.js';
import { SealPool } from '../store/seal-pool.js';
import type { OfflineStore, QueuedScan, RuleData, WirePerson } from '../store/store.js';
import { DeviceApi, type Fetch, ServerRefused } from './api.js';
import { type Clock, systemClock } from './clock.js';

export interface GateClientOptions {
  server: string;
  token: string;
  store: OfflineStore;
  clock?: Clock;
  fetch?: Fetch;
  /** the operator's language for the server's messages */
  language?: string;
  appVersion?: string;
  /** an online scan waits this long for the server, then the station decides itself (default 1.5 s) */
  scanTimeoutMs?: number;
  /** the changes poll (default 3 s: with the server's 2 s settling, a registration is at the gate in < 10 s) */
  pollMs?: number;
  /** the longest wait between attempts while the server is away (default 15 s) */
  maxBackoffMs?: number;
  /** timeout of snapshot, changes, config and upload calls (default 30 s) */
  requestTimeoutMs?: number;
  /** people per snapshot / changes page (the server caps it at 2,000) */
  pageSize?: number;
  /** offline scans per upload (the server takes at most 5,000) */
  uploadBatch?: number;
  /** bounds of one sync round: upload batches and changes pages (the rest waits for the next round) */
  maxBatchesPerRound?: number;
  maxPagesPerRound?: number;
  /** the template and action are checked every this many rounds (a change means a new snapshot) */
  configEvery?: number;
  /** threads sealing snapshot pages (default: 2, or 1 on a single core; 0 seals in this thread) */
  sealThreads?: number;
}

export type { GatePersonShown };

/** A decision at this station: the server's (online) or its own (offline, queued for upload). */
export interface GateResult extends Omit<GateDecisionShown, 'reason'> {
  reason: Decision['reason'] | string;
  /** the decision's moment, epoch ms */
  at: number;
  /** decided by the station itself (and queued for upload) */
  offline: boolean;
  /** the server's message in the operator's language (online only; offline: reasonMessage locally) */
  message?: string;
}

/** A difference the server found replaying an offline scan (D20), for the post-sync report. */
export interface Violation {
  nonce: string;
  scanTime: number;
  stationAllowed: boolean;
  stationReason: string;
  serverAllowed: boolean;
  serverReason: string;
  personId: number | null;
}

export interface GateStatus {
  mode: 'online' | 'offline';
  paired: boolean;
  lastSyncAt: number | null;
  lastSyncAgeMs: number | null;
  queue: number;
  people: number;
  lastError: string | null;
  /** violations reported by the server's replays since the station started */
  violations: number;
}

interface ServerAnswer {
  nonce: string;
  allowed: boolean;
  reason: string;
  data: Decision['data'];
  info: boolean;
  effects: Effect[];
  direction: 'entry' | 'exit';
  at: string;
  person: GatePersonShown | null;
  message?: string;
  violation?: boolean;
  replay?: boolean;
  conflict?: boolean;
}

interface UploadAnswer {
  results: ServerAnswer[];
  violations: number;
  failed: number;
}

/** A snapshot page without its people (those are parsed and sealed in a sealing thread). */
interface SnapshotMeta extends RuleData {
  next: number | null;
  cursor: string | null;
}

/** A code of another action of the subject: its accreditation id and hash (docs/device-protocol.md). */
type OtherCode = { id: number; h: string };

const shown = (p: WirePerson, credit: number): GatePersonShown => ({
  id: p.id,
  customId: p.customId,
  firstname: p.firstname,
  lastname: p.lastname,
  bc: p.bc,
  imageId: p.imageId,
  photoUrl: p.photoUrl ?? null,
  groupIds: p.groupIds,
  zoneIds: p.zoneIds,
  credit,
  isUnlimited: p.isUnlimited,
});

const templateKey = (t: unknown) => {
  if (!t || typeof t !== 'object') return 'null';
  const { id, actionId, mode, zoneId, rules, globalRule } = t as Record<string, unknown>;
  return JSON.stringify([id, actionId, mode, zoneId, rules, globalRule]);
};

/**
 * The station's gate client (issue 12, docs/station.md "Offline store and sync"): online it asks
 * the server (POST scan, short timeout); when the server does not answer it decides with the same
 * `decide` from its store and its own scans, queues the scan durably before answering, and goes
 * offline until a sync round reaches the server again, which then uploads the queue (D16, D20).
 */
export class GateClient {
  readonly api: DeviceApi;
  readonly store: OfflineStore;
  readonly clock: Clock;
  readonly violations: Violation[] = [];
  #online = true;
  #paired = true;
  #failures = 0;
  #rounds = 0;
  #lastError: string | null = null;
  #violationCount = 0;
  #timer: unknown = null;
  #running: Promise<void> | null = null;
  #stopped = true;
  readonly #o: Required<Omit<GateClientOptions, 'fetch' | 'clock' | 'language' | 'appVersion' | 'sealThreads'>>;
  readonly #sealThreads: number | undefined;

  constructor(options: GateClientOptions) {
    this.clock = options.clock ?? systemClock;
    this.store = options.store;
    this.api = new DeviceApi({
      server: options.server,
      token: options.token,
      clock: this.clock,
      fetch: options.fetch,
      language: options.language,
      appVersion: options.appVersion,
    });
    this.#sealThreads = options.sealThreads;
    this.#o = {
      server: options.server,
      token: options.token,
      store: options.store,
      scanTimeoutMs: options.scanTimeoutMs ?? 1500,
      pollMs: options.pollMs ?? 3000,
      maxBackoffMs: options.maxBackoffMs ?? 15_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      pageSize: options.pageSize ?? 2000,
      uploadBatch: Math.min(options.uploadBatch ?? 500, 5000),
      maxBatchesPerRound: options.maxBatchesPerRound ?? 20,
      maxPagesPerRound: options.maxPagesPerRound ?? 50,
      configEvery: options.configEvery ?? 20,
    };
  }

  get online(): boolean {
    return this.#online;
  }

  status(): GateStatus {
    const last = this.store.lastSyncAt();
    return {
      mode: this.#online ? 'online' : 'offline',
      paired: this.#paired,
      lastSyncAt: last,
      lastSyncAgeMs: last === null ? null : Math.max(0, this.clock.now() - last),
      queue: this.store.queueLength(),
      people: this.store.count(),
      lastError: this.#lastError,
      violations: this.#violationCount,
    };
  }

  /**
   * One scan at the gate. Online: the server's decision. Offline (or when the server does not
   * answer within the scan timeout): the station's own, queued on disk before it is returned.
   */
  async scan(
    rawCode: string,
    direction: 'entry' | 'exit' = 'entry',
    amount: number | null = null,
  ): Promise<GateResult> {
    const code = normalizeCode(rawCode);
    const nonce = randomUUID();
    if (this.#online) {
      try {
        const answer = await this.api.request<ServerAnswer>(
          'POST',
          'scan',
          { code: rawCode, direction, nonce, deviceTime: this.clock.now(), amount },
          this.#o.scanTimeoutMs,
        );
        const at = Date.parse(answer.at);
        if (answer.allowed) this.store.recordOnline(code, nonce, answer.effects, at);
        return { ...answer, at, offline: false };
      } catch (err) {
        if (err instanceof ServerRefused) return this.#refusedByServer(err, nonce, code, direction);
        this.#goOffline(err);
      }
    }
    return this.#decideAndQueue(code, direction, amount, nonce);
  }

  /** The station's decision from its store and its own scans, without queueing anything. */
  decideLocally(
    rawCode: string,
    direction: 'entry' | 'exit',
    amount: number | null,
    at: number,
  ): { decision: Decision; person: GatePersonShown | null } {
    const code = normalizeCode(rawCode);
    const rules = this.store.rules();
    const found = this.store.find(code);
    const person = found ? { ...found.person, credit: found.credit } : null;
    const passages: Passage[] = found ? found.passages : [];
    const decision = decide(
      { code, direction, amount, at, timeZone: rules?.timeZone ?? 'Europe/Prague' },
      {
        template: rules?.template ?? null,
        action: rules?.action ?? null,
        person,
        // the snapshot carries the hashes of the subject's other actions' codes (only those)
        personOfOtherAction: !found && this.store.isOtherAction(code),
        state: { passages },
        offline: true,
      },
    );
    return { decision, person: found ? shown(found.person, found.credit) : null };
  }

  // ---- sync ----

  /** Starts the sync loop: a round now, then every poll (capped backoff while the server is away). */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Stops the loop and waits for a running round. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) this.clock.clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  /** The wait before the next round: the poll while online, doubling up to the cap while offline. */
  nextDelay(): number {
    if (this.#failures === 0) return this.#o.pollMs;
    return Math.min(this.#o.pollMs * 2 ** Math.min(this.#failures - 1, 20), this.#o.maxBackoffMs);
  }

  /**
   * One sync round: upload the queue (if any), then the snapshot (first time or after the template
   * changed) or the changes since the cursor. Reaching the server puts the station back online.
   */
  async sync(): Promise<void> {
    if (this.#running) return this.#running;
    this.#running = this.#round().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #round(): Promise<void> {
    try {
      if (this.store.queueLength()) await this.upload();
      this.#rounds++;
      const rules = this.store.rules();
      if (rules && this.store.cursor() !== null && this.#rounds % this.#o.configEvery === 0) {
        const config = await this.api.request<{ template: unknown; action: { id: number } | null }>(
          'GET',
          'config',
          undefined,
          this.#o.requestTimeoutMs,
        );
        if (templateKey(config.template) !== templateKey(rules.template)) this.store.setCursor(null);
      }
      if (!rules || this.store.cursor() === null) await this.snapshot();
      else await this.changes();
      this.store.setLastSyncAt(this.clock.now());
      this.#failures = 0;
      this.#online = true;
      this.#paired = true;
      this.#lastError = null;
    } catch (err) {
      if (err instanceof ServerRefused && err.status === 401) this.#paired = false;
      this.#goOffline(err);
    }
  }

  /** Uploads queued scans in batches, removing only what the server acknowledged (D16, D20). */
  async upload(): Promise<{ sent: number; violations: number; failed: number }> {
    let sent = 0;
    let violations = 0;
    let failed = 0;
    for (let batch = 0; batch < this.#o.maxBatchesPerRound; batch++) {
      const scans = this.store.queued(this.#o.uploadBatch);
      if (!scans.length) break;
      const answer = await this.#uploadBatch(scans);
      const byNonce = new Map(scans.map((s) => [s.nonce, s]));
      const acknowledged: string[] = [];
      for (const r of answer.results) {
        const mine = byNonce.get(r.nonce);
        if (!mine) continue;
        acknowledged.push(r.nonce);
        if (r.violation || mine.allowed !== r.allowed) {
          this.#violationCount++;
          if (this.violations.length < 1000)
            this.violations.push({
              nonce: r.nonce,
              scanTime: mine.scanTime,
              stationAllowed: mine.allowed,
              stationReason: mine.reason,
              serverAllowed: r.allowed,
              serverReason: r.reason,
              personId: r.person?.id ?? null,
            });
        }
      }
      this.store.acknowledge(acknowledged);
      sent += acknowledged.length;
      violations += answer.violations;
      failed += answer.failed;
      // the server answered but took none of them: do not send the same batch again this round
      if (!acknowledged.length) break;
    }
    return { sent, violations, failed };
  }

  /**
   * POST upload. A batch the server refuses as invalid (400) is sent again one scan at a time, and
   * a single scan it refuses is dropped into the violation report with the error's code: one bad
   * row must not hold the queue forever (the server takes every well-formed scan, D20).
   */
  async #uploadBatch(scans: QueuedScan[]): Promise<UploadAnswer> {
    const send = (batch: QueuedScan[]) =>
      this.api.request<UploadAnswer>('POST', 'upload', { scans: batch }, this.#o.requestTimeoutMs);
    try {
      return await send(scans);
    } catch (err) {
      if (!(err instanceof ServerRefused) || err.status !== 400) throw err;
    }
    const merged: UploadAnswer = { results: [], violations: 0, failed: 0 };
    for (const scan of scans) {
      try {
        const one = await send([scan]);
        merged.results.push(...one.results);
        merged.violations += one.violations;
        merged.failed += one.failed;
      } catch (err) {
        if (!(err instanceof ServerRefused) || err.status !== 400) throw err;
        merged.results.push({
          nonce: scan.nonce,
          allowed: false,
          reason: err.code,
          data: {},
          info: false,
          effects: [],
          direction: scan.direction,
          at: new Date(scan.scanTime).toISOString(),
          person: null,
          violation: true,
        });
        merged.failed++;
      }
    }
    return merged;
  }

  #snapshotPage(after: number): Promise<string> {
    const text = this.api.requestText(`snapshot?after=${after}&limit=${this.#o.pageSize}`, this.#o.requestTimeoutMs);
    text.catch(() => undefined);
    return text;
  }

  /**
   * A full snapshot, page by page into a staging table, swapped in when complete. A pipeline: the
   * sealing threads parse and seal page n (its `next` comes back first) while page n+1 downloads
   * and page n-1 is inserted here, one transaction a page (issue 12: 100,000 people < 10 s).
   */
  async snapshot(): Promise<void> {
    const seq = this.store.localSeq();
    const pool = new SealPool(this.store.sealKey(), this.#sealThreads);
    try {
      let text = await this.#snapshotPage(0);
      let first: SnapshotMeta | null = null;
      let previous: Promise<SealedPage> | null = null;
      // bounded: 100,000 pages are 200 million people
      for (let n = 1; n <= 100_000; n++) {
        const job = pool.seal(text);
        const meta = (await job.meta) as unknown as SnapshotMeta;
        if (!first) {
          first = meta;
          this.store.beginSnapshot();
        }
        const next = meta.next !== null && meta.next !== undefined ? this.#snapshotPage(meta.next) : null;
        if (previous) this.store.putSealedPage(await previous);
        previous = job.sealed;
        if (!next) break;
        text = await next;
      }
      if (previous) this.store.putSealedPage(await previous);
      if (!first) return;
      this.store.finishSnapshot(
        { template: first.template, action: first.action, timeZone: first.timeZone },
        // the changes start from here ('' = from the beginning of the server's feed)
        first.cursor ?? '',
        seq,
      );
    } finally {
      await pool.close();
    }
  }

  /** The people changed since the cursor, a bounded number of pages per round. */
  async changes(): Promise<void> {
    for (let page = 0; page < this.#o.maxPagesPerRound; page++) {
      const seq = this.store.localSeq();
      const cursor = this.store.cursor();
      const q = `changes?limit=${this.#o.pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await this.api.request<{
        people: WirePerson[];
        /** accreditations gone from the action (deleted or moved) */
        deleted?: number[];
        /** accreditations of the subject's other actions changed (created, moved there, new code) */
        others?: OtherCode[];
        cursor: string | null;
        more: boolean;
        /** the cursor is too old for the server's change feed: take a new snapshot */
        resync?: boolean;
      }>('GET', q, undefined, this.#o.requestTimeoutMs);
      if (res.resync) {
        this.store.setCursor(null);
        await this.snapshot();
        return;
      }
      this.store.applyChanges(res.people, res.cursor ?? cursor ?? '', seq, res.deleted ?? [], res.others ?? []);
      if (!res.more) break;
    }
  }

  // ---- internals ----

  #schedule(ms: number) {
    if (this.#stopped) return;
    this.#timer = this.clock.setTimeout(() => {
      this.#timer = null;
      void this.sync().finally(() => this.#schedule(this.nextDelay()));
    }, ms);
  }

  #goOffline(err: unknown) {
    this.#online = false;
    this.#failures++;
    this.#lastError = err instanceof Error ? err.message : String(err);
  }

  #decideAndQueue(code: string, direction: 'entry' | 'exit', amount: number | null, nonce: string): GateResult {
    const at = this.clock.now();
    const { decision, person } = this.decideLocally(code, direction, amount, at);
    // on disk (synchronous = FULL) before the gate may open
    this.store.recordOffline(
      {
        nonce,
        code: code.slice(0, 1000),
        direction,
        scanTime: at,
        // what the upload schema takes (an integer within ±10⁹): anything else is AMOUNT_INVALID anyway
        amount: Number.isInteger(amount) && Math.abs(amount as number) <= 1_000_000_000 ? amount : null,
        allowed: decision.allowed,
        reason: decision.reason,
      },
      decision.allowed ? decision.effects : [],
    );
    return { nonce, ...decision, direction, at, person, offline: true };
  }

  #refusedByServer(err: ServerRefused, nonce: string, code: string, direction: 'entry' | 'exit'): GateResult {
    if (err.status === 401) this.#paired = false;
    return {
      nonce,
      allowed: false,
      reason: err.code,
      data: { code },
      info: false,
      effects: [],
      direction,
      at: this.clock.now(),
      person: null,
      offline: false,
      message: err.message,
    };
  }
}
