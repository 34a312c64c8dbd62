import fs from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngDataUrl } from '../../testing/images.js';
import { mimeParts } from '../../testing/mail.js';
import { pdfPageCodes, pdfText, rendererFailingAfter } from '../../testing/pdf.js';
import { startSmtp } from '../../testing/smtp.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { PrintLogEntity } from '../accreditation/print-log.entity.js';
import { BadgePdfService, badgeLanguage } from './badge-pdf.service.js';
import { PdfRenderer } from './pdf-renderer.service.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });
/** 1 mm in PDF points */
const MM = 72 / 25.4;

/** Pages and their sizes in mm, read back with pdf-lib. */
async function pageSizes(pdf: Buffer): Promise<[number, number][]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((p) => [Math.round(p.getWidth() / MM), Math.round(p.getHeight() / MM)]);
}

describe('badges as PDF (issue 13: user/print type pdf, preview pdf, jobs, mail attachment)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let subjectId: number;
  let admin: string;
  let otherAdmin: string;
  let action: { id: number };
  let press: { id: number };
  const people: { id: number; bc: string; name: string }[] = [];

  const post = (p: string, body: unknown, token = admin) =>
    t.api('POST', `/api/admin/v1/${p}`, { token, body, headers: { 'accept-language': 'en' } });
  /** A call answered with a file: the status, headers and bytes. */
  const fetchFile = async (method: string, p: string, body?: unknown, token = admin) => {
    const res = await fetch(`${t.url}/api/admin/v1/${p}`, {
      method,
      headers: {
        authorization: token,
        'accept-language': 'en',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const printCount = async (id: number) =>
    (await t.ds.getRepository(AccreditationEntity).findOneByOrFail({ id })).printCount;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url });
    const subject = await createSubject(t, { key: `pdf-${Date.now().toString(36)}` });
    subjectId = subject.id;
    const superuser = await createAdminUser(t, subject, { superuser: true, name: 'Pdf Admin' });
    admin = await loginAs(t, superuser);
    otherAdmin = await loginAs(t, await createAdminUser(t, subject, { superuser: true, name: 'Other Admin' }));
    action = (await post('action', { name: ml('Veletrh') })).body.data;
    const badge = (
      await post('template', {
        name: 'Badge',
        pageSize: 'A6',
        // The script would write a marker into the page if it ran; the image is the person's photo.
        htmlData:
          '<h1>{{firstname}} {{lastname}}</h1>{{user_image}}<div>{{bc}}</div>' +
          '<p id="js">static</p><script>document.getElementById("js").textContent = "SCRIPTRAN";</script>' +
          '<img src="https://example.com/tracker.png" alt="">',
      })
    ).body.data;
    press = (await post('groups', { name: 'Press', actionId: action.id, adminTemplateId: badge.id })).body.data;
    for (const [firstname, lastname] of [
      ['Anna', 'Novakova'],
      ['Bedrich', 'Smetana'],
      ['<b>Cyril</b>', 'Xss'],
    ]) {
      const res = await post('user', {
        actionId: action.id,
        firstname,
        lastname,
        email: `${lastname.toLowerCase()}@example.com`,
        groupIds: [press.id],
        imageData: pngDataUrl(),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      people.push({ id: res.body.data.id, bc: res.body.data.bc, name: `${firstname} ${lastname}` });
    }
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('prints the selection as one PDF: a page per person of the exact size, names as text, QR decoding to the code, no script run', async () => {
    const res = await fetchFile('POST', 'user/print', {
      actionId: action.id,
      userId: people.map((p) => p.id),
      type: 'pdf',
    });
    expect(res.status, res.bytes.toString().slice(0, 300)).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="badges-${action.id}-\\d{4}-\\d{2}-\\d{2}\\.pdf"$`),
    );
    expect(res.headers.get('x-print-printed')).toBe('3');
    expect(res.headers.get('x-print-error-count')).toBe('0');
    expect(JSON.parse(decodeURIComponent(res.headers.get('x-print-errors')!))).toEqual([]);
    expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pageSizes(res.bytes)).toEqual([
      [105, 148],
      [105, 148],
      [105, 148],
    ]);
    const texts = await pdfText(res.bytes);
    expect(texts[0]).toContain('Anna Novakova');
    expect(texts[1]).toContain('Bedrich Smetana');
    // what a person typed stays text
    expect(texts[2]).toContain('<b>Cyril</b> Xss');
    for (const text of texts.slice(0, 3)) {
      expect(text).toContain('static');
      expect(text).not.toContain('SCRIPTRAN');
    }
    expect(await pdfPageCodes(res.bytes)).toEqual(people.map((p) => p.bc));

    // logged and counted like an HTML print
    for (const p of people) expect(await printCount(p.id)).toBe(1);
    const logs = await t.ds.getRepository(PrintLogEntity).find({ where: { subjectId } });
    expect(logs).toHaveLength(3);
  });

  it('prints a single person (the gate desk call) and answers data null when nobody is printable', async () => {
    const one = await fetchFile('POST', 'user/print', { actionId: action.id, userId: [people[0].id], type: 'pdf' });
    expect(one.status).toBe(200);
    expect(await pageSizes(one.bytes)).toEqual([[105, 148]]);
    expect(await printCount(people[0].id)).toBe(2);

    const [loner] = (
      await Promise.all([
        post('user', { actionId: action.id, firstname: 'No', lastname: 'Group', email: 'nogroup@example.com' }),
      ])
    ).map((r) => r.body.data);
    const none = await post('user/print', { actionId: action.id, userId: [loner.id], type: 'pdf' });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ data: null, error: [{ user: loner.id, error: 'PRINT_NO_GROUP' }], printed: 0 });
  });

  it('previews a template as PDF with its copies on its page size', async () => {
    const res = await fetchFile('POST', 'template/preview', {
      data: '<h1>{{firstname}}</h1>{{bc}}',
      params: { firstname: 'Preview', bc: 'ABC123' },
      type: 'pdf',
      count: 2,
      pageSize: 'A5-L',
    });
    expect(res.status, res.bytes.toString().slice(0, 300)).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(await pageSizes(res.bytes)).toEqual([
      [210, 148],
      [210, 148],
    ]);
    expect((await pdfText(res.bytes))[1]).toContain('Preview');
    expect(await pdfPageCodes(res.bytes)).toEqual(['ABC123', 'ABC123']);

    const broken = await post('template/preview', { data: '{{#each days}}', type: 'pdf' });
    expect([broken.status, broken.body.error.code]).toEqual([400, 'TEMPLATE_SYNTAX_ERROR']);
  });

  it('turns a big print into a job: 202, progress, the file for its admin only, every badge logged', async () => {
    const service = t.app.get(BadgePdfService);
    service.syncMax = 2;
    // one badge per render: three parts, two rendered side by side, merged in order
    service.chunkSize = 1;
    try {
      const before = await Promise.all(people.map((p) => printCount(p.id)));
      const started = await post('user/print', {
        actionId: action.id,
        all: true,
        filterData: { groupId: press.id },
        type: 'pdf',
      });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const job = started.body.data;
      expect(job).toMatchObject({ total: 3, fileName: expect.stringMatching(/\.pdf$/) });
      expect(['waiting', 'running']).toContain(job.state);

      const early = await fetchFile('GET', `user/print/job/${job.id}/file`);
      if (early.status !== 200) expect(JSON.parse(early.bytes.toString()).error.code).toBe('PDF_JOB_NOT_READY');

      await service.flush();
      const status = await t.api('GET', `/api/admin/v1/user/print/job/${job.id}`, { token: admin });
      expect(status.body.data).toMatchObject({ id: job.id, state: 'done', total: 3, done: 3, printed: 3, error: [] });
      const file = await fetchFile('GET', `user/print/job/${job.id}/file`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(await pageSizes(file.bytes)).toHaveLength(3);
      expect(await pdfPageCodes(file.bytes)).toEqual(people.map((p) => p.bc));
      expect(await Promise.all(people.map((p) => printCount(p.id)))).toEqual(before.map((n) => n + 1));

      const foreign = await t.api('GET', `/api/admin/v1/user/print/job/${job.id}`, { token: otherAdmin });
      expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
      const foreignFile = await fetchFile('GET', `user/print/job/${job.id}/file`, undefined, otherAdmin);
      expect(foreignFile.status).toBe(404);
    } finally {
      service.syncMax = 200;
      service.chunkSize = 100;
    }
  });

  it('attaches the badge PDF to a mail whose template has withAccreditation (rendered by the worker)', async () => {
    const template = (
      await post('mail-template', {
        name: 'Your badge',
        subjectFrom: 'Your badge',
        withAccreditation: true,
        html: '<p>Hello {{firstname}}</p>',
      })
    ).body.data;
    const queued = await post('email/send', {
      actionId: action.id,
      userIds: [people[1].id],
      mailTemplate: template.id,
    });
    expect(queued.status, JSON.stringify(queued.body)).toBe(200);
    await t.mails();
    const mail = smtp.mails.find((m) => m.to.includes('smetana@example.com'));
    expect(mail).toBeDefined();
    const pdf = mimeParts(mail!.raw).find((p) => p.type === 'application/pdf');
    expect(pdf?.headers).toMatch(new RegExp(`filename="?badge-${people[1].bc}\\.pdf`, 'i'));
    expect(await pageSizes(pdf!.bytes)).toEqual([[105, 148]]);
    expect((await pdfText(pdf!.bytes))[0]).toContain('Bedrich Smetana');
    expect(await pdfPageCodes(pdf!.bytes)).toEqual([people[1].bc]);
  });

  it('gives a paired station the badge of one person (GET api/device/v1/badge/{id}), logged as a print', async () => {
    const key = (await t.api('GET', '/api/admin/v1/device/key', { token: admin })).body.data;
    const paired = await t.api('POST', '/api/device/v1/pair', {
      body: { code: key.bc, uid: 'desk-1', name: 'Desk', appVersion: '1.0' },
    });
    expect(paired.status, JSON.stringify(paired.body)).toBe(200);
    const token = `Bearer ${paired.body.data.token}`;
    const before = await printCount(people[2].id);
    const res = await fetch(`${t.url}/api/device/v1/badge/${people[2].id}`, { headers: { authorization: token } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(await pageSizes(bytes)).toEqual([[105, 148]]);
    expect(await pdfPageCodes(bytes)).toEqual([people[2].bc]);
    expect(await printCount(people[2].id)).toBe(before + 1);
    const log = await t.ds.getRepository(PrintLogEntity).findOne({
      where: { accreditationId: people[2].id },
      order: { id: 'DESC' },
    });
    expect(log?.adminUserId).toBeNull();

    expect((await fetch(`${t.url}/api/device/v1/badge/${people[2].id}`)).status).toBe(401);
    const missing = await t.api('GET', '/api/device/v1/badge/999999', { token });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const loner = (
      await post('user', { actionId: action.id, firstname: 'Desk', lastname: 'Nogroup', email: 'desk@example.com' })
    ).body.data;
    const none = await t.api('GET', `/api/device/v1/badge/${loner.id}`, { token });
    expect([none.status, none.body.error.code, none.body.error.details.reason]).toEqual([
      400,
      'NOTHING_TO_PRINT',
      'PRINT_NO_GROUP',
    ]);
  });

  /** A job of the three press people (two badges answered at once at most, one badge per part), finished. */
  const bigJob = async (token = admin) => {
    const service = t.app.get(BadgePdfService);
    service.syncMax = 2;
    service.chunkSize = 1;
    try {
      const started = await post(
        'user/print',
        { actionId: action.id, userId: people.map((p) => p.id), type: 'pdf' },
        token,
      );
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      await service.flush();
      return (await t.api('GET', `/api/admin/v1/user/print/job/${started.body.data.id}`, { token })).body.data;
    } finally {
      service.syncMax = 200;
      service.chunkSize = 100;
    }
  };

  it('says why a job failed and lets its admin start it again once, from its progress', async () => {
    const renderer = t.app.get(PdfRenderer);
    const chromium = renderer.executablePath;
    await renderer.onApplicationShutdown();
    renderer.executablePath = '/nonexistent/chromium';
    let failed: { id: number };
    try {
      failed = await bigJob();
      expect(failed).toMatchObject({ state: 'error', failReason: 'PDF_RENDERER_MISSING', canRetry: true, done: 0 });
      // the second failure of a job leaves it without a retry
      const twice = await bigJob();
      const again = await post(`user/print/job/${twice.id}/retry`, {});
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.data).toMatchObject({ state: 'waiting', failReason: null });
      await t.app.get(BadgePdfService).flush();
      const status = (await t.api('GET', `/api/admin/v1/user/print/job/${twice.id}`, { token: admin })).body.data;
      expect(status).toMatchObject({ state: 'error', failReason: 'PDF_RENDERER_MISSING', canRetry: false });
      const used = await post(`user/print/job/${twice.id}/retry`, {});
      expect([used.status, used.body.error.code]).toEqual([409, 'PDF_JOB_RETRY_USED']);
    } finally {
      renderer.executablePath = chromium;
    }
    const foreign = await post(`user/print/job/${failed.id}/retry`, {}, otherAdmin);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const before = await Promise.all(people.map((p) => printCount(p.id)));
    const retried = await post(`user/print/job/${failed.id}/retry`, {});
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    await t.app.get(BadgePdfService).flush();
    const file = await fetchFile('GET', `user/print/job/${failed.id}/file`);
    expect(file.status).toBe(200);
    // every badge once (the order of a selection by ids is the database's: MariaDB's differs)
    expect((await pdfPageCodes(file.bytes)).sort()).toEqual(people.map((p) => p.bc).sort());
    expect(await Promise.all(people.map((p) => printCount(p.id)))).toEqual(before.map((n) => n + 1));
    const done = await post(`user/print/job/${failed.id}/retry`, {});
    expect([done.status, done.body.error.code]).toEqual([409, 'PDF_JOB_NOT_FAILED']);
  });

  it('keeps the chunks rendered before a failure: the retry renders and counts only the rest', async () => {
    // the first two chunks (one badge each, rendered side by side) succeed; the third fails on each
    // of its tries (a renderer that keeps crashing on it)
    const spy = rendererFailingAfter(t.app, 2);
    const before = await Promise.all(people.map((p) => printCount(p.id)));
    let failed: { id: number };
    try {
      failed = await bigJob();
    } finally {
      spy.mockRestore();
    }
    expect(failed).toMatchObject({ state: 'error', failReason: 'Chromium crashed on this chunk', canRetry: true });
    expect(failed, JSON.stringify(failed)).toMatchObject({ done: 2, printed: 2 });
    const retried = await post(`user/print/job/${failed.id}/retry`, {});
    expect(retried.body.data).toMatchObject({ state: 'waiting', done: 2 });
    await t.app.get(BadgePdfService).flush();
    const file = await fetchFile('GET', `user/print/job/${failed.id}/file`);
    // every badge once (the order of a selection by ids is the database's: MariaDB's differs)
    expect((await pdfPageCodes(file.bytes)).sort()).toEqual(people.map((p) => p.bc).sort());
    // each badge counted once, however many tries its job took
    expect(await Promise.all(people.map((p) => printCount(p.id)))).toEqual(before.map((n) => n + 1));
  });

  it('removes job files a day after they finish, past the disk bound, and folders without a job', async () => {
    const service = t.app.get(BadgePdfService);
    const first = await bigJob();
    const second = await bigJob();
    expect([first.state, second.state]).toEqual(['done', 'done']);
    const jobsDir = path.join(t.dataDir, 'pdf-jobs');
    const orphan = path.join(jobsDir, '987654');
    await fs.mkdir(orphan, { recursive: true });
    await fs.writeFile(path.join(orphan, 'part-000000.pdf'), 'left behind');

    // the bound holds one file: the older one goes, the newer one stays
    const size = (await fs.stat(path.join(jobsDir, String(second.id), 'badges.pdf'))).size;
    service.maxBytes = size;
    try {
      expect(await service.sweep()).toMatchObject({ removed: 1 });
    } finally {
      service.maxBytes = 5 * 1024 ** 3;
    }
    await expect(fs.stat(orphan)).rejects.toThrow();
    await expect(fs.stat(path.join(jobsDir, String(first.id)))).rejects.toThrow();
    const expired = await t.api('GET', `/api/admin/v1/user/print/job/${first.id}`, { token: admin });
    expect(expired.body.data).toMatchObject({ state: 'expired', canRetry: false });
    const gone = await fetchFile('GET', `user/print/job/${first.id}/file`);
    expect([gone.status, JSON.parse(gone.bytes.toString()).error.code]).toEqual([410, 'PDF_JOB_EXPIRED']);
    expect((await fetchFile('GET', `user/print/job/${second.id}/file`)).status).toBe(200);

    // a day later the newer one goes too
    await service.sweep(Date.now() + 25 * 60 * 60_000);
    await expect(fs.stat(path.join(jobsDir, String(second.id)))).rejects.toThrow();
    const late = await fetchFile('GET', `user/print/job/${second.id}/file`);
    expect(late.status).toBe(410);
  });

  it("renders a person's own badge in their stored language, else the subject's default (Czech)", () => {
    expect(badgeLanguage({ language: 'de' })).toBe('de');
    expect(badgeLanguage({ language: 'sk' })).toBe('sk');
    // no language stored (today's accreditations), or one the product does not speak
    expect(badgeLanguage({})).toBe('cs');
    expect(badgeLanguage({ language: null })).toBe('cs');
    expect(badgeLanguage({ language: 'fr' })).toBe('cs');
  });

  it('names the install step when Chromium is missing, and HTML printing still works', async () => {
    const renderer = t.app.get(PdfRenderer);
    await renderer.onApplicationShutdown();
    const path = renderer.executablePath;
    renderer.executablePath = '/nonexistent/chromium';
    try {
      const res = await post('user/print', { actionId: action.id, userId: [people[0].id], type: 'pdf' });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('PDF_RENDERER_MISSING');
      expect(res.body.error.details).toMatchObject({ install: 'apt-get install -y chromium', env: 'CHROMIUM_PATH' });
      expect(res.body.error.message).toContain('apt-get install -y chromium');
      const preview = await post('template/preview', { data: '<p>x</p>', type: 'pdf' });
      expect([preview.status, preview.body.error.code]).toEqual([503, 'PDF_RENDERER_MISSING']);
      const html = await post('user/print', { actionId: action.id, userId: [people[0].id] });
      expect(html.status).toBe(200);
      expect(html.body.data).toContain('Anna Novakova');
    } finally {
      renderer.executablePath = path;
    }
  });
});
