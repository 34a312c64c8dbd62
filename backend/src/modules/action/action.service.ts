import { randomUUID } from 'node:crypto';
import type { ActionData, actionSchema } from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { archivedAtOf, setArchived } from '../../common/archive.js';
import { assertOwned, SubjectCrud } from '../../common/crud.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import {
  AccreditationExtensionEntity,
  ExtensionItemEntity,
  ExtensionOptionEntity,
  GroupExtensionEntity,
} from '../action-extension/action-extension.entity.js';
import { DeviceEntity, DeviceTemplateEntity } from '../device/device.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { WebChannelCodeEntity, WebChannelEntity, WebChannelUserEntity } from '../web-channel/web-channel.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import type { AdminAuth } from '../../common/request.js';
import { TenantRepository } from '../../database/tenant.js';
import { AdminUserEntity } from '../admin-user/admin-user.entity.js';
import { CustomFieldEntity } from '../custom-field/custom-field.entity.js';
import { ImageEntity } from '../image/image.entity.js';
import { TokenService } from '../session/token.service.js';
import { MailTemplateEntity } from '../template/template.entity.js';
import { ActionEntity } from './action.entity.js';

export type ActionDto = ActionData & {
  id: number;
  extension: number[];
  customField: (ActionData['customField'][number] & { name: string; customFieldType: number })[];
  dateCreate: string;
  /** when it was archived (issue 15); null while in use */
  archivedAt: string | null;
};

@Injectable()
export class ActionService extends SubjectCrud<ActionEntity, z.output<typeof actionSchema>, ActionDto> {
  private readonly fields: TenantRepository<CustomFieldEntity>;
  private readonly mailTemplates: TenantRepository<MailTemplateEntity>;
  private readonly images: TenantRepository<ImageEntity>;

  constructor(
    @InjectRepository(ActionEntity) repo: Repository<ActionEntity>,
    @InjectRepository(CustomFieldEntity) fields: Repository<CustomFieldEntity>,
    @InjectRepository(MailTemplateEntity) mailTemplates: Repository<MailTemplateEntity>,
    @InjectRepository(ImageEntity) images: Repository<ImageEntity>,
    @InjectRepository(AdminUserEntity) private readonly users: Repository<AdminUserEntity>,
    private readonly tokens: TokenService,
  ) {
    super(repo);
    this.fields = new TenantRepository(fields);
    this.mailTemplates = new TenantRepository(mailTemplates);
    this.images = new TenantRepository(images);
  }

  /**
   * DELETE action/{id} (issue 15): refused with 409 ACTION_HAS_ACCREDITATIONS (how many) while it
   * has people. An empty action goes with what exists only for it — its web channels (with their
   * logins and codes), device templates (its devices keep running unconfigured), extension items and
   * options; its groups and zones stay, moved to 'not assigned'; admins whose current action it was
   * get none (their sessions see it at once).
   */
  override async remove(id: number): Promise<void> {
    const row = await this.scoped.get(id);
    const m = this.scoped.repo.manager;
    const count = await m.count(AccreditationEntity, { where: { actionId: row.id } });
    if (count > 0) throw new AppError('ACTION_HAS_ACCREDITATIONS', { count });
    const where = { subjectId: row.subjectId, actionId: row.id };
    const users = await this.users.find({
      where: [
        { subjectId: row.subjectId, actionId: row.id },
        { subjectId: row.subjectId, lastActionId: row.id },
      ],
      select: { id: true },
    });
    await m.transaction(async (tm) => {
      const channels = await tm.find(WebChannelEntity, { where, select: { id: true } });
      if (channels.length) {
        const ids = channels.map((c) => c.id);
        await tm.delete(WebChannelCodeEntity, { channelId: In(ids) });
        await tm.delete(WebChannelUserEntity, { channelId: In(ids) });
        await tm.delete(WebChannelEntity, { id: In(ids) });
      }
      const templates = await tm.find(DeviceTemplateEntity, { where, select: { id: true } });
      if (templates.length) {
        const ids = templates.map((d) => d.id);
        await tm.update(DeviceEntity, { deviceTemplateId: In(ids) }, { deviceTemplateId: null });
        await tm.delete(DeviceTemplateEntity, { id: In(ids) });
      }
      const items = await tm.find(ExtensionItemEntity, { where, select: { id: true } });
      if (items.length) {
        const ids = items.map((i) => i.id);
        await tm.delete(ExtensionOptionEntity, { itemId: In(ids) });
        await tm.delete(GroupExtensionEntity, { itemId: In(ids) });
        await tm.delete(ExtensionItemEntity, { id: In(ids) });
      }
      await tm.delete(AccreditationExtensionEntity, { actionId: row.id });
      await tm.update(GroupEntity, where, { actionId: null });
      await tm.update(ZoneEntity, where, { actionId: null });
      await tm.update(AdminUserEntity, { subjectId: row.subjectId, actionId: row.id }, { actionId: null });
      await tm.update(AdminUserEntity, { subjectId: row.subjectId, lastActionId: row.id }, { lastActionId: null });
      await tm.delete(ActionEntity, { id: row.id, subjectId: row.subjectId });
    });
    for (const u of users) await this.tokens.principalChanged('admin', u.id);
  }

  protected async apply(row: ActionEntity, input: z.output<typeof actionSchema>): Promise<void> {
    await assertOwned(
      this.fields,
      input.customField.map((f) => f.id),
      'customField',
    );
    await assertOwned(this.mailTemplates, [input.afterMailTemplateId], 'afterMailTemplateId');
    await assertOwned(this.images, [input.previewData.image], 'previewData.image');
    Object.assign(row, {
      ...input,
      checkingAttributes: input.checkingAttributes.map((a) => ({ ...a, id: a.id || randomUUID().slice(0, 8) })),
    });
    row.extension ??= [];
  }

  protected toDto(row: ActionEntity, fields = new Map<number, CustomFieldEntity>()): ActionDto {
    return {
      id: row.id,
      name: row.name,
      dateFrom: row.dateFrom,
      dateTo: row.dateTo,
      multiDay: row.multiDay,
      days: row.days,
      afterMailTemplateId: row.afterMailTemplateId,
      isCredit: row.isCredit,
      withPhoto: row.withPhoto,
      requirePhoto: row.requirePhoto,
      smartBc: row.smartBc,
      customField: row.customField.map((f) => ({
        ...f,
        name: fields.get(f.id)?.name ?? '',
        customFieldType: fields.get(f.id)?.customFieldType ?? 1,
      })),
      textOnline: row.textOnline,
      textAfterAdd: row.textAfterAdd,
      checkingAttributes: row.checkingAttributes as ActionData['checkingAttributes'],
      extension: row.extension,
      previewData: row.previewData,
      dateCreate: row.createdAt.toISOString(),
      archivedAt: archivedAtOf(row),
    };
  }

  /** POST action/{id}/archive and /restore (issue 15): an archived action takes no new people. */
  async archive(id: number, archived: boolean): Promise<ActionDto> {
    await setArchived(this.scoped, id, archived);
    return this.get(id);
  }

  protected override async toDtos(rows: ActionEntity[]): Promise<ActionDto[]> {
    const fields = new Map((await this.fields.find()).map((f) => [f.id, f]));
    return rows.map((r) => this.toDto(r, fields));
  }

  protected override order() {
    return { dateFrom: 'DESC' as const, id: 'DESC' as const };
  }

  /** The current action of the top-bar switcher, remembered per user (spec §2, lastAction). */
  async setCurrent(auth: AdminAuth, actionId: number | null): Promise<{ lastAction: number | null }> {
    await assertOwned(this.scoped, [actionId], 'actionId');
    await this.users.update({ id: auth.user.id }, { lastActionId: actionId });
    await this.tokens.principalChanged('admin', auth.user.id);
    return { lastAction: actionId };
  }
}
