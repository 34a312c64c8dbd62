import { zoneSchema } from '@accredo/domain';
import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { ZoneService } from './zone.service.js';

@ApiTags('admin: zones')
@Controller('api/admin/v1')
export class ZoneController {
  constructor(private readonly zones: ZoneService) {}

  @Get('zone')
  @Right('zone', 'get')
  list() {
    return this.zones.list();
  }

  @Get('zone/:id')
  @Right('zone', 'get')
  get(@IdParam() id: number) {
    return this.zones.get(id);
  }

  @Post('zone')
  @Right('zone', 'create')
  create(@ValidBody(zoneSchema) body: z.output<typeof zoneSchema>) {
    return this.zones.create(body);
  }

  @Put('zone/:id')
  @Right('zone', 'update')
  update(@IdParam() id: number, @ValidBody(zoneSchema) body: z.output<typeof zoneSchema>) {
    return this.zones.update(id, body);
  }

  /** 409 ZONE_USED_BY_GROUPS while a group or a device template uses the zone. */
  @Delete('zone/:id')
  @Right('zone', 'delete')
  async remove(@IdParam() id: number) {
    await this.zones.remove(id);
    return { deleted: true };
  }
}
