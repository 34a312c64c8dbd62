import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { EmailTaken } from './email-taken.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

/**
 * Issue 16: the e-mail pre-check of a create or an edit, shared by the asks that arrive together
 * on MariaDB (email-taken.ts), answers each ask as a read of its own would.
 */
describe('e-mail pre-check', () => {
  let t: TestApp;
  const people: { id: number; email: string; actionId: number; subjectId: number }[] = [];
  const actions: number[] = [];
  const subjects: number[] = [];
  const tokens: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    for (const name of ['One', 'Two']) {
      const subject = await createSubject(t, { name });
      const token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
      subjects.push(subject.id);
      tokens.push(token);
      const post = async (path: string, body: unknown) => {
        const res = await t.api('POST', `/api/admin/v1/${path}`, { token, body });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.data;
      };
      for (const fair of ['A', 'B']) {
        const action = await post('action', { name: ml(`${name} ${fair}`) });
        actions.push(action.id);
        for (const who of ['eva', 'Petr.Novak'])
          if (fair === 'A' || who === 'eva') {
            const p = await post('user', {
              actionId: action.id,
              firstname: who,
              lastname: name,
              email: `${who}@example.com`,
              days: [],
              customField: [],
            });
            people.push({ id: p.id, email: p.email, actionId: action.id, subjectId: subject.id });
          }
      }
    }
  });
  afterAll(() => t.close());

  it('answers asks that arrive together as each alone, sharing statements on MariaDB', async () => {
    // every person's e-mail as written, in another case, in the other action and subject, and unknown ones
    const asks: [number, number, string][] = [];
    for (const p of people)
      for (const actionId of actions)
        for (const subjectId of subjects)
          asks.push([actionId, subjectId, p.email], [actionId, subjectId, p.email.toUpperCase()]);
    asks.push([actions[0], subjects[0], 'nobody@example.com'], [actions[0], subjects[0], "o'brien@example.com"]);
    const taken = new EmailTaken(t.ds);
    const alone: (number | null)[] = [];
    for (const [a, s, e] of asks) alone.push(await taken.id(a, s, e));
    // each person found by their own action and subject only; in another case as the database
    // compares (MariaDB's collation: case-insensitive)
    const mariadb = t.ds.options.type === 'mariadb';
    const expected = asks.map(([a, s, e]) => {
      const p = people.find((p) => p.actionId === a && p.subjectId === s && p.email.toLowerCase() === e.toLowerCase());
      if (!p) return null;
      return p.email === e || mariadb ? p.id : alone[asks.findIndex((k) => k[0] === a && k[1] === s && k[2] === e)];
    });
    expect(alone).toEqual(expected);
    expect(new Set(alone.filter((id) => id !== null))).toEqual(new Set(people.map((p) => p.id)));
    expect(alone.filter((id) => id === null).length).toBeGreaterThan(asks.length / 2);

    const pool = (t.ds.driver as unknown as { pool?: { execute: (...a: unknown[]) => unknown } }).pool;
    const executes = pool ? vi.spyOn(pool, 'execute') : null;
    const together = await Promise.all(asks.map(([a, s, e]) => taken.id(a, s, e)));
    expect(together).toEqual(expected);
    if (executes) {
      // the first two alone (two on the server at most), then the others in statements of at most 64
      const sizes = executes.mock.calls
        .filter(([q]) =>
          String((q as { sql?: string }).sql ?? q).includes('JOIN accreditation a ON a.actionId = k.actionId'),
        )
        .map(([, params]) => (params as unknown[]).length / 4);
      expect(sizes.slice(0, 2)).toEqual([1, 1]);
      expect(sizes.length).toBeLessThan(asks.length / 8);
      expect(Math.max(...sizes)).toBe(64);
      executes.mockRestore();
    }
  });

  it('sees a person created before the ask, whatever asks are on the server meanwhile', async () => {
    const taken = new EmailTaken(t.ds);
    const busy = Array.from({ length: 20 }, (_, i) => taken.id(actions[0], subjects[0], `busy${i}@example.com`));
    const res = await t.api('POST', '/api/admin/v1/user', {
      token: tokens[0],
      body: {
        actionId: actions[0],
        firstname: 'New',
        lastname: 'One',
        email: 'new@example.com',
        days: [],
        customField: [],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await taken.id(actions[0], subjects[0], 'new@example.com')).toBe(res.body.data.id);
    expect(await Promise.all(busy)).toEqual(Array(20).fill(null));
  });
});
