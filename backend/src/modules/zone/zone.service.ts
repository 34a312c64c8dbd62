import type { ZoneDto, zoneSchema } from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { assertOwned, SubjectCrud, usedBy } from '../../common/crud.js';
import { AccreditationZoneEntity } from '../accreditation/accreditation.entity.js';
import { DeviceTemplateEntity } from '../device/device.entity.js';
import { TenantRepository } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { ZoneEntity } from './zone.entity.js';

@Injectable()
export class ZoneService extends SubjectCrud<ZoneEntity, z.output<typeof zoneSchema>, ZoneDto> {
  private readonly actions: TenantRepository<ActionEntity>;
  private readonly groups: TenantRepository<GroupEntity>;

  constructor(
    @InjectRepository(ZoneEntity) repo: Repository<ZoneEntity>,
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    @InjectRepository(GroupEntity) groups: Repository<GroupEntity>,
  ) {
    super(repo);
    this.actions = new TenantRepository(actions);
    this.groups = new TenantRepository(groups);
  }

  protected async apply(row: ZoneEntity, input: z.output<typeof zoneSchema>): Promise<void> {
    await assertOwned(this.actions, [input.actionId], 'actionId');
    row.name = input.name;
    row.onAccreditation = input.onAccreditation;
    row.actionId = input.actionId;
  }

  protected toDto(row: ZoneEntity, groups: { id: number; name: string }[] = []): ZoneDto {
    return { id: row.id, name: row.name, onAccreditation: row.onAccreditation, actionId: row.actionId, groups };
  }

  /** A zone a group or a device template uses stays (409 naming them): deleting it would change who gets in. */
  protected override async refuseDelete(row: ZoneEntity): Promise<void> {
    const groups = (await this.groups.find()).filter((g) => (g.zoneIds ?? []).includes(row.id)).map((g) => g.name);
    const templates = await this.scoped.repo.manager.find(DeviceTemplateEntity, {
      where: { subjectId: row.subjectId, zoneId: row.id },
    });
    const names = [...groups, ...templates.map((d) => d.name)];
    if (names.length) throw new AppError('ZONE_USED_BY_GROUPS', usedBy(names));
  }

  /** Deletes an unused zone with its direct assignments to people. */
  override async remove(id: number): Promise<void> {
    const row = await this.scoped.get(id);
    await this.refuseDelete(row);
    await this.scoped.repo.manager.transaction(async (em) => {
      await em.delete(AccreditationZoneEntity, { zoneId: row.id });
      await em.delete(ZoneEntity, { id: row.id, subjectId: row.subjectId });
    });
  }

  /** Each zone with the groups that include it (spec §3 Zone.groups), from one query. */
  protected override async toDtos(rows: ZoneEntity[]): Promise<ZoneDto[]> {
    const byZone = new Map<number, { id: number; name: string }[]>();
    for (const g of await this.groups.find()) {
      for (const zoneId of g.zoneIds ?? [])
        byZone.set(zoneId, [...(byZone.get(zoneId) ?? []), { id: g.id, name: g.name }]);
    }
    return rows.map((r) => this.toDto(r, byZone.get(r.id)));
  }
}
