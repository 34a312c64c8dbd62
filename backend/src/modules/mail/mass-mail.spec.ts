import { AccreditationHistoryService } from '../accreditation/accreditation-history.service.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { In } from 'typeorm';
import { htmlPart, mimeParts, ml, seedPeople, textPart } from '../../testing/mail.js';
import { startSmtp } from '../../testing/smtp.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { MailTemplateEntity } from '../template/template.entity.js';
import { AccreditationMailService } from './accreditation-mail.service.js';
import { MailQueueEntity } from './mail-queue.entity.js';

describe('mail from templates (spec §5 mass mail, §7 email/send, §8)', () => {
  let t: TestApp;
  /** A person's latest mails as the list's row history reads them. */
  const mailsOf = async (id: number) =>
    (await t.app.get(AccreditationHistoryService).forAccreditations([id])).get(id)!.mail;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: string;
  let adminId: number;
  let stranger: string;
  let noRight: string;
  let subjectId: number;
  let action: { id: number };
  let otherAction: { id: number };
  let template: { id: number };
  let foreignTemplate: { id: number };

  const post = (path: string, body: unknown, token = admin) => t.api('POST', `/api/admin/v1/${path}`, { token, body });
  const received = (address: string) => smtp.mails.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url });
    const subject = await createSubject(t);
    subjectId = subject.id;
    const user = await createAdminUser(t, subject, { superuser: true, name: 'Mail Admin' });
    adminId = user.id;
    admin = await loginAs(t, user);
    noRight = await loginAs(
      t,
      await createAdminUser(t, subject, {
        grant: [
          ['user', 'getUser'],
          ['mailTemplate', 'get'],
        ],
      }),
    );
    const strangerUser = await createAdminUser(t, await createSubject(t), { superuser: true });
    stranger = await loginAs(t, strangerUser);
    const actionBody = (name: string) => ({ name: ml(name), dateFrom: '2027-05-10T08:00', dateTo: '2027-05-11T18:00' });
    action = (await post('action', actionBody('Festival <2027>'))).body.data;
    otherAction = (await post('action', actionBody('Other'))).body.data;
    template = (
      await post('mail-template', {
        name: 'Invitation',
        type: 2,
        subjectFrom: 'Welcome to {{actionName}}',
        mailCopy: [],
        html: '<p>Dear {{firstname}} {{lastname}},</p><p>your code is {{bc}}.</p>',
      })
    ).body.data;
    foreignTemplate = (
      await post('mail-template', { name: 'Theirs', subjectFrom: 'Theirs', html: '<p>{{firstname}}</p>' }, stranger)
    ).body.data;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('refuses without a session (401) and without the right (403)', async () => {
    const body = { actionId: action.id, userIds: [1], mailTemplate: template.id };
    expect((await t.api('POST', '/api/admin/v1/email/send', { body })).status).toBe(401);
    expect((await post('email/send', body, noRight)).status).toBe(403);
    expect((await post(`mail-template/${template.id}/test`, { email: 'a@example.com' }, noRight)).status).toBe(403);
  });

  it('asks for a template and for a selection, with clear field errors', async () => {
    const none = await post('email/send', { actionId: action.id, userIds: [1] });
    expect(none.status).toBe(400);
    expect(none.body.error.details.fields).toEqual([{ path: 'mailTemplate', key: 'mail.chooseTemplate' }]);
    const nobody = await post('email/send', { actionId: action.id, userIds: [], mailTemplate: template.id });
    expect(nobody.status).toBe(400);
    expect(nobody.body.error.details.fields).toEqual([{ path: 'userIds', key: 'accreditation.chooseUsers' }]);
  });

  it("answers 404 for another subject's template or action", async () => {
    const [id] = await seedPeople(t, subjectId, action.id, [
      { firstname: 'Pat', lastname: 'Lone', email: 'pat.lone@example.com' },
    ]);
    const foreign = await post('email/send', { actionId: action.id, userIds: [id], mailTemplate: foreignTemplate.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    const theirAction = await post(
      'email/send',
      { actionId: action.id, userIds: [id], mailTemplate: template.id },
      stranger,
    );
    expect(theirAction.status).toBe(404);
    expect((await post(`mail-template/${foreignTemplate.id}/test`, { email: 'a@example.com' })).body.error.code).toBe(
      'NOT_FOUND',
    );
    expect(await t.ds.getRepository(MailQueueEntity).count({ where: { accreditationId: id } })).toBe(0);
  });

  it('sends one mail to each of 120 people of a filter (volume: bench/mass-mail.mjs), each with their own name escaped', async () => {
    const people = Array.from({ length: 120 }, (_, i) => ({
      firstname: `<i>Ann${i}</i>`,
      lastname: `Smith & Co ${i}`,
      email: `mass${i}@example.com`,
    }));
    const ids = await seedPeople(t, subjectId, action.id, people);
    // people outside the filter get nothing
    await seedPeople(t, subjectId, action.id, [
      { firstname: 'Outside', lastname: 'Filter', email: 'outside@example.com' },
    ]);
    const res = await post('email/send', {
      actionId: action.id,
      all: true,
      filterData: { text: 'smith & co' },
      mailTemplate: template.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ queued: 120, error: [] });

    const rows = (await t.mails()).filter((m) => m.mailTemplateId === template.id && m.recipient.startsWith('mass'));
    expect(rows).toHaveLength(120);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    expect(rows[0]).toMatchObject({
      adminUserId: adminId,
      actionId: action.id,
      subjectId,
      subject: 'Welcome to Festival <2027>',
    });
    expect(new Set(rows.map((r) => r.accreditationId))).toEqual(new Set(ids));

    for (const i of [0, 57, 119]) {
      const got = received(`mass${i}@example.com`);
      expect(got).toHaveLength(1);
      const html = htmlPart(got[0].raw);
      expect(html).toContain(`Dear &lt;i&gt;Ann${i}&lt;/i&gt; Smith &amp; Co ${i},`);
      expect(html).not.toContain('<i>');
      // {{bc}} is the person's QR as an inline PNG (mail clients do not show SVG)
      expect(html).toContain('your code is <img src="cid:accreditation-code@accredo"');
      expect(html).not.toContain('<svg');
      expect(mimeParts(got[0].raw).some((p) => p.type === 'image/png')).toBe(true);
      expect(textPart(got[0].raw)).toContain(`Dear <i>Ann${i}</i> Smith & Co ${i},`);
      expect(got[0].raw).toMatch(/^Subject: Welcome to Festival <2027>/m);
    }
    expect(smtp.mails.filter((m) => m.to.some((a) => a.startsWith('mass')))).toHaveLength(120);
    expect(received('outside@example.com')).toHaveLength(0);
  });

  it('sends to chosen ids; a person without an e-mail or of another action is a per-person error', async () => {
    const [withMail, withoutMail] = await seedPeople(t, subjectId, action.id, [
      { firstname: 'Eva', lastname: 'Chosen', email: 'eva.chosen@example.com' },
      { firstname: 'No', lastname: 'Mail', email: '' },
    ]);
    const [elsewhere] = await seedPeople(t, subjectId, otherAction.id, [
      { firstname: 'Else', lastname: 'Where', email: 'else@example.com' },
    ]);
    const res = await post('email/send', {
      actionId: action.id,
      userIds: [withMail, withoutMail, elsewhere],
      mailTemplate: template.id,
    });
    expect(res.status).toBe(200);
    // the other action's person is not part of this action's selection at all
    expect(res.body.data).toEqual({ queued: 1, error: [{ user: withoutMail, error: 'NO_EMAIL' }] });
    await t.mails();
    expect(received('eva.chosen@example.com')).toHaveLength(1);
    expect(received('else@example.com')).toHaveLength(0);
  });

  it('reports people that are gone as per-person errors (the service the registration calls)', async () => {
    const [id] = await seedPeople(t, subjectId, action.id, [
      { firstname: 'Reg', lastname: 'Istered', email: 'reg@example.com' },
    ]);
    const service = t.app.get(AccreditationMailService);
    const result = await service.queueTemplateMail({
      subjectId,
      accreditationIds: [id, 999_999],
      mailTemplateId: template.id,
      adminUserId: null,
      note: 'after registration',
    });
    expect(result).toEqual({ queued: 1, errors: [{ user: 999_999, error: 'NOT_FOUND' }] });
    await expect(
      service.queueTemplateMail({
        subjectId,
        accreditationIds: [id],
        mailTemplateId: foreignTemplate.id,
        adminUserId: null,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await t.mails();
    const history = await mailsOf(id);
    expect(history).toEqual([
      expect.objectContaining({
        status: 'sent',
        note: 'after registration',
        adminUser: null,
        mailTemplate: 'Invitation',
      }),
    ]);
  });

  it('sends copies to the mailCopy addresses', async () => {
    const copied = (
      await post('mail-template', {
        name: 'With copies',
        subjectFrom: 'Copy test',
        mailCopy: ['office@example.com', 'boss@example.com'],
        html: '<p>Hi {{firstname}}</p>',
      })
    ).body.data;
    const [id] = await seedPeople(t, subjectId, action.id, [
      { firstname: 'Carl', lastname: 'Copy', email: 'carl.copy@example.com' },
    ]);
    expect(
      (await post('email/send', { actionId: action.id, userIds: [id], mailTemplate: copied.id })).body.data,
    ).toEqual({
      queued: 1,
      error: [],
    });
    await t.mails();
    const [mail] = received('carl.copy@example.com');
    expect(mail.to.sort()).toEqual(['boss@example.com', 'carl.copy@example.com', 'office@example.com']);
    expect(mail.raw).toMatch(/^Cc: office@example.com, boss@example.com/m);
    const history = await mailsOf(id);
    expect(history[0]).toMatchObject({ adminUser: 'Mail Admin', mailTemplate: 'With copies', status: 'sent' });
  });

  it('carries the code as an inline image with the accreditation (withAccreditation)', async () => {
    const placed = (
      await post('mail-template', {
        name: 'With badge',
        subjectFrom: 'Your code {{bc}}',
        withAccreditation: true,
        html: '<p>Hello {{firstname}}</p><div class="code">{{bc}}</div>',
      })
    ).body.data;
    const appended = (
      await post('mail-template', {
        name: 'Badge at the end',
        subjectFrom: 'Your badge',
        withAccreditation: true,
        html: '<p>Hello {{firstname}}</p>',
      })
    ).body.data;
    const [a, b] = await seedPeople(t, subjectId, action.id, [
      { firstname: 'Ida', lastname: 'Inline', email: 'ida.inline@example.com' },
      { firstname: 'Abe', lastname: 'Appended', email: 'abe.appended@example.com' },
    ]);
    const codes = await t.ds
      .getRepository(AccreditationEntity)
      .find({ where: { id: In([a, b]) }, order: { id: 'ASC' } })
      .then((rows) => rows.map((r) => r.bc));
    await post('email/send', { actionId: action.id, userIds: [a], mailTemplate: placed.id });
    await post('email/send', { actionId: action.id, userIds: [b], mailTemplate: appended.id });
    await t.mails();

    for (const [address, code] of [
      ['ida.inline@example.com', codes[0]],
      ['abe.appended@example.com', codes[1]],
    ]) {
      const [mail] = received(address);
      const parts = mimeParts(mail.raw);
      const image = parts.find((p) => p.type === 'image/png');
      expect(image?.headers).toMatch(/Content-ID: <accreditation-code@accredo>/i);
      expect([...image!.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const html = htmlPart(mail.raw);
      expect(html).toContain(`<img src="cid:accreditation-code@accredo" alt="${code}"`);
      expect(html).not.toContain('<svg');
      expect(textPart(mail.raw)).toContain('Hello');
    }
    const [inline] = received('ida.inline@example.com');
    expect(htmlPart(inline.raw)).toMatch(/<div class="code"><img src="cid:accreditation-code@accredo"/);
    expect(inline.raw).toMatch(new RegExp(`^Subject: Your code ${codes[0]}\\r?$`, 'm'));
    expect(textPart(inline.raw)).toContain(codes[0]);
  });

  it("refuses a template that cannot be rendered with the engine's reason", async () => {
    const repo = t.ds.getRepository(MailTemplateEntity);
    const broken = await repo.save(
      repo.create({
        subjectId,
        name: 'Broken',
        type: 2,
        subjectFrom: 'Broken',
        withAccreditation: false,
        mailCopy: [],
        html: '<p>{{#each days}}{{name}}</p>',
        createdAt: new Date(),
        updatedAt: new Date(),
      }),
    );
    const [id] = await seedPeople(t, subjectId, action.id, [
      { firstname: 'Bro', lastname: 'Ken', email: 'bro.ken@example.com' },
    ]);
    const res = await post('email/send', { actionId: action.id, userIds: [id], mailTemplate: broken.id });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('TEMPLATE_SYNTAX_ERROR');
    expect(res.body.error.details.reason).toMatch(/line 1/);
    expect((await post(`mail-template/${broken.id}/test`, { email: 'a@example.com' })).body.error.code).toBe(
      'TEMPLATE_SYNTAX_ERROR',
    );
    expect(await t.ds.getRepository(MailQueueEntity).count({ where: { accreditationId: id } })).toBe(0);
  });

  it('sends a test of a template with sample data to the given address', async () => {
    const bad = await post(`mail-template/${template.id}/test`, { email: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual([{ path: 'email', key: 'basics.emailNotValid' }]);
    const empty = await post(`mail-template/${template.id}/test`, {});
    expect(empty.body.error.details.fields).toEqual([{ path: 'email', key: 'basics.requireField' }]);

    const res = await post(`mail-template/${template.id}/test`, { email: 'Tester@Example.com' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ queued: 1, email: 'tester@example.com' });
    await t.mails();
    const [mail] = received('tester@example.com');
    expect(mail.raw).toMatch(/^Subject: \[Test\] Welcome to Accredo 2027/m);
    expect(htmlPart(mail.raw)).toContain('Dear Jan Novák,');
    const row = await t.ds.getRepository(MailQueueEntity).findOneByOrFail({ recipient: 'tester@example.com' });
    expect(row).toMatchObject({
      adminUserId: adminId,
      mailTemplateId: template.id,
      note: 'Test mail',
      accreditationId: null,
    });
  });
});
