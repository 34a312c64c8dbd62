import type { GroupDto, groupSchema } from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { archivedAtOf, refuseArchived, setArchived } from '../../common/archive.js';
import { assertOwned, SubjectCrud } from '../../common/crud.js';
import { AccreditationGroupEntity } from '../accreditation/accreditation.entity.js';
import { GroupExtensionEntity } from '../action-extension/action-extension.entity.js';
import { TenantRepository } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { TemplateEntity } from '../template/template.entity.js';
import { WebChannelEntity } from '../web-channel/web-channel.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import { GroupEntity } from './group.entity.js';

@Injectable()
export class GroupsService extends SubjectCrud<GroupEntity, z.output<typeof groupSchema>, GroupDto> {
  private readonly actions: TenantRepository<ActionEntity>;
  private readonly zones: TenantRepository<ZoneEntity>;
  private readonly templates: TenantRepository<TemplateEntity>;

  constructor(
    @InjectRepository(GroupEntity) repo: Repository<GroupEntity>,
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    @InjectRepository(ZoneEntity) zones: Repository<ZoneEntity>,
    @InjectRepository(TemplateEntity) templates: Repository<TemplateEntity>,
  ) {
    super(repo);
    this.actions = new TenantRepository(actions);
    this.zones = new TenantRepository(zones);
    this.templates = new TenantRepository(templates);
  }

  protected async apply(row: GroupEntity, input: z.output<typeof groupSchema>): Promise<void> {
    await assertOwned(this.actions, [input.actionId], 'actionId');
    await assertOwned(this.templates, [input.adminTemplateId], 'adminTemplateId');
    // an archived template is chosen by no group anew; a group that prints with it keeps it (issue 15)
    await refuseArchived(this.templates, [input.adminTemplateId], 'adminTemplateId', 'recordArchive.templateArchived', [
      row.adminTemplateId ?? 0,
    ]);
    const zones = await assertOwned(this.zones, input.zoneId, 'zoneId');
    // A group's zones belong to its action (or, like the group, to none).
    if (zones.some((z) => z.actionId !== null && z.actionId !== input.actionId)) {
      throw AppError.validation([{ path: 'zoneId', key: 'groups.zoneOfOtherAction' }]);
    }
    Object.assign(row, {
      name: input.name,
      displayName: input.displayName,
      label: input.label,
      htmlData: input.htmlData,
      adminTemplateId: input.adminTemplateId,
      zoneIds: [...new Set(input.zoneId)],
      actionId: input.actionId,
      assignDefaultMeal: input.assignDefaultMeal,
      assignDefaultParking: input.assignDefaultParking,
    });
  }

  protected toDto(row: GroupEntity): GroupDto {
    return this.dto(row, new Map(), new Map(), new Map());
  }

  private dto(
    row: GroupEntity,
    zones: Map<number, ZoneEntity>,
    templates: Map<number, TemplateEntity>,
    actions: Map<number, ActionEntity>,
  ): GroupDto {
    return {
      id: row.id,
      name: row.name,
      displayName: row.displayName,
      label: row.label,
      htmlData: row.htmlData,
      adminTemplateId: row.adminTemplateId,
      adminTemplateName: row.adminTemplateId ? (templates.get(row.adminTemplateId)?.name ?? null) : null,
      zoneId: row.zoneIds,
      zones: row.zoneIds.flatMap((id) => (zones.has(id) ? [{ id, name: zones.get(id)!.name }] : [])),
      actionId: row.actionId,
      actionName: row.actionId ? (actions.get(row.actionId)?.name ?? null) : null,
      assignDefaultMeal: row.assignDefaultMeal,
      assignDefaultParking: row.assignDefaultParking,
      archivedAt: archivedAtOf(row),
    };
  }

  /** POST groups/{id}/archive and /restore (issue 15): an archived group is given to no one new. */
  async archive(id: number, archived: boolean): Promise<GroupDto> {
    await setArchived(this.scoped, id, archived);
    return this.get(id);
  }

  protected override async toDtos(rows: GroupEntity[]): Promise<GroupDto[]> {
    const [zones, templates, actions] = await Promise.all([
      this.zones.find(),
      this.templates.find(),
      this.actions.find({ select: { id: true, name: true, subjectId: true } }),
    ]);
    const byId = <T extends { id: number }>(list: T[]) => new Map(list.map((x) => [x.id, x]));
    return rows.map((r) => this.dto(r, byId(zones), byId(templates), byId(actions)));
  }

  /** A group people are in stays (409 with how many): deleting it would silently ungroup them. */
  protected override async refuseDelete(row: GroupEntity): Promise<void> {
    const count = await this.scoped.repo.manager.count(AccreditationGroupEntity, { where: { groupId: row.id } });
    if (count > 0) throw new AppError('GROUP_HAS_PEOPLE', { count });
  }

  /** Deletes an unused group with its default extension items, and takes it out of the web channels' offer. */
  override async remove(id: number): Promise<void> {
    const row = await this.scoped.get(id);
    await this.refuseDelete(row);
    await this.scoped.repo.manager.transaction(async (em) => {
      const channels = await em.find(WebChannelEntity, { where: { subjectId: row.subjectId } });
      for (const channel of channels.filter((c) => (c.groupsId ?? []).includes(row.id))) {
        channel.groupsId = channel.groupsId.filter((g) => g !== row.id);
        await em.save(channel);
      }
      await em.delete(GroupExtensionEntity, { groupId: row.id, subjectId: row.subjectId });
      await em.delete(GroupEntity, { id: row.id, subjectId: row.subjectId });
    });
  }

  /** The zones of a group (spec §7: a call listing zones of a group). */
  async zonesOf(id: number): Promise<{ id: number; name: string; onAccreditation: string }[]> {
    const group = await this.scoped.get(id);
    const zones = await assertOwned(this.zones, group.zoneIds, 'zoneId').catch(() => this.zones.find());
    return zones
      .filter((z) => group.zoneIds.includes(z.id))
      .map((z) => ({ id: z.id, name: z.name, onAccreditation: z.onAccreditation }));
  }
}
