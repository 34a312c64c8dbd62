import type { mailTemplateSchema, templateSchema } from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { z } from 'zod';
import { SubjectCrud } from '../../common/crud.js';
import { MailTemplateEntity, TemplateEntity } from './template.entity.js';

type TemplateInput = z.output<typeof templateSchema>;
type MailTemplateInput = z.output<typeof mailTemplateSchema>;
export type TemplateDto = TemplateInput & { id: number };
export type MailTemplateDto = MailTemplateInput & { id: number };

/** The sample body a new mail template starts with (spec §2: a new one gets a default sample body). */
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
    };
  }
  protected override order() {
    return { name: 'ASC' as const };
  }
}

@Injectable()
export class MailTemplateService extends SubjectCrud<MailTemplateEntity, MailTemplateInput, MailTemplateDto> {
  constructor(@InjectRepository(MailTemplateEntity) repo: Repository<MailTemplateEntity>) {
    super(repo);
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
  protected toDto(row: MailTemplateEntity): MailTemplateDto {
    return {
      id: row.id,
      name: row.name,
      type: row.type as 1 | 2,
      subjectFrom: row.subjectFrom,
      withAccreditation: row.withAccreditation,
      mailCopy: row.mailCopy,
      html: row.html,
    };
  }
  protected override order() {
    return { name: 'ASC' as const };
  }
}

/** GET template: both lists of the /template screen's two tabs. */
export async function groupedTemplates(templates: TemplateService, mails: MailTemplateService) {
  const [accreditation, mail] = await Promise.all([templates.list(), mails.list()]);
  return [
    { type: 'mail', items: mail },
    { type: 'accreditation', items: accreditation },
  ];
}
