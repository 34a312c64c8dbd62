import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { entryRules, type GateWorld, gateWorld } from './device-testing.js';

/** Counts that hold under races (issue 11 "Concurrency"), on SQLite and MariaDB alike. */
describe('the gate under concurrent scans', () => {
  let t: TestApp;
  let w: GateWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await gateWorld(t);
  });
  afterAll(() => t.close());

  it('200 scans of one person at once over 4 devices sharing a template with entrances=3 let in exactly 3', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 3));
    const gates: { token: string; id: number }[] = [];
    for (let i = 0; i < 4; i++) gates.push(await w.device(`race-${i}`, tpl.id));
    const eva = await w.person(1);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => w.scan(gates[i % 4].token, { code: eva.bc, nonce: `race-${i}` })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const allowed = answers.filter((a) => a.body.data.allowed);
    expect(allowed).toHaveLength(3);
    expect(new Set(answers.filter((a) => !a.body.data.allowed).map((a) => a.body.data.reason))).toEqual(
      new Set(['ENTRANCES_USED']),
    );
    const rows = await t.ds.query('SELECT COUNT(*) AS n FROM entrance WHERE accreditationId = ? AND type = 1', [
      eva.id,
    ]);
    expect(Number(rows[0].n)).toBe(3);
    const scans = await t.ds.query('SELECT COUNT(*) AS n FROM device_scan WHERE accreditationId = ?', [eva.id]);
    expect(Number(scans[0].n)).toBe(200);
  });

  it('concurrent deductions never take a balance below 0', async () => {
    const tpl = await w.template({ mode: 2, rules: [], globalRule: { enabled: true } });
    const tills = [await w.device('till-a', tpl.id), await w.device('till-b', tpl.id)];
    const eva = await w.person(2);
    await w.put(`user-credit/${eva.id}`, { price: 100, type: 1 });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => w.scan(tills[i % 2].token, { code: eva.bc, nonce: `pay-${i}`, amount: 30 })),
    );
    expect(answers.filter((a) => a.body.data.allowed)).toHaveLength(3);
    const [row] = await t.ds.query('SELECT credit FROM accreditation WHERE id = ?', [eva.id]);
    expect(Number(row.credit)).toBe(10);
    const tx = await t.ds.query('SELECT COUNT(*) AS n FROM credit_transaction WHERE accreditationId = ? AND type = 2', [
      eva.id,
    ]);
    expect(Number(tx[0].n)).toBe(3);
  });
});
