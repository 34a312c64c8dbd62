import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { CreditTransactionEntity } from './accreditation.entity.js';

const MAX = 2_147_483_647;

// Found by bench/probe.mjs (issue 10, Done when): credit additions of at most 10,000,000 each could
// take the balance past the int `credit` column: "Out of range value" (500) on MariaDB, a balance
// SQLite keeps but MariaDB could never hold.
describe('PUT user-credit/{id}: the balance stays within what its column holds', () => {
  let t: TestApp;
  let admin: string;
  let person: { id: number };
  const put = (body: unknown) => t.api('PUT', `/api/admin/v1/user-credit/${person.id}`, { token: admin, body });
  const balance = async () =>
    (await t.api('GET', `/api/admin/v1/user-credit/${person.id}`, { token: admin })).body.data;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    const action = (
      await t.api('POST', '/api/admin/v1/action', {
        token: admin,
        body: { name: { cs: 'Akce' }, dateFrom: '2030-01-01T00:00', dateTo: '2030-01-02T00:00', isCredit: true },
      })
    ).body.data;
    person = (
      await t.api('POST', '/api/admin/v1/user', {
        token: admin,
        body: { actionId: action.id, firstname: 'Ann', lastname: 'Lee', email: 'ann@example.com' },
      })
    ).body.data;
  });
  afterAll(() => t.close());

  it('switches unlimited credit on and off with the credit right; the balance stays as it was', async () => {
    const before = (await balance()).credit;
    const on = await t.api('PUT', `/api/admin/v1/user-credit/${person.id}/unlimited`, {
      token: admin,
      body: { isUnlimited: true },
    });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ isUnlimited: true, credit: before });
    // a removal while unlimited takes nothing away (D13) but is still written
    expect((await put({ price: 5, type: 3 })).status).toBe(200);
    expect((await balance()).credit).toBe(before);
    const off = await t.api('PUT', `/api/admin/v1/user-credit/${person.id}/unlimited`, {
      token: admin,
      body: { isUnlimited: false },
    });
    expect(off.body.data).toMatchObject({ isUnlimited: false, credit: before });
    const bad = await t.api('PUT', `/api/admin/v1/user-credit/${person.id}/unlimited`, {
      token: admin,
      body: { isUnlimited: 'yes' },
    });
    expect(bad.body.error.details.fields.map((f: { path: string }) => f.path)).toEqual(['isUnlimited']);
  });

  it('refuses any change of credit on an action without credit, and writes nothing', async () => {
    const plain = (
      await t.api('POST', '/api/admin/v1/action', {
        token: admin,
        body: { name: { cs: 'Bez kreditu' }, dateFrom: '2030-01-01T00:00', dateTo: '2030-01-02T00:00' },
      })
    ).body.data;
    const bob = (
      await t.api('POST', '/api/admin/v1/user', {
        token: admin,
        body: { actionId: plain.id, firstname: 'Bob', lastname: 'Lee', email: 'bob@example.com' },
      })
    ).body.data;
    for (const type of [1, 3]) {
      const res = await t.api('PUT', `/api/admin/v1/user-credit/${bob.id}`, {
        token: admin,
        body: { price: 10, type },
      });
      expect([res.status, res.body.error?.code, res.body.error?.details.fields]).toEqual([
        400,
        'VALIDATION_ERROR',
        [{ path: 'price', key: 'accreditation.creditNotEnabled' }],
      ]);
    }
    const unlimited = await t.api('PUT', `/api/admin/v1/user-credit/${bob.id}/unlimited`, {
      token: admin,
      body: { isUnlimited: true },
    });
    expect(unlimited.body.error?.details.fields).toEqual([
      { path: 'isUnlimited', key: 'accreditation.creditNotEnabled' },
    ]);
    expect(await t.ds.getRepository(CreditTransactionEntity).countBy({ accreditationId: bob.id })).toBe(0);
  });

  it('refuses an addition past the largest balance as a field error and changes nothing', async () => {
    expect((await put({ price: 10_000_000, type: 1 })).status).toBe(200);
    await t.ds.query('UPDATE accreditation SET credit = ? WHERE id = ?', [MAX - 5_000_000, person.id]);
    const transactions = await t.ds.getRepository(CreditTransactionEntity).countBy({ accreditationId: person.id });

    const over = await put({ price: 5_000_001, type: 1 });
    expect([over.status, over.body.error?.code, over.body.error?.details.fields]).toEqual([
      400,
      'VALIDATION_ERROR',
      [{ path: 'price', key: 'credit.balanceTooHigh' }],
    ]);
    expect((await balance()).credit).toBe(MAX - 5_000_000);
    expect(await t.ds.getRepository(CreditTransactionEntity).countBy({ accreditationId: person.id })).toBe(
      transactions,
    );

    const exactly = await put({ price: 5_000_000, type: 1 });
    expect(exactly.status).toBe(200);
    expect((await balance()).credit).toBe(MAX);
    expect((await put({ price: 1, type: 1 })).status).toBe(400);
    // removing still works at the top
    expect((await put({ price: 10_000_000, type: 3 })).status).toBe(200);
    expect((await balance()).credit).toBe(MAX - 10_000_000);
  });
});
