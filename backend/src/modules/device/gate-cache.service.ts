import type { GateAction, GateTemplate } from '@accredo/access';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { TtlCache } from '../../common/ttl-cache.js';
import { ActionEntity } from '../action/action.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import { DeviceEntity, DeviceTemplateEntity } from './device.entity.js';

/** What a device's scans need besides the person: built once, not per request. */
export interface GateDevice {
  deviceId: number;
  subjectId: number;
  deviceName: string;
  timeZone: string;
  template: GateTemplate | null;
  templateName: string | null;
  action: GateAction | null;
  actionRow: ActionEntity | null;
  zone: { id: number; name: string } | null;
}

/** An entry is trusted for this long from its read (another instance's edit reaches this one within it). */
const CACHE_MS = 5_000;

/** The action as the engine reads it: dates on the venue's wall clock, the days of a multi-day action. */
export function gateAction(a: ActionEntity): GateAction {
  return {
    id: a.id,
    dateFrom: a.dateFrom ? a.dateFrom.slice(0, 10) : '0001-01-01',
    dateTo: a.dateTo ? a.dateTo.slice(0, 10) : '9999-12-31',
    timeTo: a.dateTo && a.dateTo.length >= 16 ? a.dateTo.slice(11, 16) : null,
    days: a.multiDay ? (a.days ?? []).map((d) => d.id) : [],
    isCredit: a.isCredit,
  };
}

export function gateTemplate(t: DeviceTemplateEntity): GateTemplate {
  return {
    id: t.id,
    actionId: t.actionId,
    mode: t.data.mode as GateTemplate['mode'],
    zoneId: t.zoneId,
    rules: t.data.rules as GateTemplate['rules'],
    globalRule: t.data.globalRule as GateTemplate['globalRule'],
  };
}

/**
 * Per device: its template as a GateTemplate, the action as a GateAction, the subject's time zone.
 * Template and device edits on this instance clear their entries at once, and a read that was
 * under way when one was cleared is not kept (TtlCache): it may have read the rows before the edit
 * (a device given its template while the station's pairing read its config was denied for the next 5 s).
 */
@Injectable()
export class GateCache {
  /** one entry per existing device (a read that fails is not kept): no size bound */
  private readonly cache = new TtlCache<number, GateDevice>({ ttlMs: CACHE_MS });

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async get(deviceId: number): Promise<GateDevice> {
    return this.cache.load(deviceId, () => this.load(deviceId));
  }

  private async load(deviceId: number): Promise<GateDevice> {
    const device = await this.ds.getRepository(DeviceEntity).findOneByOrFail({ id: deviceId });
    const subject = await this.ds.getRepository(SubjectEntity).findOneByOrFail({ id: device.subjectId });
    const t = device.deviceTemplateId
      ? await this.ds
          .getRepository(DeviceTemplateEntity)
          .findOneBy({ id: device.deviceTemplateId, subjectId: device.subjectId })
      : null;
    const action = t
      ? await this.ds.getRepository(ActionEntity).findOneBy({ id: t.actionId, subjectId: device.subjectId })
      : null;
    const zone = t?.zoneId
      ? await this.ds.getRepository(ZoneEntity).findOneBy({ id: t.zoneId, subjectId: device.subjectId })
      : null;
    return {
      deviceId,
      subjectId: device.subjectId,
      deviceName: device.name,
      timeZone: subject.timeZone || 'Europe/Prague',
      template: t && action ? gateTemplate(t) : null,
      templateName: t?.name ?? null,
      action: t && action ? gateAction(action) : null,
      actionRow: t && action ? action : null,
      zone: zone ? { id: zone.id, name: zone.name } : null,
    };
  }

  forgetDevice(deviceId: number): void {
    this.cache.delete(deviceId);
  }

  forgetTemplate(templateId: number): void {
    this.cache.deleteWhere((device) => device.template?.id === templateId);
  }
}
