import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

describe('template check and preview (spec §5 Template preview, §7)', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let checker: string;

  const post = (path: string, body: unknown, token = admin) =>
    t.api('POST', `/api/admin/v1/${path}`, { token, body, headers: { 'accept-language': 'en' } });

  const sample = {
    id: 7,
    custom_id: 3,
    bc: 'ABCD2345EFGH6789',
    firstname: 'Anna',
    lastname: 'Nováková',
    email: 'anna@example.com',
    group: 'Press',
    zones: ['A'],
    custom_field: { 12: 'ACME' },
    user_image: '/api/file/abc',
    html_data: '<b>Press</b>',
    days: [{ id: '2027-05-10', name: 'Monday', onAccreditation: 'MO' }],
    day: 'Monday',
    d: 'MO',
    actionName: 'Fair',
    smartLink: 'https://accredo.test/preview/s/cid/ABCD2345EFGH6789',
  };

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    reader = await loginAs(t, await createAdminUser(t, subject, { grant: [['template', 'get']] }));
    checker = await loginAs(t, await createAdminUser(t, subject, { grant: [['template', 'postValidateTemplate']] }));
  });
  afterAll(() => t.close());

  it('needs a session and the rights: validate postValidateTemplate, preview template.get', async () => {
    expect((await t.api('POST', '/api/admin/v1/template/validate', { body: { data: '' } })).status).toBe(401);
    expect((await t.api('POST', '/api/admin/v1/template/preview', { body: { data: '' } })).status).toBe(401);
    const denied = await post('template/validate', { data: '{{firstname}}' }, reader);
    expect([denied.status, denied.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const deniedPreview = await post('template/preview', { data: '{{firstname}}' }, checker);
    expect([deniedPreview.status, deniedPreview.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await post('template/validate', { data: '{{firstname}}' }, checker)).status).toBe(200);
    expect((await post('template/preview', { data: '{{firstname}}' }, reader)).status).toBe(200);
  });

  it('lists placeholders without a value and unknown ones', async () => {
    const res = await post('template/validate', {
      data: '{{firstname}} {{lastname}} {{zones[3]}} {{custom_field[12]}} {{custom_field[99]}} {{nickname}} {{email_nocheck}} {{#each days}}{{name}}{{colour}}{{/each}}',
      params: { ...sample, lastname: '', email: '', days: [{ id: '2027-05-10', name: 'Monday' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.missing.sort()).toEqual([
      'custom_field[99]',
      'days[0].onAccreditation',
      'lastname',
      'zones[3]',
    ]);
    expect(res.body.data.unknown.sort()).toEqual(['days[].colour', 'nickname']);
  });

  it('checks against a sample person when no params are sent: only the unknown remain', async () => {
    const res = await post('template/validate', { data: '{{firstname}} {{zones[2]}} {{custom_field[5]}} {{bogus}}' });
    expect(res.body.data).toEqual({
      missing: [],
      unknown: ['bogus'],
      marks: [{ name: 'bogus', problem: 'unknown', line: 1, column: 50 }],
    });
  });

  it('answers a syntax error with a clear code, reason and line, never a stack trace', async () => {
    for (const path of ['template/validate', 'template/preview']) {
      const res = await post(path, { data: '<p>\n{{#each days}}{{name}}\n</p>' });
      expect([res.status, res.body.error.code]).toEqual([400, 'TEMPLATE_SYNTAX_ERROR']);
      expect(res.body.error.message).toBe('The template contains an error');
      // the place the editor marks: the block never closed
      expect([res.body.error.details.line, res.body.error.details.column]).toEqual([2, 1]);
      expect(res.body.error.details.reason).toMatch(
        /^Template error on line 2: a block \(\{\{#each\}\}\) is not closed/,
      );
      expect(JSON.stringify(res.body)).not.toMatch(/\.js:\d+/);
    }
  });

  it('previews a badge as a page document with the values escaped and the code drawn', async () => {
    const res = await post('template/preview', {
      data: '<div class="badge">{{firstname}} {{lastname}}</div>{{bc}}{{html_data}}',
      params: { ...sample, firstname: '<script>alert(1)</script>' },
      count: 3,
      type: 'html',
      pageSize: 'A5-L',
    });
    expect(res.status).toBe(200);
    const html: string = res.body.data;
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('@page { size: 210mm 148mm; margin: 0; }');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Nováková');
    expect(html.match(/class="accredo-page accredo-page-A5-L"/g)).toHaveLength(3);
    expect(html.match(/<svg class="bc bc-qrcode"/g)).toHaveLength(3);
    expect(html).toContain('<b>Press</b>');
  });

  it('previews with sample data when none is sent, so the preview always shows something', async () => {
    const res = await post('template/preview', { data: '{{firstname}} {{lastname}} {{zones[1]}} {{custom_field[8]}}' });
    expect(res.status).toBe(200);
    expect(res.body.data).toContain('Jan Novák B Value 8');
    expect(res.body.data).toContain('@page { size: 105mm 148mm; margin: 0; }');
  });

  it('previews a mail body as it is sent, without the page document', async () => {
    const res = await post('template/preview', {
      data: '<p>Dear {{firstname}},</p><p>{{actionName}}</p>',
      params: { ...sample, firstname: 'Eve <b>' },
      type: 'mail',
    });
    expect(res.body.data).toBe('<p>Dear Eve &lt;b&gt;,</p><p>Fair</p>');
  });

  it('refuses bad inputs (type pdf answers a PDF: pdf/badge-pdf.spec.ts)', async () => {
    for (const body of [
      { data: 'x', count: 0 },
      { data: 'x', count: 500 },
      { data: 'x', pageSize: 'B5' },
      { data: 'x', type: 'docx' },
      { data: 42 },
      { data: 'x', params: { zones: 'A' } },
    ]) {
      const res = await post('template/preview', body);
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
    }
    const res = await post('template/validate', { data: 'x', params: { days: 'all' } });
    expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});
