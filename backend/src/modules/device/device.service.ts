import {
  type DeviceDto,
  type DeviceKeyDto,
  type DeviceTemplateDto,
  type deviceSchema,
  type deviceTemplateSchema,
} from '@accredo/domain';
import { deviceTemplateDataSchema } from '@accredo/access';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { assertOwned } from '../../common/crud.js';
import { randomCode } from '../../common/crypto.js';
import { toFieldErrors } from '../../common/zod.js';
import { currentSubjectId, TenantRepository } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import { clearCode, pairCode } from './device-codes.js';
import { DeviceSessions } from './device-sessions.service.js';
import { DeviceEntity, DeviceTemplateEntity } from './device.entity.js';
import { GateCache } from './gate-cache.service.js';

/** Seen within this long: "online" in the device list. */
export const ONLINE_MS = 120_000;

export function deviceDto(row: DeviceEntity, template: DeviceTemplateEntity | null | undefined): DeviceDto {
  return {
    id: row.id,
    name: row.name,
    uid: row.uid,
    deviceTemplateId: row.deviceTemplateId,
    deviceTemplate: template ? { id: template.id, name: template.name, actionId: template.actionId } : null,
    paired: row.tokenHash !== null,
    pairedAt: row.pairedAt?.toISOString() ?? null,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    online: row.tokenHash !== null && !!row.lastSeenAt && Date.now() - row.lastSeenAt.getTime() < ONLINE_MS,
    appVersion: row.appVersion,
    createdAt: row.createdAt.toISOString(),
  };
}

export function templateDto(row: DeviceTemplateEntity): DeviceTemplateDto {
  return {
    id: row.id,
    name: row.name,
    actionId: row.actionId,
    zoneId: row.zoneId,
    data: row.data,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const isUidConflict = (err: unknown) =>
  /UQ_device_subject_uid|device\.subjectId, device\.uid|Duplicate entry/i.test(String((err as Error)?.message));

/** Devices, the pairing codes and rule templates of the admin API (spec §7 devices). */
@Injectable()
export class DeviceService {
  private readonly devices: TenantRepository<DeviceEntity>;
  private readonly templates: TenantRepository<DeviceTemplateEntity>;
  private readonly actions: TenantRepository<ActionEntity>;
  private readonly zones: TenantRepository<ZoneEntity>;
  private readonly groups: TenantRepository<GroupEntity>;

  constructor(
    @InjectRepository(DeviceEntity) devices: Repository<DeviceEntity>,
    @InjectRepository(DeviceTemplateEntity) templates: Repository<DeviceTemplateEntity>,
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    @InjectRepository(ZoneEntity) zones: Repository<ZoneEntity>,
    @InjectRepository(GroupEntity) groups: Repository<GroupEntity>,
    @InjectRepository(SubjectEntity) private readonly subjects: Repository<SubjectEntity>,
    private readonly sessions: DeviceSessions,
    private readonly gate: GateCache,
  ) {
    this.devices = new TenantRepository(devices);
    this.templates = new TenantRepository(templates);
    this.actions = new TenantRepository(actions);
    this.zones = new TenantRepository(zones);
    this.groups = new TenantRepository(groups);
  }

  // ---- devices ----

  async list(): Promise<DeviceDto[]> {
    const rows = await this.devices.find({ order: { id: 'ASC' } });
    const ids = [...new Set(rows.map((r) => r.deviceTemplateId).filter((x): x is number => x !== null))];
    const templates = ids.length ? await this.templates.find({ where: { id: In(ids) } }) : [];
    const byId = new Map(templates.map((t) => [t.id, t]));
    return rows.map((r) => deviceDto(r, r.deviceTemplateId ? byId.get(r.deviceTemplateId) : null));
  }

  async get(id: number): Promise<DeviceDto> {
    const row = await this.devices.get(id);
    return deviceDto(row, row.deviceTemplateId ? await this.templates.findOne({ id: row.deviceTemplateId }) : null);
  }

  async update(id: number, input: z.output<typeof deviceSchema>): Promise<DeviceDto> {
    const row = await this.devices.get(id);
    await assertOwned(this.templates, [input.deviceTemplateId], 'deviceTemplateId');
    row.name = input.name;
    row.uid = input.uid;
    row.deviceTemplateId = input.deviceTemplateId;
    row.updatedAt = new Date();
    try {
      await this.devices.save(row);
    } catch (err) {
      if (isUidConflict(err)) throw new AppError('DEVICE_UID_EXIST');
      throw err;
    }
    this.gate.forgetDevice(row.id);
    return this.get(id);
  }

  /** Deleting a device revokes its token at once. */
  async remove(id: number): Promise<void> {
    const row = await this.devices.get(id);
    await this.devices.repo.delete({ id: row.id, subjectId: row.subjectId });
    this.sessions.forgetDevices([row.id]);
    this.gate.forgetDevice(row.id);
  }

  // ---- the subject's codes ----

  async key(): Promise<DeviceKeyDto> {
    const subject = await this.subjects.findOneByOrFail({ id: currentSubjectId() });
    return { bc: pairCode(subject.id, subject.deviceKey), bcClear: clearCode(subject.id, subject.deviceKey) };
  }

  /** A new device key: the old codes stop working and every device of the subject is unpaired. */
  async rotateKey(): Promise<DeviceKeyDto> {
    const subjectId = currentSubjectId();
    await this.subjects.update({ id: subjectId }, { deviceKey: randomCode(16) });
    await this.devices.repo.update({ subjectId }, { tokenHash: null, pairedAt: null });
    this.sessions.forgetSubject(subjectId);
    return this.key();
  }

  // ---- rule templates ----

  async templateList(actionId: number | null): Promise<DeviceTemplateDto[]> {
    const rows = await this.templates.find({ where: actionId ? { actionId } : {}, order: { id: 'ASC' } });
    return rows.map(templateDto);
  }

  async templateGet(id: number): Promise<DeviceTemplateDto> {
    return templateDto(await this.templates.get(id));
  }

  async templateCreate(input: z.output<typeof deviceTemplateSchema>): Promise<DeviceTemplateDto> {
    const now = new Date();
    const row = this.templates.create({ createdAt: now, updatedAt: now });
    await this.applyTemplate(row, input);
    return templateDto(await this.templates.save(row));
  }

  async templateUpdate(id: number, input: z.output<typeof deviceTemplateSchema>): Promise<DeviceTemplateDto> {
    const row = await this.templates.get(id);
    await this.applyTemplate(row, input);
    row.updatedAt = new Date();
    const saved = templateDto(await this.templates.save(row));
    this.gate.forgetTemplate(row.id);
    return saved;
  }

  /** Spec §4/§5 through the engine's schema: mode required, mode-1 rules need a group, normalised. */
  private async applyTemplate(row: DeviceTemplateEntity, input: z.output<typeof deviceTemplateSchema>) {
    const parsed = deviceTemplateDataSchema.safeParse(input.data ?? {});
    if (!parsed.success)
      throw AppError.validation(
        toFieldErrors(parsed.error).map((f) => ({ ...f, path: f.path ? `data.${f.path}` : 'data' })),
      );
    const [action] = await assertOwned(this.actions, [input.actionId], 'actionId');
    const [zone] = await assertOwned(this.zones, [input.zoneId], 'zoneId');
    if (zone && zone.actionId !== null && zone.actionId !== action.id)
      throw AppError.validation([{ path: 'zoneId', key: 'basics.invalidValue' }]);
    const data = parsed.data;
    const groupIds = data.rules.map((r) => r.groupId);
    if (groupIds.length) {
      const known = new Set((await this.groups.find({ where: { id: In(groupIds) } })).map((g) => g.id));
      const bad = groupIds.findIndex((g) => !known.has(g));
      if (bad >= 0) throw AppError.validation([{ path: `data.rules.${bad}.groupId`, key: 'basics.invalidValue' }]);
    }
    row.name = input.name;
    row.actionId = action.id;
    row.zoneId = zone?.id ?? null;
    row.data = data as DeviceTemplateEntity['data'];
  }
}
