import {
  extensionActivateSchema,
  extensionAssignUsersSchema,
  extensionCopySchema,
  extensionGroupSchema,
  extensionReportSchema,
  extensionUsersQuerySchema,
  mealItemsSchema,
  parkingItemsSchema,
} from '@accredo/domain';
import { Body, Controller, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { Right } from '../../common/access.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { acceptLanguage } from '@accredo/i18n';
import { ActionExtensionService } from './action-extension.service.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const jsonSchema = (schema: z.ZodType) => {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return { type: 'object' };
  }
};

/**
 * Action extensions (spec §7; {type} 1 meal, 2 parking). The rights of spec §6 actionExtension;
 * every call also needs the type switched on for the subject and, except the list, activation and
 * report, on for the action (ACTION_DOESNT_HAVE_EXTENSION). Shapes: libs/domain/src/extension.ts.
 */
@ApiTags('admin: action extensions')
@Controller('api/admin/v1/action-extension')
export class ActionExtensionController {
  constructor(private readonly ext: ActionExtensionService) {}

  @Get(':type')
  @Right('actionExtension', 'get')
  async list(@Param('type') type: string) {
    return this.ext.list(await this.ext.type(type));
  }

  @Post(':type/:actionId')
  @HttpCode(200)
  @Right('actionExtension', 'active')
  async activate(
    @Param('type') type: string,
    @IdParam('actionId') actionId: number,
    @ValidBody(extensionActivateSchema) body: z.output<typeof extensionActivateSchema>,
  ) {
    return this.ext.activate(await this.ext.type(type), actionId, body.active);
  }

  @Get(':type/:actionId')
  @Right('actionExtension', 'get')
  async data(@Param('type') type: string, @IdParam('actionId') actionId: number) {
    return this.ext.data(await this.ext.type(type), actionId);
  }

  /** The edit screen's save: the body is checked against the action's dates in the service. */
  @Put(':actionId/:type')
  @Right('actionExtension', 'update')
  @ApiBody({ schema: { oneOf: [jsonSchema(mealItemsSchema), jsonSchema(parkingItemsSchema)] } })
  async save(@IdParam('actionId') actionId: number, @Param('type') type: string, @Body() body: unknown) {
    return this.ext.save(await this.ext.type(type), actionId, body);
  }

  @Post(':type/:actionId/copy')
  @HttpCode(200)
  @Right('actionExtension', 'update')
  async copy(
    @Param('type') type: string,
    @IdParam('actionId') actionId: number,
    @ValidBody(extensionCopySchema) body: z.output<typeof extensionCopySchema>,
  ) {
    return this.ext.copy(await this.ext.type(type), actionId, body);
  }

  @Post(':type/:actionId/users')
  @HttpCode(200)
  @Right('actionExtension', 'getUserExtension')
  async users(
    @Param('type') type: string,
    @IdParam('actionId') actionId: number,
    @ValidBody(extensionUsersQuerySchema) body: z.output<typeof extensionUsersQuerySchema>,
  ) {
    return this.ext.users(await this.ext.type(type), actionId, body);
  }

  @Get(':type/:actionId/users/:userId')
  @Right('actionExtension', 'getUserExtension')
  async userItems(
    @Param('type') type: string,
    @IdParam('actionId') actionId: number,
    @IdParam('userId') userId: number,
  ) {
    return this.ext.userItems(await this.ext.type(type), actionId, userId);
  }

  @Put(':type/:actionId/users')
  @Right('actionExtension', 'assignUserExtension')
  async assignUsers(
    @Param('type') type: string,
    @IdParam('actionId') actionId: number,
    @ValidBody(extensionAssignUsersSchema) body: z.output<typeof extensionAssignUsersSchema>,
  ) {
    return this.ext.assignUsers(await this.ext.type(type), actionId, body);
  }

  @Get(':type/:actionId/groups/:groupId')
  @Right('actionExtension', 'getGroupsActionExtension')
  async group(@Param('type') type: string, @IdParam('actionId') actionId: number, @IdParam('groupId') groupId: number) {
    return this.ext.groupDefaults(await this.ext.type(type), actionId, groupId);
  }

  @Put(':type/:actionId/groups/:groupId')
  @Right('actionExtension', 'assignGroupsActionExtension')
  async setGroup(
    @Param('type') type: string,
    @IdParam('actionId') actionId: number,
    @IdParam('groupId') groupId: number,
    @ValidBody(extensionGroupSchema) body: z.output<typeof extensionGroupSchema>,
  ) {
    return this.ext.setGroupDefaults(await this.ext.type(type), actionId, groupId, body);
  }

  /** Per day and item: how many chose, how many used, by option; JSON or an xlsx file. */
  @Post(':type/:actionId/report')
  @HttpCode(200)
  @Right('actionExtension', 'getActionExtensionReport')
  async report(
    @Param('type') type: string,
    @IdParam('actionId') actionId: number,
    @ValidBody(extensionReportSchema) body: z.output<typeof extensionReportSchema>,
    @CurrentAdmin() actor: AdminAuth,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const report = await this.ext.report(await this.ext.type(type), actionId, body.day);
    if (body.responseType === 'json') return report;
    reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="extension-${report.type}-${report.actionId}.xlsx"`)
      .header('cache-control', 'no-store');
    return this.ext.reportXlsx(report, acceptLanguage(actor.user.language));
  }
}
