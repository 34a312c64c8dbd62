import { adminUserCreateSchema, adminUserUpdateSchema, profileSchema } from '@accredo/domain';
import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { ManageUserOnly } from '../../common/access.js';
import { AdminUserService } from './admin-user.service.js';

@ApiTags('admin: admin users')
@Controller('api/admin/v1')
export class AdminUserController {
  constructor(private readonly service: AdminUserService) {}

  @Get('admin-user')
  @Right('adminUser', 'get')
  async list() {
    return this.service.list();
  }

  @Get('admin-user/forgot-password/:id')
  @Right('adminUser', 'update')
  async sendPasswordRequest(@IdParam() id: number, @CurrentAdmin() actor: AdminAuth) {
    await this.service.sendPasswordRequest(id, actor);
    return true;
  }

  @Get('admin-user/:id')
  @Right('adminUser', 'get')
  async get(@IdParam() id: number) {
    return this.service.get(id);
  }

  @Post('admin-user')
  @Right('adminUser', 'create')
  async create(
    @ValidBody(adminUserCreateSchema) body: z.output<typeof adminUserCreateSchema>,
    @CurrentAdmin() actor: AdminAuth,
  ) {
    return this.service.create(body, actor);
  }

  @Put('admin-user/verify/:id')
  @ManageUserOnly()
  async verify(@IdParam() id: number) {
    return this.service.verify(id);
  }

  @Put('admin-user/:id')
  @Right('adminUser', 'update')
  async update(
    @IdParam() id: number,
    @ValidBody(adminUserUpdateSchema) body: z.output<typeof adminUserUpdateSchema>,
    @CurrentAdmin() actor: AdminAuth,
  ) {
    return this.service.update(id, body, actor);
  }

  /** 409 ADMIN_USER_DELETE_SELF for one's own account. */
  @Delete('admin-user/:id')
  @Right('adminUser', 'delete')
  async remove(@IdParam() id: number, @CurrentAdmin() actor: AdminAuth) {
    await this.service.remove(id, actor);
    return { deleted: true };
  }

  /** The profile of the signed-in user (spec §6: needs getActualAdminUser). */
  @Put('actual')
  @Right('adminUser', 'getActualAdminUser')
  async updateProfile(
    @ValidBody(profileSchema) body: z.output<typeof profileSchema>,
    @CurrentAdmin() actor: AdminAuth,
  ) {
    return this.service.updateProfile(actor, body);
  }
}
