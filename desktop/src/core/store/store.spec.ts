import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lookupHash, recordKey, serverOtherHash } from './crypto.js';
import { SealPool } from './seal-pool.js';
import { OfflineStore, type WirePerson } from './store.js';

const person = (id: number, bc: string, extra: Partial<WirePerson> = {}): WirePerson => ({
  id,
  actionId: 7,
  bc,
  groupIds: [3],
  zoneIds: [],
  days: [],
  values: { 11: 'Zlatá Koruna s.r.o.' },
  credit: 100,
  isUnlimited: false,
  meals: [],
  parking: [],
  customId: id,
  firstname: `Květoslava${id}`,
  lastname: `Nováková${id}`,
  imageId: null,
  passages: [{ type: 1, at: 1_700_000_000_000 }],
  ...extra,
});

const rules = { template: null, action: null, timeZone: 'Europe/Prague' };

describe('offline store: encryption at rest and the durable queue', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-store-'));
    file = path.join(dir, 'store.db');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds a person by code; without the code the record cannot be read; no name in the file', () => {
    const store = OfflineStore.open(file);
    store.beginSnapshot();
    store.putSnapshotPage([person(1, 'ABCDEFGH23456789'), person(2, 'QRSTUVWX23456789')]);
    store.finishSnapshot(rules, '0.0', 0);

    const found = store.find('ABCDEFGH23456789');
    expect(found?.person).toMatchObject({ id: 1, firstname: 'Květoslava1', values: { 11: 'Zlatá Koruna s.r.o.' } });
    expect(found?.passages).toEqual([{ type: 1, at: 1_700_000_000_000 }]);
    expect(store.find('QRSTUVWX23456789')?.person.lastname).toBe('Nováková2');
    // a wrong or nearly right code finds nothing (codes are case-sensitive, D18)
    expect(store.find('ABCDEFGH2345678')).toBeNull();
    expect(store.find('abcdefgh23456789')).toBeNull();
    store.close();

    // the thief's view: the rows are there, but another code's key does not open them
    const raw = new Database(file, { readonly: true });
    const salt = Buffer.from(
      (raw.prepare("SELECT value FROM meta WHERE key = 'salt'").get() as { value: string }).value,
      'base64',
    );
    const rows = raw.prepare('SELECT h, id, data FROM person ORDER BY id').all() as {
      h: Buffer;
      id: number;
      data: Buffer;
    }[];
    expect(rows.map((r) => r.id)).toEqual([1, 2]);
    expect(rows[0].h.equals(lookupHash(salt, 'ABCDEFGH23456789'))).toBe(true);
    const tryOpen = (key: Buffer, sealed: Buffer, aad: Buffer) => {
      try {
        const d = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
        d.setAAD(aad);
        d.setAuthTag(sealed.subarray(sealed.length - 16));
        return Buffer.concat([d.update(sealed.subarray(12, sealed.length - 16)), d.final()]).toString();
      } catch {
        return null;
      }
    };
    expect(tryOpen(recordKey(salt, 'QRSTUVWX23456789'), rows[0].data, rows[0].h)).toBeNull();
    expect(tryOpen(recordKey(salt, 'ABCDEFGH23456789'), rows[0].data, rows[0].h)).toContain('Květoslava1');
    raw.close();

    // the file's bytes (database and write-ahead log) hold no name, company or code in clear
    const bytes = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))));
    for (const secret of ['Květoslava', 'Nováková', 'Zlatá Koruna', 'ABCDEFGH23456789', 'QRSTUVWX23456789']) {
      expect(bytes.includes(Buffer.from(secret, 'utf8'))).toBe(false);
    }
    expect(bytes.includes(Buffer.from('Europe/Prague'))).toBe(true); // rule data stays in clear
  });

  it('changes replace a record found by id (a new code retires the old one)', () => {
    const store = OfflineStore.open(file);
    store.beginSnapshot();
    store.putSnapshotPage([person(1, 'OLDCODE234567')]);
    store.finishSnapshot(rules, '0.0', 0);
    store.applyChanges([person(1, 'NEWCODE234567', { firstname: 'Renamed' }), person(3, 'THIRD2345')], '5.3', 0);
    expect(store.find('OLDCODE234567')).toBeNull();
    expect(store.find('NEWCODE234567')?.person.firstname).toBe('Renamed');
    expect(store.find('THIRD2345')?.person.id).toBe(3);
    expect(store.cursor()).toBe('5.3');
    expect(store.count()).toBe(2);
    store.close();
  });

  it('the queue and the own scans survive a restart; only acknowledged scans leave it', () => {
    let store = OfflineStore.open(file);
    store.beginSnapshot();
    store.putSnapshotPage([person(1, 'ABCDEFGH23456789', { passages: [] })]);
    store.finishSnapshot(rules, '0.0', 0);
    const scan = (nonce: string, scanTime: number) => ({
      nonce,
      code: 'ABCDEFGH23456789',
      direction: 'entry' as const,
      scanTime,
      amount: null,
      allowed: true,
      reason: 'OK',
    });
    store.recordOffline(scan('n-1', 1000), [{ kind: 'passage', type: 1, day: '2026-11-25' }]);
    store.recordOffline(scan('n-2', 2000), [{ kind: 'credit', amount: 30, balanceAfter: 70 }]);
    store.recordOffline({ ...scan('n-3', 3000), code: 'UNKNOWN', allowed: false, reason: 'NOT_FOUND' }, []);
    expect(() => store.recordOffline(scan('n-1', 4000), [])).toThrow(); // a nonce is queued once
    store.close(); // the station is switched off

    store = OfflineStore.open(file);
    expect(store.queueLength()).toBe(3);
    expect(store.queued(10).map((s) => [s.nonce, s.allowed, s.reason])).toEqual([
      ['n-1', true, 'OK'],
      ['n-2', true, 'OK'],
      ['n-3', false, 'NOT_FOUND'],
    ]);
    const found = store.find('ABCDEFGH23456789');
    expect(found?.passages).toEqual([{ type: 1, at: 1000 }]);
    expect(found?.credit).toBe(70);
    store.acknowledge(['n-1', 'n-3', 'not-mine']);
    expect(store.queued(10).map((s) => s.nonce)).toEqual(['n-2']);
    // a new snapshot holds the acknowledged scan's passage now; the still queued deduction stays local
    store.beginSnapshot();
    store.putSnapshotPage([person(1, 'ABCDEFGH23456789', { passages: [{ type: 1, at: 1000 }] })]);
    store.finishSnapshot(rules, '9.9', store.localSeq());
    const after = store.find('ABCDEFGH23456789');
    expect(after?.passages).toEqual([{ type: 1, at: 1000 }]);
    expect(after?.credit).toBe(70);
    store.close();
  });

  it("pages sealed in the sealing threads open like pages sealed here; other actions' codes are only hashes", async () => {
    const store = OfflineStore.open(file);
    // large enough for the threads (a small page is sealed in this thread)
    const people = Array.from({ length: 600 }, (_, i) => person(i + 1, `THREAD${String(i).padStart(10, '0')}`));
    const others = [{ id: 9001, h: serverOtherHash('ELSEWHERE2345678') }];
    const page = (list: WirePerson[], other: typeof others, next: number | null) =>
      JSON.stringify({ data: { template: null, action: null, timeZone: 'UTC', people: list, others: other, next } });
    const pool = new SealPool(store.sealKey(), 2);
    try {
      const text = page(people.slice(0, 300), others, 300);
      expect(text.length).toBeGreaterThan(64 * 1024);
      const first = pool.seal(text);
      const second = pool.seal(page(people.slice(300), [], null));
      expect(await first.meta).toEqual({ template: null, action: null, timeZone: 'UTC', next: 300 });
      expect((await second.meta).next).toBeNull();
      store.beginSnapshot();
      store.putSealedPage(await first.sealed);
      store.putSealedPage(await second.sealed);
      // the same function in this thread, for a small page
      store.putSnapshotPage([person(700, 'SMALLPAGE2345678')]);
      store.finishSnapshot(rules, '1', 0);
      // a broken page is an error of its job, not of the station
      await expect(pool.seal(`{"data": {"people": 1}}${' '.repeat(70_000)}`).meta).rejects.toThrow(/snapshot page/);
    } finally {
      await pool.close();
    }
    expect(store.count()).toBe(601);
    expect(store.find('THREAD0000000000')?.person.firstname).toBe('Květoslava1');
    expect(store.find('THREAD0000000599')?.person.lastname).toBe('Nováková600');
    expect(store.find('SMALLPAGE2345678')?.person.id).toBe(700);
    expect(store.find('ELSEWHERE2345678')).toBeNull();
    expect(store.isOtherAction('ELSEWHERE2345678')).toBe(true);
    expect(store.isOtherAction('THREAD0000000000')).toBe(false);
    expect(store.isOtherAction('NOBODY23456789')).toBe(false);
    // changes: the other action's person moves here, one of ours moves away
    store.applyChanges(
      [person(9001, 'ELSEWHERE2345678')],
      '2',
      0,
      [1],
      [{ id: 1, h: serverOtherHash('THREAD0000000000') }],
    );
    expect(store.find('ELSEWHERE2345678')?.person.id).toBe(9001);
    expect(store.isOtherAction('ELSEWHERE2345678')).toBe(false);
    expect(store.find('THREAD0000000000')).toBeNull();
    expect(store.isOtherAction('THREAD0000000000')).toBe(true);
    // gone altogether
    store.applyChanges([], '3', 0, [1]);
    expect(store.isOtherAction('THREAD0000000000')).toBe(false);
    store.close();
    const bytes = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))));
    for (const secret of ['Květoslava', 'THREAD0000000000', 'ELSEWHERE2345678', others[0].h])
      expect(bytes.includes(Buffer.from(secret, 'utf8'))).toBe(false);
  });

  it('a store of the old key derivation is emptied for a new snapshot; queued scans keep their own passages', () => {
    // the layout and derivation of version 1: per-code extract, WITHOUT ROWID table keyed by h
    const old = new Database(file);
    old.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE person (h BLOB PRIMARY KEY, id INTEGER NOT NULL, data BLOB NOT NULL) WITHOUT ROWID;
      CREATE TABLE local (seq INTEGER PRIMARY KEY AUTOINCREMENT, h BLOB NOT NULL, nonce TEXT NOT NULL,
        kind INTEGER NOT NULL, type INTEGER NOT NULL, amount INTEGER NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE queue (seq INTEGER PRIMARY KEY AUTOINCREMENT, nonce TEXT NOT NULL UNIQUE, code TEXT NOT NULL,
        direction TEXT NOT NULL, scanTime INTEGER NOT NULL, amount INTEGER, allowed INTEGER NOT NULL, reason TEXT NOT NULL);`);
    old
      .prepare("INSERT INTO meta VALUES ('salt', ?), ('cursor', '77'), ('rules', ?)")
      .run(Buffer.alloc(32, 7).toString('base64'), JSON.stringify(rules));
    old.prepare('INSERT INTO person VALUES (?, 1, ?)').run(Buffer.alloc(32, 1), Buffer.alloc(40, 2));
    old
      .prepare(
        "INSERT INTO local (h, nonce, kind, type, amount, at) VALUES (?, 'q-1', 1, 1, 0, 500), (?, 'o-1', 1, 1, 0, 400)",
      )
      .run(Buffer.alloc(32, 3), Buffer.alloc(32, 4));
    old
      .prepare(
        "INSERT INTO queue (nonce, code, direction, scanTime, amount, allowed, reason) VALUES ('q-1', 'ABCDEFGH23456789', 'entry', 500, NULL, 1, 'OK')",
      )
      .run();
    old.close();

    const store = OfflineStore.open(file);
    expect(store.count()).toBe(0);
    expect(store.cursor()).toBeNull(); // the next sync takes a snapshot
    expect(store.queueLength()).toBe(1);
    store.beginSnapshot();
    store.putSnapshotPage([person(1, 'ABCDEFGH23456789', { passages: [] })]);
    store.finishSnapshot(rules, '78', 0);
    // the queued scan's passage counts under the new slot; the other (online, acknowledged) went
    expect(store.find('ABCDEFGH23456789')?.passages).toEqual([{ type: 1, at: 500 }]);
    store.close();
    const again = OfflineStore.open(file);
    expect(again.count()).toBe(1); // opened again: nothing emptied twice
    again.close();
  });

  it("keeps a seen person's photo sealed under their code, for the photo URL it belongs to", () => {
    const store = OfflineStore.open(file);
    const jpeg = Buffer.concat([Buffer.from('JFIF-KVETOSLAVA-PORTRAIT'), Buffer.alloc(2000, 7)]);
    store.putPhoto('ABCDEFGH23456789', '/api/file/k1', { type: 'image/jpeg', body: jpeg });
    expect(store.photo('ABCDEFGH23456789', '/api/file/k1')).toEqual({ type: 'image/jpeg', body: jpeg });
    expect(store.photo('ABCDEFGH23456789', '/api/file/k2')).toBeNull(); // another photo now
    expect(store.photo('QRSTUVWX23456789', '/api/file/k1')).toBeNull(); // another code
    // a new photo replaces the kept one
    store.putPhoto('ABCDEFGH23456789', '/api/file/k2', { type: 'image/png', body: Buffer.from('PNG') });
    expect(store.photo('ABCDEFGH23456789', '/api/file/k2')?.body.toString()).toBe('PNG');
    store.putPhoto('ABCDEFGH23456789', '/api/file/k1', { type: 'image/jpeg', body: jpeg });
    store.close();
    const reopened = OfflineStore.open(file);
    expect(reopened.photo('ABCDEFGH23456789', '/api/file/k1')?.type).toBe('image/jpeg');
    reopened.close();
    const bytes = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))));
    for (const secret of ['JFIF-KVETOSLAVA-PORTRAIT', '/api/file/k1', 'image/jpeg'])
      expect(bytes.includes(Buffer.from(secret, 'utf8'))).toBe(false);
  });
});
