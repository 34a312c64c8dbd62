import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { entryRules, type GateWorld, gateWorld } from './device-testing.js';

const nonce = (() => {
  let n = 0;
  return () => `n-${Date.now().toString(36)}-${n++}`;
})();

/** Issue 11 over the API on both databases: devices, templates, pairing, scan, replay, upload, reports, tenancy. */
describe('devices and the gate', () => {
  let t: TestApp;
  let w: GateWorld;
  let other: GateWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await gateWorld(t);
    other = await gateWorld(t);
  });
  afterAll(() => t.close());

  it('rights: each admin route needs its right; another subject sees 404', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 0));
    const dev = await w.device('rights-1', tpl.id);
    const subject = { id: w.subjectId } as never;
    const onlyDevices = await loginAs(t, await createAdminUser(t, subject, { grant: [['device', 'getDevice']] }));
    const onlyTemplates = await loginAs(t, await createAdminUser(t, subject, { grant: [['deviceTemplate', 'get']] }));
    expect((await w.get('device', onlyDevices)).status).toBe(200);
    expect((await w.get('device/key', onlyDevices)).status).toBe(403);
    expect((await w.put(`device/${dev.id}`, { uid: 'x' }, onlyDevices)).status).toBe(403);
    expect((await w.get('device-template', onlyDevices)).status).toBe(403);
    expect((await w.get('device-template', onlyTemplates)).status).toBe(200);
    expect((await w.post('device-template', {}, onlyTemplates)).status).toBe(403);
    expect((await w.post('report', { type: 1 }, onlyTemplates)).status).toBe(403);
    expect((await t.api('GET', '/api/admin/v1/device')).status).toBe(401);
    // another subject's device and template are simply not there
    expect((await other.get(`device/${dev.id}`)).status).toBe(404);
    expect((await other.put(`device/${dev.id}`, { uid: 'stolen' })).status).toBe(404);
    expect((await other.get(`device-template/${tpl.id}`)).status).toBe(404);
    expect((await other.get('device')).body.data.map((d: { id: number }) => d.id)).not.toContain(dev.id);
    // nor can it use them
    const res = await other.put(`device-template/${tpl.id}`, { name: 'x', actionId: w.action.id, data: { mode: 3 } });
    expect(res.status).toBe(404);
    const foreignAction = await other.post('device-template', { name: 'x', actionId: w.action.id, data: { mode: 3 } });
    expect(foreignAction.body.error.details.fields).toEqual([{ path: 'actionId', key: 'basics.invalidValue' }]);
  });

  it('templates: spec §4 saving rules and §5 validation through the engine schema', async () => {
    const missing = await w.post('device-template', { name: 'A', actionId: w.action.id, data: { rules: [] } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.fields).toEqual([{ path: 'data.mode', key: 'basics.requireField' }]);
    const noGroup = await w.post('device-template', {
      name: 'A',
      actionId: w.action.id,
      data: { mode: 1, rules: [{ entrances: 1 }] },
    });
    expect(noGroup.body.error.details.fields).toEqual([{ path: 'data.rules.0.groupId', key: 'basics.requireField' }]);
    const foreignGroup = await w.post('device-template', {
      name: 'A',
      actionId: w.action.id,
      data: { mode: 1, rules: [{ groupId: other.groups[0].id }] },
    });
    expect(foreignGroup.body.error.details.fields).toEqual([
      { path: 'data.rules.0.groupId', key: 'basics.invalidValue' },
    ]);
    // mode 3: the global rule holds only info
    const checker = await w.template(
      { mode: 3, rules: [], globalRule: { enabled: false, entrances: 5, daily: true, levelId: 2, info: true } },
      { zoneId: w.zone.id },
    );
    expect(checker).toMatchObject({
      zoneId: w.zone.id,
      data: { mode: 3, globalRule: { enabled: true, entrances: 0, daily: false, levelId: 0, info: true } },
    });
    // mode 1: a disabled global rule is not kept; empty entrances are 0
    const reader = await w.template({
      mode: 1,
      rules: [{ groupId: w.groups[0].id, entrances: '' }],
      globalRule: { enabled: false, entrances: 2 },
    });
    expect(reader).toMatchObject({
      data: { mode: 1, globalRule: null, rules: [{ groupId: w.groups[0].id, entrances: 0 }] },
    });
    const list = await w.get(`device-template?actionId=${w.action.id}`);
    expect(list.body.data.map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining([checker.id, reader.id]));
    expect((await w.get('device-template?actionId=abc')).status).toBe(400);
    const updated = await w.put(`device-template/${reader.id}`, {
      name: 'Renamed',
      actionId: w.action.id,
      data: { mode: 1, rules: [{ groupId: w.groups[1].id, entrances: 2 }] },
    });
    expect(updated.body.data).toMatchObject({
      name: 'Renamed',
      data: { rules: [{ groupId: w.groups[1].id, entrances: 2 }] },
    });
  });

  it('pairing: the bc code gives a token; bcClear, deletion and key rotation revoke it', async () => {
    const key = (await w.get('device/key')).body.data;
    expect(key.bc).toContain(String(w.subjectId));
    expect(key.bcClear).not.toBe(key.bc);
    const bad = await t.api('POST', '/api/device/v1/pair', { body: { code: `${key.bc}x`, uid: 'p' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'DEVICE_PAIR_CODE_INVALID']);
    expect((await t.api('POST', '/api/device/v1/pair', { body: { code: key.bcClear, uid: 'p' } })).status).toBe(400);
    const noUid = await t.api('POST', '/api/device/v1/pair', { body: { code: key.bc } });
    expect(noUid.body.error.details.fields).toEqual([{ path: 'uid', key: 'basics.requireField' }]);

    const a = await w.device('pair-a');
    const config = await t.api('GET', '/api/device/v1/config', { token: a.token });
    expect(config.status).toBe(200);
    expect(config.body.data).toMatchObject({
      device: { id: a.id, uid: 'pair-a' },
      template: null,
      screen: { configured: false },
    });
    const listed = (await w.get(`device/${a.id}`)).body.data;
    expect(listed).toMatchObject({ uid: 'pair-a', paired: true, online: true, appVersion: '1.0' });

    // the same uid pairs again: same device, new token, the old one is dead
    const again = await w.device('pair-a');
    expect(again.id).toBe(a.id);
    expect((await t.api('GET', '/api/device/v1/config', { token: a.token })).body.error.code).toBe('TOKEN_INVALID');
    expect((await t.api('GET', '/api/device/v1/config', { token: again.token })).status).toBe(200);

    // bcClear scanned at the device unpairs it; another subject's clear code does not
    const otherKey = (await other.get('device/key')).body.data;
    const wrong = await t.api('POST', '/api/device/v1/unpair', {
      token: again.token,
      body: { code: otherKey.bcClear },
    });
    expect(wrong.body.error.code).toBe('DEVICE_PAIR_CODE_INVALID');
    const cleared = await t.api('POST', '/api/device/v1/unpair', { token: again.token, body: { code: key.bcClear } });
    expect(cleared.status).toBe(200);
    expect((await t.api('GET', '/api/device/v1/config', { token: again.token })).status).toBe(401);
    expect((await w.get(`device/${a.id}`)).body.data.paired).toBe(false);

    // deleting revokes
    const b = await w.device('pair-b');
    expect((await t.api('DELETE', `/api/admin/v1/device/${b.id}`, { token: w.admin })).status).toBe(200);
    expect((await t.api('GET', '/api/device/v1/config', { token: b.token })).status).toBe(401);
    expect((await w.get(`device/${b.id}`)).status).toBe(404);

    // rotating the key unpairs every device and retires the old codes
    const c = await w.device('pair-c');
    const rotated = await w.post('device/key/rotate', {});
    expect(rotated.body.data.bc).not.toBe(key.bc);
    expect((await t.api('GET', '/api/device/v1/config', { token: c.token })).status).toBe(401);
    expect((await t.api('POST', '/api/device/v1/pair', { body: { code: key.bc, uid: 'late' } })).status).toBe(400);
    const d = await w.device('pair-d');
    expect((await t.api('GET', '/api/device/v1/config', { token: d.token })).status).toBe(200);

    // uid is required and unique in the subject
    const e = await w.device('pair-e');
    expect((await w.put(`device/${e.id}`, { name: 'E' })).body.error.details.fields).toEqual([
      { path: 'uid', key: 'basics.requireField' },
    ]);
    expect((await w.put(`device/${e.id}`, { uid: 'pair-d' })).body.error.code).toBe('DEVICE_UID_EXIST');
  });

  it('scan: allowed, the entrance budget per template, exits, refusals explained, nothing for malformed input', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 2));
    const gate1 = await w.device('scan-1', tpl.id);
    const gate2 = await w.device('scan-2', tpl.id);
    const eva = await w.person(1);
    const ok = await w.scan(gate1.token, { code: `  ${eva.bc}\r\n`, nonce: nonce() });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ allowed: true, reason: 'OK', person: { id: eva.id, firstname: 'Eva1' } });
    expect(typeof ok.body.data.message).toBe('string');
    // devices sharing a template share the count (D2); an exit uses none (D1)
    expect((await w.scan(gate2.token, { code: eva.bc, nonce: nonce() })).body.data.allowed).toBe(true);
    const out = await w.scan(gate2.token, { code: eva.bc, nonce: nonce(), direction: 'exit' });
    expect(out.body.data).toMatchObject({ allowed: true, reason: 'OK_EXIT' });
    const third = await w.scan(gate1.token, { code: eva.bc, nonce: nonce() });
    expect(third.body.data).toMatchObject({ allowed: false, reason: 'ENTRANCES_USED' });
    expect(third.body.data.message.length).toBeGreaterThan(5);
    const rows = await t.ds.query(
      'SELECT type, deviceId, deviceTemplateId FROM entrance WHERE accreditationId = ? ORDER BY id',
      [eva.id],
    );
    expect(rows.map((r: { type: number }) => Number(r.type))).toEqual([1, 1, 0]);
    expect(rows.every((r: { deviceTemplateId: number }) => Number(r.deviceTemplateId) === tpl.id)).toBe(true);

    // unknown code, another subject's code, no group, no template
    expect((await w.scan(gate1.token, { code: 'NOBODY123', nonce: nonce() })).body.data.reason).toBe('NOT_FOUND');
    const foreign = await other.person(1);
    const foreignScan = await w.scan(gate1.token, { code: foreign.bc, nonce: nonce() });
    expect(foreignScan.body.data).toMatchObject({ allowed: false, reason: 'NOT_FOUND', person: null });
    const loner = await w.person(2, { groupIds: [] });
    expect((await w.scan(gate1.token, { code: loner.bc, nonce: nonce() })).body.data.reason).toBe('NO_GROUP');
    const bare = await w.device('scan-bare');
    expect((await w.scan(bare.token, { code: eva.bc, nonce: nonce() })).body.data.reason).toBe('DEVICE_NOT_CONFIGURED');

    // malformed: clear 4xx, nothing written
    const before = Number((await t.ds.query('SELECT COUNT(*) AS n FROM device_scan'))[0].n);
    const bad = [
      { code: 'X'.repeat(10_000), nonce: nonce() },
      { code: 'AB\u0000CD', nonce: nonce() },
      { code: 42, nonce: nonce() },
      { code: eva.bc, nonce: 'x'.repeat(200) },
      { code: eva.bc },
      { code: eva.bc, nonce: nonce(), direction: 'sideways' },
      { code: eva.bc, nonce: nonce(), amount: 'lots' },
    ];
    for (const body of bad) {
      const res = await w.scan(gate1.token, body);
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    const broken = await t.api('POST', '/api/device/v1/scan', { token: gate1.token, raw: '{"code": ' });
    expect(broken.status).toBe(400);
    expect((await w.scan('Bearer nope', { code: eva.bc, nonce: nonce() })).body.error.code).toBe('TOKEN_INVALID');
    expect((await w.scan('', { code: eva.bc, nonce: nonce() })).status).toBe(401);
    expect((await w.scan(w.admin, { code: eva.bc, nonce: nonce() })).status).toBe(401);
    expect(Number((await t.ds.query('SELECT COUNT(*) AS n FROM device_scan'))[0].n)).toBe(before);
  });

  it('replay: the same nonce answers the stored decision and writes nothing; another body is NONCE_CONFLICT', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 1));
    const gate = await w.device('replay-1', tpl.id);
    const eva = await w.person(3);
    const n = nonce();
    const first = await w.scan(gate.token, { code: eva.bc, nonce: n });
    expect(first.body.data).toMatchObject({ allowed: true, replay: false });
    const again = await w.scan(gate.token, { code: eva.bc, nonce: n });
    expect(again.body.data).toMatchObject({ allowed: true, reason: 'OK', replay: true, at: first.body.data.at });
    const count = async () =>
      Number((await t.ds.query('SELECT COUNT(*) AS n FROM entrance WHERE accreditationId = ?', [eva.id]))[0].n);
    expect(await count()).toBe(1);
    const conflict = await w.scan(gate.token, { code: eva.bc, nonce: n, direction: 'exit' });
    expect([conflict.status, conflict.body.error.code]).toEqual([409, 'NONCE_CONFLICT']);
    // duplicates in flight get one decision (D17)
    const m = nonce();
    const burst = await Promise.all(
      Array.from({ length: 6 }, () => w.scan(gate.token, { code: eva.bc, nonce: m, direction: 'exit' })),
    );
    expect(new Set(burst.map((r) => r.body.data.at)).size).toBe(1);
    expect(await count()).toBe(2);
    // the same nonce on another device is another scan
    const gate2 = await w.device('replay-2', tpl.id);
    expect((await w.scan(gate2.token, { code: eva.bc, nonce: n })).body.data).toMatchObject({
      reason: 'ENTRANCES_USED',
      replay: false,
    });
  });

  it('credit (D13): a type 2 transaction with the device; online never below 0', async () => {
    const tpl = await w.template({ mode: 2, rules: [], globalRule: { enabled: true } });
    const till = await w.device('till-1', tpl.id);
    const eva = await w.person(4);
    await w.put(`user-credit/${eva.id}`, { price: 100, type: 1 });
    const pay = await w.scan(till.token, { code: eva.bc, nonce: nonce(), amount: 60 });
    expect(pay.body.data).toMatchObject({ allowed: true, person: { credit: 40 } });
    const tooMuch = await w.scan(till.token, { code: eva.bc, nonce: nonce(), amount: 60 });
    expect(tooMuch.body.data).toMatchObject({ allowed: false, reason: 'CREDIT_INSUFFICIENT' });
    const tx = await t.ds.query(
      'SELECT type, price, deviceId FROM credit_transaction WHERE accreditationId = ? ORDER BY id',
      [eva.id],
    );
    expect(
      tx.map((r: Record<string, unknown>) => [
        Number(r.type),
        Number(r.price),
        r.deviceId === null ? null : Number(r.deviceId),
      ]),
    ).toEqual([
      [1, 100, null],
      [2, -60, till.id],
    ]);
    expect(Number((await t.ds.query('SELECT credit FROM accreditation WHERE id = ?', [eva.id]))[0].credit)).toBe(40);
  });

  it('upload (D20): offline deductions may go negative, down to what the balance column holds, never a 500', async () => {
    const tpl = await w.template({ mode: 2, rules: [], globalRule: { enabled: true } });
    const till = await w.device('till-offline', tpl.id);
    const eva = await w.person(6);
    const base = Date.now() - 60_000;
    const scans = [1, 2, 3].map((i) => ({
      code: eva.bc,
      nonce: `big-${i}`,
      scanTime: base + i * 1000,
      amount: 1_000_000_000,
      allowed: true,
    }));
    const res = await t.api('POST', '/api/device/v1/upload', { token: till.token, body: { scans } });
    expect(res.status).toBe(200);
    expect(res.body.data.results).toHaveLength(3);
    const credit = Number((await t.ds.query('SELECT credit FROM accreditation WHERE id = ?', [eva.id]))[0].credit);
    expect(credit).toBe(-2_147_483_647);
    // the station's retry of the same batch writes nothing more
    expect((await t.api('POST', '/api/device/v1/upload', { token: till.token, body: { scans } })).status).toBe(200);
    expect(await t.ds.query('SELECT id FROM credit_transaction WHERE accreditationId = ?', [eva.id])).toHaveLength(3);
  });

  it('upload (D20): never refused, scan-time order, unknown codes logged as failed, differences flagged', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 1));
    const station = await w.device('offline-1', tpl.id);
    const eva = await w.person(5);
    const base = Date.now() - 60_000;
    const scans = [
      // sent out of order: the later one claims allowed but the budget of 1 was used by the earlier one
      { code: eva.bc, nonce: 'off-2', scanTime: base + 2000, direction: 'entry', allowed: true },
      {
        code: eva.bc,
        nonce: 'off-1',
        scanTime: new Date(base + 1000).toISOString(),
        direction: 'entry',
        allowed: true,
      },
      { code: 'UNKNOWN999', nonce: 'off-3', scanTime: base + 3000, allowed: true },
      { code: 'bad\u0001code', nonce: 'off-4', scanTime: base + 4000 },
    ];
    const res = await t.api('POST', '/api/device/v1/upload', { token: station.token, body: { scans } });
    expect(res.status).toBe(200);
    expect(
      res.body.data.results.map((r: { nonce: string; allowed: boolean; violation: boolean }) => [
        r.nonce,
        r.allowed,
        r.violation,
      ]),
    ).toEqual([
      ['off-1', true, false],
      ['off-2', false, true],
      ['off-3', false, true],
      ['off-4', false, false],
    ]);
    expect(res.body.data).toMatchObject({ violations: 2, failed: 2 });
    const failed = await t.ds.query(
      'SELECT nonce, code, reason FROM device_failed_scan WHERE deviceId = ? ORDER BY scanAt',
      [station.id],
    );
    expect(failed).toEqual([
      { nonce: 'off-3', code: 'UNKNOWN999', reason: 'NOT_FOUND' },
      { nonce: 'off-4', code: 'badcode', reason: 'NOT_FOUND' },
    ]);
    const stored = await t.ds.query(
      'SELECT nonce, violation, offline FROM device_scan WHERE deviceId = ? ORDER BY nonce',
      [station.id],
    );
    expect(stored.map((r: Record<string, unknown>) => [r.nonce, Number(r.violation), Number(r.offline)])).toEqual([
      ['off-1', 0, 1],
      ['off-2', 1, 1],
      ['off-3', 1, 1],
      ['off-4', 0, 1],
    ]);
    // the passage keeps the scan time
    const passage = await t.ds.query('SELECT createdAt FROM entrance WHERE accreditationId = ?', [eva.id]);
    expect(passage).toHaveLength(1);
    // uploading the same batch again writes nothing
    const again = await t.api('POST', '/api/device/v1/upload', { token: station.token, body: { scans } });
    expect(again.body.data.results.every((r: { replay: boolean }) => r.replay)).toBe(true);
    expect(await t.ds.query('SELECT id FROM device_failed_scan WHERE deviceId = ?', [station.id])).toHaveLength(2);
    expect(await t.ds.query('SELECT id FROM entrance WHERE accreditationId = ?', [eva.id])).toHaveLength(1);
  });

  it('snapshot and changes: every person a page at a time, then what changed since the cursor', async () => {
    const x = await gateWorld(t);
    const tpl = await x.template(entryRules(x.groups[0].id, 3));
    const station = await x.device('snap-1', tpl.id);
    const people = [await x.person(1), await x.person(2), await x.person(3)];
    const first = await t.api('GET', '/api/device/v1/snapshot?limit=2', { token: station.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ template: { id: tpl.id, mode: 1 }, action: { id: x.action.id } });
    expect(first.body.data.people.map((p: { id: number }) => p.id)).toEqual([people[0].id, people[1].id]);
    expect(first.body.data.people[0]).toMatchObject({ bc: people[0].bc, groupIds: [x.groups[0].id], passages: [] });
    const second = await t.api('GET', `/api/device/v1/snapshot?limit=2&after=${first.body.data.next}`, {
      token: station.token,
    });
    expect(second.body.data.people.map((p: { id: number }) => p.id)).toEqual([people[2].id]);
    expect(second.body.data.next).toBeNull();
    // the people exist for more than the settle time only in the future: take all changes from 0
    const all = await t.api('GET', '/api/device/v1/changes?cursor=0.0', { token: station.token });
    expect(all.status).toBe(200);
    expect((await t.api('GET', '/api/device/v1/changes?cursor=nope', { token: station.token })).status).toBe(400);
    // a change older than the settle time is delivered once, after the cursor it is not again
    await t.ds.query('UPDATE accreditation SET updatedAt = ? WHERE id = ?', [
      t.ds.options.type === 'better-sqlite3'
        ? new Date(Date.now() - 10_000).toISOString().slice(0, 23).replace('T', ' ')
        : new Date(Date.now() - 10_000),
      people[1].id,
    ]);
    const changes = await t.api('GET', `/api/device/v1/changes?cursor=${first.body.data.cursor}`, {
      token: station.token,
    });
    expect(changes.body.data.people.map((p: { id: number }) => p.id)).toContain(people[1].id);
    const after = await t.api('GET', `/api/device/v1/changes?cursor=${changes.body.data.cursor}`, {
      token: station.token,
    });
    expect(after.body.data.people.map((p: { id: number }) => p.id)).not.toContain(people[1].id);
    // another subject's device never sees these people
    const foreign = await w.device('snap-foreign', (await w.template(entryRules(w.groups[0].id, 0))).id);
    const theirs = await t.api('GET', '/api/device/v1/snapshot?limit=2000', { token: foreign.token });
    expect(theirs.body.data.people.map((p: { id: number }) => p.id)).not.toContain(people[0].id);
  });

  it('reports: passages, counts and refusals as JSON and xlsx; entrance xlsx', async () => {
    const x = await gateWorld(t);
    const tpl = await x.template(entryRules(x.groups[0].id, 1));
    const gate = await x.device('report-1', tpl.id);
    const eva = await x.person(1);
    await x.scan(gate.token, { code: eva.bc, nonce: nonce() });
    await x.scan(gate.token, { code: eva.bc, nonce: nonce() });
    await x.scan(gate.token, { code: eva.bc, nonce: nonce(), direction: 'exit' });
    const passages = await x.post('report', { type: 1, actionId: x.action.id });
    expect(passages.status).toBe(200);
    expect(passages.body.data.rows.map((r: unknown[]) => [r[2], r[4], r[8]])).toEqual([
      ['Entry', 'Eva1', 'report-1'],
      ['Exit', 'Eva1', 'report-1'],
    ]);
    const counts = await x.post('report', { type: 2, actionId: x.action.id, deviceId: gate.id });
    expect(counts.body.data.rows.map((r: unknown[]) => r.slice(1))).toEqual([['report-1', 1, 1, 1]]);
    const refusals = await x.post('report', { type: 3 });
    expect(refusals.body.data.rows.map((r: unknown[]) => r.slice(1))).toEqual([['report-1', 'ENTRANCES_USED', 1]]);
    expect((await x.post('report', {})).body.error.details.fields).toEqual([
      { path: 'type', key: 'basics.requireField' },
    ]);
    expect((await x.post('report', { type: 1, deviceId: gate.id }, w.admin)).status).toBe(400);

    const file = await fetch(`${t.url}/api/admin/v1/report`, {
      method: 'POST',
      headers: { authorization: x.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 1, actionId: x.action.id, responseType: 'xlsx' }),
    });
    expect(file.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await file.arrayBuffer()) as never);
    const sheet = wb.worksheets[0];
    expect(sheet.getRow(1).getCell(3).value).toBe('Direction');
    expect(sheet.getRow(2).getCell(3).value).toBe('Entry');
    expect(sheet.rowCount).toBe(3);

    const entrance = await fetch(`${t.url}/api/admin/v1/report/entrance`, {
      method: 'POST',
      headers: { authorization: x.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ actionId: x.action.id }),
    });
    expect(entrance.status).toBe(200);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(Buffer.from(await entrance.arrayBuffer()) as never);
    expect(wb2.worksheets[0].rowCount).toBe(3);
    expect((await x.post('report/entrance', { actionId: w.action.id })).status).toBe(400);
  });
});
