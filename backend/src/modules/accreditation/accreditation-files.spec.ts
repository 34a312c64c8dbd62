import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

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
