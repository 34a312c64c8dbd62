import { exportSchema, IMAGE_IMPORT_MAX_BYTES, IMAGE_IMPORT_MAX_FILES, imageImportSchema } from '@accredo/domain';
import { Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { AccreditationImagesService } from './accreditation-images.service.js';
import { AccreditationService } from './accreditation.service.js';

/**
 * A full batch of the image import as JSON: 20 photos of 5 MB in base64 (4/3 of the bytes) with
 * room for names and punctuation. The app's default body limit (16 MB) stays for every other route.
 */
export const IMAGE_IMPORT_BODY_LIMIT =
  Math.ceil((IMAGE_IMPORT_MAX_FILES * IMAGE_IMPORT_MAX_BYTES * 4) / 3) + 1024 * 1024;

@ApiTags('admin: accreditation photos')
@Controller('api/admin/v1')
export class AccreditationImagesController {
  constructor(
    private readonly images: AccreditationImagesService,
    private readonly accreditations: AccreditationService,
  ) {}

  @Get('image/import/:actionId')
  @Right('imageImport', 'getImageImport')
  status(@IdParam('actionId') actionId: number) {
    return this.images.status(actionId);
  }

  @Post('image/import')
  @HttpCode(200)
  @Right('imageImport', 'importImage')
  @RouteConfig({ bodyLimit: IMAGE_IMPORT_BODY_LIMIT })
  import(@ValidBody(imageImportSchema) body: z.output<typeof imageImportSchema>) {
    return this.images.import(body);
  }

  /** The image export (spec §7): the same selection or filter as POST user/export, as a zip. */
  @Post('user/export/images')
  @HttpCode(200)
  @Right('user', 'exportUser')
  async export(@ValidBody(exportSchema) body: z.output<typeof exportSchema>, @Res() reply: FastifyReply) {
    const ids = await this.accreditations.resolveIds(body.actionId, body.userId, body.all, body.filterData);
    const { stream, name, count } = await this.images.exportZip(body.actionId, ids);
    reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('x-photo-count', String(count))
      .header('cache-control', 'no-store')
      .send(stream);
  }
}
