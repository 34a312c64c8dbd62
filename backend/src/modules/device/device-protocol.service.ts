import { type devicePairSchema, type DevicePairResult } from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { randomToken, sha256 } from '../../common/crypto.js';
import type { DeviceAuth } from '../../common/request.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { clearCode, parseCode, sameSecret } from './device-codes.js';
import { DeviceSessions } from './device-sessions.service.js';
import { DeviceEntity, DeviceTemplateEntity } from './device.entity.js';
import { deviceDto } from './device.service.js';
import { GateCache } from './gate-cache.service.js';
import { readDate, readJson, sqlDate } from './sql.js';

/** At most this many people per page of the snapshot and of the changes. */
export const PAGE_MAX = 2000;
/**
 * The changes stop this long before now: a row whose transaction is still committing may carry
 * an updatedAt a little in the past; it is sent on the next poll instead of being skipped.
 */
const SETTLE_MS = 2000;

const isUidConflict = (err: unknown) =>
  /UQ_device_subject_uid|device\.subjectId, device\.uid|Duplicate entry/i.test(String((err as Error)?.message));

/** A change cursor: the updatedAt (epoch ms) and id of the last row sent, `1732540000000.4711`. */
export function parseCursor(value: string | undefined): { at: number; id: number } | null {
  if (!value) return null;
  const m = /^(\d{1,15})\.(\d{1,12})$/.exec(value);
  if (!m) throw AppError.validation([{ path: 'cursor', key: 'basics.invalidValue' }]);
  return { at: Number(m[1]), id: Number(m[2]) };
}

/** Pairing, configuration and the offline data of api/device/v1 (docs/device-protocol.md). */
@Injectable()
export class DeviceProtocolService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly sessions: DeviceSessions,
    private readonly cache: GateCache,
  ) {}

  /** The `bc` code of GET device/key pairs a device (new or known by its uid) and gives it a token. */
  async pair(input: z.output<typeof devicePairSchema>): Promise<DevicePairResult> {
    const parsed = parseCode(input.code, 'pair');
    const subject = parsed ? await this.ds.getRepository(SubjectEntity).findOneBy({ id: parsed.subjectId }) : null;
    if (!parsed || !subject || !sameSecret(parsed.secret, subject.deviceKey))
      throw new AppError('DEVICE_PAIR_CODE_INVALID');
    const raw = randomToken();
    const now = new Date();
    const repo = this.ds.getRepository(DeviceEntity);
    for (let attempt = 1; ; attempt++) {
      let row = await repo.findOneBy({ subjectId: subject.id, uid: input.uid });
      const previous = row?.id;
      row ??= repo.create({
        subjectId: subject.id,
        uid: input.uid,
        deviceTemplateId: null,
        createdAt: now,
        lastSeenAt: null,
      });
      if (input.name || !row.name) row.name = input.name || input.uid;
      row.appVersion = input.appVersion ?? row.appVersion ?? null;
      row.tokenHash = sha256(raw);
      row.pairedAt = now;
      row.lastSeenAt = now;
      row.updatedAt = now;
      try {
        row = await repo.save(row);
      } catch (err) {
        if (isUidConflict(err) && attempt < 3) continue;
        throw err;
      }
      // a re-paired device's old token stops working now
      if (previous) {
        this.sessions.forgetDevices([previous]);
        this.cache.forgetDevice(previous);
      }
      const template = row.deviceTemplateId
        ? await this.ds
            .getRepository(DeviceTemplateEntity)
            .findOneBy({ id: row.deviceTemplateId, subjectId: subject.id })
        : null;
      return { token: raw, device: deviceDto(row, template) };
    }
  }

  /** The `bcClear` code scanned at a paired device: its token is revoked. */
  async unpair(auth: DeviceAuth, code: string): Promise<void> {
    const parsed = parseCode(code, 'clear');
    const subject = await this.ds.getRepository(SubjectEntity).findOneByOrFail({ id: auth.subjectId });
    if (
      !parsed ||
      parsed.subjectId !== subject.id ||
      !sameSecret(code.trim(), clearCode(subject.id, subject.deviceKey))
    )
      throw new AppError('DEVICE_PAIR_CODE_INVALID');
    await this.revoke(auth);
  }

  async revoke(auth: DeviceAuth): Promise<void> {
    await this.ds.getRepository(DeviceEntity).update({ id: auth.deviceId }, { tokenHash: null, pairedAt: null });
    this.sessions.forgetDevices([auth.deviceId]);
    this.cache.forgetDevice(auth.deviceId);
  }

  /** GET config: the device, its template and action, and what the gate screen shows. */
  async config(auth: DeviceAuth, appVersion: string | undefined) {
    const repo = this.ds.getRepository(DeviceEntity);
    if (appVersion && appVersion.length <= 64) await repo.update({ id: auth.deviceId }, { appVersion });
    this.cache.forgetDevice(auth.deviceId);
    const gate = await this.cache.get(auth.deviceId);
    const device = await repo.findOneByOrFail({ id: auth.deviceId });
    const subject = await this.ds.getRepository(SubjectEntity).findOneByOrFail({ id: auth.subjectId });
    const a = gate.actionRow;
    const mode = gate.template?.mode ?? null;
    return {
      device: { id: device.id, name: device.name, uid: device.uid, appVersion: device.appVersion },
      subject: { id: subject.id, name: subject.name, timeZone: gate.timeZone },
      template: gate.template ? { ...gate.template, name: gate.templateName } : null,
      action: a
        ? {
            id: a.id,
            name: a.name,
            dateFrom: a.dateFrom,
            dateTo: a.dateTo,
            multiDay: a.multiDay,
            days: a.days,
            isCredit: a.isCredit,
          }
        : null,
      gateAction: gate.action,
      zone: gate.zone,
      screen: {
        configured: gate.template !== null,
        mode,
        directions: mode === 3 ? ['entry'] : ['entry', 'exit'],
        askAmount: mode === 2,
        showPhoto: true,
      },
      serverTime: new Date().toISOString(),
    };
  }

  /**
   * GET snapshot: the action's people (as the engine's GatePerson, with their passages under this
   * template) a page at a time by id, plus the cursor from which `changes` continues.
   */
  async snapshot(auth: DeviceAuth, after: number, limit: number) {
    const gate = await this.cache.get(auth.deviceId);
    if (!gate.action || !gate.template)
      return { template: null, action: null, timeZone: gate.timeZone, people: [], next: null, cursor: null };
    const cursor = after === 0 ? await this.currentCursor(gate.action.id) : null;
    const rows: Record<string, unknown>[] = await this.ds.query(
      `SELECT id, actionId, bc, days, fieldValues, credit, isUnlimited, updatedAt, customId, firstname, lastname, imageId FROM accreditation WHERE subjectId = ? AND actionId = ? AND id > ? ORDER BY id LIMIT ${limit}`,
      [auth.subjectId, gate.action.id, after],
    );
    const people = await this.people(rows, gate.template.id);
    return {
      template: gate.template,
      action: gate.action,
      timeZone: gate.timeZone,
      people,
      next: rows.length === limit ? Number(rows[rows.length - 1].id) : null,
      cursor,
    };
  }

  /** GET changes?cursor=: people changed (created or edited) since the cursor, oldest first. */
  async changes(auth: DeviceAuth, cursorText: string | undefined, limit: number) {
    const gate = await this.cache.get(auth.deviceId);
    if (!gate.action || !gate.template) return { people: [], cursor: cursorText ?? null, more: false };
    const since = parseCursor(cursorText) ?? { at: 0, id: 0 };
    const until = new Date(Date.now() - SETTLE_MS);
    const sinceDate = sqlDate(this.ds, new Date(since.at));
    const rows: Record<string, unknown>[] = await this.ds.query(
      `SELECT id, actionId, bc, days, fieldValues, credit, isUnlimited, updatedAt, customId, firstname, lastname, imageId FROM accreditation
       WHERE actionId = ? AND subjectId = ? AND (updatedAt > ? OR (updatedAt = ? AND id > ?)) AND updatedAt <= ?
       ORDER BY updatedAt, id LIMIT ${limit}`,
      [gate.action.id, auth.subjectId, sinceDate, sinceDate, since.id, sqlDate(this.ds, until)],
    );
    const people = await this.people(rows, gate.template.id);
    const last = rows[rows.length - 1];
    return {
      people,
      cursor: last ? `${readDate(last.updatedAt)}.${Number(last.id)}` : (cursorText ?? `${since.at}.${since.id}`),
      more: rows.length === limit,
    };
  }

  private async currentCursor(actionId: number): Promise<string> {
    const until = new Date(Date.now() - SETTLE_MS);
    const rows: { updatedAt: unknown; id: unknown }[] = await this.ds.query(
      'SELECT updatedAt, id FROM accreditation WHERE actionId = ? AND updatedAt <= ? ORDER BY updatedAt DESC, id DESC LIMIT 1',
      [actionId, sqlDate(this.ds, until)],
    );
    return rows.length ? `${readDate(rows[0].updatedAt)}.${Number(rows[0].id)}` : '0.0';
  }

  private async people(rows: Record<string, unknown>[], templateId: number) {
    if (!rows.length) return [];
    const ids = rows.map((r) => Number(r.id));
    const marks = ids.map(() => '?').join(', ');
    const [groups, zones, passages] = await Promise.all([
      this.ds.query(
        `SELECT accreditationId, groupId FROM accreditation_group WHERE accreditationId IN (${marks}) ORDER BY groupId`,
        ids,
      ) as Promise<Record<string, unknown>[]>,
      this.ds.query(
        `SELECT accreditationId, zoneId FROM accreditation_zone WHERE accreditationId IN (${marks}) ORDER BY zoneId`,
        ids,
      ) as Promise<Record<string, unknown>[]>,
      this.ds.query(
        `SELECT accreditationId, type, createdAt FROM entrance WHERE deviceTemplateId = ? AND accreditationId IN (${marks}) ORDER BY createdAt, id`,
        [templateId, ...ids],
      ) as Promise<Record<string, unknown>[]>,
    ]);
    const by = <T>(list: Record<string, unknown>[], f: (r: Record<string, unknown>) => T) => {
      const m = new Map<number, T[]>();
      for (const r of list) {
        const k = Number(r.accreditationId);
        m.set(k, [...(m.get(k) ?? []), f(r)]);
      }
      return m;
    };
    const g = by(groups, (r) => Number(r.groupId));
    const z = by(zones, (r) => Number(r.zoneId));
    const p = by(passages, (r) => ({ type: Number(r.type) === 1 ? 1 : 0, at: readDate(r.createdAt) }));
    return rows.map((r) => {
      const id = Number(r.id);
      const values: Record<number, string | null> = {};
      for (const [k, v] of Object.entries(readJson<Record<string, unknown>>(r.fieldValues, {}) ?? {}))
        values[Number(k)] = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
      return {
        id,
        actionId: Number(r.actionId),
        bc: String(r.bc),
        groupIds: g.get(id) ?? [],
        zoneIds: z.get(id) ?? [],
        days: readJson<string[]>(r.days, []),
        values,
        credit: Number(r.credit ?? 0),
        isUnlimited: Boolean(Number(r.isUnlimited)),
        meals: [],
        parking: [],
        customId: Number(r.customId),
        firstname: String(r.firstname),
        lastname: String(r.lastname),
        imageId: r.imageId === null || r.imageId === undefined ? null : Number(r.imageId),
        passages: p.get(id) ?? [],
      };
    });
  }
}
