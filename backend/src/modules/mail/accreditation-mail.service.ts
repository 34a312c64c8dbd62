import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, In } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { ActionEntity } from '../action/action.entity.js';
import { MailTemplateEntity } from '../template/template.entity.js';
import { type MailRequest, MailService } from './mail.service.js';

export interface QueueTemplateMailInput {
  subjectId: number;
  accreditationIds: number[];
  mailTemplateId: number;
  adminUserId: number | null;
  note?: string;
}

export interface QueueTemplateMailResult {
  queued: number;
  errors: { user: number; error: string }[];
}

const escapeHtml = (v: unknown) =>
  String(v ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/**
 * Mails from a mail template to accreditations (spec §3 Mail template, §5 mass mail): each person's
 * mail is rendered and put into the queue of record. Works with an explicit subject, so it runs
 * both in an admin request and after a web registration.
 */
@Injectable()
export class AccreditationMailService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly mail: MailService,
  ) {}

  async queueTemplateMail(input: QueueTemplateMailInput): Promise<QueueTemplateMailResult> {
    const template = await this.ds
      .getRepository(MailTemplateEntity)
      .findOne({ where: { id: input.mailTemplateId, subjectId: input.subjectId } });
    if (!template) throw AppError.notFound();
    const errors: QueueTemplateMailResult['errors'] = [];
    let queued = 0;
    const ids = [...new Set(input.accreditationIds)];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.ds
        .getRepository(AccreditationEntity)
        .find({ where: { subjectId: input.subjectId, id: In(ids.slice(i, i + 500)) }, order: { id: 'ASC' } });
      const actions = new Map(
        (
          await this.ds.getRepository(ActionEntity).find({
            where: { subjectId: input.subjectId, id: In([...new Set(rows.map((r) => r.actionId))]) },
          })
        ).map((a) => [a.id, a]),
      );
      const requests: MailRequest[] = [];
      for (const row of rows) {
        if (!row.email) {
          errors.push({ user: row.id, error: 'no e-mail' });
          continue;
        }
        const action = actions.get(row.actionId);
        const values: Record<string, unknown> = {
          firstname: row.firstname,
          lastname: row.lastname,
          email: row.email,
          bc: row.bc,
          actionName: action ? (Object.values(action.name ?? {})[0] ?? '') : '',
        };
        const html = template.html.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => escapeHtml(values[k]));
        requests.push({
          to: row.email,
          subject: template.subjectFrom,
          text: html.replace(/<[^>]+>/g, ''),
          html,
          subjectId: input.subjectId,
          adminUserId: input.adminUserId,
          mailTemplateId: template.id,
          note: input.note ?? null,
          accreditationId: row.id,
          actionId: row.actionId,
          cc: template.mailCopy,
          attachCode: template.withAccreditation ? row.bc : null,
        });
      }
      queued += await this.mail.enqueueMany(requests);
    }
    return { queued, errors };
  }
}
