import * as nodeCrypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseBadgeCode } from '@accredo/access';
import type { Effect, GateAction, GatePerson, GateTemplate, Passage } from '@accredo/access';
import Database from 'better-sqlite3';
import {
  derive,
  newSalt,
  OTHER_BYTES,
  open,
  seal,
  otherSlot,
  type SealedPage,
  sealPage,
  serverOtherHash,
  storeKey,
} from './crypto.js';

/** A person as the device protocol's snapshot and changes send it (GatePerson plus display data). */
export interface WirePerson extends GatePerson {
  customId: number;
  firstname: string;
  lastname: string;
  imageId: number | null;
  /** the photo's file URL (`/api/file/{key}`; the station's local server fetches it) */
  photoUrl?: string | null;
  /** this person's entries and exits under the device's template on the server (D2) */
  passages: Passage[];
}

/** The non-personal rule data of the snapshot, kept in clear. */
export interface RuleData {
  template: GateTemplate | null;
  action: GateAction | null;
  timeZone: string;
}

/** An offline scan waiting for POST upload (deviceOfflineScanSchema). */
export interface QueuedScan {
  nonce: string;
  code: string;
  direction: 'entry' | 'exit';
  scanTime: number;
  amount: number | null;
  allowed: boolean;
  reason: string;
}

/** What the station knows of a person: the record opened with their code, plus its own scans. */
export interface FoundPerson {
  person: WirePerson;
  /** the snapshot's passages and the station's own since, in time order */
  passages: Passage[];
  /** the snapshot's balance less the station's own deductions since */
  credit: number;
}

/**
 * The code a person's records are kept under: a badge's versioned code `{bc}-{version}` is its
 * person's bc (docs/access-control.md "Badge versions"); the engine compares the version.
 */
const bareCode = (code: string) => parseBadgeCode(code).bc;

const KIND_PASSAGE = 1;
const KIND_CREDIT = 2;

/**
 * Rows by accreditation id (a snapshot arrives in id order: appended, not inserted at random
 * places), found by the unique index on `h`, which a staged snapshot builds once at the end
 * (7 times less CPU than keeping a random-keyed table sorted while 100,000 rows come in).
 */
const PERSON_TABLE = (name: string) =>
  `CREATE TABLE IF NOT EXISTS ${name} (id INTEGER PRIMARY KEY, h BLOB NOT NULL, data BLOB NOT NULL)`;
/** the codes of the subject's other actions: only their keyed hashes (crypto.ts `otherSlot`) and ids */
const OTHER_TABLE = (name: string) => `CREATE TABLE IF NOT EXISTS ${name} (id INTEGER PRIMARY KEY, h BLOB NOT NULL)`;
/** photos of people seen at this station, sealed under their codes like their records */
const PHOTO_TABLE = 'CREATE TABLE IF NOT EXISTS photo (h BLOB PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID';
/** at most this many photos are kept (a photo is ~20–100 kB) */
const PHOTOS_MAX = 20_000;
const PHOTO_AAD = Buffer.from('photo');
const INDEXES =
  'CREATE UNIQUE INDEX IF NOT EXISTS person_h ON person (h); CREATE UNIQUE INDEX IF NOT EXISTS other_h ON other (h)';
/** the key derivation of the records (crypto.ts); a store of another one is emptied and synced again */
const KDF = 'hkdf-sha512-v2';

/**
 * The station's local SQLite store (issue 12, docs/station.md "Offline store"):
 * - `person`: one sealed record per accreditation, found by the HMAC of its code, opened with a
 *   key derived from the code (crypto.ts); only the accreditation id is in clear (to replace a
 *   changed record);
 * - `meta`: the salt, the rule data (template, action, time zone), the change cursor, last sync;
 * - `local`: the station's own passages and deductions not yet in its copy of the server's data,
 *   keyed by the code's hash (D2: an offline decision counts them);
 * - `queue`: offline scans waiting for upload, committed with synchronous = FULL (the write-ahead
 *   log synced) before the decision is returned, so before the gate opens.
 */
export class OfflineStore {
  readonly #db: Database.Database;
  /** the store key (HKDF-Extract of the salt, crypto.ts `storeKey`) */
  readonly #prk: Buffer;
  #rules: RuleData | null | undefined;
  readonly #stmt: {
    find: Database.Statement<[Buffer], { data: Buffer }>;
    other: Database.Statement<[Buffer], { id: number }>;
    local: Database.Statement<[Buffer], { kind: number; type: number; amount: number; at: number }>;
    addLocal: Database.Statement<[Buffer, string, number, number, number, number]>;
    enqueue: Database.Statement<[string, string, string, number, number | null, number, string]>;
    meta: Database.Statement<[string], { value: string }>;
    setMeta: Database.Statement<[string, string]>;
    queueLength: Database.Statement<[], { n: number }>;
  };

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    // NORMAL: what the server already has (people, online scans, acknowledgements) may be lost with
    // the power and is read again; an offline scan's commit switches to FULL (recordOffline)
    this.#db.pragma('synchronous = NORMAL');
    // deleted rows (uploaded scans with their codes) are overwritten, not left in free pages
    this.#db.pragma('secure_delete = ON');
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      ${PERSON_TABLE('person')};
      ${OTHER_TABLE('other')};
      ${PHOTO_TABLE};
      CREATE TABLE IF NOT EXISTS local (seq INTEGER PRIMARY KEY AUTOINCREMENT, h BLOB NOT NULL, nonce TEXT NOT NULL,
        kind INTEGER NOT NULL, type INTEGER NOT NULL, amount INTEGER NOT NULL, at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS local_h ON local (h);
      CREATE TABLE IF NOT EXISTS queue (seq INTEGER PRIMARY KEY AUTOINCREMENT, nonce TEXT NOT NULL UNIQUE,
        code TEXT NOT NULL, direction TEXT NOT NULL, scanTime INTEGER NOT NULL, amount INTEGER,
        allowed INTEGER NOT NULL, reason TEXT NOT NULL);
      DROP TABLE IF EXISTS person_next;
      DROP TABLE IF EXISTS other_next;
    `);
    this.#stmt = {
      find: this.#db.prepare('SELECT data FROM person WHERE h = ?'),
      other: this.#db.prepare('SELECT id FROM other WHERE h = ?'),
      local: this.#db.prepare('SELECT kind, type, amount, at FROM local WHERE h = ? ORDER BY at, seq'),
      addLocal: this.#db.prepare('INSERT INTO local (h, nonce, kind, type, amount, at) VALUES (?, ?, ?, ?, ?, ?)'),
      enqueue: this.#db.prepare(
        'INSERT INTO queue (nonce, code, direction, scanTime, amount, allowed, reason) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      meta: this.#db.prepare('SELECT value FROM meta WHERE key = ?'),
      setMeta: this.#db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      queueLength: this.#db.prepare('SELECT COUNT(*) AS n FROM queue'),
    };
    const saved = this.#meta('salt');
    const salt = saved ? Buffer.from(saved, 'base64') : newSalt();
    if (!saved) this.#stmt.setMeta.run('salt', salt.toString('base64'));
    this.#prk = storeKey(salt);
    if (this.#meta('kdf') !== KDF) this.#rekey();
    this.#db.exec(INDEXES);
  }

  /**
   * A store sealed with another key derivation (or a new one): its records cannot be found with
   * this one, so they go and the next sync takes a snapshot; the station's own passages of scans
   * still queued (their codes are in the queue) are moved to the new slots, the rest dropped (the
   * snapshot brings them from the server).
   */
  #rekey() {
    this.#db.transaction(() => {
      // a store of version 1 had another layout of these tables too
      this.#db.exec(
        `DROP TABLE person; DROP TABLE other; DELETE FROM photo; ${PERSON_TABLE('person')}; ${OTHER_TABLE('other')}`,
      );
      const queued = this.#db.prepare('SELECT nonce, code FROM queue').all() as { nonce: string; code: string }[];
      this.#db.exec('DELETE FROM local WHERE nonce NOT IN (SELECT nonce FROM queue)');
      const move = this.#db.prepare('UPDATE local SET h = ? WHERE nonce = ?');
      for (const q of queued) move.run(derive(this.#prk, bareCode(q.code)).lookup, q.nonce);
      this.#db.prepare("DELETE FROM meta WHERE key = 'cursor'").run();
      this.#stmt.setMeta.run('kdf', KDF);
    })();
  }

  /** The store key, for sealing snapshot pages in other threads (seal-pool.ts). */
  sealKey(): Buffer {
    return this.#prk;
  }

  static open(file: string): OfflineStore {
    return new OfflineStore(file);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  // ---- rule data and sync state (in clear: nothing personal) ----

  rules(): RuleData | null {
    if (this.#rules === undefined) {
      const raw = this.#meta('rules');
      this.#rules = raw ? (JSON.parse(raw) as RuleData) : null;
    }
    return this.#rules;
  }

  cursor(): string | null {
    return this.#meta('cursor');
  }

  setCursor(cursor: string | null): void {
    if (cursor === null) this.#db.prepare('DELETE FROM meta WHERE key = ?').run('cursor');
    else this.#stmt.setMeta.run('cursor', cursor);
  }

  lastSyncAt(): number | null {
    const v = this.#meta('lastSyncAt');
    return v === null ? null : Number(v);
  }

  setLastSyncAt(at: number): void {
    this.#stmt.setMeta.run('lastSyncAt', String(at));
  }

  /** The sequence of the station's latest own scan (see `applyChanges`). */
  localSeq(): number {
    const row = this.#db.prepare('SELECT MAX(seq) AS s FROM local').get() as { s: number | null };
    return row.s ?? 0;
  }

  // ---- people ----

  /** A new full snapshot goes to a staging table; `finishSnapshot` swaps it in at once. */
  beginSnapshot(): void {
    this.#db.exec(
      `DROP TABLE IF EXISTS person_next; ${PERSON_TABLE('person_next')}; DROP TABLE IF EXISTS other_next; ${OTHER_TABLE('other_next')}`,
    );
  }

  /** A page of people (and other actions' code hashes) sealed here (small pages, tests, the bench). */
  putSnapshotPage(people: WirePerson[], others: { id: number; h: string }[] = []): void {
    this.putSealedPage(sealPage(nodeCrypto, this.#prk, people, others));
  }

  /** A page sealed with `sealKey()` (in a sealing thread): one transaction, prepared inserts. */
  putSealedPage(page: SealedPage): void {
    this.#db.transaction(() => this.#insertSealed(page, 'person_next', 'other_next'))();
  }

  #insertSealed(page: SealedPage, people: string, others: string) {
    const buf = Buffer.from(page.buffer);
    const insert = this.#db.prepare(`INSERT OR REPLACE INTO ${people} (h, id, data) VALUES (?, ?, ?)`);
    const p = page.people;
    for (let i = 0; i < p.length; i += 4)
      insert.run(buf.subarray(p[i], p[i] + 32), p[i + 3], buf.subarray(p[i + 1], p[i + 1] + p[i + 2]));
    if (!page.others.length) return;
    const other = this.#db.prepare(`INSERT OR REPLACE INTO ${others} (h, id) VALUES (?, ?)`);
    const o = page.others;
    for (let i = 0; i < o.length; i += 2) other.run(buf.subarray(o[i], o[i] + OTHER_BYTES), o[i + 1]);
  }

  /**
   * The staged snapshot replaces the people; the station's own scans recorded up to `seqAtStart`
   * are in it now (the server had them when the snapshot was read), unless still queued.
   */
  finishSnapshot(rules: RuleData, cursor: string | null, seqAtStart: number): void {
    this.#db.transaction(() => {
      this.#db.exec(
        `DROP TABLE person; ALTER TABLE person_next RENAME TO person;
         DROP TABLE other; ALTER TABLE other_next RENAME TO other; ${INDEXES}`,
      );
      this.#db.prepare('DELETE FROM local WHERE seq <= ? AND nonce NOT IN (SELECT nonce FROM queue)').run(seqAtStart);
      this.#stmt.setMeta.run('rules', JSON.stringify(rules));
      this.setCursor(cursor);
    })();
    this.#rules = rules;
  }

  /**
   * People changed since the cursor replace their records (found by id: the code may have changed),
   * deleted ones are dropped; the passages as read by the server include the station's own scans
   * up to `seqAtStart`. `others`: accreditations now in another action of the subject (their code
   * hashes replace any record of theirs).
   */
  applyChanges(
    people: WirePerson[],
    cursor: string | null,
    seqAtStart: number,
    deleted: number[] = [],
    others: { id: number; h: string }[] = [],
  ): void {
    const byId = this.#db.prepare('DELETE FROM person WHERE id = ?');
    const otherById = this.#db.prepare('DELETE FROM other WHERE id = ?');
    const forget = this.#db.prepare(
      'DELETE FROM local WHERE h = ? AND seq <= ? AND nonce NOT IN (SELECT nonce FROM queue)',
    );
    const sealed = sealPage(nodeCrypto, this.#prk, people, others);
    const buf = Buffer.from(sealed.buffer);
    this.#db.transaction(() => {
      for (const p of people) {
        byId.run(p.id);
        otherById.run(p.id);
      }
      for (const o of others) {
        byId.run(o.id);
        otherById.run(o.id);
      }
      for (const id of deleted) {
        byId.run(id);
        otherById.run(id);
      }
      this.#insertSealed(sealed, 'person', 'other');
      for (let i = 0; i < sealed.people.length; i += 4)
        forget.run(buf.subarray(sealed.people[i], sealed.people[i] + 32), seqAtStart);
      this.setCursor(cursor);
    })();
  }

  /** The person of a (normalised) code, opened with that code; null when unknown. */
  find(code: string): FoundPerson | null {
    const { lookup: h, key } = derive(this.#prk, bareCode(code));
    const row = this.#stmt.find.get(h);
    if (!row) return null;
    const plain = open(key, h, row.data);
    if (!plain) return null;
    const person = JSON.parse(plain.toString('utf8')) as WirePerson;
    let passages = person.passages;
    let credit = person.credit;
    const local = this.#stmt.local.all(h);
    if (local.length) {
      passages = [...passages];
      for (const l of local) {
        if (l.kind === KIND_PASSAGE) passages.push({ type: l.type === 1 ? 1 : 0, at: l.at });
        else credit -= l.amount;
      }
      passages.sort((a, b) => a.at - b.at);
    }
    return { person, passages, credit };
  }

  /** Whether a (normalised) code is of another action of the subject (only its hash is kept). */
  isOtherAction(code: string): boolean {
    return this.#stmt.other.get(otherSlot(this.#prk, serverOtherHash(bareCode(code)))) !== undefined;
  }

  /**
   * Keeps the photo of a person seen at the gate, sealed with the key of their code (the record's
   * key, the photo's own AAD): a stolen station shows a photo only to someone with the code. For
   * offline decisions after a restart; `url` is the photoUrl it belongs to (a new photo replaces it).
   */
  putPhoto(code: string, url: string, photo: { type: string; body: Buffer }): void {
    const { lookup: h, key } = derive(this.#prk, bareCode(code));
    const known = this.#db.prepare('SELECT 1 FROM photo WHERE h = ?').get(h);
    if (!known && (this.#db.prepare('SELECT COUNT(*) AS n FROM photo').get() as { n: number }).n >= PHOTOS_MAX) return;
    const head = Buffer.from(`${JSON.stringify({ url, type: photo.type })}\n`, 'utf8');
    const data = seal(key, Buffer.concat([h, PHOTO_AAD]), Buffer.concat([head, photo.body]));
    this.#db.prepare('INSERT OR REPLACE INTO photo (h, data) VALUES (?, ?)').run(h, data);
  }

  /** The photo kept for a code, when it is the one of `url`; null otherwise. */
  photo(code: string, url: string): { type: string; body: Buffer } | null {
    const { lookup: h, key } = derive(this.#prk, bareCode(code));
    const row = this.#db.prepare('SELECT data FROM photo WHERE h = ?').get(h) as { data: Buffer } | undefined;
    const plain = row ? open(key, Buffer.concat([h, PHOTO_AAD]), row.data) : null;
    if (!plain) return null;
    const end = plain.indexOf(10);
    const head = JSON.parse(plain.subarray(0, end).toString('utf8')) as { url: string; type: string };
    return head.url === url ? { type: head.type, body: plain.subarray(end + 1) } : null;
  }

  /** How many people the store holds. */
  count(): number {
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM person').get() as { n: number }).n;
  }

  // ---- the station's own scans ----

  /** An online decision's effects, so later offline decisions count them (D2). */
  recordOnline(code: string, nonce: string, effects: Effect[], at: number): void {
    if (!effects.some((e) => e.kind === 'passage' || e.kind === 'credit')) return;
    const h = derive(this.#prk, bareCode(code)).lookup;
    this.#db.transaction(() => this.#addEffects(h, nonce, effects, at))();
  }

  /** An offline scan: queued with its effects in one durable transaction, before the gate opens. */
  recordOffline(scan: QueuedScan, effects: Effect[]): void {
    const h = derive(this.#prk, bareCode(scan.code)).lookup;
    // FULL: the commit syncs the write-ahead log, so the scan is on disk when this returns
    this.#db.pragma('synchronous = FULL');
    try {
      this.#queueTx(h, scan, effects);
    } finally {
      this.#db.pragma('synchronous = NORMAL');
    }
  }

  #queueTx(h: Buffer, scan: QueuedScan, effects: Effect[]) {
    this.#db.transaction(() => {
      this.#stmt.enqueue.run(
        scan.nonce,
        scan.code,
        scan.direction,
        scan.scanTime,
        scan.amount,
        scan.allowed ? 1 : 0,
        scan.reason,
      );
      this.#addEffects(h, scan.nonce, effects, scan.scanTime);
    })();
  }

  queueLength(): number {
    return this.#stmt.queueLength.get()?.n ?? 0;
  }

  /** The oldest queued scans. */
  queued(limit: number): QueuedScan[] {
    const rows = this.#db
      .prepare('SELECT nonce, code, direction, scanTime, amount, allowed, reason FROM queue ORDER BY seq LIMIT ?')
      .all(limit) as (Omit<QueuedScan, 'allowed'> & { allowed: number })[];
    return rows.map((r) => ({ ...r, allowed: r.allowed === 1 }));
  }

  /** Removes the scans the server acknowledged (and only those). */
  acknowledge(nonces: string[]): void {
    const del = this.#db.prepare('DELETE FROM queue WHERE nonce = ?');
    this.#db.transaction(() => {
      for (const n of nonces) del.run(n);
    })();
  }

  // ---- internals ----

  #addEffects(h: Buffer, nonce: string, effects: Effect[], at: number) {
    for (const e of effects) {
      if (e.kind === 'passage') this.#stmt.addLocal.run(h, nonce, KIND_PASSAGE, e.type, 0, at);
      else if (e.kind === 'credit') this.#stmt.addLocal.run(h, nonce, KIND_CREDIT, 0, Math.abs(e.amount), at);
    }
  }

  #meta(key: string): string | null {
    return this.#stmt.meta.get(key)?.value ?? null;
  }
}
