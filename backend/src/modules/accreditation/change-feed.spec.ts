import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { entryRules, type GateWorld, gateWorld } from '../device/device-testing.js';
import { CHANGE_KEEP_MS, DeviceProtocolService } from '../device/device-protocol.service.js';

interface Changes {
  people: { id: number; groupIds: number[]; credit: number; passages: { type: number }[] }[];
  deleted: number[];
  cursor: string | null;
  more: boolean;
  resync: boolean;
}

/**
 * The device protocol's change feed (issue 11/12): every path that changes what a gate needs is a
 * change after the cursor (the triggers of migration 1764000400000), deletes included; a cursor
 * older than the kept feed answers resync.
 */
describe('device change feed', () => {
  let t: TestApp;
  let w: GateWorld;
  let tpl: { id: number };
  let station: { token: string; id: number };
  let other: { token: string; id: number };

  const changes = async (cursor: string | null, limit = 1000): Promise<Changes> => {
    const res = await t.api('GET', `/api/device/v1/changes?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, {
      token: station.token,
    });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const cursorNow = async (): Promise<string> => {
    const res = await t.api('GET', '/api/device/v1/snapshot?limit=1', { token: station.token });
    return res.body.data.cursor;
  };

  beforeAll(async () => {
    t = await createTestApp();
    w = await gateWorld(t);
    tpl = await w.template(entryRules(w.groups[0].id, 5));
    station = await w.device('feed-1', tpl.id);
    other = await w.device('feed-2', tpl.id);
  });
  afterAll(() => t.close());

  it('a deleted person is in `deleted` after the cursor, and not again after the next cursor', async () => {
    const gone = await w.person(1);
    const stays = await w.person(2);
    const cursor = await cursorNow();
    expect((await w.post('user/delete', { actionId: w.action.id, userId: [gone.id], type: 1 })).status).toBe(200);
    const page = await changes(cursor);
    expect(page.deleted).toEqual([gone.id]);
    expect(page.people.map((p) => p.id)).not.toContain(gone.id);
    expect(page.people.map((p) => p.id)).not.toContain(stays.id);
    expect(page.resync).toBe(false);
    const next = await changes(page.cursor);
    expect(next.deleted).toEqual([]);
    expect(next.people).toEqual([]);
  });

  it('a bulk group assignment, an admin credit change, an import row and a passage at another device', async () => {
    const a = await w.person(3);
    const b = await w.person(4);
    const c = await w.person(10);
    let cursor = await cursorNow();

    // bulk: no updatedAt, only join rows
    await w.post('user/assign-groups', { actionId: w.action.id, userId: [a.id, b.id], groupsId: [w.groups[1].id] });
    let page = await changes(cursor);
    expect(page.people.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect(page.people[0].groupIds).toContain(w.groups[1].id);
    cursor = page.cursor as string;

    // an admin's credit deposit
    expect((await w.put(`user-credit/${a.id}`, { price: 70, type: 1 })).status).toBe(200);
    page = await changes(cursor);
    expect(page.people.map((p) => [p.id, p.credit])).toEqual([[a.id, 70]]);
    cursor = page.cursor as string;

    // an import row
    const tplRes = await fetch(`${t.url}/api/admin/v1/user/import/template/${w.action.id}`, {
      headers: { authorization: w.admin },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await tplRes.arrayBuffer()) as never);
    wb.worksheets[0].addRow(['Imported', 'Row', 'imported-row@example.com', 'Visitors', '', 'IMPORTED0001']);
    const dataFile = `data:application/vnd.openxmlformats-officedocument.spreadsheetml.sheet;base64,${Buffer.from(await wb.xlsx.writeBuffer()).toString('base64')}`;
    const imported = await w.post('user/import', { actionId: w.action.id, dataFile, zonesImportType: 1 });
    expect(imported.body).toEqual({ data: { imported: 1 } });
    page = await changes(cursor);
    expect(page.people.map((p) => (p as unknown as { bc: string }).bc)).toEqual(['IMPORTED0001']);
    cursor = page.cursor as string;

    // a passage at another device of the template: this station's count of it changes
    const scan = await w.scan(other.token, { code: c.bc, nonce: `feed-${Date.now()}` });
    expect(scan.body.data).toMatchObject({ allowed: true, reason: 'OK' });
    page = await changes(cursor);
    expect(page.people.map((p) => p.id)).toEqual([c.id]);
    expect(page.people[0].passages).toHaveLength(1);
  });

  it('pages with `more` and never skips a change between pages', async () => {
    const cursor = await cursorNow();
    const made = [await w.person(5), await w.person(6), await w.person(7)];
    const seen: number[] = [];
    let c: string | null = cursor;
    for (let n = 0; n < 20; n++) {
      const page = await changes(c, 1);
      seen.push(...page.people.map((p) => p.id));
      c = page.cursor;
      if (!page.more) break;
    }
    expect(new Set(seen)).toEqual(new Set(made.map((p) => p.id)));
  });

  it('a cursor older than the kept feed, or of the old updatedAt feed, answers resync', async () => {
    const cursor = await cursorNow();
    await w.person(8);
    await w.person(9);
    expect((await changes('1732540000000.4711')).resync).toBe(true);
    expect((await t.api('GET', '/api/device/v1/changes?cursor=nope', { token: station.token })).status).toBe(400);
    // a week later everything but the newest change is pruned
    const deleted = await t.app.get(DeviceProtocolService).pruneChanges(Date.now() + CHANGE_KEEP_MS + 60_000);
    const [{ n }] = await t.ds.query('SELECT COUNT(*) AS n FROM accreditation_change');
    expect(Number(n)).toBe(1);
    expect(deleted).toBeGreaterThanOrEqual(0);
    const expired = await changes(cursor);
    expect(expired).toMatchObject({ resync: true, cursor: null, people: [], deleted: [] });
    // a fresh snapshot's cursor works again
    const fresh = await changes(await cursorNow());
    expect(fresh.resync).toBe(false);
  });
});
