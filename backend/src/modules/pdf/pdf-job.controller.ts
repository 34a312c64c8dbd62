import { Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DeviceSession, Right } from '../../common/access.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { IdParam } from '../../common/zod.js';
import { BadgePdfService, toJobDto } from './badge-pdf.service.js';
import { sendPdf } from './send-pdf.js';

/** The big PDF prints (more than 200 badges): progress and the finished file, for the admin who started them. */
@ApiTags('admin: accreditations')
@Controller('api/admin/v1')
export class PdfJobController {
  constructor(private readonly pdf: BadgePdfService) {}

  /** `{id, state: waiting|running|done|error|expired, total, done, printed, fileName, error, failReason, canRetry}` */
  @Get('user/print/job/:id')
  @Right('user', 'getUserPrintData')
  async job(@IdParam() id: number, @CurrentAdmin() actor: AdminAuth) {
    return toJobDto(await this.pdf.job(id, actor));
  }

  /** A failed job started again, once, from its progress (409 PDF_JOB_NOT_FAILED, PDF_JOB_RETRY_USED). */
  @Post('user/print/job/:id/retry')
  @HttpCode(200)
  @Right('user', 'getUserPrintData')
  async retry(@IdParam() id: number, @CurrentAdmin() actor: AdminAuth) {
    return toJobDto(await this.pdf.retry(id, actor));
  }

  /** The PDF of a finished job (409 PDF_JOB_NOT_READY before, 410 PDF_JOB_EXPIRED a day after). */
  @Get('user/print/job/:id/file')
  @Right('user', 'getUserPrintData')
  async file(@IdParam() id: number, @CurrentAdmin() actor: AdminAuth, @Res() reply: FastifyReply) {
    const { stream, fileName, size } = await this.pdf.jobFile(id, actor);
    sendPdf(reply, stream, fileName, size);
  }
}

/**
 * A paired station's badge print at the gate desk (docs/station.md "Print on scan"): the person's
 * badge as application/pdf, with the device's token, for a person of the device's subject; logged as
 * a print (without an admin user). 404 for an unknown person, 400 NOTHING_TO_PRINT with the reason
 * (`PRINT_NO_GROUP`, …) when they have no badge, 503 PDF_RENDERER_MISSING without Chromium.
 */
@ApiTags('device')
@Controller('api/device/v1')
export class PdfDeviceController {
  constructor(private readonly pdf: BadgePdfService) {}

  @Get('badge/:id')
  @DeviceSession()
  async badge(@IdParam() id: number, @Res() reply: FastifyReply) {
    const { file, fileName } = await this.pdf.deviceBadge(id);
    sendPdf(reply, file, fileName);
  }
}
