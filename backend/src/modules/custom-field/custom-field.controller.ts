import { customFieldSchema } from '@accredo/domain';
import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { CustomFieldService } from './custom-field.service.js';

@ApiTags('admin: user fields')
@Controller('api/admin/v1')
export class CustomFieldController {
  constructor(private readonly fields: CustomFieldService) {}

  @Get('custom-field-type')
  @Right('customField', 'get')
  types() {
    return this.fields.types();
  }

  @Get('custom-field')
  @Right('customField', 'get')
  list() {
    return this.fields.list();
  }

  @Get('custom-field/:id')
  @Right('customField', 'get')
  get(@IdParam() id: number) {
    return this.fields.get(id);
  }

  @Post('custom-field')
  @Right('customField', 'create')
  create(@ValidBody(customFieldSchema) body: z.output<typeof customFieldSchema>) {
    return this.fields.create(body);
  }

  @Put('custom-field/:id')
  @Right('customField', 'update')
  update(@IdParam() id: number, @ValidBody(customFieldSchema) body: z.output<typeof customFieldSchema>) {
    return this.fields.update(id, body);
  }

  /** 409 CUSTOM_FIELD_USED_BY_ACTIONS while an action uses the field. */
  @Delete('custom-field/:id')
  @Right('customField', 'delete')
  async remove(@IdParam() id: number) {
    await this.fields.remove(id);
    return { deleted: true };
  }
}
