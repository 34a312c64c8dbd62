import { groupSchema } from '@accredo/domain';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { GroupsService } from './groups.service.js';

@ApiTags('admin: groups')
@Controller('api/admin/v1')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get('groups')
  @Right('groups', 'get')
  list() {
    return this.groups.list();
  }

  @Get('groups/:id/zones')
  @Right('zone', 'get')
  zones(@IdParam() id: number) {
    return this.groups.zonesOf(id);
  }

  @Get('groups/:id')
  @Right('groups', 'get')
  get(@IdParam() id: number) {
    return this.groups.get(id);
  }

  @Post('groups')
  @Right('groups', 'create')
  create(@ValidBody(groupSchema) body: z.output<typeof groupSchema>) {
    return this.groups.create(body);
  }

  @Put('groups/:id')
  @Right('groups', 'update')
  update(@IdParam() id: number, @ValidBody(groupSchema) body: z.output<typeof groupSchema>) {
    return this.groups.update(id, body);
  }

  /** Archive instead of delete (issue 15, docs/archive.md): with the delete right. */
  @Post('groups/:id/archive')
  @HttpCode(200)
  @Right('groups', 'delete')
  archive(@IdParam() id: number) {
    return this.groups.archive(id, true);
  }

  @Post('groups/:id/restore')
  @HttpCode(200)
  @Right('groups', 'delete')
  restore(@IdParam() id: number) {
    return this.groups.archive(id, false);
  }

  /** 409 GROUP_HAS_PEOPLE while people are in the group. */
  @Delete('groups/:id')
  @Right('groups', 'delete')
  async remove(@IdParam() id: number) {
    await this.groups.remove(id);
    return { deleted: true };
  }
}
