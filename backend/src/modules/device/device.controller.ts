import { deviceSchema, deviceTemplateSchema, entranceReportSchema, reportSchema } from '@accredo/domain';
import { Controller, Delete, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { AppError } from '../../common/app-error.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { DeviceService } from './device.service.js';
import { acceptLanguage } from '@accredo/i18n';
import { ReportService } from './report.service.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function file(reply: FastifyReply, name: string, data: Buffer): Buffer {
  reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store');
  return data;
}

/** Devices, pairing codes and rule templates (spec §7 devices). */
@ApiTags('admin: devices')
@Controller('api/admin/v1')
export class DeviceController {
  constructor(private readonly devices: DeviceService) {}

  @Get('device')
  @Right('device', 'getDevice')
  list() {
    return this.devices.list();
  }

  /** The pairing code `bc` and the unpairing code `bcClear` of the subject. */
  @Get('device/key')
  @Right('device', 'getDeviceKey')
  key() {
    return this.devices.key();
  }

  /** A new device key: the old codes stop working and every device of the subject is unpaired. */
  @Post('device/key/rotate')
  @HttpCode(200)
  @Right('device', 'updateDevice')
  rotateKey() {
    return this.devices.rotateKey();
  }

  @Get('device/:id')
  @Right('device', 'getDevice')
  get(@IdParam() id: number) {
    return this.devices.get(id);
  }

  @Put('device/:id')
  @Right('device', 'updateDevice')
  update(@IdParam() id: number, @ValidBody(deviceSchema) body: z.output<typeof deviceSchema>) {
    return this.devices.update(id, body);
  }

  /** Removes the device and revokes its token. */
  @Delete('device/:id')
  @Right('device', 'updateDevice')
  async remove(@IdParam() id: number) {
    await this.devices.remove(id);
    return { deleted: true };
  }

  @Get('device-template')
  @Right('deviceTemplate', 'get')
  templates(@Query('actionId') actionId?: string) {
    if (actionId !== undefined && !/^[1-9]\d{0,9}$/.test(actionId))
      throw AppError.validation([{ path: 'actionId', key: 'basics.invalidValue' }]);
    return this.devices.templateList(actionId ? Number(actionId) : null);
  }

  @Get('device-template/:id')
  @Right('deviceTemplate', 'get')
  template(@IdParam() id: number) {
    return this.devices.templateGet(id);
  }

  @Post('device-template')
  @Right('deviceTemplate', 'create')
  createTemplate(@ValidBody(deviceTemplateSchema) body: z.output<typeof deviceTemplateSchema>) {
    return this.devices.templateCreate(body);
  }

  @Put('device-template/:id')
  @Right('deviceTemplate', 'update')
  updateTemplate(@IdParam() id: number, @ValidBody(deviceTemplateSchema) body: z.output<typeof deviceTemplateSchema>) {
    return this.devices.templateUpdate(id, body);
  }
}

/** Reports of the entry and scan logs (spec §7 reports). */
@ApiTags('admin: reports')
@Controller('api/admin/v1')
export class ReportController {
  constructor(private readonly reports: ReportService) {}

  /** A table as JSON in the admin's language, or with responseType xlsx (or xls) the same table as a file. */
  @Post('report')
  @HttpCode(200)
  @Right('report', 'getReport')
  async report(
    @ValidBody(reportSchema) body: z.output<typeof reportSchema>,
    @CurrentAdmin() actor: AdminAuth,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const lang = acceptLanguage(actor.user.language);
    if (body.responseType === 'json') return this.reports.table(body, lang);
    const table = await this.reports.table(body, lang, 1_000_000);
    return file(reply, `report-${body.type}.xlsx`, await this.reports.xlsx(table, `report ${body.type}`));
  }

  /** Every entry and exit of an action as xlsx. */
  @Post('report/entrance')
  @HttpCode(200)
  @Right('report', 'getReport')
  async entrance(
    @ValidBody(entranceReportSchema) body: z.output<typeof entranceReportSchema>,
    @CurrentAdmin() actor: AdminAuth,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return file(
      reply,
      `entrances-${body.actionId}.xlsx`,
      await this.reports.entrance(body, acceptLanguage(actor.user.language)),
    );
  }
}
