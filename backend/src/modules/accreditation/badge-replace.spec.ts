import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPageCodes } from '../../testing/pdf.js';
import { createAdminUser, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { entryRules, type GateWorld, gateWorld } from '../device/device-testing.js';
import { MailContexts } from '../mail/mail-render.js';
import { BadgePdfService } from '../pdf/badge-pdf.service.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { AccreditationEntity } from './accreditation.entity.js';

let n = 0;
const nonce = () => `badge-${Date.now().toString(36)}-${n++}`;

interface PrintEntry {
  date: string;
  adminUser: string | null;
  badgeVersion: number;
  retiredVersion: number | null;
}

/**
 * Issue 13 "a reprint can retire the old badge" on both databases (docs/access-control.md "Badge
 * versions"): print with replace → the old code is refused at the gate (BADGE_SUPERSEDED) while the
 * new one enters; an ordinary reprint keeps the code; the history shows the retirement; the PDF's QR
 * carries the new code; the check page and the station's data know the version.
 */
describe('reprint that retires the old badge', () => {
  let t: TestApp;
  let w: GateWorld;
  let gate: { token: string; id: number };
  let template: { id: number };
  let admin: string;

  const print = (body: Record<string, unknown>, token = admin) =>
    t.api('POST', '/api/admin/v1/user/print', {
      token,
      body: { actionId: w.action.id, ...body },
      headers: { 'accept-language': 'en' },
    });
  const scan = (code: string, direction: 'entry' | 'exit' = 'entry') =>
    t.api('POST', '/api/device/v1/scan', {
      token: gate.token,
      body: { code, direction, nonce: nonce() },
      headers: { 'accept-language': 'en' },
    });
  const row = (id: number) => t.ds.getRepository(AccreditationEntity).findOneByOrFail({ id });
  const prints = async (id: number): Promise<PrintEntry[]> => {
    const res = await t.api('POST', '/api/admin/v1/user/filter', {
      token: admin,
      body: { actionId: w.action.id, page: 1, pageSize: 50, filterData: {} },
    });
    expect(res.status).toBe(200);
    const found = (res.body.data as { id: number; history: { print: PrintEntry[] } }[]).find((r) => r.id === id);
    return found?.history.print ?? [];
  };

  beforeAll(async () => {
    t = await createTestApp();
    w = await gateWorld(t);
    const subject = await t.ds.getRepository(SubjectEntity).findOneByOrFail({ id: w.subjectId });
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true, name: 'Desk Dana' }));
    template = (
      await w.post('template', {
        name: 'Badge',
        pageSize: 'A6',
        htmlData: '<h1>{{firstname}}</h1>{{bc}}<a href="{{smartLink}}">me</a>',
      })
    ).body.data;
    expect(template.id).toBeGreaterThan(0);
    const group = w.groups[0];
    const res = await w.put(`groups/${group.id}`, {
      name: 'Visitors',
      actionId: w.action.id,
      adminTemplateId: template.id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    gate = await w.device('replace-gate', (await w.template(entryRules(group.id, 0))).id);
  });
  afterAll(() => t.close());

  it('an ordinary reprint keeps the code: the badge enters, the history has no retirement', async () => {
    const eva = await w.person(1);
    for (let i = 0; i < 2; i++) expect((await print({ userId: [eva.id] })).body.printed).toBe(1);
    // older clients send no `replace`; false is the same
    expect((await print({ userId: [eva.id], replace: false })).body.printed).toBe(1);
    expect(await row(eva.id)).toMatchObject({ badgeVersion: 0, badgeReplacedAt: null, printCount: 3 });
    expect((await scan(eva.bc)).body.data).toMatchObject({ allowed: true, reason: 'OK' });
    const history = await prints(eva.id);
    expect(history).toHaveLength(3);
    for (const p of history) expect(p).toMatchObject({ badgeVersion: 0, retiredVersion: null, adminUser: 'Desk Dana' });
  });

  it('print with replace: the old code is refused with BADGE_SUPERSEDED everywhere, the new one enters', async () => {
    const adam = await w.person(2);
    const res = await print({ userId: [adam.id], replace: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.printed).toBe(1);
    // the badge printed carries the new code: the smart link shows it as text
    expect(res.body.data).toContain(`/cid/${adam.bc}-1"`);
    const after = await row(adam.id);
    expect(after.badgeVersion).toBe(1);
    expect(after.badgeReplacedAt).toBeInstanceOf(Date);

    const old = await scan(adam.bc);
    expect(old.status).toBe(200);
    expect(old.body.data).toMatchObject({
      allowed: false,
      reason: 'BADGE_SUPERSEDED',
      data: { version: 0, current: 1 },
      person: { id: adam.id },
    });
    expect(old.body.data.data.retiredTime).toMatch(/^\d\d:\d\d$/);
    expect(old.body.data.message).toMatch(
      /^Badge version 0 was replaced by a newer one on .+ at \d\d:\d\d \(valid version 1\)$/,
    );
    // not a credential at all: no exit either, and nothing was written for it
    expect((await scan(adam.bc, 'exit')).body.data.reason).toBe('BADGE_SUPERSEDED');
    expect((await scan(`${adam.bc}-1`)).body.data).toMatchObject({ allowed: true, reason: 'OK' });
    // a version never printed is a forged code
    expect((await scan(`${adam.bc}-2`)).body.data).toMatchObject({ allowed: false, reason: 'NOT_FOUND' });
    const passages = await t.ds.query('SELECT type FROM entrance WHERE accreditationId = ?', [adam.id]);
    expect(passages.map((p: { type: number }) => Number(p.type))).toEqual([1]);

    // an ordinary reprint now prints the valid (versioned) code again
    const again = await print({ userId: [adam.id] });
    expect(again.body.data).toContain(`/cid/${adam.bc}-1"`);
    expect((await row(adam.id)).badgeVersion).toBe(1);

    // the history: which badge was retired, when and by whom
    const [reprint, replaced] = await prints(adam.id);
    expect(reprint).toMatchObject({ badgeVersion: 1, retiredVersion: null });
    expect(replaced).toMatchObject({ badgeVersion: 1, retiredVersion: 0, adminUser: 'Desk Dana' });
    expect(Math.abs(Date.parse(replaced.date) - (after.badgeReplacedAt as Date).getTime())).toBeLessThan(1000);

    // the detail shows the valid code
    const detail = await t.api('GET', `/api/admin/v1/user/${w.action.id}/${adam.id}`, { token: admin });
    expect(detail.body.data).toMatchObject({ bc: adam.bc, badgeVersion: 1, badgeCode: `${adam.bc}-1` });
  });

  it('a mail carries the valid badge: its {{bc}} is the versioned code once the badge was replaced', async () => {
    const mia = await w.person(10);
    const contexts = new MailContexts(t.ds, t.url);
    expect((await contexts.forAccreditations(w.subjectId, [await row(mia.id)])).get(mia.id)?.bc).toBe(mia.bc);
    await print({ userId: [mia.id], replace: true });
    expect((await contexts.forAccreditations(w.subjectId, [await row(mia.id)])).get(mia.id)?.bc).toBe(`${mia.bc}-1`);
  });

  it('offline scans replayed later (D20): the old badge was valid before its replacement, not after', async () => {
    const ola = await w.person(11);
    const before = Date.now() - 60_000;
    await print({ userId: [ola.id], replace: true });
    const after = Date.now() + 1;
    const scans = [
      { code: ola.bc, direction: 'entry', nonce: nonce(), scanTime: before, allowed: true },
      { code: ola.bc, direction: 'entry', nonce: nonce(), scanTime: after, allowed: true },
    ];
    const res = await t.api('POST', '/api/device/v1/upload', { token: gate.token, body: { scans } });
    expect(res.status).toBe(200);
    expect(res.body.data.results.map((r: { reason: string; violation: boolean }) => [r.reason, r.violation])).toEqual([
      ['OK', false],
      ['BADGE_SUPERSEDED', true],
    ]);
  });

  it('the check page reads versioned codes and says when a badge is superseded', async () => {
    const ivo = await w.person(3);
    await print({ userId: [ivo.id], replace: true });
    await print({ userId: [ivo.id], replace: true });
    const check = (code: string) =>
      t.api('GET', `/api/admin/v1/user/check/${encodeURIComponent(code)}`, { token: admin });
    expect((await check(ivo.bc)).body.data).toMatchObject({
      id: ivo.id,
      badgeVersion: 2,
      checked: { code: ivo.bc, version: 0, superseded: true },
    });
    expect((await check(`${ivo.bc}-1`)).body.data.checked).toEqual({
      code: `${ivo.bc}-1`,
      version: 1,
      superseded: true,
    });
    expect((await check(`${ivo.bc}-2`)).body.data.checked).toEqual({
      code: `${ivo.bc}-2`,
      version: 2,
      superseded: false,
    });
    const forged = await check(`${ivo.bc}-3`);
    expect(forged.status).toBe(404);
    expect(forged.body.error.code).toBe('BC_NOT_EXIST');
    // the history lists both retirements, newest first
    expect((await prints(ivo.id)).map((p) => p.retiredVersion)).toEqual([1, 0]);
  });

  it('a replace that is not a boolean is a 400 naming the field, and nothing is printed', async () => {
    const ota = await w.person(4);
    const res = await print({ userId: [ota.id], replace: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error.details)).toContain('replace');
    expect(await row(ota.id)).toMatchObject({ printCount: 0, badgeVersion: 0 });
  });

  it('the station gets the version: snapshot rows carry it, and the replacement is a change after the cursor', async () => {
    const lea = await w.person(5);
    const snap = await t.api('GET', '/api/device/v1/snapshot?limit=2000', { token: gate.token });
    expect(snap.status).toBe(200);
    const before = (snap.body.data.people as { id: number }[]).find((p) => p.id === lea.id);
    expect(before).toMatchObject({ badgeVersion: 0, badgeReplacedAt: null });
    const [{ hi }] = await t.ds.query('SELECT MAX(id) AS hi FROM accreditation_change');
    await print({ userId: [lea.id], replace: true });
    const changes = await t.api('GET', `/api/device/v1/changes?cursor=${Number(hi)}`, { token: gate.token });
    expect(changes.status).toBe(200);
    const changed = (changes.body.data.people as { id: number; badgeVersion: number; badgeReplacedAt: number }[]).find(
      (p) => p.id === lea.id,
    );
    expect(changed?.badgeVersion).toBe(1);
    expect(typeof changed?.badgeReplacedAt).toBe('number');
  });

  it('PDF with replace: the QR decodes to the new versioned code, the old badge is refused', async () => {
    const pdfPerson = await w.person(6);
    const res = await fetch(`${t.url}/api/admin/v1/user/print`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ actionId: w.action.id, userId: [pdfPerson.id], type: 'pdf', replace: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(await pdfPageCodes(Buffer.from(await res.arrayBuffer()))).toEqual([`${pdfPerson.bc}-1`]);
    expect((await scan(pdfPerson.bc)).body.data.reason).toBe('BADGE_SUPERSEDED');
    expect((await scan(`${pdfPerson.bc}-1`)).body.data.reason).toBe('OK');
    // an ordinary PDF reprint keeps that code
    const plain = await fetch(`${t.url}/api/admin/v1/user/print`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ actionId: w.action.id, userId: [pdfPerson.id], type: 'pdf' }),
    });
    expect(await pdfPageCodes(Buffer.from(await plain.arrayBuffer()))).toEqual([`${pdfPerson.bc}-1`]);
    expect((await row(pdfPerson.id)).badgeVersion).toBe(1);
  });

  it('a PDF job with replace gives every printed person the next version', async () => {
    const pdf = t.app.get(BadgePdfService);
    const people = [await w.person(7), await w.person(8), await w.person(9)];
    await print({ userId: [people[0].id], replace: true });
    const saved = pdf.syncMax;
    pdf.syncMax = 1;
    try {
      const res = await print({ userId: people.map((p) => p.id), type: 'pdf', replace: true });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      await pdf.flush();
      const job = await t.api('GET', `/api/admin/v1/user/print/job/${res.body.data.id}`, { token: admin });
      expect(job.body.data).toMatchObject({ state: 'done', printed: 3 });
      const file = await fetch(`${t.url}/api/admin/v1/user/print/job/${res.body.data.id}/file`, {
        headers: { authorization: admin },
      });
      expect(await pdfPageCodes(Buffer.from(await file.arrayBuffer()))).toEqual([
        `${people[0].bc}-2`,
        `${people[1].bc}-1`,
        `${people[2].bc}-1`,
      ]);
    } finally {
      pdf.syncMax = saved;
    }
    expect((await Promise.all(people.map((p) => row(p.id)))).map((r) => r.badgeVersion)).toEqual([2, 1, 1]);
    expect((await scan(`${people[0].bc}-1`)).body.data.reason).toBe('BADGE_SUPERSEDED');
  });
});
