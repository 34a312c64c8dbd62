import { sendMailSchema, testMailSchema } from '@accredo/domain';
import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { AccreditationService } from '../accreditation/accreditation.service.js';
import { AccreditationMailService } from './accreditation-mail.service.js';

@ApiTags('admin: e-mail')
@Controller('api/admin/v1')
export class MailController {
  constructor(
    private readonly accreditations: AccreditationService,
    private readonly mails: AccreditationMailService,
  ) {}

  /**
   * Mass mail (spec §5, §7 email/send): one mail from the template to each chosen person, or with
   * `all` to every person of the filter; per-person failures come back as `{user, error}`.
   */
  @Post('email/send')
  @HttpCode(200)
  @Right('emailQueue', 'sendMail')
  async send(@ValidBody(sendMailSchema) body: z.output<typeof sendMailSchema>, @CurrentAdmin() actor: AdminAuth) {
    // The template first: a template of another subject is a 404 before anything is resolved.
    await this.mails.templateOf(actor.subjectId, body.mailTemplate);
    const ids = await this.accreditations.resolveIds(body.actionId, body.userIds, body.all, body.filterData);
    const result = await this.mails.queueTemplateMail({
      subjectId: actor.subjectId,
      accreditationIds: ids,
      mailTemplateId: body.mailTemplate,
      adminUserId: actor.user.id,
    });
    return { queued: result.queued, error: result.errors };
  }

  /** Test of a mail template: filled in with sample data and sent to the given address. */
  @Post('mail-template/:id/test')
  @HttpCode(200)
  @Right('mailTemplate', 'testMailTemplate')
  test(
    @IdParam() id: number,
    @ValidBody(testMailSchema) body: z.output<typeof testMailSchema>,
    @CurrentAdmin() actor: AdminAuth,
  ) {
    return this.mails.queueTestMail({
      subjectId: actor.subjectId,
      mailTemplateId: id,
      email: body.email,
      adminUserId: actor.user.id,
      language: actor.user.language,
      textLanguage: body.language,
    });
  }
}
