import {
  MAIL_TRANSLATION_LANGUAGES,
  type MailTranslations,
  type mailTemplateSchema,
  type templateSchema,
} from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { archivedAtOf, setArchived } from '../../common/archive.js';
import { SubjectCrud, usedBy } from '../../common/crud.js';
import { ActionEntity } from '../action/action.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { WebChannelEntity } from '../web-channel/web-channel.entity.js';
import { MailTemplateEntity, MailTemplateTranslationEntity, TemplateEntity } from './template.entity.js';

type TemplateInput = z.output<typeof templateSchema>;
type MailTemplateInput = z.output<typeof mailTemplateSchema>;
/** archivedAt (issue 15): when the badge template was archived; null while in use */
export type TemplateDto = TemplateInput & { id: number; archivedAt: string | null };
export type MailTemplateDto = MailTemplateInput & { id: number };

/** The sample body a new mail template starts with (spec §2: a new one gets a default sample body). */
/**
 * What still uses a template: groups print with a badge template; actions (afterMail) and web
 * channels send a mail template. A 409 TEMPLATE_IN_USE names them, by kind in `details`.
 */
async function refuseUsedTemplate(
  em: EntityManager,
  subjectId: number,
  uses: { groups?: number; actionsAfterMail?: number; webChannels?: number },
): Promise<void> {
  const groups = uses.groups
    ? await em.find(GroupEntity, {
        where: { subjectId, adminTemplateId: uses.groups },
        select: { id: true, name: true },
      })
    : [];
  const actions = uses.actionsAfterMail
    ? await em.find(ActionEntity, {
        where: { subjectId, afterMailTemplateId: uses.actionsAfterMail },
        select: { id: true, name: true },
      })
    : [];
  const channels = uses.webChannels
    ? await em.find(WebChannelEntity, {
        where: { subjectId, mailTemplateId: uses.webChannels },
        select: { id: true, name: true },
      })
    : [];
  const named = (rows: { id: number; name: unknown }[]) =>
    rows.map((r) => ({
      id: r.id,
      name: (typeof r.name === 'string' ? r.name : (r.name as { cs?: string } | null)?.cs) || `#${r.id}`,
    }));
  const found = { groups: named(groups), actions: named(actions), webChannels: named(channels) };
  const names = [...found.groups, ...found.actions, ...found.webChannels].map((r) => r.name);
  if (names.length) throw new AppError('TEMPLATE_IN_USE', { ...usedBy(names), ...found });
}

export const DEFAULT_MAIL_BODY = `<p>Dobrý den {{firstname}} {{lastname}},</p>
<p>děkujeme za registraci na akci {{actionName}}.</p>
<p>Váš kód: {{bc}}</p>`;

@Injectable()
export class TemplateService extends SubjectCrud<TemplateEntity, TemplateInput, TemplateDto> {
  constructor(@InjectRepository(TemplateEntity) repo: Repository<TemplateEntity>) {
    super(repo);
  }
  protected apply(row: TemplateEntity, input: TemplateInput): void {
    Object.assign(row, { name: input.name, type: input.type, pageSize: input.pageSize, htmlData: input.htmlData });
  }
  protected toDto(row: TemplateEntity): TemplateDto {
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      pageSize: row.pageSize as TemplateDto['pageSize'],
      htmlData: row.htmlData,
      archivedAt: archivedAtOf(row),
    };
  }
  /** POST template/{id}/archive and /restore (issue 15): no group chooses an archived template anew. */
  async archive(id: number, archived: boolean): Promise<TemplateDto> {
    await setArchived(this.scoped, id, archived);
    return this.get(id);
  }
  protected override order() {
    return { name: 'ASC' as const };
  }
  /** A badge template a group prints with stays. */
  protected override async refuseDelete(row: TemplateEntity): Promise<void> {
    await refuseUsedTemplate(this.scoped.repo.manager, row.subjectId, { groups: row.id });
  }
}

@Injectable()
export class MailTemplateService extends SubjectCrud<MailTemplateEntity, MailTemplateInput, MailTemplateDto> {
  constructor(@InjectRepository(MailTemplateEntity) repo: Repository<MailTemplateEntity>) {
    super(repo);
  }
  private get translationRepo(): Repository<MailTemplateTranslationEntity> {
    return this.scoped.repo.manager.getRepository(MailTemplateTranslationEntity);
  }
  protected apply(row: MailTemplateEntity, input: MailTemplateInput): void {
    Object.assign(row, {
      name: input.name,
      type: input.type,
      subjectFrom: input.subjectFrom,
      withAccreditation: input.withAccreditation,
      mailCopy: input.mailCopy,
      html: input.html || DEFAULT_MAIL_BODY,
    });
  }
  protected toDto(row: MailTemplateEntity, translations: MailTranslations = {}): MailTemplateDto {
    return {
      id: row.id,
      name: row.name,
      type: row.type as 1 | 2,
      subjectFrom: row.subjectFrom,
      withAccreditation: row.withAccreditation,
      mailCopy: row.mailCopy,
      html: row.html,
      translations,
    };
  }
  /** Every template with its other languages, read in one query. */
  protected override async toDtos(rows: MailTemplateEntity[]): Promise<MailTemplateDto[]> {
    const ids = rows.map((r) => r.id);
    const texts = ids.length ? await this.translationRepo.find({ where: { mailTemplateId: In(ids) } }) : [];
    return rows.map((row) => this.toDto(row, translationsOf(texts.filter((t) => t.mailTemplateId === row.id))));
  }
  /** The template and its texts in the other languages (issue 15), saved together. */
  override async create(input: MailTemplateInput): Promise<MailTemplateDto> {
    const saved = await super.create(input);
    await this.writeTranslations(saved.id, input.translations);
    return this.get(saved.id);
  }
  override async update(id: number, input: MailTemplateInput): Promise<MailTemplateDto> {
    const saved = await super.update(id, input);
    await this.writeTranslations(saved.id, input.translations);
    return this.get(saved.id);
  }
  /** The sent list replaces the stored one: a language left out (or emptied) has no text of its own. */
  private async writeTranslations(mailTemplateId: number, translations: MailTranslations): Promise<void> {
    await this.scoped.repo.manager.transaction(async (m) => {
      const repo = m.getRepository(MailTemplateTranslationEntity);
      await repo.delete({ mailTemplateId });
      const rows = MAIL_TRANSLATION_LANGUAGES.flatMap((language) => {
        const text = translations[language];
        return text ? [{ mailTemplateId, language, subjectFrom: text.subjectFrom, html: text.html }] : [];
      });
      if (rows.length) await repo.insert(rows);
    });
  }
  override async remove(id: number): Promise<void> {
    await super.remove(id);
    await this.translationRepo.delete({ mailTemplateId: id });
  }
  protected override order() {
    return { name: 'ASC' as const };
  }
  /** A mail template an action sends after registration (afterMail) or a web channel sends stays. */
  protected override async refuseDelete(row: MailTemplateEntity): Promise<void> {
    await refuseUsedTemplate(this.scoped.repo.manager, row.subjectId, {
      actionsAfterMail: row.id,
      webChannels: row.id,
    });
  }
}

/** Stored translation rows as the wire's `translations` ({sk?, en?, de?}). */
export function translationsOf(rows: MailTemplateTranslationEntity[]): MailTranslations {
  const out: MailTranslations = {};
  for (const lang of MAIL_TRANSLATION_LANGUAGES) {
    const row = rows.find((r) => r.language === lang);
    if (row) out[lang] = { subjectFrom: row.subjectFrom, html: row.html };
  }
  return out;
}

/** GET template: both lists of the /template screen's two tabs. */
export async function groupedTemplates(templates: TemplateService, mails: MailTemplateService) {
  const [accreditation, mail] = await Promise.all([templates.list(), mails.list()]);
  return [
    { type: 'mail', items: mail },
    { type: 'accreditation', items: accreditation },
  ];
}
