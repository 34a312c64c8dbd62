import fs from 'node:fs';
import http from 'node:http';
import { ERRORS, type ErrorCode } from '@accredo/domain';
import { translate } from '@accredo/i18n';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccessGuard } from '../../common/access.guard.js';
import { DATA_CSP } from '@accredo/domain';
import { pngDataUrl } from '../../testing/images.js';
import { holdWalSyncs } from '../../testing/wal-sync.js';
import { createTestApp, TEST_DB, type TestApp } from '../../testing/test-app.js';
import { entryRules, type GateWorld, gateWorld } from './device-testing.js';
import { rawScanAnswers } from './scan-route.js';

let seq = 0;
const nonce = () => `lean-${Date.now().toString(36)}-${seq++}`;

/** The lean scan route (issue 11 speed): same answers as the Nest route, without Nest's pipeline. */
describe('POST api/device/v1/scan, the lean path', () => {
  let t: TestApp;
  let w: GateWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await gateWorld(t);
  });
  afterAll(() => t.close());

  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of ['device_scan', 'entrance', 'device_failed_scan', 'credit_transaction']) {
      out[table] = Number((await t.ds.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
    }
    out.credit = Number((await t.ds.query('SELECT COALESCE(SUM(credit), 0) AS c FROM accreditation'))[0].c);
    return out;
  };

  it('answers without the Nest guard (the Fastify handler wins) and other device routes still use it', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 0));
    const gate = await w.device('lean-guard', tpl.id);
    const eva = await w.person(1);
    const guard = vi.spyOn(AccessGuard.prototype, 'canActivate');
    try {
      const res = await w.scan(gate.token, { code: eva.bc, nonce: nonce() });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ allowed: true, reason: 'OK', replay: false });
      expect(guard).not.toHaveBeenCalled();
      expect((await t.api('GET', '/api/device/v1/config', { token: gate.token })).status).toBe(200);
      expect(guard).toHaveBeenCalled();
    } finally {
      guard.mockRestore();
    }
    // the security headers of an API answer
    const res = await w.scan(gate.token, { code: eva.bc, nonce: nonce() });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toBe(DATA_CSP);
  });

  it("the person carries the photo's file URL and the group names; a replay answers the same", async () => {
    const tpl = await w.template({
      mode: 1,
      rules: [
        { groupId: w.groups[0].id, entrances: 0 },
        { groupId: w.groups[1].id, entrances: 0 },
      ],
    });
    const gate = await w.device('lean-photo', tpl.id);
    const ann = await w.person(2, { groupIds: [w.groups[1].id, w.groups[0].id], imageData: pngDataUrl(5, 4) });
    const n = nonce();
    const res = await w.scan(gate.token, { code: ann.bc, nonce: n });
    expect(res.status).toBe(200);
    const person = res.body.data.person;
    const [first, second] = [...w.groups].sort((a, b) => a.id - b.id);
    const name = (id: number) => (id === w.groups[0].id ? 'Visitors' : 'Crew');
    expect(person.groups).toEqual([
      { id: first.id, name: name(first.id) },
      { id: second.id, name: name(second.id) },
    ]);
    expect(person.groupIds).toEqual([first.id, second.id]);
    expect(person.photoUrl).toMatch(/^\/api\/file\/[^/]+$/);
    // the URL is the photo itself, loadable by an <img> without any token
    const photo = await fetch(t.url + person.photoUrl);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(0);
    // the same file key as the admin's accreditation detail shows
    const [row] = await t.ds.query(
      'SELECT i.fileKey AS k FROM accreditation a JOIN image i ON i.id = a.imageId WHERE a.id = ?',
      [ann.id],
    );
    expect(person.photoUrl).toBe(`/api/file/${row.k}`);
    // D16: the replay answers the stored person too
    const again = await w.scan(gate.token, { code: ann.bc, nonce: n });
    expect(again.body.data).toMatchObject({
      replay: true,
      person: { photoUrl: person.photoUrl, groups: person.groups },
    });

    // no photo: null; no groups: none
    const bob = await w.person(3, { groupIds: [] });
    const plain = await w.scan(gate.token, { code: bob.bc, nonce: nonce() });
    expect(plain.body.data.person).toMatchObject({ photoUrl: null, groups: [], groupIds: [] });
    expect(plain.body.data.reason).toBe('NO_GROUP');
  });

  it('malformed input and unknown or revoked tokens: the envelope in the caller language, nothing written', async () => {
    const tpl = await w.template({ mode: 2, rules: [], globalRule: { enabled: true } });
    const gate = await w.device('lean-bad', tpl.id);
    const eva = await w.person(4);
    await w.put(`user-credit/${eva.id}`, { price: 50, type: 1 });
    const before = await counts();
    const send = (body: unknown, opts: { token?: string; raw?: string; lang?: string } = {}) =>
      t.api('POST', '/api/device/v1/scan', {
        token: 'token' in opts ? opts.token : gate.token,
        ...(opts.raw !== undefined ? { raw: opts.raw } : { body }),
        headers: { 'accept-language': opts.lang ?? 'de-DE,de;q=0.9' },
      });
    const expectError = (res: Awaited<ReturnType<typeof send>>, status: number, code: ErrorCode, lang = 'de') => {
      expect([res.status, res.body?.error?.code]).toEqual([status, code]);
      if (code === 'VALIDATION_ERROR') {
        // the fields are named, as every other route's ErrorFilter names them
        const fields = res.body.error.details.fields as { path: string; key: string }[];
        const first = fields[0];
        const named = `${translate(lang, ERRORS[code].key)}: ${first.path || '(body)'}: ${translate(lang, first.key)}`;
        expect(res.body.error.message.startsWith(named)).toBe(true);
      } else expect(res.body.error.message).toBe(translate(lang, ERRORS[code].key));
      expect(typeof res.body.error.details).toBe('object');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe(DATA_CSP);
    };
    const valid = { code: eva.bc, direction: 'entry', nonce: nonce(), amount: 10 };
    const invalid: unknown[] = [
      { ...valid, code: 'X'.repeat(100_000) },
      { ...valid, code: `${eva.bc}\u0000` },
      { ...valid, code: `AB\u0007${eva.bc}` },
      { ...valid, code: 42 },
      { ...valid, code: null },
      { ...valid, code: [eva.bc] },
      { ...valid, code: { $ne: '' } },
      { ...valid, direction: 'sideways' },
      { ...valid, direction: 1 },
      { ...valid, amount: 'lots' },
      { ...valid, amount: 1.5 },
      { ...valid, amount: 1e12 },
      { ...valid, nonce: 'x'.repeat(65) },
      { ...valid, nonce: 'a b' },
      { ...valid, nonce: 17 },
      { code: eva.bc, direction: 'entry', amount: 10 },
      { ...valid, deviceTime: 'yesterday-ish' },
      [valid],
      'just a string',
      42,
    ];
    for (const body of invalid) {
      const res = await send(body);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(Array.isArray(res.body.error.details.fields)).toBe(true);
    }
    // a device's developer reads which field was refused
    const wrongCode = await send({ ...valid, code: 42 }, { lang: 'en' });
    expect(wrongCode.body.error.message).toMatch(/^[^:]+: code: /);
    // not JSON at all, and a form body (parsed, then refused by the schema): 400 in the envelope
    expectError(await send(null, { raw: '{"code": "A' }), 400, 'BAD_REQUEST');
    const form = await t.api('POST', '/api/device/v1/scan', {
      token: gate.token,
      raw: 'code=A',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'de' },
    });
    expectError(form, 400, 'VALIDATION_ERROR');
    // no token, a wrong one, a huge one: 401 before the body is looked at
    expectError(await send(valid, { token: undefined }), 401, 'UNAUTHORIZED');
    expectError(await send(valid, { token: 'Bearer nope' }), 401, 'TOKEN_INVALID');
    expectError(await send(valid, { token: `Bearer ${'z'.repeat(5000)}`, lang: 'en' }), 401, 'TOKEN_INVALID', 'en');
    expectError(await send({ code: 42 }, { token: 'Bearer nope', lang: 'sk' }), 401, 'TOKEN_INVALID', 'sk');
    expect(await counts()).toEqual(before);

    // the same body is accepted while the token is valid (the list above failed only for its fault) …
    const ok = await send(valid);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ allowed: true, person: { credit: 40 } });
    const afterOk = await counts();
    // … and a revoked token (device deleted) is refused at once, although the token was cached
    expect((await t.api('DELETE', `/api/admin/v1/device/${gate.id}`, { token: w.admin })).status).toBe(200);
    expectError(await send({ ...valid, nonce: nonce() }), 401, 'TOKEN_INVALID');
    // a replay of the stored nonce with a revoked token is refused too
    expectError(await send(valid), 401, 'TOKEN_INVALID');
    expect(await counts()).toEqual(afterOk);
  });
  it("a plain scan is answered on Node's server before Fastify; any other request the same way by Fastify", async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 0));
    const gate = await w.device('lean-raw', tpl.id);
    const eva = await w.person(6);
    // the same scan (one nonce) four ways: the raw path, a chunked body and a query string (both
    // Fastify's), a charset in the type (raw): one decision, the rest replays of it, one row
    const n = nonce();
    const body = JSON.stringify({ code: eva.bc, nonce: n });
    const send = (opts: { path?: string; chunked?: boolean; type?: string }) =>
      new Promise<{
        status: number;
        headers: http.IncomingHttpHeaders;
        body: { data?: Record<string, unknown>; error?: { code: string } };
      }>((resolve, reject) => {
        const req = http.request(
          `${t.url}${opts.path ?? '/api/device/v1/scan'}`,
          {
            method: 'POST',
            headers: {
              authorization: gate.token,
              'content-type': opts.type ?? 'application/json',
              ...(opts.chunked ? {} : { 'content-length': Buffer.byteLength(body) }),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: JSON.parse(Buffer.concat(chunks).toString()),
              }),
            );
          },
        );
        req.on('error', reject);
        if (opts.chunked) {
          req.write(body.slice(0, 10));
          req.end(body.slice(10));
        } else req.end(body);
      });
    const before0 = rawScanAnswers.count;
    const raw = await send({});
    expect(rawScanAnswers.count).toBe(before0 + 1);
    const chunked = await send({ chunked: true });
    const query = await send({ path: '/api/device/v1/scan?x=1' });
    expect(rawScanAnswers.count).toBe(before0 + 1);
    const charset = await send({ type: 'application/json; charset=utf-8' });
    expect(rawScanAnswers.count).toBe(before0 + 2);
    for (const res of [raw, chunked, query, charset]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['content-security-policy']).toBe(DATA_CSP);
      expect(res.body.data).toMatchObject({ allowed: true, reason: 'OK', nonce: n });
    }
    expect([raw, chunked, query, charset].map((r) => r.body.data?.replay)).toEqual([false, true, true, true]);
    const rows = await t.ds.query('SELECT COUNT(*) AS n FROM device_scan WHERE nonce = ?', [n]);
    expect(Number(rows[0].n)).toBe(1);
    // Fastify's JSON parser refuses a poisoned prototype on the raw path too, writing nothing
    const before = await counts();
    const poisoned = await t.api('POST', '/api/device/v1/scan', {
      token: gate.token,
      raw: `{"code": "${eva.bc}", "nonce": "${nonce()}", "__proto__": {"x": 1}}`,
    });
    expect([poisoned.status, poisoned.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    expect(await counts()).toEqual(before);
  });

  it.runIf(TEST_DB === 'sqlite')(
    "SQLite: an answer waits for the sync of the log that holds its rows, done off the event loop; a failed sync is a 500 and the nonce's replay answers the stored decision",
    async () => {
      const tpl = await w.template(entryRules(w.groups[0].id, 0));
      const gate = await w.device('lean-durable', tpl.id);
      const eva = await w.person(5);
      const db = (t.ds.driver as unknown as { databaseConnection: { pragma(s: string, o: object): unknown } })
        .databaseConnection;
      const level = db.pragma('synchronous', { simple: true });
      const wal = `${t.config.database.type === 'sqlite' ? t.config.database.file : ''}-wal`;
      const sync = holdWalSyncs();
      const { held } = sync;
      try {
        const n = nonce();
        let answered = false;
        const pending = w.scan(gate.token, { code: eva.bc, nonce: n }).then((r) => {
          answered = true;
          return r;
        });
        await vi.waitFor(() => expect(held).toHaveLength(1));
        // the batch is committed (its rows are readable) and the level is the connection's again,
        // but nothing is answered before the log is on the disk
        const rows = await t.ds.query('SELECT COUNT(*) AS n FROM device_scan WHERE nonce = ?', [n]);
        expect(Number(rows[0].n)).toBe(1);
        expect(db.pragma('synchronous', { simple: true })).toBe(level);
        expect(answered).toBe(false);
        // it is the log's file that is synced
        expect(sync.isOf(0, wal)).toBe(true);
        sync.release(0);
        const res = await pending;
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ allowed: true, reason: 'OK', replay: false, nonce: n });

        // the disk fails the sync: the caller is not told "allowed" (500); sending again answers
        // what was stored, as a replay, and writes nothing more
        const m = nonce();
        const failing = w.scan(gate.token, { code: eva.bc, nonce: m });
        await vi.waitFor(() => expect(held).toHaveLength(2));
        sync.fail(1);
        expect((await failing).status).toBe(500);
        sync.restore();
        const again = await w.scan(gate.token, { code: eva.bc, nonce: m });
        expect(again.status).toBe(200);
        expect(again.body.data).toMatchObject({ allowed: true, replay: true, nonce: m });
        const passages = await t.ds.query('SELECT COUNT(*) AS n FROM entrance WHERE accreditationId = ?', [eva.id]);
        expect(Number(passages[0].n)).toBe(2);
      } finally {
        sync.restore();
      }
    },
  );
  it.runIf(TEST_DB === 'sqlite')(
    'SQLite: one sync of the log at a time; the batches committed while it runs wait for the next one, which covers them all',
    async () => {
      const tpl = await w.template(entryRules(w.groups[0].id, 0));
      const gate = await w.device('lean-group-sync', tpl.id);
      const people = [await w.person(7), await w.person(8), await w.person(9)];
      const held: ((e: NodeJS.ErrnoException | null) => void)[] = [];
      const real = fs.fdatasync;
      const spy = vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, done: never) => {
        held.push((e) => (e ? (done as (e: unknown) => void)(e) : real(fd, done)));
      }) as never);
      try {
        const answered: string[] = [];
        const scan = (i: number) =>
          w.scan(gate.token, { code: people[i].bc, nonce: nonce() }).then((r) => {
            answered.push(people[i].bc);
            return r;
          });
        const first = scan(0);
        await vi.waitFor(() => expect(held).toHaveLength(1));
        // two more scans, one after the other, each its own batch, while the first sync runs
        const second = scan(1);
        await vi.waitFor(async () => {
          const rows = await t.ds.query('SELECT COUNT(*) AS n FROM entrance WHERE accreditationId = ?', [people[1].id]);
          expect(Number(rows[0].n)).toBe(1);
        });
        const third = scan(2);
        await vi.waitFor(async () => {
          const rows = await t.ds.query('SELECT COUNT(*) AS n FROM entrance WHERE accreditationId = ?', [people[2].id]);
          expect(Number(rows[0].n)).toBe(1);
        });
        // committed, not synced, not answered: no second sync was started beside the first
        expect(held).toHaveLength(1);
        expect(answered).toEqual([]);
        held[0](null);
        expect((await first).status).toBe(200);
        // the next sync starts when the first returns and covers both later batches
        await vi.waitFor(() => expect(held).toHaveLength(2));
        expect(answered).toEqual([people[0].bc]);
        held[1](null);
        expect((await second).status).toBe(200);
        expect((await third).status).toBe(200);
        expect(held).toHaveLength(2);
      } finally {
        spy.mockRestore();
      }
    },
  );
});
