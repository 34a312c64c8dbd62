import { printSchema } from '@accredo/domain';
import { Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { ValidBody } from '../../common/zod.js';
import { BadgePdfService } from '../pdf/badge-pdf.service.js';
import { sendPdf } from '../pdf/send-pdf.js';
import { PrintService } from './print.service.js';

@ApiTags('admin: accreditations')
@Controller('api/admin/v1')
export class PrintController {
  constructor(
    private readonly prints: PrintService,
    private readonly pdf: BadgePdfService,
  ) {}

  /**
   * Spec §7 user/print: `{data, fileName, error}` at the top level: the badges as one HTML document
   * (one per page) and the people left out with the reason. With type pdf the answer is the PDF file
   * itself (the people left out in `x-print-errors`, at most 2 kB of them, and `x-print-error-count`), or, for more than 200 badges, `202 {data: job}`
   * to follow at `GET user/print/job/{id}` (see docs/architecture.md "Badges as PDF").
   */
  @Post('user/print')
  @HttpCode(200)
  @Right('user', 'getUserPrintData')
  async print(
    @ValidBody(printSchema) body: z.output<typeof printSchema>,
    @CurrentAdmin() actor: AdminAuth,
    @Res() reply: FastifyReply,
  ) {
    if (body.type !== 'pdf') {
      reply.status(200).send({ ...(await this.prints.print(body, actor)) });
      return;
    }
    const result = await this.pdf.print(body, actor);
    if (result.kind === 'job') reply.status(202).send({ data: result.job });
    else if (result.kind === 'empty')
      reply.status(200).send({ data: null, fileName: result.fileName, error: result.error, printed: 0 });
    else {
      // The people left out ride in a header kept under 2 kB (proxies limit headers); the count is whole.
      let listed = result.error;
      let header = encodeURIComponent(JSON.stringify(listed));
      while (header.length > 2000 && listed.length) {
        listed = listed.slice(0, Math.floor(listed.length / 2));
        header = encodeURIComponent(JSON.stringify(listed));
      }
      reply
        .header('x-print-printed', String(result.printed))
        .header('x-print-error-count', String(result.error.length))
        .header('x-print-errors', header);
      sendPdf(reply, result.file, result.fileName);
    }
  }
}
