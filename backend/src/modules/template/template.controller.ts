import { mailTemplateSchema, templateSchema } from '@accredo/domain';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { DEFAULT_MAIL_BODY, groupedTemplates, MailTemplateService, TemplateService } from './template.service.js';

@ApiTags('admin: templates')
@Controller('api/admin/v1')
export class TemplateController {
  constructor(
    private readonly templates: TemplateService,
    private readonly mails: MailTemplateService,
  ) {}

  /** Both lists of the /template screen (mail templates, accreditation templates). */
  @Get('template')
  @Right('template', 'get')
  list() {
    return groupedTemplates(this.templates, this.mails);
  }

  @Get('template/:id')
  @Right('template', 'get')
  get(@IdParam() id: number) {
    return this.templates.get(id);
  }

  @Post('template')
  @Right('template', 'create')
  create(@ValidBody(templateSchema) body: z.output<typeof templateSchema>) {
    return this.templates.create(body);
  }

  @Put('template/:id')
  @Right('template', 'update')
  update(@IdParam() id: number, @ValidBody(templateSchema) body: z.output<typeof templateSchema>) {
    return this.templates.update(id, body);
  }

  /** Archive instead of delete (issue 15, docs/archive.md): with the delete right. */
  @Post('template/:id/archive')
  @HttpCode(200)
  @Right('template', 'delete')
  archive(@IdParam() id: number) {
    return this.templates.archive(id, true);
  }

  @Post('template/:id/restore')
  @HttpCode(200)
  @Right('template', 'delete')
  restore(@IdParam() id: number) {
    return this.templates.archive(id, false);
  }

  /** 409 TEMPLATE_IN_USE while a group prints with it. */
  @Delete('template/:id')
  @Right('template', 'delete')
  async remove(@IdParam() id: number) {
    await this.templates.remove(id);
    return { deleted: true };
  }

  @Get('mail-template')
  @Right('mailTemplate', 'get')
  mailList() {
    return this.mails.list();
  }

  /** The sample body the create form starts with. */
  @Get('mail-template/default')
  @Right('mailTemplate', 'create')
  mailDefault() {
    return { html: DEFAULT_MAIL_BODY };
  }

  @Get('mail-template/:id')
  @Right('mailTemplate', 'get')
  mailGet(@IdParam() id: number) {
    return this.mails.get(id);
  }

  @Post('mail-template')
  @Right('mailTemplate', 'create')
  mailCreate(@ValidBody(mailTemplateSchema) body: z.output<typeof mailTemplateSchema>) {
    return this.mails.create(body);
  }

  @Put('mail-template/:id')
  @Right('mailTemplate', 'update')
  mailUpdate(@IdParam() id: number, @ValidBody(mailTemplateSchema) body: z.output<typeof mailTemplateSchema>) {
    return this.mails.update(id, body);
  }

  /** 409 TEMPLATE_IN_USE while an action (afterMail) or a web channel sends it. */
  @Delete('mail-template/:id')
  @Right('mailTemplate', 'delete')
  async mailRemove(@IdParam() id: number) {
    await this.mails.remove(id);
    return { deleted: true };
  }
}
