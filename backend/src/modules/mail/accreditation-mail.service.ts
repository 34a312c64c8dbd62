import { createHash } from 'node:crypto';
import { effectiveLanguage, type Language, type MailTranslations, type MailUserError } from '@accredo/domain';
import { translate } from '@accredo/i18n';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { preparedReader } from '../../database/prepared.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { ActionEntity } from '../action/action.entity.js';
import { CustomFieldEntity } from '../custom-field/custom-field.entity.js';
import { readJson } from '../device/sql.js';
import { GroupEntity } from '../groups/group.entity.js';
import { configVersionOf, type OnlineConfigVersion } from '../web-channel/online-config.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { MailTemplateEntity, MailTemplateTranslationEntity } from '../template/template.entity.js';
import { translationsOf } from '../template/template.service.js';
import { templateFailure } from '../template/template-engine.service.js';
import {
  type ContextPerson,
  MailContexts,
  MailRenderer,
  type MailText,
  mailLanguage,
  mailTextIn,
  type RenderedMail,
} from './mail-render.js';
import type { MailQueueEntity } from './mail-queue.entity.js';
import { type DeferredMailRequest, type MailRequest, MailService, type RenderedRow } from './mail.service.js';

export interface QueueTemplateMailInput {
  subjectId: number;
  accreditationIds: number[];
  mailTemplateId: number;
  adminUserId: number | null;
  note?: string;
}

export interface QueueTemplateMailResult {
  queued: number;
  errors: { user: number; error: MailUserError }[];
}

/** One mail of a person's history (spec §3 Accreditation: mailQueue and mail entries). */
/** Accreditations read per query (ids in one IN list). */
const READ_CHUNK = 500;
/** Compiled mail templates kept per instance (the oldest goes first). */
const COMPILED_MAX = 200;

/**
 * Mails from a mail template to accreditations (spec §3 Mail template, §5 mass mail): each
 * person's mail is rendered with their own data and put into the queue of record. Everything takes
 * the subject explicitly, so it runs in an admin request and after a web registration alike.
 */
@Injectable()
export class AccreditationMailService {
  private readonly contexts: MailContexts;
  private readonly configVersion: OnlineConfigVersion;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.contexts = new MailContexts(ds, config.publicUrl);
    this.configVersion = configVersionOf(ds);
    // the worker writes the mails queued by an online registration (issue 16)
    mail.renderDeferred = (row) => this.renderDeferred(row);
  }

  /**
   * Writes a mail queued unwritten (MailService.enqueueDeferred): the template in the person's
   * language with their data as they are now, as queueTemplateMail would have written it. Throws
   * with the reason when it cannot (the worker retries, then records the reason).
   *
   * The admin's set-up it needs (template and its translations, subject, action, user fields,
   * groups, zones) is kept per instance under the online registration's set-up version, which
   * every write of those entities bumps (web-channel/online-config.ts, issue 16): a mail reads the
   * version (one read shared by the mails written at the same moment), the person with their groups
   * and zones in one statement, and their photo's key (when they have one), each by a prepared
   * statement on the driver; the rest only after an admin changed something.
   */
  async renderDeferred(mail: MailQueueEntity): Promise<RenderedRow> {
    const subjectId = mail.subjectId ?? 0;
    const setup = await this.deferredSetup();
    const reader = preparedReader(this.ds);
    // the person with their groups and zones (as comma-separated ids) in one round trip
    const [found] = await reader.all<Record<string, unknown>>(
      'SELECT a.id, a.actionId, a.customId, a.firstname, a.lastname, a.email, a.bc, a.badgeVersion, a.days, a.fieldValues, a.imageId, a.language, (SELECT GROUP_CONCAT(g.groupId) FROM accreditation_group g WHERE g.accreditationId = a.id) AS groupIds, (SELECT GROUP_CONCAT(z.zoneId) FROM accreditation_zone z WHERE z.accreditationId = a.id) AS zoneIds FROM accreditation a WHERE a.id = ? AND a.subjectId = ?',
      [mail.accreditationId ?? 0, subjectId],
    );
    const template = await setup.get(`template:${mail.mailTemplateId ?? 0}:${subjectId}`, async () => {
      const row = await this.ds
        .getRepository(MailTemplateEntity)
        .findOneBy({ id: mail.mailTemplateId ?? 0, subjectId });
      return row ? { row, translations: await this.translations(row.id) } : null;
    });
    if (!template) throw new Error('The mail template was removed before the mail was written');
    if (!found) throw new Error('The person was removed before the mail was written');
    const row: ContextPerson & Pick<AccreditationEntity, 'actionId' | 'imageId' | 'language'> = {
      id: Number(found.id),
      actionId: Number(found.actionId),
      customId: Number(found.customId),
      firstname: String(found.firstname),
      lastname: String(found.lastname),
      email: String(found.email ?? ''),
      bc: String(found.bc),
      badgeVersion: Number(found.badgeVersion ?? 0),
      days: readJson<string[]>(found.days, []),
      fieldValues: readJson<Record<string, unknown>>(found.fieldValues, {}),
      imageId: found.imageId === null || found.imageId === undefined ? null : Number(found.imageId),
      language: String(found.language ?? 'cs'),
    };
    if (!row.email.trim()) throw new Error('The person has no e-mail address');
    const [image, subject, action] = await Promise.all([
      row.imageId
        ? reader.all<{ fileKey: string }>('SELECT fileKey FROM image WHERE id = ? AND subjectId = ?', [
            row.imageId,
            subjectId,
          ])
        : [],
      setup.get(`subject:${subjectId}`, () => this.ds.getRepository(SubjectEntity).findOneBy({ id: subjectId })),
      setup.get(`action:${row.actionId}:${subjectId}`, async () => {
        const found = await this.ds.getRepository(ActionEntity).findOneBy({ id: row.actionId, subjectId });
        if (!found) return null;
        const ids = found.customField.map((f) => f.id);
        const fields = ids.length
          ? await this.ds.getRepository(CustomFieldEntity).find({ where: { subjectId, id: In(ids) } })
          : [];
        return {
          action: found,
          fields: fields.map((f) => ({ id: f.id, customFieldType: f.customFieldType, options: f.options })),
        };
      }),
    ]);
    const ids = (list: unknown) =>
      list === null || list === undefined || list === '' ? [] : String(list).split(',').map(Number);
    const [groups, zones] = await Promise.all([
      setup.rows(`group:${subjectId}`, ids(found.groupIds), (wanted) =>
        this.ds.getRepository(GroupEntity).find({ where: { subjectId, id: In(wanted) } }),
      ),
      setup.rows(`zone:${subjectId}`, ids(found.zoneIds), (wanted) =>
        this.ds.getRepository(ZoneEntity).find({ where: { subjectId, id: In(wanted) } }),
      ),
    ]);
    // the language fixed when the mail was queued (the subject may have changed its languages since)
    const language = (mail.language as Language | null) ?? mailLanguage(row, subject?.multiLanguage ?? false);
    const context = this.contexts.contextOf(row, {
      action: action?.action ?? null,
      groups,
      zones,
      imageFileKey: image[0]?.fileKey ?? null,
      fields: action?.fields ?? [],
      subject,
      language,
    });
    let rendered: RenderedMail;
    try {
      const text = mailTextIn(template.row, template.translations, language);
      rendered = this.renderer(text).render(context);
    } catch (error) {
      throw new Error(`The mail template could not be written for this person: ${(error as Error).message}`);
    }
    return {
      recipient: row.email.trim(),
      subject: rendered.subject.slice(0, 500),
      bodyText: rendered.text,
      bodyHtml: rendered.html,
      cc: template.row.mailCopy?.length ? template.row.mailCopy.join(', ').slice(0, 1000) : null,
      attachCode: rendered.attachCode ?? null,
      attachBadge: template.row.withAccreditation,
    };
  }

  /** The set-up kept for deferred mails, dropped whenever the set-up version moved. */
  private kept: KeptSetup | null = null;

  /** The set-up version being read: the mails the worker writes at once (its lanes) share one read. */
  private versionRead: Promise<number> | null = null;

  private async deferredSetup(): Promise<KeptSetup> {
    if (!this.versionRead) {
      this.versionRead = this.configVersion.current().finally(() => {
        this.versionRead = null;
      });
    }
    const version = await this.versionRead;
    if (!this.kept || this.kept.version !== version) {
      // rows read under an older version than one seen meanwhile are used once, never kept
      if (this.kept && version < this.kept.version) return new KeptSetup(version);
      this.kept = new KeptSetup(version);
    }
    return this.kept;
  }

  /** Compiled templates by content: a rush of registrations compiles its mail once. */
  private readonly compiled = new Map<string, MailRenderer>();

  /** A text compiled once for every person; a broken template is a 400 TEMPLATE_SYNTAX_ERROR. */
  private renderer(template: MailText): MailRenderer {
    const key = createHash('sha1')
      .update(`${template.withAccreditation}\u0000${template.subjectFrom}\u0000${template.html}`)
      .digest('base64');
    const cached = this.compiled.get(key);
    if (cached) return cached;
    let renderer: MailRenderer;
    try {
      renderer = new MailRenderer(template);
    } catch (error) {
      return templateFailure(error);
    }
    if (this.compiled.size >= COMPILED_MAX) this.compiled.delete(this.compiled.keys().next().value as string);
    this.compiled.set(key, renderer);
    return renderer;
  }

  /** The mail template of this subject; another subject's or a missing one is a 404. */
  async templateOf(subjectId: number, mailTemplateId: number): Promise<MailTemplateEntity> {
    const template = await this.ds
      .getRepository(MailTemplateEntity)
      .findOne({ where: { id: mailTemplateId, subjectId } });
    if (!template) throw AppError.notFound();
    return template;
  }

  /** The template's texts in the languages besides Czech (issue 15). */
  private async translations(mailTemplateId: number): Promise<MailTranslations> {
    return translationsOf(await this.ds.getRepository(MailTemplateTranslationEntity).findBy({ mailTemplateId }));
  }

  /**
   * Renders the template for each person and queues the mails: all of them in one transaction
   * (inserted in chunks), so a failure leaves none half-queued and a retry sends nobody twice.
   * A person without an e-mail, or whose mail cannot be rendered, gets a per-person error.
   */
  async queueTemplateMail(input: QueueTemplateMailInput): Promise<QueueTemplateMailResult> {
    const template = await this.templateOf(input.subjectId, input.mailTemplateId);
    const [translations, subject] = await Promise.all([
      this.translations(template.id),
      this.ds.getRepository(SubjectEntity).findOneBy({ id: input.subjectId }),
    ]);
    const multiLanguage = subject?.multiLanguage ?? false;
    // Each person's mail in their language (issue 15), the Czech text where the template has none;
    // every text is compiled up front, so a broken one fails the whole request as before.
    const renderers = new Map<Language, MailRenderer>();
    const rendererIn = (language: Language) => {
      let found = renderers.get(language);
      if (!found) {
        found = this.renderer(mailTextIn(template, translations, language));
        renderers.set(language, found);
      }
      return found;
    };
    rendererIn('cs');
    for (const language of Object.keys(translations) as Language[]) if (multiLanguage) rendererIn(language);
    const errors: QueueTemplateMailResult['errors'] = [];
    const requests: MailRequest[] = [];
    const ids = [...new Set(input.accreditationIds)];
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const chunk = ids.slice(i, i + READ_CHUNK);
      const rows = await this.ds
        .getRepository(AccreditationEntity)
        .find({ where: { subjectId: input.subjectId, id: In(chunk) }, order: { id: 'ASC' } });
      const found = new Set(rows.map((r) => r.id));
      for (const id of chunk) if (!found.has(id)) errors.push({ user: id, error: 'NOT_FOUND' });
      const withEmail = rows.filter((r) => {
        if (r.email?.trim()) return true;
        errors.push({ user: r.id, error: 'NO_EMAIL' });
        return false;
      });
      const contexts = await this.contexts.forAccreditations(input.subjectId, withEmail);
      for (const [n, row] of withEmail.entries()) {
        // Thousands of mails: let other requests of this instance in between.
        if (n % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
        let rendered: RenderedMail;
        try {
          rendered = rendererIn(mailLanguage(row, multiLanguage)).render(contexts.get(row.id) ?? {});
        } catch {
          // this person's values cannot be rendered (e.g. a code that cannot be drawn)
          errors.push({ user: row.id, error: 'RENDER_FAILED' });
          continue;
        }
        requests.push({
          to: row.email.trim(),
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
          subjectId: input.subjectId,
          adminUserId: input.adminUserId,
          mailTemplateId: template.id,
          note: input.note ?? null,
          accreditationId: row.id,
          actionId: row.actionId,
          cc: template.mailCopy,
          attachCode: rendered.attachCode,
          attachBadge: template.withAccreditation,
        });
      }
    }
    const queued = await this.mail.enqueueMany(requests);
    errors.sort((a, b) => a.user - b.user);
    return { queued, errors };
  }

  /** Queues a mail from a template, written later by the worker, in the transaction `m` (issue 16). */
  queueDeferred(m: EntityManager, request: DeferredMailRequest): Promise<number> {
    return this.mail.enqueueDeferred(m, request);
  }

  /** Tells the worker about a deferred mail once its transaction has committed. */
  notifyQueued(id: number): void {
    this.mail.notifyQueued([id]);
  }

  /** The test of a template: rendered with sample data (in the admin's language) and queued. */
  async queueTestMail(input: {
    subjectId: number;
    mailTemplateId: number;
    email: string;
    adminUserId: number;
    language: string;
    /** the template's text to test (issue 15): that language's, the Czech where it has none */
    textLanguage?: Language;
  }): Promise<{ queued: number; email: string }> {
    const template = await this.templateOf(input.subjectId, input.mailTemplateId);
    const language = input.textLanguage ?? effectiveLanguage(input.language, true);
    const text = mailTextIn(template, await this.translations(template.id), language);
    const context = this.contexts.sample(text.html, language);
    let rendered: RenderedMail;
    try {
      rendered = this.renderer(text).render(context);
    } catch (error) {
      return templateFailure(error);
    }
    await this.mail.enqueue({
      to: input.email,
      subject: `${translate(input.language, 'mail.test.subjectPrefix')} ${rendered.subject}`,
      text: rendered.text,
      html: rendered.html,
      subjectId: input.subjectId,
      adminUserId: input.adminUserId,
      mailTemplateId: template.id,
      note: translate(input.language, 'mail.test.note'),
      cc: [],
      attachCode: rendered.attachCode,
    });
    return { queued: 1, email: input.email };
  }
}

/**
 * Rows of the admin's set-up read for deferred mails under one set-up version (never mutated; at
 * most a few hundred entries: one subject's templates, actions, groups and zones).
 */
class KeptSetup {
  private readonly values = new Map<string, Promise<unknown>>();
  private readonly byId = new Map<string, Map<number, unknown>>();

  constructor(readonly version: number) {}

  /** The value of `key`, read once (a failed read is not kept). */
  get<T>(key: string, read: () => Promise<T>): Promise<T> {
    let value = this.values.get(key) as Promise<T> | undefined;
    if (!value) {
      if (this.values.size >= 1000) this.values.clear();
      value = read();
      this.values.set(key, value);
      value.catch(() => this.values.delete(key));
    }
    return value;
  }

  /** The rows of these ids (those that exist), the ones not kept yet read by `read`. */
  async rows<T extends { id: number }>(kind: string, ids: number[], read: (ids: number[]) => Promise<T[]>) {
    if (!ids.length) return [];
    let known = this.byId.get(kind) as Map<number, T | null> | undefined;
    if (!known) {
      known = new Map();
      this.byId.set(kind, known);
    }
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) {
      if (known.size >= 5000) known.clear();
      const found = await read(missing);
      for (const id of missing) known.set(id, found.find((r) => r.id === id) ?? null);
    }
    return ids.map((id) => known.get(id)).filter((r): r is T => r !== null && r !== undefined);
  }
}
