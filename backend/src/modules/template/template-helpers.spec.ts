import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlPart, waitForQueue } from '../../testing/mail.js';
import { startSmtp } from '../../testing/smtp.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

const run = promisify(execFile);
const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

/** The text of each page of a PDF (poppler's pdftotext, a reader independent of Chromium). */
async function pdfPages(pdf: Buffer): Promise<string[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'helpers-pdf-'));
  try {
    const file = path.join(dir, 'badges.pdf');
    await fs.writeFile(file, pdf);
    const pages = (await run('pdftotext', ['-layout', file, '-'])).stdout.split('\f');
    return pages.slice(0, -1);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 13 "Beyond the spec": one template for the whole event with `{{#ifGroup "…"}}` and
 * `{{#ifZone "…"}}`. The print and PDF paths fill in every group and zone name of the person.
 */
describe('group and zone helpers in printed badges, PDFs and mails (issue 13)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: string;
  let action: { id: number };
  const people: Record<string, { id: number; bc: string }> = {};

  const post = (p: string, body: unknown) =>
    t.api('POST', `/api/admin/v1/${p}`, { token: admin, body, headers: { 'accept-language': 'en' } });

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url });
    const subject = await createSubject(t, { key: `helpers-${Date.now().toString(36)}` });
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    action = (await post('action', { name: ml('Festival') })).body.data;
    const backstage = (await post('zone', { name: 'Backstage', onAccreditation: 'BS', actionId: action.id })).body.data;
    const hall = (await post('zone', { name: 'Hall', onAccreditation: 'H', actionId: action.id })).body.data;
    const badge = (
      await post('template', {
        name: 'One for all',
        pageSize: 'A6',
        htmlData:
          '<h1>{{firstname}}</h1>' +
          '{{#ifGroup "Crew"}}<div class="band">CREWBAND</div>{{else}}<div>GUESTLINE</div>{{/ifGroup}}' +
          '{{#ifZone "Backstage"}}<p>BACKSTAGEPASS</p>{{/ifZone}}',
      })
    ).body.data;
    expect(badge.id).toBeTypeOf('number');
    // Press prints the badge (the first group by id); Crew only marks the person
    const press = (await post('groups', { name: 'Press', actionId: action.id, adminTemplateId: badge.id })).body.data;
    const crew = (await post('groups', { name: 'Crew', actionId: action.id })).body.data;
    const register = async (key: string, groupIds: number[], zones: number[]) => {
      const res = await post('user', {
        actionId: action.id,
        firstname: key,
        lastname: 'Tester',
        email: `${key.toLowerCase()}@example.com`,
        groupIds,
        zones,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      people[key] = res.body.data;
    };
    await register('Alice', [press.id, crew.id], [backstage.id]);
    await register('Bruno', [press.id], [hall.id]);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('prints the crew band and the backstage line only for the person in that group and zone (HTML)', async () => {
    const res = await post('user/print', { actionId: action.id, userId: [people.Alice.id, people.Bruno.id] });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.error).toEqual([]);
    const pages = (res.body.data as string).split('class="accredo-page ').slice(1);
    expect(pages).toHaveLength(2);
    const alice = pages.find((p) => p.includes('Alice')) ?? '';
    const bruno = pages.find((p) => p.includes('Bruno')) ?? '';
    expect(alice).toContain('CREWBAND');
    expect(alice).toContain('BACKSTAGEPASS');
    expect(alice).not.toContain('GUESTLINE');
    expect(bruno).not.toContain('CREWBAND');
    expect(bruno).not.toContain('BACKSTAGEPASS');
    expect(bruno).toContain('GUESTLINE');
  });

  it('does the same in the PDF, read back page by page', async () => {
    const res = await fetch(`${t.url}/api/admin/v1/user/print`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify({ actionId: action.id, userId: [people.Alice.id, people.Bruno.id], type: 'pdf' }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status, bytes.toString().slice(0, 300)).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pages = await pdfPages(bytes);
    expect(pages).toHaveLength(2);
    const alice = pages.find((p) => p.includes('Alice')) ?? '';
    const bruno = pages.find((p) => p.includes('Bruno')) ?? '';
    expect([alice.includes('CREWBAND'), alice.includes('BACKSTAGEPASS'), alice.includes('GUESTLINE')]).toEqual([
      true,
      true,
      false,
    ]);
    expect([bruno.includes('CREWBAND'), bruno.includes('BACKSTAGEPASS'), bruno.includes('GUESTLINE')]).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('fills them in a mail per person (the mail worker renders with all their groups and zones)', async () => {
    const template = (
      await post('mail-template', {
        name: 'Per group',
        subjectFrom: 'Your pass',
        html: '<p>{{firstname}}: {{#ifGroup "Crew"}}CREWMAIL{{else}}GUESTMAIL{{/ifGroup}}{{#ifZone "Backstage"}} ZONEMAIL{{/ifZone}}</p>',
      })
    ).body.data;
    const sent = await post('email/send', {
      actionId: action.id,
      userIds: [people.Alice.id, people.Bruno.id],
      mailTemplate: template.id,
    });
    expect(sent.body.data).toEqual({ queued: 2, error: [] });
    await waitForQueue(t);
    const body = (to: string) => htmlPart(smtp.mails.find((m) => m.to.includes(to))?.raw ?? '');
    expect(body('alice@example.com')).toContain('Alice: CREWMAIL ZONEMAIL');
    expect(body('bruno@example.com')).toContain('Bruno: GUESTMAIL');
    expect(body('bruno@example.com')).not.toContain('ZONEMAIL');
  });

  it('previews with the names sent in params, and the check refuses a helper without its name at its place', async () => {
    const html = '{{#ifGroup "Crew"}}CREW{{else}}OTHER{{/ifGroup}}{{#ifZone "Backstage"}}+BS{{/ifZone}}';
    const crew = await post('template/preview', {
      data: html,
      params: { groupNames: ['Crew'], zoneNames: ['Backstage'] },
    });
    expect(crew.status).toBe(200);
    expect(crew.body.data).toContain('CREW+BS');
    const other = await post('template/preview', { data: html, params: { groupNames: ['Press'], zoneNames: [] } });
    expect(other.body.data).toContain('OTHER');
    expect(other.body.data).not.toContain('+BS');

    const broken = await post('template/validate', { data: '<p>\n  {{#ifZone}}x{{/ifZone}}</p>' });
    expect([broken.status, broken.body.error.code]).toEqual([400, 'TEMPLATE_SYNTAX_ERROR']);
    expect(broken.body.error.details).toMatchObject({ line: 2, column: 6 });
    expect(broken.body.error.details.reason).toMatch(/ifZone takes one name in quotes/);

    const tooLong = await post('template/preview', { data: html, params: { groupNames: ['x'.repeat(256)] } });
    expect([tooLong.status, tooLong.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});
