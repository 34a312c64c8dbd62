import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { MailTemplateTranslationEntity } from '../template/template.entity.js';

/**
 * Mails in the person's language (issue 15): a mail template holds its subject line and body per
 * language (cs required, the fallback), the language a person registered in is stored on the
 * accreditation and every mail to them is written in it.
 */
describe('mails in the person’s language (issue 15)', () => {
  let t: TestApp;
  let token: string;
  let czechOnly: string;
  let subjectId: number;
  let actionId: number;
  let template: { id: number };
  let channelKey: string;
  let czechChannelKey: string;
  let czechActionId: number;

  const api = (method: string, path: string, body?: unknown, as = token) =>
    t.api(method, `/api/admin/v1/${path}`, { token: as, body });
  const register = (key: string, body: Record<string, unknown>) =>
    t.api('POST', `/api/online/v1/accreditation/${key}`, { body });
  /** The mails queued to an address (sent by the worker first). */
  const mailsTo = async (email: string) => (await t.mails()).filter((m) => m.recipient === email);
  const person = async (id: number) => (await api('GET', `user/${actionId}/${id}`)).body.data;

  const TEXTS = {
    name: 'Confirmation',
    type: 1,
    subjectFrom: 'Registrace: {{actionName}}',
    html: '<p>Dobrý den {{firstname}}, vítejte na akci {{actionName}}.</p>',
    translations: {
      de: {
        subjectFrom: 'Anmeldung: {{actionName}}',
        html: '<p>Guten Tag {{firstname}}, willkommen zu {{actionName}}.</p>',
      },
    },
  };

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t, { multiLanguage: true });
    subjectId = subject.id;
    token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    const action = await api('POST', 'action', {
      name: { cs: 'Veletrh', sk: '', en: 'Fair', de: 'Messe' },
      dateFrom: '2030-05-10T08:00',
      dateTo: '2030-05-11T18:00',
    });
    actionId = action.body.data.id;
    const created = await api('POST', 'mail-template', TEXTS);
    expect(created.status).toBe(201);
    template = created.body.data;
    const channel = await api('POST', 'web-channel', { name: 'Visitors', actionId, mailTemplateId: template.id });
    expect(channel.status).toBe(201);
    channelKey = channel.body.data.channelKey;

    // a subject that offers Czech alone
    const czech = await createSubject(t, { multiLanguage: false });
    czechOnly = await loginAs(t, await createAdminUser(t, czech, { superuser: true }));
    czechActionId = (
      await api(
        'POST',
        'action',
        { name: { cs: 'Jen česky' }, dateFrom: '2030-05-10T08:00', dateTo: '2030-05-11T18:00' },
        czechOnly,
      )
    ).body.data.id;
    czechChannelKey = (await api('POST', 'web-channel', { name: 'Czech', actionId: czechActionId }, czechOnly)).body
      .data.channelKey;
  });
  afterAll(() => t?.close());

  it('a mail template carries its texts per language on create, detail, update and in the list', async () => {
    expect(template).toMatchObject({
      subjectFrom: TEXTS.subjectFrom,
      html: TEXTS.html,
      translations: { de: TEXTS.translations.de },
    });
    expect((await api('GET', `mail-template/${template.id}`)).body.data.translations).toEqual({
      de: TEXTS.translations.de,
    });
    const listed = (await api('GET', 'mail-template')).body.data.find((m: { id: number }) => m.id === template.id);
    expect(listed.translations).toEqual({ de: TEXTS.translations.de });
    // a language emptied is dropped; a language with only one of its two texts is refused on that field
    const half = await api('PUT', `mail-template/${template.id}`, {
      ...TEXTS,
      translations: { ...TEXTS.translations, en: { subjectFrom: 'Registration', html: '' } },
    });
    expect(half.status).toBe(400);
    expect(half.body.error.details.fields).toEqual([{ path: 'translations.en.html', key: 'basics.requireField' }]);
    const emptied = await api('PUT', `mail-template/${template.id}`, {
      ...TEXTS,
      translations: { ...TEXTS.translations, en: { subjectFrom: '', html: '' } },
    });
    expect(emptied.status).toBe(200);
    expect(emptied.body.data.translations).toEqual({ de: TEXTS.translations.de });
    // a client that knows nothing of translations (the spec's fields only) sends none: Czech alone
    const old = await api('POST', 'mail-template', { name: 'Old client', subjectFrom: 'Předmět', html: '<p>x</p>' });
    expect(old.body.data.translations).toEqual({});
  });

  it('a visitor who registers in German is stored with de and gets the German mail', async () => {
    const res = await register(channelKey, {
      firstname: 'Hans',
      lastname: 'Müller',
      email: 'hans@example.com',
      language: 'de',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.confirmationMail).toBe(true);
    expect((await person(res.body.data.id)).language).toBe('de');
    const [mail] = await mailsTo('hans@example.com');
    expect(mail.subject).toBe('Anmeldung: Messe');
    expect(mail.bodyHtml).toContain('Guten Tag Hans, willkommen zu Messe.');
    expect(mail.bodyText).toContain('Guten Tag Hans');
  });

  it('a language the template has no text for gets the Czech text (with the action’s name in that language)', async () => {
    const res = await register(channelKey, {
      firstname: 'Jane',
      lastname: 'Doe',
      email: 'jane@example.com',
      language: 'en',
    });
    expect(res.status).toBe(201);
    expect((await person(res.body.data.id)).language).toBe('en');
    const [mail] = await mailsTo('jane@example.com');
    expect(mail.subject).toBe('Registrace: Fair');
    expect(mail.bodyHtml).toContain('Dobrý den Jane');
  });

  it('a registration without a language (an older form) is Czech', async () => {
    const res = await register(channelKey, { firstname: 'Jan', lastname: 'Novák', email: 'jan@example.com' });
    expect(res.status).toBe(201);
    expect((await person(res.body.data.id)).language).toBe('cs');
    const [mail] = await mailsTo('jan@example.com');
    expect(mail.subject).toBe('Registrace: Veletrh');
  });

  it('changing the language in the admin form changes the next mail; an edit without it keeps it', async () => {
    const created = await api('POST', 'user', {
      actionId,
      firstname: 'Eva',
      lastname: 'Svobodová',
      email: 'eva@example.com',
    });
    expect(created.status).toBe(201);
    expect(created.body.data.language).toBe('cs');
    const id = created.body.data.id;
    const send = async () => {
      const res = await api('POST', 'email/send', { actionId, userIds: [id], mailTemplate: template.id });
      expect(res.body.data ?? res.body).toMatchObject({ queued: 1 });
      const mails = await mailsTo('eva@example.com');
      return mails[mails.length - 1];
    };
    expect((await send()).subject).toBe('Registrace: Veletrh');

    const body = { actionId, firstname: 'Eva', lastname: 'Svobodová', email: 'eva@example.com' };
    const changed = await api('PUT', `user/${id}`, { ...body, language: 'de' });
    expect(changed.status).toBe(200);
    expect(changed.body.data.language).toBe('de');
    expect((await send()).subject).toBe('Anmeldung: Messe');

    // a client that does not send the language keeps the stored one
    const kept = await api('PUT', `user/${id}`, { ...body, lastname: 'Nová' });
    expect(kept.body.data.language).toBe('de');
    expect((await send()).bodyHtml).toContain('Guten Tag Eva');
  });

  it('a copy to another action keeps the person’s language', async () => {
    const res = await register(channelKey, {
      firstname: 'Greta',
      lastname: 'G',
      email: 'greta@example.com',
      language: 'de',
    });
    const other = await api('POST', 'action', {
      name: { cs: 'Druhá' },
      dateFrom: '2030-06-10T08:00',
      dateTo: '2030-06-11T18:00',
    });
    const copied = await api('POST', 'user/copy', {
      actualAction: actionId,
      actionId: other.body.data.id,
      userId: [res.body.data.id],
    });
    expect(copied.status).toBe(200);
    const copy = await t.ds
      .getRepository(AccreditationEntity)
      .findOneByOrFail({ actionId: other.body.data.id, email: 'greta@example.com' });
    expect(copy.language).toBe('de');
  });

  it('a subject that turns multi-language off writes every mail in Czech again', async () => {
    const res = await register(channelKey, {
      firstname: 'Karl',
      lastname: 'K',
      email: 'karl@example.com',
      language: 'de',
    });
    const id = res.body.data.id;
    await t.ds.getRepository(SubjectEntity).update({ id: subjectId }, { multiLanguage: false });
    try {
      await api('POST', 'email/send', { actionId, userIds: [id], mailTemplate: template.id });
      const mails = await mailsTo('karl@example.com');
      expect(mails.map((m) => m.subject)).toEqual(['Anmeldung: Messe', 'Registrace: Veletrh']);
      // the stored language stays for when it is turned on again, and the person's form, which sends
      // it back unchanged, still saves; another language the subject does not offer is refused
      expect((await t.ds.getRepository(AccreditationEntity).findOneByOrFail({ id })).language).toBe('de');
      const body = { actionId, firstname: 'Karl', lastname: 'K', email: 'karl@example.com' };
      expect((await api('PUT', `user/${id}`, { ...body, language: 'de' })).status).toBe(200);
      expect((await api('PUT', `user/${id}`, { ...body, language: 'en' })).status).toBe(400);
    } finally {
      await t.ds.getRepository(SubjectEntity).update({ id: subjectId }, { multiLanguage: true });
    }
  });

  it('the test mail is written in the language asked for, Czech where the template has none', async () => {
    const de = await api('POST', `mail-template/${template.id}/test`, { email: 'test-de@example.com', language: 'de' });
    expect(de.status).toBe(200);
    const en = await api('POST', `mail-template/${template.id}/test`, { email: 'test-en@example.com', language: 'en' });
    expect(en.status).toBe(200);
    expect((await mailsTo('test-de@example.com'))[0].subject).toMatch(/Anmeldung:/);
    expect((await mailsTo('test-en@example.com'))[0].subject).toMatch(/Registrace:/);
    const bad = await api('POST', `mail-template/${template.id}/test`, { email: 'x@example.com', language: 'xx' });
    expect(bad.status).toBe(400);
  });

  describe('a language the subject does not offer is refused alike by the API and the online form', () => {
    const person = { firstname: 'Bad', lastname: 'Language' };

    it('POST and PUT user: not a language, or not one of the subject’s', async () => {
      const xx = await api('POST', 'user', { actionId, ...person, email: 'xx@example.com', language: 'xx' });
      expect(xx.status).toBe(400);
      expect(xx.body.error.details.fields).toEqual([{ path: 'language', key: 'accreditation.languageInvalid' }]);
      const de = await api(
        'POST',
        'user',
        { actionId: czechActionId, ...person, email: 'de@example.com', language: 'de' },
        czechOnly,
      );
      expect(de.status).toBe(400);
      expect(de.body.error.details.fields).toEqual([{ path: 'language', key: 'accreditation.languageInvalid' }]);
      const cs = await api(
        'POST',
        'user',
        { actionId: czechActionId, ...person, email: 'cs@example.com', language: 'cs' },
        czechOnly,
      );
      expect(cs.status).toBe(201);
      const put = await api(
        'PUT',
        `user/${cs.body.data.id}`,
        { actionId: czechActionId, ...person, email: 'cs@example.com', language: 'en' },
        czechOnly,
      );
      expect(put.status).toBe(400);
      expect(put.body.error.details.fields).toEqual([{ path: 'language', key: 'accreditation.languageInvalid' }]);
    });

    it('the online form: the same field error, and nobody is registered', async () => {
      const xx = await register(channelKey, { ...person, email: 'online-xx@example.com', language: 'xx' });
      expect(xx.status).toBe(400);
      expect(xx.body.error.details.fields).toEqual([{ path: 'language', key: 'accreditation.languageInvalid' }]);
      const de = await register(czechChannelKey, { ...person, email: 'online-de@example.com', language: 'de' });
      expect(de.status).toBe(400);
      expect(de.body.error.details.fields).toEqual([{ path: 'language', key: 'accreditation.languageInvalid' }]);
      const stored = await t.ds
        .getRepository(AccreditationEntity)
        .countBy([{ email: 'online-xx@example.com' }, { email: 'online-de@example.com' }]);
      expect(stored).toBe(0);
    });
  });

  describe('the import’s optional language column (after the photo column)', () => {
    /** A sheet of the import template's columns: six fixed, no user fields, photo, language. */
    const sheet = async (rows: string[][]) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('import');
      ws.addRow(['First name', 'Last name', 'E-mail', 'Group', 'Zones', 'Code', 'Photo', 'Language']);
      for (const row of rows) ws.addRow(row);
      return `data:application/octet-stream;base64,${Buffer.from(await wb.xlsx.writeBuffer()).toString('base64')}`;
    };
    const row = (name: string, language: string) => [name, 'Import', `${name}@import.test`, '', '', '', '', language];
    const importSheet = async (rows: string[][], id = actionId, as = token) =>
      api('POST', 'user/import', { actionId: id, dataFile: await sheet(rows), zonesImportType: 1 }, as);

    it('the template names the column', async () => {
      const res = await fetch(`${t.url}/api/admin/v1/user/import/template/${actionId}`, {
        headers: { authorization: token, 'accept-language': 'en' },
      });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
      const header = (wb.worksheets[0].getRow(1).values as string[]).slice(1);
      expect(header.at(-1)).toBe('Language (cs, sk, en, de)');
    });

    it('stores each row’s language (empty: cs); the mail follows it', async () => {
      const res = await importSheet([row('lena', 'DE'), row('olga', '')]);
      expect(res.status).toBe(200);
      const people = await t.ds
        .getRepository(AccreditationEntity)
        .find({ where: [{ email: 'lena@import.test' }, { email: 'olga@import.test' }], order: { email: 'ASC' } });
      expect(people.map((p) => [p.email, p.language])).toEqual([
        ['lena@import.test', 'de'],
        ['olga@import.test', 'cs'],
      ]);
      await api('POST', 'email/send', { actionId, userIds: [people[0].id], mailTemplate: template.id });
      expect((await mailsTo('lena@import.test'))[0].subject).toBe('Anmeldung: Messe');
    });

    it('refuses a bad language, or one the subject does not offer, as a row error; nothing is imported', async () => {
      const bad = await importSheet([row('good', 'en'), row('bad', 'xx')]);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('IMPORT_FAILED');
      expect(bad.body.error.details.rows).toEqual([{ row: 3, code: 'LANGUAGE_INVALID_ON_ROW_' }]);
      const czech = await importSheet([row('czech', 'de')], czechActionId, czechOnly);
      expect(czech.status).toBe(400);
      expect(czech.body.error.details.rows).toEqual([{ row: 2, code: 'LANGUAGE_INVALID_ON_ROW_' }]);
      expect(
        await t.ds
          .getRepository(AccreditationEntity)
          .countBy([{ email: 'good@import.test' }, { email: 'czech@import.test' }]),
      ).toBe(0);
    });
  });

  it('deleting a mail template deletes its texts in the other languages', async () => {
    const spare = await api('POST', 'mail-template', { ...TEXTS, name: 'Spare' });
    expect(
      await t.ds.getRepository(MailTemplateTranslationEntity).countBy({ mailTemplateId: spare.body.data.id }),
    ).toBe(1);
    expect((await api('DELETE', `mail-template/${spare.body.data.id}`)).status).toBe(200);
    expect(
      await t.ds.getRepository(MailTemplateTranslationEntity).countBy({ mailTemplateId: spare.body.data.id }),
    ).toBe(0);
  });
});
