import { templatePreviewSchema, templateValidateSchema } from '@accredo/domain';
import { Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { ValidBody } from '../../common/zod.js';
import { sendPdf } from '../pdf/send-pdf.js';
import { TemplateEngineService } from './template-engine.service.js';

@ApiTags('admin: templates')
@Controller('api/admin/v1')
export class TemplateEngineController {
  constructor(private readonly engine: TemplateEngineService) {}

  /** The check of spec §5 Template preview: placeholders without a value, and unknown ones. */
  @Post('template/validate')
  @HttpCode(200)
  @Right('template', 'postValidateTemplate')
  validate(
    @ValidBody(templateValidateSchema) body: z.output<typeof templateValidateSchema>,
    @CurrentAdmin() actor: AdminAuth,
  ) {
    return this.engine.validate(body, actor);
  }

  /**
   * The preview call of spec §7: `{data: html}`, the badge page(s) or the mail body; with type pdf
   * the PDF file itself (application/pdf).
   */
  @Post('template/preview')
  @HttpCode(200)
  @Right('template', 'get')
  async preview(
    @ValidBody(templatePreviewSchema) body: z.output<typeof templatePreviewSchema>,
    @CurrentAdmin() actor: AdminAuth,
    @Res() reply: FastifyReply,
  ) {
    if (body.type === 'pdf') sendPdf(reply, await this.engine.previewPdf(body, actor), 'preview.pdf');
    else reply.status(200).send(this.engine.preview(body, actor));
  }
}
