import { imageCreateSchema, imageListSchema, imageUpdateSchema } from '@accredo/domain';
import { Controller, Delete, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { Public, Right } from '../../common/access.js';
import { paged } from '../../common/interceptors.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { ImageService } from './image.service.js';

@ApiTags('admin: gallery')
@Controller('api')
export class ImageController {
  constructor(private readonly images: ImageService) {}

  @Post('admin/v1/image/all')
  @HttpCode(200)
  @Right('image', 'get')
  async list(@ValidBody(imageListSchema) body: z.output<typeof imageListSchema>) {
    const { data, max } = await this.images.list(body);
    return paged(data, max);
  }

  @Get('admin/v1/image/:id')
  @Right('image', 'get')
  get(@IdParam() id: number) {
    return this.images.get(id);
  }

  @Post('admin/v1/image')
  @Right('image', 'create')
  create(@ValidBody(imageCreateSchema) body: z.output<typeof imageCreateSchema>) {
    return this.images.create(body);
  }

  @Put('admin/v1/image/:id')
  @Right('image', 'update')
  update(@IdParam() id: number, @ValidBody(imageUpdateSchema) body: z.output<typeof imageUpdateSchema>) {
    return this.images.update(id, body);
  }

  /** 409 IMAGE_IN_USE while it is a person's photo or a web channel's logo. */
  @Delete('admin/v1/image/:id')
  @Right('image', 'delete')
  async remove(@IdParam() id: number) {
    await this.images.remove(id);
    return { deleted: true };
  }

  /**
   * The image bytes, for <img> tags (which send no authorization header): the key is a random UUID
   * per version, so the URL is unguessable and its content never changes (cached for a year).
   */
  @Get('file/:key')
  @Public()
  async file(@Param('key') key: string, @Res() reply: FastifyReply) {
    const { stream, mimeType, size } = await this.images.open(key);
    reply
      .header('content-type', mimeType)
      .header('content-length', String(size))
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(stream);
  }
}
