import { DataSource } from 'typeorm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { entryRules, type GateWorld, gateWorld } from './device-testing.js';
import { DeviceSessions } from './device-sessions.service.js';
import { GateCache, type GateDevice } from './gate-cache.service.js';

/**
 * The scan path's caches (a device's template, action and time zone; a device's token): an edit or
 * a revocation on this instance counts at once, also when it lands while the cache is reading (the
 * station's pairing reads its config while the admin gives the device its template: CI saw the
 * next scan denied; a token read just before its device was deleted kept working for 10 s).
 */
describe('the gate cache and the device tokens', () => {
  let t: TestApp;
  let w: GateWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await gateWorld(t);
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('does not keep a read that an edit overtook: the device’s new template counts at the next scan', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 0));
    const device = await w.device('race-desk');
    const eva = await w.person(1);
    const cache = t.app.get(GateCache);
    const loader = cache as unknown as { load(id: number): Promise<GateDevice> };
    const load = loader.load.bind(cache);
    // the device's rows are read, then the admin gives it its template before the read is kept
    vi.spyOn(loader, 'load').mockImplementationOnce(async (id: number) => {
      const before = await load(id);
      const res = await w.put(`device/${device.id}`, { name: 'race-desk', uid: 'race-desk', deviceTemplateId: tpl.id });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return before;
    });
    expect((await cache.get(device.id)).template).toBeNull();
    expect((await cache.get(device.id)).template?.id).toBe(tpl.id);
    const scan = await w.scan(device.token, { code: eva.bc, nonce: 'race-1' });
    expect(scan.body.data).toMatchObject({ allowed: true, person: { id: eva.id } });
  });

  it('keeps a read no edit overtook: the second call is answered from memory', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 0));
    const device = await w.device('kept-desk', tpl.id);
    const cache = t.app.get(GateCache);
    const loads = vi.spyOn(cache as unknown as { load(id: number): Promise<GateDevice> }, 'load');
    expect((await cache.get(device.id)).template?.id).toBe(tpl.id);
    expect((await cache.get(device.id)).template?.id).toBe(tpl.id);
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it('does not keep a token read that a revocation overtook: the deleted device is refused at once', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 0));
    const device = await w.device('revoked-desk', tpl.id);
    const eva = await w.person(2);
    const ds = t.app.get(DataSource);
    const query = ds.query.bind(ds);
    // the token's row is read, then the admin deletes the device before the read is kept
    vi.spyOn(ds, 'query').mockImplementationOnce(async (sql: string, params?: Parameters<DataSource['query']>[1]) => {
      const rows = await query(sql, params);
      expect((await t.api('DELETE', `/api/admin/v1/device/${device.id}`, { token: w.admin })).status).toBe(200);
      return rows;
    });
    const sessions = t.app.get(DeviceSessions);
    expect((await sessions.resolve(device.token.replace(/^Bearer /, ''))).deviceId).toBe(device.id);
    const scan = await w.scan(device.token, { code: eva.bc, nonce: 'revoked-1' });
    expect([scan.status, scan.body.error?.code]).toEqual([401, 'TOKEN_INVALID']);
  });
});
