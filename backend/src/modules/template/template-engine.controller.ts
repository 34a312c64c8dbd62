import { templatePreviewSchema, templateValidateSchema } from '@accredo/domain';
import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { Envelope } from '../../common/interceptors.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { ValidBody } from '../../common/zod.js';
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

  /** The preview call of spec §7: `{data: html}`, the badge page(s) or the mail body. */
  @Post('template/preview')
  @HttpCode(200)
  @Right('template', 'get')
  preview(
    @ValidBody(templatePreviewSchema) body: z.output<typeof templatePreviewSchema>,
    @CurrentAdmin() actor: AdminAuth,
  ) {
    return new Envelope(this.engine.preview(body, actor));
  }
}
