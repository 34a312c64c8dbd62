import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DataSource } from 'typeorm';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import type { SubjectEntity } from '../subject/subject.entity.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { TrigramWorker } from '../accreditation/trigram-worker.js';
import { CheckByCode } from '../accreditation/check-by-code.js';
import type { AppError } from '../../common/app-error.js';
import { sqliteConnection } from '../../database/core-runner.js';
import { rawAdminAnswers } from './lean-admin.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

/**
 * Issue 16: GET authorization and GET user/check/{bc} answer on the lean path (lean-admin.ts),
 * with the same answers, access and errors as through Nest's pipeline.
 */
describe('lean admin routes', () => {
  let t: TestApp;
  let subject: SubjectEntity;
  let token: string;
  let person: any;
  let actionId: number;
  const admin = (method: string, path: string, tok?: string, headers?: Record<string, string>) =>
    t.api(method, `/api/admin/v1/${path}`, { token: tok, headers });

  beforeAll(async () => {
    t = await createTestApp();
    subject = await createSubject(t);
    token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    const post = async (path: string, body: unknown) => {
      const res = await t.api('POST', `/api/admin/v1/${path}`, { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data;
    };
    const phone = await post('custom-field', { name: 'phone', label: ml('Telefon'), customFieldType: 1 });
    const action = await post('action', { name: ml('Fair'), customField: [{ id: phone.id }], multiDay: false });
    actionId = action.id;
    const zoneB = await post('zone', { name: 'Hall B', actionId });
    const zoneA = await post('zone', { name: 'Hall A', actionId });
    const g2 = await post('groups', { name: 'Press', actionId });
    const g1 = await post('groups', { name: 'Crew', actionId });
    person = await post('user', {
      actionId,
      firstname: 'Eva',
      lastname: 'Nováková',
      email: 'eva@example.com',
      groupIds: [g1.id, g2.id],
      zones: [zoneA.id, zoneB.id],
      days: [],
      customField: [{ id: phone.id, value: '601 234 567' }],
    });
  });
  afterAll(() => t.close());

  it('answers the check by code as the person read through TypeORM, plus the badge read', async () => {
    const full = await admin('GET', `user/${actionId}/${person.id}`, token);
    expect(full.status).toBe(200);
    for (const code of [person.bc, person.bc.toLowerCase(), ` ${person.bc} `]) {
      const res = await admin('GET', `user/check/${encodeURIComponent(code)}`, token);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBeTruthy();
      expect(res.body).toEqual({
        data: { ...full.body.data, checked: { code: person.bc, version: 0, superseded: false } },
      });
    }
  });

  it('reads a badge version: the valid one, a superseded one, one never printed', async () => {
    const replacedAt = new Date('2026-03-01T10:00:00.123Z');
    await t.ds
      .getRepository(AccreditationEntity)
      .update({ id: person.id }, { badgeVersion: 2, badgeReplacedAt: replacedAt });
    try {
      const valid = await admin('GET', `user/check/${person.bc}-2`, token);
      expect(valid.body.data.checked).toEqual({ code: `${person.bc}-2`, version: 2, superseded: false });
      expect(valid.body.data.badgeCode).toBe(`${person.bc}-2`);
      expect(valid.body.data.badgeReplacedAt).toBe(replacedAt.toISOString());
      const old = await admin('GET', `user/check/${person.bc}`, token);
      expect(old.body.data.checked).toEqual({ code: person.bc, version: 0, superseded: true });
      expect((await admin('GET', `user/check/${person.bc}-3`, token)).body.error.code).toBe('BC_NOT_EXIST');
    } finally {
      await t.ds
        .getRepository(AccreditationEntity)
        .update({ id: person.id }, { badgeVersion: 0, badgeReplacedAt: null });
    }
  });

  it('refuses as the guard does: no token, a wrong one, no right, another subject, an unknown code', async () => {
    const none = await admin('GET', `user/check/${person.bc}`);
    expect([none.status, none.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    const wrong = await admin('GET', 'authorization', 'nope');
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'TOKEN_INVALID']);
    const reader = await loginAs(t, await createAdminUser(t, subject, { grant: [['user', 'getUser']] }));
    const denied = await admin('GET', `user/check/${person.bc}`, reader, { 'accept-language': 'de' });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'FORBIDDEN']);
    // the message in the caller's language, as ErrorFilter writes every error
    const deniedEn = await admin('GET', `user/check/${person.bc}`, reader, { 'accept-language': 'en' });
    expect(denied.body.error.message).toBeTruthy();
    expect(denied.body.error.message).not.toBe(deniedEn.body.error.message);
    expect((await admin('GET', 'authorization', reader)).status).toBe(200);
    const checker = await loginAs(t, await createAdminUser(t, subject, { grant: [['user', 'checkUser']] }));
    expect((await admin('GET', `user/check/${person.bc}`, checker)).status).toBe(200);
    const stranger = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    const other = await admin('GET', `user/check/${person.bc}`, stranger);
    expect([other.status, other.body.error.code]).toEqual([404, 'BC_NOT_EXIST']);
    for (const code of ['NOPE0000', 'not a code', 'x'.repeat(40), '%27--']) {
      const res = await admin('GET', `user/check/${encodeURIComponent(code)}`, token);
      expect([res.status, res.body.error?.code]).toEqual([404, 'BC_NOT_EXIST']);
    }
  });

  it('answers checks that arrive together as each alone, sharing statements', async () => {
    const more = [];
    for (const i of [1, 2, 3]) {
      const res = await t.api('POST', '/api/admin/v1/user', {
        token,
        body: {
          actionId,
          firstname: `P${i}`,
          lastname: 'Check',
          email: `p${i}@example.com`,
          days: [],
          customField: [],
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      more.push(res.body.data);
    }
    const strangers = await createSubject(t);
    const stranger = await loginAs(t, await createAdminUser(t, strangers, { superuser: true }));
    // each call: its caller, its code; the same code by another subject in the same batch is not found
    const calls: [string, number, string][] = [];
    for (let round = 0; round < 6; round++)
      for (const p of [person, ...more]) {
        calls.push([token, subject.id, round % 2 ? p.bc.toLowerCase() : p.bc]);
        calls.push([stranger, strangers.id, p.bc]);
      }
    calls.push([token, subject.id, 'NOPE0000'], [token, subject.id, `${person.bc}-9`]);
    const alone = [];
    for (const [tok, , code] of calls) alone.push((await admin('GET', `user/check/${code}`, tok)).body);
    expect(alone.filter((b) => b.data).length).toBe(24);
    const together = await Promise.all(calls.map(([tok, , code]) => admin('GET', `user/check/${code}`, tok)));
    expect(together.map((r) => r.body)).toEqual(alone);
    // all asked in one moment: on MariaDB the first two go alone (two statements on the server at
    // most), the other 48 together in a third (their 5 codes, upper case, padded to 8 places; a code
    // asked by two subjects read once); each answer still its own
    const checker = new CheckByCode(t.ds);
    const pool = (t.ds.driver as unknown as { pool?: { execute: (...a: unknown[]) => unknown } }).pool;
    const executes = pool ? vi.spyOn(pool, 'execute') : null;
    // SQLite: every run of a better-sqlite3 statement, with its text
    const statement = pool ? null : Object.getPrototypeOf(sqliteConnection(t.ds).prepare('SELECT 1'));
    const runs = statement ? vi.spyOn(statement, 'all') : null;
    const direct = await Promise.allSettled(calls.map(([, subjectId, code]) => checker.check(subjectId, code)));
    expect(direct.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as AppError).code))).toEqual(
      alone.map((b) => b.data ?? b.error.code),
    );
    if (executes) {
      // the checks' statements only (the mail worker's prepared reads share the pool)
      const sizes = executes.mock.calls
        .filter(([q]) => String((q as { sql?: string }).sql ?? q).includes('WHERE a.bc IN ('))
        .map(([, params]) => (params as unknown[]).length);
      expect(sizes).toEqual([1, 1, 8]);
      executes.mockRestore();
    }
    if (runs) {
      // SQLite: the first alone at the end of the turn, the other 49 (their 5 codes) in the next
      const sizes = runs.mock.contexts
        .map((st, i) => [String((st as { source: string }).source), runs.mock.calls[i][0]] as const)
        .filter(([sql]) => sql.includes('WHERE a.bc IN ('))
        .map(([, params]) => (params as unknown[]).length);
      expect(sizes).toEqual([1, 8]);
      runs.mockRestore();
    }
    // a change made before a check is seen by it, whatever checks are on the server meanwhile
    const busy = calls.map(([tok, code]) => admin('GET', `user/check/${code}`, tok));
    await t.ds.getRepository(AccreditationEntity).update({ id: more[0].id }, { printCount: 7 });
    expect((await admin('GET', `user/check/${more[0].bc}`, token)).body.data.printCount).toBe(7);
    await Promise.all(busy);
  });

  it('answers on the raw path what Fastify answers, and leaves it every unusual request', async () => {
    const headersOf = (res: { headers: Headers }) =>
      Object.fromEntries(
        ['content-type', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'content-security-policy'].map(
          (h) => [h, res.headers.get(h)],
        ),
      );
    // each request twice: as it is (raw) and with a query string the raw path never takes (Fastify)
    const cases: [string, string | undefined, Record<string, string>][] = [
      ['authorization', token, {}],
      [`user/check/${person.bc}`, token, {}],
      [`user/check/${person.bc.toLowerCase()}-0`, token, {}],
      [`user/check/${person.bc}`, undefined, { 'accept-language': 'de' }],
      ['authorization', 'nope', { 'accept-language': 'sk' }],
      ['user/check/NOPE0000', token, { 'accept-language': 'en' }],
    ];
    for (const [path, tok, headers] of cases) {
      const before = rawAdminAnswers.count;
      const raw = await admin('GET', path, tok, headers);
      expect(rawAdminAnswers.count, path).toBe(before + 1);
      const viaFastify = await admin('GET', `${path}?via=fastify`, tok, headers);
      expect(rawAdminAnswers.count, path).toBe(before + 1);
      expect([raw.status, raw.body], path).toEqual([viaFastify.status, viaFastify.body]);
      expect(headersOf(raw), path).toEqual(headersOf(viaFastify));
    }
    // what needs decoding, a parameter over 64 characters, a HEAD: Fastify's, with its answers
    const before = rawAdminAnswers.count;
    const spaced = await admin('GET', `user/check/%20${person.bc}%20`, token);
    expect(spaced.body.data.id).toBe(person.id);
    const long = await admin('GET', `user/check/${'A'.repeat(65)}`, token);
    expect([long.status, long.body.error.code]).toEqual([404, 'BC_NOT_EXIST']);
    const head = await t.api('HEAD', '/api/admin/v1/authorization', { token });
    expect(head.status).toBe(200);
    expect(rawAdminAnswers.count).toBe(before);
  });

  it('answers a warm GET authorization with no SQL statement, and a check with two on the driver', async () => {
    const ds = t.app.get(DataSource);
    // MariaDB's trigram worker polls by `ds.query` on a timer of its own: stopped and drained
    // first, so that only the requests' statements are counted
    const trigrams = t.app.get(TrigramWorker);
    trigrams.stopPolling();
    await trigrams.drain();
    expect((await admin('GET', 'authorization', token)).status).toBe(200);
    const typeorm = vi.spyOn(ds, 'query');
    const runner = vi.spyOn(ds.driver, 'createQueryRunner');
    const session = await admin('GET', 'authorization', token);
    expect(session.status).toBe(200);
    expect(session.body.data).toMatchObject({ token, superuser: true, subject: { id: subject.id } });
    expect((await admin('GET', `user/check/${person.bc}`, token)).status).toBe(200);
    expect(typeorm).not.toHaveBeenCalled();
    expect(runner).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it('sees a rights change at once', async () => {
    const user = await createAdminUser(t, subject, { grant: [['user', 'checkUser']] });
    const tok = await loginAs(t, user);
    expect((await admin('GET', `user/check/${person.bc}`, tok)).status).toBe(200);
    const res = await t.api('PUT', `/api/admin/v1/admin-user/${user.id}`, {
      token,
      body: { login: user.login, name: user.name, rights: { user: { checkUser: { is: false } } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await admin('GET', `user/check/${person.bc}`, tok)).status).toBe(403);
  });

  it('serialises the session answer once, and a new one at once after a subject or rights change', async () => {
    const own = await createSubject(t, { name: 'Before' });
    const user = await createAdminUser(t, own, { grant: [['user', 'checkUser']] });
    const tok = await loginAs(t, user);
    const boss = await loginAs(t, await createAdminUser(t, own, { superuser: true }));
    const first = await admin('GET', 'authorization', tok);
    const again = await admin('GET', 'authorization', tok);
    expect(again.body).toEqual(first.body);
    expect(first.body.data).toMatchObject({ token: tok, superuser: false, subject: { name: 'Before' } });
    expect(first.body.data.rights.user.checkUser.is).toBe(true);
    // the subject: renamed by its admin
    const subject = { name: 'After', multiLanguage: true, timeZone: 'Europe/Bratislava' };
    expect((await t.api('PUT', '/api/admin/v1/subject', { token: boss, body: subject })).status).toBe(200);
    expect((await admin('GET', 'authorization', tok)).body.data.subject).toMatchObject(subject);
    // the rights: taken away
    const rights = { login: user.login, name: user.name, rights: { user: { checkUser: { is: false } } } };
    expect((await t.api('PUT', `/api/admin/v1/admin-user/${user.id}`, { token: boss, body: rights })).status).toBe(200);
    expect((await admin('GET', 'authorization', tok)).body.data.rights.user.checkUser.is).toBe(false);
    // another session of the same user has its own token in its answer
    const second = await loginAs(t, user);
    expect((await admin('GET', 'authorization', second)).body.data.token).toBe(second);
    expect((await admin('GET', 'authorization', tok)).body.data.token).toBe(tok);
  });
});
