import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lookupHash, recordKey } from './crypto.js';
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
});
