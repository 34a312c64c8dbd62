import { previewSelectionSchema } from '@accredo/domain';
import { Controller, createParamDecorator, type ExecutionContext, Get, Param, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Public } from '../../common/access.js';
import { type AppRequest, ClientIp } from '../../common/request.js';
import { ValidBody } from '../../common/zod.js';
import { PreviewService } from './preview.service.js';

/** An admin's token, if the page sends one (only the test preview `tst{actionId}` looks at it). */
const AdminToken = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined => {
  const value = ctx.switchToHttp().getRequest<AppRequest>().headers.authorization;
  const raw = Array.isArray(value) ? value[0] : value;
  return raw?.replace(/^Bearer\s+/i, '').trim() || undefined;
});

/**
 * The person's preview page (spec §7 Preview), base api/preview/v1. Public: the code on the badge is
 * the key (the service answers one 404 for anything it does not open, and limits lookups).
 */
@ApiTags('preview')
@Controller('api/preview/v1')
export class PreviewController {
  constructor(private readonly preview: PreviewService) {}

  @Get('user/:subjectKey/:code')
  @Public()
  get(
    @Param('subjectKey') subjectKey: string,
    @Param('code') code: string,
    @ClientIp() ip: string,
    @AdminToken() token?: string,
  ) {
    return this.preview.get(subjectKey, code, ip, token);
  }

  @Put('user/:subjectKey/:code/extension/:type')
  @Public()
  select(
    @Param('subjectKey') subjectKey: string,
    @Param('code') code: string,
    @Param('type') type: string,
    @ValidBody(previewSelectionSchema) body: z.output<typeof previewSelectionSchema>,
    @ClientIp() ip: string,
  ) {
    return this.preview.select(subjectKey, code, type, body.items, ip);
  }
}
