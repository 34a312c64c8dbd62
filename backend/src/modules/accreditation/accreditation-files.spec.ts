import ExcelJS from 'exceljs';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Logger } from '@nestjs/common';
import { onPooledConnection, sentDuring } from '../../testing/pool.js';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  TEST_DB,
  type TestApp,
} from '../../testing/test-app.js';
import {
  IMPORT_MAX_BYTES,
  IMPORT_SLOTS,
  importSlots,
  stopParser,
  WriteAhead,
  waitingParser,
} from './accreditation-import.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

describe('accreditation import and export (spec §5 Import, §8 Import codes)', () => {
  let t: TestApp;
  let admin: string;
  let action: { id: number };
  const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token: admin, body });

  async function sheet(rows: unknown[][]): Promise<string> {
    const res = await fetch(`${t.url}/api/admin/v1/user/import/template/${action.id}`, {
      headers: { authorization: admin },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0];
    for (const r of rows) ws.addRow(r);
    return `data:application/vnd.openxmlformats-officedocument.spreadsheetml.sheet;base64,${Buffer.from(await wb.xlsx.writeBuffer()).toString('base64')}`;
  }
  const count = async () => (await post('user/all', { actionId: action.id, page: 1, pageSize: 1 })).body.max;

  /** The template with `rows` under its header, as bytes. */
  async function sheetFile(rows: unknown[][]): Promise<Buffer> {
    const dataUrl = await sheet(rows);
    return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  }

  /** POST user/import/file: the options as form fields, then the file (as the web app sends it). */
  async function upload(file: Buffer | Blob, fields: Record<string, string | number>, name = 'people.xlsx') {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
    form.append('dataFile', file instanceof Blob ? file : new Blob([new Uint8Array(file)]), name);
    const res = await fetch(`${t.url}/api/admin/v1/user/import/file`, {
      method: 'POST',
      headers: { authorization: admin, 'accept-language': 'en' },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    const size = (
      await post('custom-field', {
        name: 'size',
        label: ml('Size'),
        customFieldType: 4,
        options: [{ value: 'S' }, { value: 'M' }],
      })
    ).body.data;
    const vip = (await post('custom-field', { name: 'vip', label: ml('VIP'), customFieldType: 7 })).body.data;
    const note = (await post('custom-field', { name: 'note', label: ml('Note'), customFieldType: 1 })).body.data;
    action = (
      await post('action', {
        name: ml('Import'),
        customField: [{ id: size.id, isMandatory: true }, { id: vip.id }, { id: note.id }],
      })
    ).body.data;
    const zone = (await post('zone', { name: 'Hall', actionId: action.id })).body.data;
    await post('groups', { name: 'Crew', actionId: action.id, zoneId: [zone.id] });
  });
  afterAll(() => t.close());

  it('serves a template whose columns follow the action’s user fields', async () => {
    const res = await fetch(`${t.url}/api/admin/v1/user/import/template/${action.id}`, {
      headers: { authorization: admin },
    });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toContain(`import-${action.id}.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.arrayBuffer()) as never);
    expect((wb.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual([
      'First name',
      'Last name',
      'E-mail',
      'Group',
      'Zones',
      'Code',
      'size',
      'vip',
      'note',
      'Photo (file name)',
      'Language (cs, sk, en, de)',
    ]);
  });

  it('imports nothing when any row is wrong, and lists every error with its row', async () => {
    const dataFile = await sheet([
      ['Ann', 'Good', 'ann@example.com', 'Crew', '', '', 'M', 'yes', ''],
      ['', 'NoFirst', 'x@example.com', '', '', '', 'S', '', ''],
      ['Bob', 'Bad', 'bob@example.com', 'Nobody', 'Nowhere', '', 'XL', '', ''],
      ['Cy', 'Dup', 'ann@example.com', '', '', '', 'S', '', ''],
      ['Dee', 'Empty', '', '', '', '', '', '', ''],
    ]);
    const res = await post('user/import', { actionId: action.id, dataFile, zonesImportType: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('IMPORT_FAILED');
    expect(res.body.error.details.rows).toEqual([
      { row: 3, code: 'EMPTY_FIRSTNAME_ON_ROW_' },
      { row: 4, code: 'GROUP_INVALID_ON_ROW_' },
      { row: 4, code: 'ZONE_DOESNT_EXIST_ON_ROW_' },
      { row: 4, code: 'INVALID_CUSTOM_FIELD_VALUE_ON_ROW_' },
      { row: 5, code: 'EMAIL_EXIST_ON_ROW_' },
      { row: 6, code: 'EMPTY_EMAIL_ON_ROW_' },
      { row: 6, code: 'CUSTOM_FIELD_MANDATORY_ON_ROW_' },
    ]);
    expect(await count()).toBe(0);
  });

  it('imports every row of a good file with groups, zones from the group, and typed values', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => [
      `P${i}`,
      `L${i}`,
      `p${i}@example.com`,
      i % 2 ? 'Crew' : '',
      '',
      i === 0 ? 'MYCODE0001' : '',
      i % 2 ? 'M' : 'S',
      i % 3 ? 'ano' : '',
      i === 1 ? '=1+1' : 'note',
    ]);
    const res = await post('user/import', { actionId: action.id, dataFile: await sheet(rows), zonesImportType: 2 });
    expect(res.body).toEqual({ data: { imported: 250 } });
    expect(await count()).toBe(250);
    const first = (await t.api('GET', '/api/admin/v1/user/check/MYCODE0001', { token: admin })).body.data;
    expect(first).toMatchObject({ firstname: 'P0', customId: 1 });
    const crew = (
      await post('user/filter', { actionId: action.id, page: 1, pageSize: 10, filterData: { text: 'p1@example.com' } })
    ).body.data[0];
    expect(crew.groups.map((g: { name: string }) => g.name)).toEqual(['Crew']);
    expect(crew.zones.map((z: { name: string }) => z.name)).toEqual(['Hall']);

    const again = await post('user/import', {
      actionId: action.id,
      dataFile: await sheet([['Z', 'Z', 'z@example.com', '', '', 'MYCODE0001', 'S', '', '']]),
      zonesImportType: 1,
    });
    expect(again.body.error.details.rows).toEqual([{ row: 2, code: 'BC_EXIST_' }]);
  });

  it('checks each row with the schema of POST user: too long or bad values are row errors, never a 500 (issue 10 item 5)', async () => {
    const before = await count();
    const long = 'x'.repeat(256);
    const longEmail = `${'a'.repeat(244)}@example.com`; // 256 characters
    const ok = (n: number) => [`Ok${n}`, 'Fine', `ok${n}@example.com`, '', '', '', 'S', '', ''];
    const dataFile = await sheet([
      ok(1),
      [long, 'Long', 'long1@example.com', '', '', '', 'S', '', ''],
      ['Long', long, 'long2@example.com', '', '', '', 'S', '', ''],
      ['Long', 'Mail', longEmail, '', '', '', 'S', '', ''],
      ['Bad', 'Mail', 'not-an-address', '', '', '', 'S', '', ''],
      ['Long', 'Code', 'code1@example.com', '', '', 'C'.repeat(33), 'S', '', ''],
      ['Space', 'Code', 'code2@example.com', '', '', 'AB 12', 'S', '', ''],
      ['Emoji', 'Code', 'code3@example.com', '', '', 'AB😀', 'S', '', ''],
      ['Tag', 'Code', 'code4@example.com', '', '', '<b>X', 'S', '', ''],
      ['Slash', 'Code', 'code5@example.com', '', '', 'AB/12', 'S', '', ''],
      ['', long, 'ok1@example.com', '', '', '', 'S', '', ''],
    ]);
    const res = await post('user/import', { actionId: action.id, dataFile, zonesImportType: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('IMPORT_FAILED');
    expect(res.body.error.details.rows).toEqual([
      { row: 3, code: 'FIRSTNAME_INVALID_ON_ROW_' },
      { row: 4, code: 'LASTNAME_INVALID_ON_ROW_' },
      { row: 5, code: 'EMAIL_INVALID_ON_ROW_' },
      { row: 6, code: 'EMAIL_INVALID_ON_ROW_' },
      { row: 7, code: 'BC_INVALID_ON_ROW_' },
      { row: 8, code: 'BC_INVALID_ON_ROW_' },
      { row: 9, code: 'BC_INVALID_ON_ROW_' },
      { row: 10, code: 'BC_INVALID_ON_ROW_' },
      { row: 11, code: 'BC_INVALID_ON_ROW_' },
      { row: 12, code: 'EMPTY_FIRSTNAME_ON_ROW_' },
      { row: 12, code: 'LASTNAME_INVALID_ON_ROW_' },
      { row: 12, code: 'EMAIL_EXIST_ON_ROW_' },
    ]);
    expect(await count()).toBe(before);

    // POST user refuses the same values with the same keys (one schema)
    const api = await post('user', { actionId: action.id, firstname: long, lastname: long, email: longEmail });
    expect(api.status).toBe(400);
    expect(api.body.error.details.fields).toEqual(
      expect.arrayContaining([
        { path: 'firstname', key: 'basics.tooLong' },
        { path: 'lastname', key: 'basics.tooLong' },
        { path: 'email', key: 'basics.tooLong' },
      ]),
    );

    // the limits themselves fit, and an imported code is one the check reads back
    const fit = await post('user/import', {
      actionId: action.id,
      dataFile: await sheet([
        ['x'.repeat(255), 'y'.repeat(255), `${'m'.repeat(243)}@example.com`, '', '', 'z'.repeat(32), 'S', '', ''],
      ]),
      zonesImportType: 1,
    });
    expect(fit.body).toEqual({ data: { imported: 1 } });
    const found = await t.api('GET', `/api/admin/v1/user/check/${'z'.repeat(32)}`, { token: admin });
    expect(found.body.data).toMatchObject({ firstname: 'x'.repeat(255), bc: 'Z'.repeat(32) });
    await post('user/delete', { actionId: action.id, userId: [found.body.data.id], type: 1 });
  });

  it('refuses what is not a spreadsheet with a clear code, never a crash', async () => {
    const text = `data:application/octet-stream;base64,${Buffer.from('first,last\nA,B').toString('base64')}`;
    expect(
      (await post('user/import', { actionId: action.id, dataFile: text, zonesImportType: 1 })).body.error.code,
    ).toBe('INVALID_IMPORT_FILE_FORMAT');
    const brokenZip = `data:;base64,${Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 7)]).toString('base64')}`;
    expect(
      (await post('user/import', { actionId: action.id, dataFile: brokenZip, zonesImportType: 1 })).body.error.code,
    ).toBe('INVALID_IMPORT_FILE_FORMAT');
    expect(
      (await post('user/import', { actionId: action.id, dataFile: '***', zonesImportType: 1 })).body.error.code,
    ).toBe('DATA_BASE64_INVALID');
    expect((await post('user/import', { actionId: action.id, dataFile: 'x' })).body.error.details.fields).toEqual([
      { path: 'zonesImportType', key: 'basics.requireField' },
    ]);
  });

  it('says so for a sheet without rows and for one whose user-field columns are not this action’s', async () => {
    const before = await count();
    const empty = await post('user/import', { actionId: action.id, dataFile: await sheet([]), zonesImportType: 1 });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('IMPORT_FILE_EMPTY');

    // a sheet made before the action got its 'vip' field: the note would land in 'vip'
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('import');
    ws.addRow(['First name', 'Last name', 'E-mail', 'Group', 'Zones', 'Code', 'size', 'note']);
    ws.addRow(['Ann', 'Old', 'ann.old@example.com', '', '', '', 'M', 'hello']);
    const old = `data:;base64,${Buffer.from(await wb.xlsx.writeBuffer()).toString('base64')}`;
    const mismatch = await post('user/import', { actionId: action.id, dataFile: old, zonesImportType: 1 });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toMatchObject({
      code: 'IMPORT_COLUMNS_MISMATCH',
      details: { column: 'H', expected: 'vip', found: 'note' },
    });
    expect(await count()).toBe(before);
  });

  describe('the upload route (multipart, streamed; issue 16)', () => {
    const person = (i: number, extra: Partial<Record<number, string>> = {}) => {
      const row = [`U${i}`, `Upload${i}`, `u${i}@example.com`, i % 2 ? 'Crew' : '', '', '', i % 2 ? 'M' : 'S', '', ''];
      for (const [at, value] of Object.entries(extra)) row[Number(at)] = value as string;
      return row;
    };

    it('imports a file streamed as multipart, checked as the JSON route checks it', async () => {
      const before = await count();
      const file = await sheetFile(Array.from({ length: 1200 }, (_, i) => person(i)));
      await stopParser();
      const res = await upload(file, { actionId: action.id, zonesImportType: 2 });
      expect(res.body).toEqual({ data: { imported: 1200 } });
      expect(await count()).toBe(before + 1200);
      // the next import's parser was started once this one was written (not while it wrote)
      expect(waitingParser()).not.toBeNull();
      // the sheet's order is the action's order; groups and the group's zones came along
      const [{ id: lastId }] = await t.ds.query('SELECT id FROM accreditation WHERE email = ?', ['u1199@example.com']);
      const last = (await t.api('GET', `/api/admin/v1/user/${action.id}/${lastId}`, { token: admin })).body.data;
      expect(last).toMatchObject({ firstname: 'U1199', customId: before + 1200 });
      expect(last.groups.map((g: { name: string }) => g.name)).toEqual(['Crew']);
      expect(last.zones.map((z: { name: string }) => z.name)).toEqual(['Hall']);
      // the same e-mails again (in the action now, found by the batch checks): every row, in order
      const again = await upload(await sheetFile([person(5), person(700)]), {
        actionId: action.id,
        zonesImportType: 1,
      });
      expect(again.status).toBe(400);
      expect(again.body.error.details.rows).toEqual([
        { row: 2, code: 'EMAIL_EXIST_ON_ROW_' },
        { row: 3, code: 'EMAIL_EXIST_ON_ROW_' },
      ]);
    });

    it('reports bad rows with their row numbers exactly as the JSON route does', async () => {
      const rows = [
        ['Ann', 'Good', 'ann.up@example.com', 'Crew', '', '', 'M', 'yes', ''],
        ['', 'NoFirst', 'x.up@example.com', '', '', '', 'S', '', ''],
        ['Bob', 'Bad', 'bob.up@example.com', 'Nobody', 'Nowhere', '', 'XL', '', ''],
        ['Cy', 'Dup', 'ann.up@example.com', '', '', '', 'S', '', ''],
        ['Dee', 'Empty', '', '', '', '', '', '', ''],
        ['Eve', 'Code', 'eve.up@example.com', '', '', 'UPCODE0001', 'S', '', ''],
      ];
      const pre = [['Pre', 'Code', 'pre.up@example.com', '', '', 'UPCODE0001', 'S', '', '']];
      expect((await upload(await sheetFile(pre), { actionId: action.id, zonesImportType: 1 })).body).toEqual({
        data: { imported: 1 },
      });
      const multipart = await upload(await sheetFile(rows), { actionId: action.id, zonesImportType: 1 });
      const json = await post('user/import', { actionId: action.id, dataFile: await sheet(rows), zonesImportType: 1 });
      expect(multipart.status).toBe(400);
      expect(multipart.body.error.code).toBe('IMPORT_FAILED');
      expect(multipart.body.error.details).toEqual(json.body.error.details);
      expect(multipart.body.error.details.rows).toEqual([
        { row: 3, code: 'EMPTY_FIRSTNAME_ON_ROW_' },
        { row: 4, code: 'GROUP_INVALID_ON_ROW_' },
        { row: 4, code: 'ZONE_DOESNT_EXIST_ON_ROW_' },
        { row: 4, code: 'INVALID_CUSTOM_FIELD_VALUE_ON_ROW_' },
        { row: 5, code: 'EMAIL_EXIST_ON_ROW_' },
        { row: 6, code: 'EMPTY_EMAIL_ON_ROW_' },
        { row: 6, code: 'CUSTOM_FIELD_MANDATORY_ON_ROW_' },
        { row: 7, code: 'BC_EXIST_' },
      ]);
    });

    it('finds in every batch what the database and the earlier batches hold', async () => {
      const before = await count();
      // u5000 in the action already; then a sheet of more than three batches (250 rows) with that
      // e-mail in its third batch, and a code of its first batch again in its third
      expect(
        (await upload(await sheetFile([person(5000, { 5: 'PIPE0001' })]), { actionId: action.id, zonesImportType: 2 }))
          .body,
      ).toEqual({ data: { imported: 1 } });
      const rows = Array.from({ length: 800 }, (_, i) =>
        person(
          5001 + i,
          i === 3 ? { 5: 'PIPE0002' } : i === 650 ? { 5: 'PIPE0002' } : i === 700 ? { 2: 'u5000@example.com' } : {},
        ),
      );
      const res = await upload(await sheetFile(rows), { actionId: action.id, zonesImportType: 2 });
      expect(res.status).toBe(400);
      expect(res.body.error.details.rows).toEqual([
        { row: 652, code: 'BC_EXIST_' },
        { row: 702, code: 'EMAIL_EXIST_ON_ROW_' },
      ]);
      expect(await count()).toBe(before + 1);
    });

    it('keeps all or nothing: a bad row after the first batches were checked, and a write failing in the middle', async () => {
      const before = await count();
      const rows = Array.from({ length: 1500 }, (_, i) => person(2000 + i, i === 1100 ? { 3: 'Nobody' } : {}));
      const bad = await upload(await sheetFile(rows), { actionId: action.id, zonesImportType: 2 });
      expect(bad.body.error.details.rows).toEqual([{ row: 1102, code: 'GROUP_INVALID_ON_ROW_' }]);
      expect(await count()).toBe(before);

      // every row passes its checks, but the database refuses row 1202's insert (after two batches were written)
      const trigger =
        TEST_DB === 'mariadb'
          ? "CREATE TRIGGER import_boom BEFORE INSERT ON accreditation FOR EACH ROW BEGIN IF NEW.email = 'u3200@example.com' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'boom'; END IF; END"
          : "CREATE TRIGGER import_boom BEFORE INSERT ON accreditation WHEN NEW.email = 'u3200@example.com' BEGIN SELECT RAISE(ABORT, 'boom'); END";
      await t.ds.query(trigger);
      try {
        const rows2 = Array.from({ length: 1500 }, (_, i) => person(2000 + i));
        const file = await sheetFile(rows2);
        const go = () => upload(file, { actionId: action.id, zonesImportType: 2 });
        const { value: failed, sent } =
          TEST_DB === 'mariadb' ? await sentDuring(t.ds, go) : { value: await go(), sent: [] };
        expect(failed.status).toBe(500);
        expect(await count()).toBe(before);
        expect(await t.ds.query("SELECT id FROM accreditation WHERE email = 'u2000@example.com'")).toEqual([]);
        if (TEST_DB === 'mariadb') {
          // MariaDB: the guarded insert triggers skip a row while its session's @accredo_bulk is set
          // (migration 1765200000001); the batches that failed (the write-ahead's, then phase 2's
          // from the spill) left it set on no connection of the pool
          const bulk = [...new Set(sent.filter((x) => x.sql.includes('@accredo_bulk = 1')).map((x) => x.connectionId))];
          expect(bulk.length).toBeGreaterThanOrEqual(1);
          for (const id of bulk)
            expect(await onPooledConnection(t.ds, id, 'SELECT @accredo_bulk AS bulk')).toEqual([{ bulk: null }]);
        }
      } finally {
        await t.ds.query('DROP TRIGGER import_boom');
      }
    });

    it('writes each checked batch on MariaDB while the next ones are read, committed once at the end', async () => {
      const add = vi.spyOn(WriteAhead.prototype, 'add');
      const finish = vi.spyOn(WriteAhead.prototype, 'finish');
      try {
        const before = await count();
        const rows = Array.from({ length: 600 }, (_, i) => person(7000 + i));
        const res = await upload(await sheetFile(rows), { actionId: action.id, zonesImportType: 2 });
        expect(res.body).toEqual({ data: { imported: 600 } });
        expect(await count()).toBe(before + 600);
        if (TEST_DB === 'mariadb') {
          // every batch handed over as it was checked, and the held transaction committed (no
          // second write from the spill)
          expect(add.mock.calls.length).toBeGreaterThanOrEqual(3);
          expect(add.mock.calls.reduce((n, [batch]) => n + batch.length, 0)).toBe(600);
          expect(await finish.mock.results[0].value).toBe(600);
        } else expect(add).not.toHaveBeenCalled();
      } finally {
        add.mockRestore();
        finish.mockRestore();
      }
    });

    it('keeps the books of its people as their triggers do: feed, hourly counts, not entered, search, blocks, links', async () => {
      const rows = Array.from({ length: 700 }, (_, i) => person(10000 + i));
      const res = await upload(await sheetFile(rows), { actionId: action.id, zonesImportType: 2 });
      expect(res.body).toEqual({ data: { imported: 700 } });
      const rowsOf = async (sql: string, params: unknown[] = [action.id]) =>
        (await t.ds.query(sql, params)).map((r: Record<string, unknown>) =>
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v]),
          ),
        );
      const block = (id: string) => (TEST_DB === 'mariadb' ? `${id} DIV 4096` : `${id} / 4096`);
      const hour =
        TEST_DB === 'mariadb'
          ? "DATE_FORMAT(a.createdAt, '%Y-%m-%d %H')"
          : "COALESCE(strftime('%Y-%m-%d %H', a.createdAt), substr(a.createdAt, 1, 13))";
      // the truth, from the rows themselves, against what the bookkeeping holds (rows of 0 left by deletes aside)
      const people = Number((await rowsOf('SELECT COUNT(*) AS n FROM accreditation WHERE actionId = ?'))[0].n);
      expect(
        await rowsOf(
          'SELECT COUNT(*) AS n FROM entrance e JOIN accreditation a ON a.id = e.accreditationId WHERE a.actionId = ?',
        ),
      ).toEqual([{ n: 0 }]);
      const pairs = [
        [
          `SELECT ${block('a.id')} AS block, COUNT(*) AS n FROM accreditation a WHERE a.actionId = ? GROUP BY ${block('a.id')} ORDER BY block`,
          'SELECT block, n FROM accreditation_block WHERE actionId = ? AND n > 0 ORDER BY block',
        ],
        [
          `SELECT a.source AS source, ${hour} AS hour, COUNT(*) AS n FROM accreditation a WHERE a.actionId = ? GROUP BY a.source, ${hour} ORDER BY source, hour`,
          'SELECT source, utcHour AS hour, registrations AS n FROM accreditation_hourly WHERE actionId = ? AND registrations > 0 ORDER BY source, hour',
        ],
        [
          'SELECT a.id AS id FROM accreditation a WHERE a.actionId = ? ORDER BY a.id',
          'SELECT accreditationId AS id FROM accreditation_not_entered WHERE actionId = ? ORDER BY accreditationId',
        ],
        [
          `SELECT ${block('a.id')} AS block, COUNT(*) AS n FROM accreditation a WHERE a.actionId = ? GROUP BY ${block('a.id')} ORDER BY block`,
          "SELECT block, n FROM accreditation_facet_block WHERE actionId = ? AND facet = 'not_entered' AND n > 0 ORDER BY block",
        ],
        [
          'SELECT l.groupId AS id, COUNT(*) AS n FROM accreditation_group l JOIN accreditation a ON a.id = l.accreditationId WHERE a.actionId = ? GROUP BY l.groupId ORDER BY id',
          'SELECT groupId AS id, n FROM accreditation_group_count WHERE actionId = ? AND n > 0 ORDER BY id',
        ],
        [
          'SELECT l.zoneId AS id, COUNT(*) AS n FROM accreditation_zone l JOIN accreditation a ON a.id = l.accreditationId WHERE a.actionId = ? GROUP BY l.zoneId ORDER BY id',
          'SELECT zoneId AS id, n FROM accreditation_zone_count WHERE actionId = ? AND n > 0 ORDER BY id',
        ],
        [
          'SELECT 0 AS n',
          'SELECT COUNT(*) AS n FROM accreditation a WHERE a.actionId = ? AND NOT EXISTS (SELECT 1 FROM accreditation_change c WHERE c.accreditationId = a.id AND c.actionId = a.actionId)',
        ],
        [
          "SELECT COUNT(*) AS n FROM accreditation_facet_block WHERE actionId = ? AND facet = 'printed' AND n > 0",
          'SELECT COUNT(*) AS n FROM accreditation WHERE actionId = ? AND printCount > 0',
        ],
      ];
      // MariaDB: everyone is waiting for the search's worker or indexed by it (the import queues
      // its people once, at its end: writeTail)
      if (TEST_DB === 'mariadb')
        pairs.push([
          'SELECT 0 AS n',
          'SELECT COUNT(*) AS n FROM accreditation a WHERE a.actionId = ? AND NOT EXISTS (SELECT 1 FROM trigram_pending p WHERE p.actionId = a.actionId AND p.accreditationId = a.id) AND NOT EXISTS (SELECT 1 FROM accreditation_trigram g WHERE g.actionId = a.actionId AND g.accreditationId = a.id)',
        ]);
      for (const [truth, kept] of pairs) {
        const expected = await rowsOf(truth, truth.includes('?') ? [action.id] : []);
        expect({ kept, rows: await rowsOf(kept) }).toEqual({ kept, rows: expected });
      }
      expect(people).toBeGreaterThanOrEqual(700);
      // the search finds an imported person at once (MariaDB: from the pending list, until the worker indexes them)
      const found = await post('user/filter', {
        actionId: action.id,
        page: 1,
        pageSize: 10,
        filterData: { text: 'upload10650' },
      });
      expect(found.body.data.map((p: { email: string }) => p.email)).toEqual(['u10650@example.com']);
    });

    it.runIf(TEST_DB === 'mariadb')(
      'writes everything from the spill when a write-ahead batch fails, and logs why',
      async () => {
        // the first insert of u7900 fails (a deadlock's stand-in), the next one passes: the row is
        // noted in a MEMORY table, which the transaction's rollback does not take back
        await t.ds.query('CREATE TABLE import_once (n INT) ENGINE=MEMORY');
        await t.ds.query(
          "CREATE TRIGGER import_once BEFORE INSERT ON accreditation FOR EACH ROW BEGIN IF NEW.email = 'u7900@example.com' AND (SELECT COUNT(*) FROM import_once) = 0 THEN INSERT INTO import_once VALUES (1); SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'once'; END IF; END",
        );
        const finish = vi.spyOn(WriteAhead.prototype, 'finish');
        const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
        try {
          const before = await count();
          const rows = Array.from({ length: 600 }, (_, i) => person(7800 + i));
          const res = await upload(await sheetFile(rows), { actionId: action.id, zonesImportType: 2 });
          expect(res.body).toEqual({ data: { imported: 600 } });
          expect(await count()).toBe(before + 600);
          expect(await t.ds.query("SELECT COUNT(*) AS n FROM accreditation WHERE email = 'u7900@example.com'")).toEqual(
            [{ n: '1' }],
          );
          expect(await finish.mock.results[0].value).toBeNull();
          expect(warn.mock.calls.map(([m]) => String(m))).toEqual([
            expect.stringMatching(/^write-ahead batch failed, writing from the spill: .*once/),
          ]);
        } finally {
          finish.mockRestore();
          warn.mockRestore();
          await t.ds.query('DROP TRIGGER import_once');
          await t.ds.query('DROP TABLE import_once');
        }
      },
    );

    it('refuses a file over the limit while it streams in: 413 with a clear message, nothing imported', async () => {
      const before = await count();
      // a real zip whose first entry (stored, not compressed) is larger than the limit
      const zip = new yazl.ZipFile();
      zip.addBuffer(Buffer.alloc(IMPORT_MAX_BYTES + 512 * 1024, 65), 'filler.bin', { compress: false });
      zip.addBuffer(await sheetFile([person(9000)]), 'inner.xlsx', { compress: false });
      zip.end();
      const chunks: Buffer[] = [];
      for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
      const res = await upload(Buffer.concat(chunks), { actionId: action.id, zonesImportType: 1 });
      expect(res.status).toBe(413);
      expect(res.body.error).toMatchObject({
        code: 'IMPORT_FILE_TOO_LARGE',
        details: { limitMb: 10 },
        message: "The file is larger than 10 MB, the import's limit",
      });
      expect(await count()).toBe(before);
    });

    it('tells an old .xls to be saved as .xlsx, and refuses what is not a spreadsheet or lacks its fields', async () => {
      const ole2 = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
      const xls = await upload(ole2, { actionId: action.id, zonesImportType: 1 }, 'people.xls');
      expect(xls.status).toBe(400);
      expect(xls.body.error).toMatchObject({
        code: 'IMPORT_FILE_XLS',
        message: 'The file is in the old .xls format: open it in Excel and save it as .xlsx',
      });
      const text = await upload(Buffer.from('first,last\nA,B'), { actionId: action.id, zonesImportType: 1 }, 'a.csv');
      expect(text.body.error.code).toBe('INVALID_IMPORT_FILE_FORMAT');
      const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 7)]);
      expect((await upload(broken, { actionId: action.id, zonesImportType: 1 })).body.error.code).toBe(
        'INVALID_IMPORT_FILE_FORMAT',
      );
      // the options are checked by the JSON route's schema, before the file is read
      const noZones = await upload(await sheetFile([person(1)]), { actionId: action.id });
      expect(noZones.body.error.details.fields).toEqual([{ path: 'zonesImportType', key: 'basics.requireField' }]);
      const form = new FormData();
      form.append('actionId', String(action.id));
      form.append('zonesImportType', '1');
      const noFile = await fetch(`${t.url}/api/admin/v1/user/import/file`, {
        method: 'POST',
        headers: { authorization: admin },
        body: form,
      });
      expect(((await noFile.json()) as { error: { details: { fields: unknown } } }).error.details.fields).toEqual([
        { path: 'dataFile', key: 'accreditationImport.chooseFile' },
      ]);
      const json = await post('user/import/file', { actionId: action.id, zonesImportType: 1 });
      expect(json.status).toBe(415);
      expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it('answers a malformed or cut-off upload with 400, never a 500, and imports nothing', async () => {
      const before = (await t.ds.query('SELECT COUNT(*) AS n FROM accreditation'))[0].n;
      const send = async (body: Buffer | string, boundary = 'zz') => {
        const res = await fetch(`${t.url}/api/admin/v1/user/import/file`, {
          method: 'POST',
          headers: { authorization: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body,
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      const field = (name: string, value: string) =>
        `--zz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const fileHead = '--zz\r\nContent-Disposition: form-data; name="dataFile"; filename="a.xlsx"\r\n\r\n';
      const sheetBytes = await sheetFile([person(900), person(901)]);
      const cases: [string, Buffer | string][] = [
        ['garbage', '--zz\r\ngarbage'],
        ['a header without its end', '--zz\r\nContent-Disposition: form-data; name="actionId"'],
        ['fields, then the end of the body', `${field('actionId', String(action.id))}${field('zonesImportType', '1')}`],
        [
          'the file cut off in the middle',
          Buffer.concat([
            Buffer.from(`${field('actionId', String(action.id))}${field('zonesImportType', '1')}${fileHead}`),
            sheetBytes.subarray(0, Math.floor(sheetBytes.length / 2)),
          ]),
        ],
        [
          'the whole file without the closing boundary',
          Buffer.concat([
            Buffer.from(`${field('actionId', String(action.id))}${field('zonesImportType', '1')}${fileHead}`),
            sheetBytes,
          ]),
        ],
      ];
      for (const [what, body] of cases) {
        const res = await send(body);
        expect([what, res.status]).toEqual([what, 400]);
        expect(res.body.error.code).toMatch(/^(BAD_REQUEST|VALIDATION_ERROR|INVALID_IMPORT_FILE_FORMAT)$/);
      }
      expect((await t.ds.query('SELECT COUNT(*) AS n FROM accreditation'))[0].n).toBe(before);
      // the server is still answering
      expect((await t.api('GET', '/api/health')).status).toBe(200);
    });

    it('reads at most IMPORT_SLOTS sheets at once: the next waits its turn, past the queue 503 IMPORT_BUSY', async () => {
      const kept = { ...IMPORT_SLOTS };
      Object.assign(IMPORT_SLOTS, { running: 1, waiting: 1, retryAfterSeconds: 7 });
      try {
        const url = `${t.url}/api/admin/v1/user/import/file`;
        const headers = {
          authorization: admin,
          'content-type': 'multipart/form-data; boundary=zz',
          'accept-language': 'en',
        };
        const head = Buffer.from(
          `--zz\r\nContent-Disposition: form-data; name="actionId"\r\n\r\n${action.id}\r\n` +
            '--zz\r\nContent-Disposition: form-data; name="zonesImportType"\r\n\r\n1\r\n' +
            '--zz\r\nContent-Disposition: form-data; name="dataFile"; filename="a.xlsx"\r\n\r\n',
        );
        const tail = Buffer.from('\r\n--zz--\r\n');
        const [first, second, third] = await Promise.all([9920, 9921, 9922].map((i) => sheetFile([person(i)])));
        const answer = async (res: Promise<Response>) => {
          const r = await res;
          return { status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as any };
        };
        // the first: its file's start sent, the rest held back, so it holds the one slot
        let sendRest = () => {};
        const held = new ReadableStream<Uint8Array>({
          async start(c) {
            c.enqueue(Buffer.concat([head, first.subarray(0, 200)]));
            await new Promise<void>((r) => {
              sendRest = r;
            });
            c.enqueue(Buffer.concat([first.subarray(200), tail]));
            c.close();
          },
        });
        const a = answer(fetch(url, { method: 'POST', headers, body: held, duplex: 'half' } as RequestInit));
        await vi.waitFor(() => expect(importSlots.state).toEqual({ running: 1, waiting: 0 }));
        // the second waits in line, its upload not read yet
        const b = answer(fetch(url, { method: 'POST', headers, body: Buffer.concat([head, second, tail]) }));
        await vi.waitFor(() => expect(importSlots.state).toEqual({ running: 1, waiting: 1 }));
        // the third finds the line full: 503, told when to come back, nothing stored
        const c = await answer(fetch(url, { method: 'POST', headers, body: Buffer.concat([head, third, tail]) }));
        expect(c.status).toBe(503);
        expect(c.body.error.code).toBe('IMPORT_BUSY');
        expect(c.body.error.details.retryAfter).toBe(7);
        expect(c.retryAfter).toBe('7');
        expect(c.body.error.message).toContain('7');
        sendRest();
        const [ra, rb] = await Promise.all([a, b]);
        expect([ra.status, ra.body.data, ra.body.error]).toEqual([200, { imported: 1 }, undefined]);
        expect([rb.status, rb.body.data]).toEqual([200, { imported: 1 }]);
        const stored = await t.ds.query(
          "SELECT email FROM accreditation WHERE email IN ('u9920@example.com', 'u9921@example.com', 'u9922@example.com') ORDER BY email",
        );
        expect(stored.map((r: { email: string }) => r.email)).toEqual(['u9920@example.com', 'u9921@example.com']);
        expect(importSlots.state).toEqual({ running: 0, waiting: 0 });
      } finally {
        Object.assign(IMPORT_SLOTS, kept);
      }
    });
  });

  it('exports a filter with all user fields; a cell starting with = stays text', async () => {
    const res = await fetch(`${t.url}/api/admin/v1/user/export`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ actionId: action.id, all: true, filterData: { text: 'p1@' } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0];
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([
      'Number',
      'First name',
      'Last name',
      'E-mail',
      'Code',
      'Groups',
      'Zones',
      'Days',
      // what people read: the fields' labels, not their internal names
      'Size',
      'VIP',
      'Note',
    ]);
    const rows: ExcelJS.Row[] = [];
    ws.eachRow((row, n) => {
      if (n > 1) rows.push(row);
    });
    expect(rows.length).toBe(1);
    const p1 = rows.find((r) => r.getCell(4).value === 'p1@example.com')!;
    expect(p1.getCell(9).value).toBe('M');
    expect(p1.getCell(10).value).toBe('Yes'); // not 1/-1
    expect(p1.getCell(11).value).toBe('=1+1');
    expect(p1.getCell(11).type).toBe(ExcelJS.ValueType.String);
    const none = await post('user/export', { actionId: action.id, userId: [] });
    expect(none.body.error.details.fields).toEqual([{ path: 'userId', key: 'accreditation.chooseUsers' }]);
  });

  it('exports the machine form of the import template, which imports again as it was', async () => {
    const exported = await fetch(`${t.url}/api/admin/v1/user/export`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ actionId: action.id, all: true, filterData: { text: 'p1@' }, form: 'import' }),
    });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toContain(`import-${action.id}.xlsx`);
    const file = Buffer.from(await exported.arrayBuffer());
    const template = await fetch(`${t.url}/api/admin/v1/user/import/template/${action.id}`, {
      headers: { authorization: admin },
    });
    const header = async (data: ArrayBuffer | Buffer) => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(data as never);
      return (wb.worksheets[0].getRow(1).values as unknown[]).slice(1);
    };
    expect(await header(file)).toEqual(await header(await template.arrayBuffer()));

    const before = (
      await post('user/filter', { actionId: action.id, page: 1, pageSize: 10, filterData: { text: 'p1@example.com' } })
    ).body.data[0];
    await post('user/delete', { actionId: action.id, userId: [before.id], type: 1 });
    const again = await post('user/import', {
      actionId: action.id,
      dataFile: file.toString('base64'),
      zonesImportType: 1,
    });
    expect(again.body).toEqual({ data: { imported: 1 } });
    const after = (await t.api('GET', `/api/admin/v1/user/check/${before.bc}`, { token: admin })).body.data;
    expect(after).toMatchObject({ firstname: before.firstname, lastname: before.lastname, email: 'p1@example.com' });
    expect(after.groups.map((g: { name: string }) => g.name)).toEqual(['Crew']);
    expect(after.zones.map((z: { name: string }) => z.name)).toEqual(['Hall']);
    const values = Object.fromEntries(after.customField.map((c: { id: number; value: unknown }) => [c.id, c.value]));
    expect(Object.values(values)).toEqual(expect.arrayContaining([true, '=1+1']));
  });
});
