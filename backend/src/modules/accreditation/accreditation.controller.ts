import {
  accreditationListSchema,
  accreditationSchema,
  booleanSchema,
  bulkAssignDaysSchema,
  bulkAssignGroupsSchema,
  bulkAssignZonesSchema,
  bulkCopySchema,
  bulkDeleteSchema,
  creditChangeSchema,
  creditUnlimitedSchema,
  exportSchema,
  importSchema,
} from '@accredo/domain';
import { Controller, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { paged } from '../../common/interceptors.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { IdParam, ValidBody } from '../../common/zod.js';
import { AccreditationFilesService, XLSX_TYPE } from './accreditation-files.service.js';
import { AccreditationService } from './accreditation.service.js';

function sendFile(reply: FastifyReply, { file, name }: { file: Buffer; name: string }) {
  reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(file);
}

/**
 * user/all and user/filter: `exactCount: true` counts every match; otherwise the count stops at
 * COUNT_CAP and `maxCapped` says there are more (issue 16, docs/api.md).
 */
const listSchema = accreditationListSchema.extend({ exactCount: booleanSchema(false) });
type ListBody = z.output<typeof listSchema>;

type Bulk = {
  actionId: number;
  userId: number[];
  all: boolean;
  filterData: z.output<typeof accreditationListSchema>['filterData'];
};

@ApiTags('admin: accreditations')
@Controller('api/admin/v1')
export class AccreditationController {
  constructor(
    private readonly service: AccreditationService,
    private readonly files: AccreditationFilesService,
  ) {}

  @Post('user')
  @Right('user', 'createUser')
  create(@ValidBody(accreditationSchema) body: z.output<typeof accreditationSchema>) {
    return this.service.create(body);
  }

  @Put('user/:id')
  @Right('user', 'updateUser')
  update(@IdParam() id: number, @ValidBody(accreditationSchema) body: z.output<typeof accreditationSchema>) {
    return this.service.update(id, body);
  }

  @Get('user/check/:bc')
  @Right('user', 'checkUser')
  check(@Param('bc') bc: string) {
    return this.service.check(bc);
  }

  @Get('user/:actionId/:id')
  @Right('user', 'getUser')
  get(@IdParam('actionId') actionId: number, @IdParam() id: number) {
    return this.service.get(actionId, id);
  }

  @Post('user/all')
  @HttpCode(200)
  @Right('user', 'getUser')
  async all(@ValidBody(listSchema) body: ListBody) {
    const { data, max, maxCapped, customField } = await this.service.list(
      body.actionId,
      body.page,
      body.pageSize,
      null,
      body.exactCount,
    );
    return paged(data, max, { maxCapped, customField });
  }

  @Post('user/filter')
  @HttpCode(200)
  @Right('user', 'filterUser')
  async filter(@ValidBody(listSchema) body: ListBody) {
    const { data, max, maxCapped, customField } = await this.service.list(
      body.actionId,
      body.page,
      body.pageSize,
      body.filterData,
      body.exactCount,
    );
    return paged(data, max, { maxCapped, customField });
  }

  @Post('user/assign-groups')
  @HttpCode(200)
  @Right('user', 'assignUserToGroups')
  async assignGroups(@ValidBody(bulkAssignGroupsSchema) body: z.output<typeof bulkAssignGroupsSchema>) {
    return {
      changed: await this.service.assignGroups(body.actionId, await this.ids(body), body.groupsId, body.mode),
    };
  }

  @Post('user/assign-zone')
  @HttpCode(200)
  @Right('user', 'assignZone')
  async assignZones(@ValidBody(bulkAssignZonesSchema) body: z.output<typeof bulkAssignZonesSchema>) {
    return { changed: await this.service.assignZones(body.actionId, await this.ids(body), body.zones) };
  }

  @Post('user/assign-days')
  @HttpCode(200)
  @Right('user', 'assignDays')
  async assignDays(@ValidBody(bulkAssignDaysSchema) body: z.output<typeof bulkAssignDaysSchema>) {
    return { changed: await this.service.assignDays(body.actionId, await this.ids(body), body.days) };
  }

  @Post('user/copy')
  @HttpCode(200)
  @Right('user', 'copyUserToAction')
  async copy(@ValidBody(bulkCopySchema) body: z.output<typeof bulkCopySchema>) {
    const ids = await this.service.resolveIds(body.actualAction, body.userId, body.all, body.filterData);
    return this.service.copy(ids, body.actionId);
  }

  /** What `user/delete` with the same body would remove: how many, in which actions (for its confirmation). */
  @Post('user/delete/preview')
  @HttpCode(200)
  @Right('user', 'deleteUser')
  async removePreview(@ValidBody(bulkDeleteSchema) body: z.output<typeof bulkDeleteSchema>) {
    return this.service.removePreview(await this.ids(body), body.type);
  }

  @Post('user/delete')
  @HttpCode(200)
  @Right('user', 'deleteUser')
  async remove(@ValidBody(bulkDeleteSchema) body: z.output<typeof bulkDeleteSchema>) {
    return { changed: await this.service.remove(await this.ids(body), body.type) };
  }

  @Get('user/import/template/:actionId')
  @Right('userImport', 'getTemplateToImport')
  async importTemplate(
    @IdParam('actionId') actionId: number,
    @CurrentAdmin() actor: AdminAuth,
    @Res() reply: FastifyReply,
  ) {
    sendFile(reply, await this.files.template(actionId, actor.user.language));
  }

  @Post('user/import')
  @HttpCode(200)
  @Right('userImport', 'importUser')
  import(@ValidBody(importSchema) body: z.output<typeof importSchema>) {
    return this.files.import(body);
  }

  /** The same import with the file streamed as multipart/form-data: actionId, zonesImportType, extensionImportType, then dataFile. */
  @Post('user/import/file')
  @HttpCode(200)
  @Right('userImport', 'importUser')
  @ApiConsumes('multipart/form-data')
  importFile(@Req() req: FastifyRequest) {
    return this.files.importMultipart(req);
  }

  @Post('user/export')
  @HttpCode(200)
  @Right('user', 'exportUser')
  async export(
    @ValidBody(exportSchema) body: z.output<typeof exportSchema>,
    @CurrentAdmin() actor: AdminAuth,
    @Res() reply: FastifyReply,
  ) {
    sendFile(reply, await this.files.export(body.actionId, await this.ids(body), actor.user.language, body.form));
  }

  @Get('user-credit/:id')
  @Right('userCreditTransaction', 'getUserCreditTransaction')
  credit(@IdParam() id: number) {
    return this.service.creditHistory(id);
  }

  @Put('user-credit/:id')
  @Right('userCreditTransaction', 'updateCredit')
  changeCredit(
    @IdParam() id: number,
    @ValidBody(creditChangeSchema) body: z.output<typeof creditChangeSchema>,
    @CurrentAdmin() actor: AdminAuth,
  ) {
    return this.service.changeCredit(id, body, actor);
  }

  @Put('user-credit/:id/unlimited')
  @Right('userCreditTransaction', 'updateCredit')
  setUnlimited(@IdParam() id: number, @ValidBody(creditUnlimitedSchema) body: z.output<typeof creditUnlimitedSchema>) {
    return this.service.setUnlimited(id, body.isUnlimited);
  }

  private ids(body: Bulk): Promise<number[]> {
    return this.service.resolveIds(body.actionId, body.userId, body.all, body.filterData);
  }
}
