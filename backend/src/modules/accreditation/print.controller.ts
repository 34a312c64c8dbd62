import { printSchema } from '@accredo/domain';
import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { Envelope } from '../../common/interceptors.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { ValidBody } from '../../common/zod.js';
import { PrintService } from './print.service.js';

@ApiTags('admin: accreditations')
@Controller('api/admin/v1')
export class PrintController {
  constructor(private readonly prints: PrintService) {}

  /**
   * Spec §7 user/print: `{data, fileName, error}` at the top level: the badges as one HTML document
   * (one per page) and the people left out with the reason.
   */
  @Post('user/print')
  @HttpCode(200)
  @Right('user', 'getUserPrintData')
  async print(@ValidBody(printSchema) body: z.output<typeof printSchema>, @CurrentAdmin() actor: AdminAuth) {
    return new Envelope({ ...(await this.prints.print(body, actor)) });
  }
}
