import { externalCodeImportSchema, type WebChannelData, webChannelSchema } from '@accredo/domain';
import { Controller, Delete, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { AnyRight, Right } from '../../common/access.js';
import { AppError } from '../../common/app-error.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { WebChannelService } from './web-channel.service.js';

/** Web channels of the admin application (spec §7 "GET web-channel …"), rights webChannel.*. */
@ApiTags('admin: web channels')
@Controller('api/admin/v1')
export class WebChannelController {
  constructor(private readonly channels: WebChannelService) {}

  /** The list; `?actionId=` for the list's tab of one action. */
  @Get('web-channel')
  @Right('webChannel', 'get')
  list(@Query('actionId') actionId?: string) {
    if (actionId !== undefined && actionId !== '' && !/^[1-9]\d{0,9}$/.test(actionId))
      throw AppError.validation([{ path: 'actionId', key: 'basics.invalidValue' }]);
    return this.channels.list(actionId ? Number(actionId) : undefined);
  }

  /** Parses a CSV of codes for the form being created or edited (nothing is saved until it is). */
  @Post('web-channel/external-code/import')
  @HttpCode(200)
  @AnyRight(['webChannel', 'create'], ['webChannel', 'update'])
  importCodes(@ValidBody(externalCodeImportSchema) body: z.output<typeof externalCodeImportSchema>) {
    return this.channels.importCodes(body);
  }

  @Get('web-channel/external-code/:id')
  @Right('webChannel', 'exportExternalCode')
  async exportCodes(@IdParam() id: number, @Res() reply: FastifyReply) {
    const { file, name } = await this.channels.exportCodes(id);
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(file);
  }

  @Get('web-channel/:id')
  @Right('webChannel', 'get')
  get(@IdParam() id: number) {
    return this.channels.get(id);
  }

  @Post('web-channel')
  @Right('webChannel', 'create')
  create(@ValidBody(webChannelSchema) body: WebChannelData) {
    return this.channels.create(body);
  }

  @Put('web-channel/:id')
  @Right('webChannel', 'update')
  update(@IdParam() id: number, @ValidBody(webChannelSchema) body: WebChannelData) {
    return this.channels.update(id, body);
  }

  /** Archive instead of delete (issue 15, docs/archive.md): with the delete right. */
  @Post('web-channel/:id/archive')
  @HttpCode(200)
  @Right('webChannel', 'delete')
  archive(@IdParam() id: number) {
    return this.channels.archive(id, true);
  }

  @Post('web-channel/:id/restore')
  @HttpCode(200)
  @Right('webChannel', 'delete')
  restore(@IdParam() id: number) {
    return this.channels.archive(id, false);
  }

  /** 409 WEB_CHANNEL_HAS_REGISTRATIONS while people registered through the channel. */
  @Delete('web-channel/:id')
  @Right('webChannel', 'delete')
  async remove(@IdParam() id: number) {
    await this.channels.remove(id);
    return { deleted: true };
  }
}
