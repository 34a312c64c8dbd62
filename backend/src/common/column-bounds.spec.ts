import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../testing/test-app.js';
import { columnOverflow } from './error.filter.js';

/**
 * Admin HTML in `text` columns (badge templates, mail templates, group HTML) is bounded by what
 * MariaDB's TEXT holds in bytes, on both databases alike (issue 10: the probe's 480 kB template was a
 * 500 'Data too long' on MariaDB and stored on SQLite). Any value a schema still fails to bound is
 * a 400 naming the column, never a 500.
 */
describe('values that would not fit their column', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const fieldsOf = (body: { error?: { code: string; details?: { fields?: { path: string; key: string }[] } } }) => [
    body.error?.code,
    body.error?.details?.fields,
  ];

  it('refuses admin HTML over 65,535 UTF-8 bytes as a field error, and takes it at the bound', async () => {
    const emoji = '😀'.repeat(16_384); // 16,384 characters, 65,536 bytes
    const big = await t.api('POST', '/api/admin/v1/template', {
      token,
      body: { name: 'Badge', type: 1, pageSize: 'A6', htmlData: emoji },
    });
    expect(big.status).toBe(400);
    expect(fieldsOf(big.body)).toEqual([
      'VALIDATION_ERROR',
      [expect.objectContaining({ path: 'htmlData', key: 'basics.tooLong' })],
    ]);
    const mail = await t.api('POST', '/api/admin/v1/mail-template', {
      token,
      body: { name: 'Welcome', type: 2, subjectFrom: 'Hi', html: 'a'.repeat(480_000) },
    });
    expect(fieldsOf(mail.body)).toEqual([
      'VALIDATION_ERROR',
      [expect.objectContaining({ path: 'html', key: 'basics.tooLong' })],
    ]);
    const group = await t.api('POST', '/api/admin/v1/groups', { token, body: { name: 'Crew', htmlData: emoji } });
    expect(fieldsOf(group.body)).toEqual([
      'VALIDATION_ERROR',
      [expect.objectContaining({ path: 'htmlData', key: 'basics.tooLong' })],
    ]);
    const atBound = await t.api('POST', '/api/admin/v1/template', {
      token,
      body: { name: 'Badge', type: 1, pageSize: 'A6', htmlData: 'a'.repeat(65_535) },
    });
    expect(atBound.status).toBe(201);
    const stored = await t.ds.query('SELECT htmlData FROM template WHERE id = ?', [atBound.body.data.id]);
    expect(stored[0].htmlData).toHaveLength(65_535);
  });

  it("reads MariaDB's data-too-long and out-of-range refusals as the column that overflowed", () => {
    expect(
      columnOverflow({
        driverError: { code: 'ER_DATA_TOO_LONG', sqlMessage: "Data too long for column 'html' at row 1" },
      }),
    ).toEqual({ column: 'html' });
    expect(
      columnOverflow({
        driverError: {
          code: 'ER_WARN_DATA_OUT_OF_RANGE',
          sqlMessage: "Out of range value for column 'credit' at row 1",
        },
      }),
    ).toEqual({ column: 'credit' });
    expect(columnOverflow({ driverError: { code: 'ER_DUP_ENTRY' } })).toBeNull();
    expect(columnOverflow(new Error('boom'))).toBeNull();
  });
});
