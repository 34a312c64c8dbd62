import { actionSchema, currentActionSchema } from '@accredo/domain';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { AdminSession, Right } from '../../common/access.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { ActionService } from './action.service.js';

@ApiTags('admin: actions')
@Controller('api/admin/v1')
export class ActionController {
  constructor(private readonly actions: ActionService) {}

  @Get('action')
  @Right('action', 'get')
  list() {
    return this.actions.list();
  }

  @Get('action/:id')
  @Right('action', 'get')
  get(@IdParam() id: number) {
    return this.actions.get(id);
  }

  @Post('action')
  @Right('action', 'create')
  create(@ValidBody(actionSchema) body: z.output<typeof actionSchema>) {
    return this.actions.create(body);
  }

  @Put('action/:id')
  @Right('action', 'update')
  update(@IdParam() id: number, @ValidBody(actionSchema) body: z.output<typeof actionSchema>) {
    return this.actions.update(id, body);
  }

  /** The action switcher of the top bar: any signed-in admin remembers their current action. */
  @Put('actual/action')
  @AdminSession()
  setCurrent(
    @ValidBody(currentActionSchema) body: z.output<typeof currentActionSchema>,
    @CurrentAdmin() auth: AdminAuth,
  ) {
    return this.actions.setCurrent(auth, body.actionId);
  }

  /** Archive instead of delete (issue 15, docs/archive.md): with the delete right. */
  @Post('action/:id/archive')
  @HttpCode(200)
  @Right('action', 'delete')
  archive(@IdParam() id: number) {
    return this.actions.archive(id, true);
  }

  @Post('action/:id/restore')
  @HttpCode(200)
  @Right('action', 'delete')
  restore(@IdParam() id: number) {
    return this.actions.archive(id, false);
  }

  /** 409 ACTION_HAS_ACCREDITATIONS while the action has people. */
  @Delete('action/:id')
  @Right('action', 'delete')
  async remove(@IdParam() id: number) {
    await this.actions.remove(id);
    return { deleted: true };
  }
}
