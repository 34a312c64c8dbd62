import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Decision, type GateScanAnswer, normalizeCode, reasonMessage, type StationStatus } from '@accredo/access';
import type { EventHub } from './events.js';
import type { Scan } from './hardware/reader.js';
import { loadPairing, type Pairing, savePairing } from './pairing.js';
import type { Station } from './station.js';
import { OfflineStore } from './store/index.js';
import { type Fetch, GateClient, type GateResult, type GateStatus } from './sync/index.js';

export const STATION_VERSION = '0.1.0';
/** The codes of GET device/key: `bc` pairs, `bcClear` unpairs (scanned at a reader or typed). */
const PAIR_CODE = /^ACCREDO-PAIR\./;
const CLEAR_CODE = /^ACCREDO-CLEAR\./;
/** How long pairing, unpairing and config wait for the server. */
const FORWARD_TIMEOUT_MS = 10_000;
/** Nonces of the screen's scans remembered for its retries (D16 at the station). */
const NONCES_KEPT = 1000;
/**
 * The badge of a person as a PDF, from the server (the badges issue's device endpoint). The server
 * has no such endpoint yet: until it does, a print on scan finds a 404 and is reported as
 * `unavailable` in the status, and nothing is printed.
 */
export const BADGE_PATH = (personId: number) => `badge/${personId}`;
/** a photo's file key as the server makes them (the `/api/file/{key}` of a person's photoUrl) */
export const PHOTO_KEY = /^[A-Za-z0-9._~-]{1,191}$/;
/** photos kept in memory for the gate screen (on disk only sealed under the person's code, Gate.savePhoto) */
const PHOTO_CACHE_BYTES = 64 * 1024 * 1024;
const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
const PHOTO_TIMEOUT_MS = 5_000;

/** A photo as the station's local server sends it. */
export interface Photo {
  type: string;
  body: Buffer;
}

/** What the bridge needs of a gate client (GateClient with its store; a fake in tests). */
export interface Gate {
  scan(code: string, direction: 'entry' | 'exit', amount: number | null): Promise<GateResult>;
  status(): GateStatus;
  start(): void;
  /** stops the sync and closes the store */
  stop(): Promise<void>;
  /** after unpairing: stops, then removes the offline data (an unsent queue is kept aside) */
  discard(): Promise<void>;
  /** keeps the photo of a person seen here, sealed under their code (the offline store) */
  savePhoto?(code: string, url: string, photo: Photo): void;
  /** the photo kept for a code, if it is the one of `url` */
  loadPhoto?(code: string, url: string): Photo | null;
}

export type CreateGate = (pairing: { server: string; token: string }) => Gate;

/** A refusal of the station's local API, sent in the product's error envelope. */
export class BridgeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

/** POST scan's answer at the station: the server's shape (libs/access wire.ts), `offline` always said. */
export type ScanAnswer = GateScanAnswer & { offline: boolean };

export type { StationStatus };

export interface GateBridgeOptions {
  /** the data directory (pairing.json, store.sqlite) */
  dir: string;
  station: Station;
  events: EventHub;
  fetch?: Fetch;
  /** builds the gate client of a pairing (default: GateClient over store.sqlite in the data dir) */
  createGate?: CreateGate;
  log?: (line: string) => void;
}

/**
 * The station's gate (issue 12): the pairing it holds, the gate client deciding online with the
 * offline fallback, and the glue between readers, screen, relay and printer. The screen served by
 * the station calls its `api/device/v1` on the station (same shapes as the server's): pairing and
 * config are forwarded to the server with the station's token, scans go through the gate client.
 * A code from a hardware reader is decided the same way and pushed to the screens as events; an
 * allowed decision opens the relay (one pulse) and, when the settings say so, prints the badge.
 */
export class GateBridge {
  readonly #o: GateBridgeOptions;
  readonly #fetch: Fetch;
  readonly #createGate: CreateGate;
  readonly #log: (line: string) => void;
  readonly #nonces = new Map<string, { key: string; answer: Promise<ScanAnswer> }>();
  #pairing: Pairing;
  #gate: Gate | null = null;
  #readerQueue: Promise<void> = Promise.resolve();
  #relayState: { state: 'ready' | 'error'; message: string | null } = { state: 'ready', message: null };
  /** photos fetched through the station, least recently used first (Map order) */
  readonly #photos = new Map<string, Photo>();
  /** photo file keys already kept in the store this session */
  readonly #keptPhotos = new Set<string>();
  #photoBytes = 0;
  #printerState: { state: 'ready' | 'printed' | 'error' | 'unavailable'; message: string | null } = {
    state: 'ready',
    message: null,
  };
  #lastStatus = '';
  /** the last relay pulse (settled when it is over; tests wait for it) */
  relayDone: Promise<void> = Promise.resolve();
  /** the last print on scan (settled when it is over; tests wait for it) */
  printDone: Promise<void> = Promise.resolve();
  /** the latest online decision's photo fetched and kept (tests wait for it) */
  photoDone: Promise<void> = Promise.resolve();
  #watch: ReturnType<typeof setInterval> | null = null;
  #unsubscribe: (() => void)[] = [];

  constructor(options: GateBridgeOptions) {
    this.#o = options;
    this.#fetch = options.fetch ?? fetch;
    this.#log = options.log ?? ((line) => console.log(line));
    this.#createGate = options.createGate ?? ((p) => storeGate(options.dir, p, options.station, this.#fetch));
    this.#pairing = loadPairing(options.dir);
  }

  get paired(): boolean {
    return this.#gate !== null;
  }

  /** Opens the gate client of a saved pairing and listens to the readers. */
  start(): void {
    const { server, token } = this.#pairing;
    if (server && token && !this.#gate) {
      this.#gate = this.#createGate({ server, token });
      this.#gate.start();
    }
    this.#unsubscribe.push(this.#o.station.onScan((scan) => this.readerScan(scan)));
    for (const reader of this.#o.station.readers) {
      const onStatus = () => this.publishStatus();
      reader.on('status', onStatus);
      this.#unsubscribe.push(() => reader.off('status', onStatus));
    }
    // the gate client changes mode, sync time and queue on its own: the screens hear of it
    this.#watch = setInterval(() => this.publishStatus(), 1000);
    this.#watch.unref?.();
  }

  async stop(): Promise<void> {
    for (const off of this.#unsubscribe.splice(0)) off();
    if (this.#watch) clearInterval(this.#watch);
    this.#watch = null;
    await this.#readerQueue;
    await this.relayDone;
    await this.printDone;
    await this.#gate?.stop();
    this.#gate = null;
  }

  status(): StationStatus {
    const { config } = this.#o.station;
    const gate = this.#gate?.status();
    return {
      version: STATION_VERSION,
      uid: this.#pairing.uid,
      server: config.server.url,
      paired: this.#gate !== null,
      device: this.#gate ? { id: this.#pairing.deviceId, name: this.#pairing.deviceName } : null,
      mode: gate?.mode ?? 'offline',
      lastSyncAt: gate?.lastSyncAt ? new Date(gate.lastSyncAt).toISOString() : null,
      lastSyncAgeMs: gate?.lastSyncAgeMs ?? null,
      queue: gate?.queue ?? 0,
      people: gate?.people ?? 0,
      lastError: gate?.lastError ?? null,
      violations: gate?.violations ?? 0,
      direction: config.direction,
      language: config.language,
      readers: this.#o.station.readers.map((reader) => ({
        readerId: reader.id,
        status: reader.status?.status ?? null,
        message: reader.status?.message ?? null,
        direction: reader.direction ?? null,
      })),
      relay: config.relay ? { type: config.relay.type, ...this.#relayState } : null,
      printer: config.printer
        ? { name: config.printer.name, printOnScan: config.printer.printOnScan, ...this.#printerState }
        : null,
    };
  }

  /** Sends the status to the screens when something in it changed (not just the sync's age). */
  publishStatus(force = false): void {
    const status = this.status();
    const key = JSON.stringify({ ...status, lastSyncAgeMs: null });
    if (!force && key === this.#lastStatus) return;
    this.#lastStatus = key;
    this.#o.events.publish('status', status);
  }

  // ---- the device protocol, as the station's screen calls it ----

  /** POST pair: the `bc` code forwarded to the server; the token stays at the station. */
  async pair(code: string, name?: string): Promise<{ token: string; device: unknown }> {
    const server = this.#o.station.config.server.url;
    if (!server)
      throw new BridgeError(503, 'STATION_NO_SERVER', 'The station has no server address (server.url in station.json)');
    const body = {
      code,
      uid: this.#pairing.uid,
      name: name?.trim() || this.#pairing.deviceName || os.hostname().slice(0, 255) || 'Accredo Station',
      appVersion: `station-${STATION_VERSION}`,
    };
    const result = await this.#forward<{ token: string; device: { id: number; name: string } }>(
      server,
      null,
      'POST',
      'pair',
      body,
    );
    const old = this.#gate;
    this.#gate = null;
    await old?.discard();
    this.#pairing = {
      ...this.#pairing,
      server,
      token: result.token,
      deviceId: result.device.id,
      deviceName: result.device.name,
      pairedAt: new Date().toISOString(),
      config: null,
    };
    savePairing(this.#o.dir, this.#pairing);
    this.#gate = this.#createGate({ server, token: result.token });
    this.#gate.start();
    this.#log(`paired with ${server} as device ${result.device.id}`);
    this.#o.events.publish('paired', { device: result.device });
    this.publishStatus(true);
    // the screen keeps a marker, never the device token
    return { token: 'station', device: result.device };
  }

  /** POST unpair: the `bcClear` code forwarded to the server; then the station forgets its token. */
  async unpair(code: string): Promise<{ unpaired: boolean }> {
    const { server, token } = this.#paired();
    try {
      await this.#forward(server, token, 'POST', 'unpair', { code });
    } catch (error) {
      // the server no longer knows this station: it is unpaired anyway
      if (!(error instanceof BridgeError && error.status === 401)) throw error;
    }
    await this.forget();
    return { unpaired: true };
  }

  /**
   * The screen's Unpair button: the server revokes this station's own token (POST unpair without a
   * code), then the station forgets it. When the server cannot be reached the pairing is forgotten
   * here anyway (the token is on this disk only, and it is deleted with the pairing).
   */
  async unpairSelf(): Promise<{ unpaired: boolean; revoked: boolean }> {
    const { server, token } = this.#paired();
    let revoked = true;
    try {
      await this.#forward(server, token, 'POST', 'unpair', {});
    } catch (error) {
      // 401: the server no longer knows the token (already revoked); anything else: not reachable now
      revoked = error instanceof BridgeError && error.status === 401;
      if (!revoked) this.#log(`unpair: the server could not revoke the token (${String(error)}); forgotten here`);
    }
    await this.forget();
    return { unpaired: true, revoked };
  }

  /** Drops the pairing here only (after the server revoked it, or when it refused the token). */
  async forget(): Promise<void> {
    const gate = this.#gate;
    this.#gate = null;
    this.#pairing = {
      ...this.#pairing,
      server: null,
      token: null,
      deviceId: null,
      deviceName: null,
      pairedAt: null,
      config: null,
    };
    savePairing(this.#o.dir, this.#pairing);
    await gate?.discard();
    this.#log('unpaired');
    this.#o.events.publish('unpaired', {});
    this.publishStatus(true);
  }

  /** GET config: the server's, remembered; the remembered one while the server does not answer. */
  async config(): Promise<unknown> {
    const { server, token } = this.#paired();
    try {
      const config = await this.#forward(server, token, 'GET', 'config');
      if (JSON.stringify(config) !== JSON.stringify(this.#pairing.config)) {
        this.#pairing = { ...this.#pairing, config };
        savePairing(this.#o.dir, this.#pairing);
      }
      return config;
    } catch (error) {
      if (error instanceof BridgeError && error.status === 401) await this.forget();
      else if (error instanceof BridgeError && error.code === 'NETWORK_ERROR' && this.#pairing.config)
        return this.#pairing.config;
      throw error;
    }
  }

  /**
   * POST scan from the screen: decided by the gate client. The screen retries with the same nonce
   * when the station is slow: the same body gets the first answer again (replay), another body
   * NONCE_CONFLICT, exactly like the server (D16).
   */
  async scan(body: { code: string; direction: 'entry' | 'exit'; nonce: string; amount: number | null }) {
    const key = JSON.stringify([body.code, body.direction, body.amount]);
    const known = this.#nonces.get(body.nonce);
    if (known) {
      if (known.key !== key) throw new BridgeError(409, 'NONCE_CONFLICT', 'The nonce was used for another scan');
      return { ...(await known.answer), replay: true };
    }
    const answer = this.#decide(body.code, body.direction, body.amount);
    this.#nonces.set(body.nonce, { key, answer });
    answer.catch(() => this.#nonces.delete(body.nonce));
    if (this.#nonces.size > NONCES_KEPT) this.#nonces.delete(this.#nonces.keys().next().value as string);
    return answer;
  }

  // ---- hardware readers ----

  /** A code from a reader: pairing codes pair or unpair, other codes are decided; in order. */
  readerScan(scan: Scan): Promise<void> {
    this.#readerQueue = this.#readerQueue.then(() => this.#readerScan(scan)).catch(() => undefined);
    return this.#readerQueue;
  }

  async #readerScan(scan: Scan) {
    const { readerId, code } = scan;
    const direction = scan.direction ?? this.#o.station.config.direction;
    this.#o.events.publish('scan', { readerId, code, direction });
    try {
      if (PAIR_CODE.test(code)) {
        await this.pair(code);
        return;
      }
      if (CLEAR_CODE.test(code)) {
        await this.unpair(code);
        return;
      }
      const answer = await this.#decide(code, direction, null);
      this.#o.events.publish('decision', { readerId, code, answer });
    } catch (error) {
      const failure =
        error instanceof BridgeError
          ? { error: error.code, message: error.message }
          : { error: 'INTERNAL_ERROR', message: String((error as Error)?.message ?? error) };
      this.#log(`reader ${readerId}: ${code}: ${failure.error} ${failure.message}`);
      this.#o.events.publish('failed', { readerId, code, ...failure });
    }
  }

  // ---- internals ----

  async #decide(code: string, direction: 'entry' | 'exit', amount: number | null): Promise<ScanAnswer> {
    const gate = this.#gate;
    if (!gate) throw new BridgeError(401, 'UNAUTHORIZED', 'The station is not paired');
    const result = await gate.scan(code, direction, amount);
    if (!result.offline && !gate.status().paired) {
      // the server refused the station's token (unpaired there, key rotated): pair again
      await this.forget();
      throw new BridgeError(401, 'UNAUTHORIZED', result.message ?? 'The station is no longer paired');
    }
    this.#photoOf(gate, code, result);
    const answer: ScanAnswer = {
      ...result,
      // the engine's reason, or the code of a server's refusal the station passes on (its message says it)
      reason: result.reason as Decision['reason'],
      at: new Date(result.at).toISOString(),
      message: result.message ?? this.#message(result),
      replay: false,
    };
    // the decision is final (an offline one is already queued on disk): the gate opens while the
    // screen shows it (a pulse lasts pulseMs; the answer does not wait for it)
    if (answer.allowed) {
      this.relayDone = this.#openRelay();
      if (this.#o.station.config.printer?.printOnScan && answer.person && answer.direction === 'entry')
        this.printDone = this.printBadge(answer.person.id).then(() => undefined);
    }
    this.publishStatus();
    return answer;
  }

  #message(result: GateResult): string {
    try {
      return reasonMessage(
        {
          allowed: result.allowed,
          reason: result.reason as Decision['reason'],
          data: result.data,
          info: result.info,
          effects: result.effects,
        },
        this.#o.station.config.language,
      );
    } catch {
      return String(result.reason);
    }
  }

  async #openRelay() {
    const relay = this.#o.station.relay;
    if (!relay) return;
    try {
      await relay.open();
      this.#relayState = { state: 'ready', message: null };
    } catch (error) {
      this.#relayState = { state: 'error', message: (error as Error).message };
      this.#log(`relay: ${(error as Error).message}`);
    }
  }

  /**
   * Prints a person's badge on the station's printer: the PDF from the server's badge endpoint
   * (BADGE_PATH), sent to CUPS. A 404 (the endpoint does not exist yet) prints nothing and says
   * `unavailable`. Never throws: the gate does not wait for the printer.
   */
  async printBadge(personId: number): Promise<'printed' | 'unavailable' | 'error'> {
    const printer = this.#o.station.config.printer;
    const { server, token } = this.#pairing;
    if (!printer || !server || !token) return 'unavailable';
    try {
      const response = await this.#fetch(`${server.replace(/\/+$/, '')}/api/device/v1/${BADGE_PATH(personId)}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/pdf' },
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      const type = response.headers.get('content-type') ?? '';
      if (response.status === 404 || (response.ok && !type.startsWith('application/pdf'))) {
        await response.body?.cancel();
        this.#printerState = { state: 'unavailable', message: 'The server does not give badge PDFs to stations yet' };
        return 'unavailable';
      }
      if (!response.ok) throw new Error(`the server answered ${response.status} for the badge`);
      const pdf = Buffer.from(await response.arrayBuffer());
      const job = await this.#o.station.printer.print(pdf, {
        printer: printer.name,
        copies: printer.copies,
        title: `badge-${personId}`,
      });
      this.#printerState = { state: 'printed', message: job.jobId };
      return 'printed';
    } catch (error) {
      this.#printerState = { state: 'error', message: (error as Error).message };
      this.#log(`printer: ${(error as Error).message}`);
      return 'error';
    } finally {
      this.publishStatus();
    }
  }

  /**
   * GET /api/file/{key} at the station: a person's photo (the `photoUrl` of a decision, online or
   * from the snapshot offline). Fetched from the server with the station's token, which never
   * reaches the browser, and kept in memory (64 MB, least recently used out), so a photo seen
   * once is shown offline too. null: the server has no such file, or it cannot be fetched now.
   */
  async photo(key: string): Promise<Photo | null> {
    if (!PHOTO_KEY.test(key)) return null;
    const cached = this.#photos.get(key);
    if (cached) {
      this.#photos.delete(key);
      this.#photos.set(key, cached);
      return cached;
    }
    const { server, token } = this.#pairing;
    if (!server || !token) return null;
    try {
      const response = await this.#fetch(`${server.replace(/\/+$/, '')}/api/file/${encodeURIComponent(key)}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'image/*' },
        signal: AbortSignal.timeout(PHOTO_TIMEOUT_MS),
      });
      const type = response.headers.get('content-type') ?? '';
      const length = Number(response.headers.get('content-length') ?? 0);
      if (!response.ok || !type.startsWith('image/') || length > PHOTO_MAX_BYTES) {
        await response.body?.cancel();
        return null;
      }
      const body = Buffer.from(await response.arrayBuffer());
      if (body.length > PHOTO_MAX_BYTES) return null;
      const photo = { type, body };
      this.#remember(key, photo);
      return photo;
    } catch (error) {
      this.#log(`photo: ${(error as Error).message}`);
      return null;
    }
  }

  /**
   * The photo of a decision's person: online it is fetched now (the screen asks for it next) and
   * kept sealed under the person's code; offline the kept one is opened with the code into memory,
   * so the screen's request finds it even after a restart without the server.
   */
  #photoOf(gate: Gate, code: string, result: GateResult) {
    const url = result.person?.photoUrl;
    const key = url?.startsWith('/api/file/') ? safeDecode(url.slice('/api/file/'.length)) : null;
    if (!url || !key || !PHOTO_KEY.test(key)) return;
    try {
      if (result.offline) {
        if (this.#photos.has(key)) return;
        const kept = gate.loadPhoto?.(code, url);
        if (kept) this.#remember(key, kept);
      } else if (gate.savePhoto && !this.#keptPhotos.has(key)) {
        this.photoDone = this.photo(key).then((photo) => {
          try {
            if (!photo || this.#gate !== gate) return;
            gate.savePhoto?.(code, url, photo);
            this.#keptPhotos.add(key);
          } catch (error) {
            this.#log(`photo: ${(error as Error).message}`);
          }
        });
      }
    } catch (error) {
      this.#log(`photo: ${(error as Error).message}`);
    }
  }

  #remember(key: string, photo: Photo) {
    this.#photos.set(key, photo);
    this.#photoBytes += photo.body.length;
    for (const [old, p] of this.#photos) {
      if (this.#photoBytes <= PHOTO_CACHE_BYTES) break;
      this.#photos.delete(old);
      this.#photoBytes -= p.body.length;
    }
  }

  #paired(): { server: string; token: string } {
    const { server, token } = this.#pairing;
    if (!server || !token || !this.#gate) throw new BridgeError(401, 'UNAUTHORIZED', 'The station is not paired');
    return { server, token };
  }

  /** One call of the server's device protocol; its error envelope is passed on as it is. */
  async #forward<T>(server: string, token: string | null, method: 'GET' | 'POST', what: string, body?: unknown) {
    const headers: Record<string, string> = { 'accept-language': this.#o.station.config.language };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let json: { data?: T; error?: { code?: string; message?: string; details?: unknown } } | null;
    try {
      response = await this.#fetch(`${server.replace(/\/+$/, '')}/api/device/v1/${what}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      json = (await response.json().catch(() => null)) as typeof json;
    } catch (error) {
      throw new BridgeError(502, 'NETWORK_ERROR', `The server does not answer: ${(error as Error).message}`);
    }
    if (response.status >= 500) throw new BridgeError(502, 'NETWORK_ERROR', `The server failed (${response.status})`);
    if (!response.ok || !json || json.data === undefined)
      throw new BridgeError(
        response.status >= 400 ? response.status : 502,
        json?.error?.code ?? 'BAD_GATEWAY',
        json?.error?.message ?? `HTTP ${response.status}`,
        json?.error?.details ?? null,
      );
    return json.data;
  }
}

const safeDecode = (text: string): string | null => {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
};

/** The real gate: GateClient over the offline store in the data directory. */
function storeGate(dir: string, pairing: { server: string; token: string }, station: Station, fetchFn: Fetch): Gate {
  const file = path.join(dir, 'store.sqlite');
  const store = OfflineStore.open(file);
  const client = new GateClient({
    server: pairing.server,
    token: pairing.token,
    store,
    fetch: fetchFn,
    language: station.config.language,
    appVersion: `station-${STATION_VERSION}`,
  });
  let closed = false;
  const stop = async () => {
    if (closed) return;
    closed = true;
    await client.stop();
    store.close();
  };
  return {
    scan: (code, direction, amount) => client.scan(code, direction, amount),
    status: () => client.status(),
    start: () => client.start(),
    stop,
    savePhoto: (code, url, photo) => {
      if (!closed) store.putPhoto(normalizeCode(code), url, photo);
    },
    loadPhoto: (code, url) => (closed ? null : store.photo(normalizeCode(code), url)),
    async discard() {
      // scans not yet on the server are uploaded first if it answers
      if (store.queueLength() && !closed) await client.sync().catch(() => undefined);
      const unsent = closed ? 0 : store.queueLength();
      await stop();
      if (unsent) {
        const aside = path.join(dir, `store-unsent-${Date.now()}.sqlite`);
        fs.renameSync(file, aside);
        for (const suffix of ['-wal', '-shm'])
          if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
        console.warn(`${unsent} offline scans were not uploaded before unpairing: kept in ${aside}`);
        return;
      }
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    },
  };
}
