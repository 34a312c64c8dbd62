import {
  type LoginInput,
  loginSchema,
  manageAdminUserCreateSchema,
  manageAdminUserUpdateSchema,
  manageSubjectSchema,
  type WebChannelSummary,
} from '@accredo/domain';
import { Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { OperatorSession, Public } from '../../common/access.js';
import { AppError } from '../../common/app-error.js';
import { ClientIp, CurrentOperator, type ManageAuth } from '../../common/request.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { AdminUserService } from '../admin-user/admin-user.service.js';
import { SubjectService } from '../subject/subject.service.js';
import { WebChannelService } from '../web-channel/web-channel.service.js';
import { ManageService } from './manage.service.js';

/** The manage module of the provider's operators (spec §7 Manage), header authorization-manage. */
@ApiTags('manage')
@Controller('api/manage/v1')
export class ManageController {
  constructor(
    private readonly manage: ManageService,
    private readonly subjects: SubjectService,
    private readonly adminUsers: AdminUserService,
    private readonly channels: WebChannelService,
  ) {}

  @Post('login')
  @HttpCode(200)
  @Public()
  login(@ValidBody(loginSchema) body: LoginInput, @ClientIp() ip: string) {
    return this.manage.login(body, ip);
  }

  @Post('authorize')
  @HttpCode(200)
  @OperatorSession()
  authorize(@CurrentOperator() auth: ManageAuth) {
    return this.manage.session(auth.operator, auth.rawToken);
  }

  @Post('logout')
  @HttpCode(200)
  @OperatorSession()
  async logout(@CurrentOperator() auth: ManageAuth) {
    await this.manage.logout(auth);
    return true;
  }

  @Get('subject')
  @OperatorSession()
  subjectList() {
    return this.subjects.list();
  }

  @Post('subject')
  @OperatorSession()
  subjectCreate(@ValidBody(manageSubjectSchema) body: z.output<typeof manageSubjectSchema>) {
    return this.subjects.create(body);
  }

  @Get('subject/:id')
  @OperatorSession()
  subjectGet(@IdParam() id: number) {
    return this.subjects.get(id);
  }

  @Put('subject/:id')
  @OperatorSession()
  subjectUpdate(@IdParam() id: number, @ValidBody(manageSubjectSchema) body: z.output<typeof manageSubjectSchema>) {
    return this.subjects.update(id, body);
  }

  /** The subject's web channels with their public links (spec §2 Manage: subject screen). */
  @Get('web-channel/:subjectId')
  @OperatorSession()
  async webChannels(@IdParam('subjectId') subjectId: number): Promise<WebChannelSummary[]> {
    await this.subjects.get(subjectId);
    return this.channels.manageList(subjectId);
  }

  @Get('admin-user')
  @OperatorSession()
  adminUserList(@Query('subjectId') subjectId?: string) {
    if (subjectId !== undefined && !/^\d+$/.test(subjectId))
      throw AppError.validation([{ path: 'subjectId', key: 'basics.invalidValue' }]);
    return this.adminUsers.manageList(subjectId ? Number(subjectId) : undefined);
  }

  @Post('admin-user')
  @OperatorSession()
  adminUserCreate(@ValidBody(manageAdminUserCreateSchema) body: z.output<typeof manageAdminUserCreateSchema>) {
    return this.adminUsers.manageCreate(body);
  }

  @Get('admin-user/:id')
  @OperatorSession()
  adminUserGet(@IdParam() id: number) {
    return this.adminUsers.manageGet(id);
  }

  @Put('admin-user/:id')
  @OperatorSession()
  adminUserUpdate(
    @IdParam() id: number,
    @ValidBody(manageAdminUserUpdateSchema) body: z.output<typeof manageAdminUserUpdateSchema>,
  ) {
    return this.adminUsers.manageUpdate(id, body);
  }
}
