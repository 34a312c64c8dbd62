import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

// Found by bench/probe.mjs (issue 10, Done when): 20,000 nested {{#if}} blocks (300 kB, under the
// 500 kB a template may have) held the server's only thread for minutes in the check, the preview
// and every print (all compile through the one parse); 40,000 placeholders for seconds.
describe('templates of a pathological shape are refused before the engine works on them', () => {
  let t: TestApp;
  let admin: string;
  const post = (path: string, body: unknown) => t.api('POST', `/api/admin/v1/${path}`, { token: admin, body });
  const nested = (n: number) => `${'{{#if firstname}}'.repeat(n)}x${'{{/if}}'.repeat(n)}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(() => t.close());

  it('refuses blocks nested past 50 and more than 5,000 placeholders as a syntax error', async () => {
    for (const data of [nested(20_000), `${'{{#each days}}'.repeat(5_000)}${'{{/each}}'.repeat(5_000)}`, nested(51)]) {
      for (const path of ['template/validate', 'template/preview']) {
        const res = await post(path, { data });
        expect([path, res.status, res.body.error?.code]).toEqual([path, 400, 'TEMPLATE_SYNTAX_ERROR']);
      }
    }
    const long = await post('template/preview', { data: `{{${'a.'.repeat(50_000)}b}}` });
    expect([long.status, long.body.error?.code]).toEqual([400, 'TEMPLATE_SYNTAX_ERROR']);
    const many = await post('template/validate', { data: '{{firstname}}'.repeat(5_001) });
    expect([many.status, many.body.error?.code]).toEqual([400, 'TEMPLATE_SYNTAX_ERROR']);
  });

  it('keeps templates within the bounds', async () => {
    expect((await post('template/validate', { data: nested(50) })).status).toBe(200);
    expect((await post('template/validate', { data: '{{firstname}}'.repeat(5_000) })).status).toBe(200);
    expect((await post('template/validate', { data: `{{firstname}} {{!-- ${'x'.repeat(10_000)} --}}` })).status).toBe(
      200,
    );
  });
});
