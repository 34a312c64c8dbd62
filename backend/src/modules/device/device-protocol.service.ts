import { type devicePairSchema, type DevicePairResult } from '@accredo/domain';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, In } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { randomToken, sha256 } from '../../common/crypto.js';
import { createHash } from 'node:crypto';
import type { DeviceAuth } from '../../common/request.js';
import { CustomFieldEntity } from '../custom-field/custom-field.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { stationExtensionData } from '../action-extension/gate-extension.js';
import { clearCode, parseCode, sameSecret } from './device-codes.js';
import { DeviceSessions } from './device-sessions.service.js';
import { DeviceEntity, DeviceTemplateEntity } from './device.entity.js';
import { deviceDto } from './device.service.js';
import { GateCache } from './gate-cache.service.js';
import { isSqlite, readDate, readJson } from './sql.js';
import { advanceCursor, changeNowSql, changeSettleMs, settledCursor } from '../../database/change-feed.js';

/** The accreditation columns of a snapshot or changes row. */
const PERSON_COLUMNS =
  'id, actionId, bc, days, fieldValues, credit, isUnlimited, updatedAt, customId, firstname, lastname, imageId, badgeVersion, badgeReplacedAt';
/** At most this many people per page of the snapshot and of the changes. */
export const PAGE_MAX = 2000;
/** At most this many other actions' codes per snapshot page, per `limit` people (they are 22 characters each). */
const OTHERS_PER_PERSON = 5;

/**
 * What a station keeps of a code of another action of the subject, to answer OTHER_ACTION offline
 * (docs/device-protocol.md): the first 16 bytes of SHA-256("accredo-other:" ‖ code), base64url.
 * The station's store (desktop/src/core/store/crypto.ts `serverOtherHash`) computes the same.
 */
export const otherCodeHash = (bc: string): string =>
  createHash('sha256').update(`accredo-other:${bc}`, 'utf8').digest().subarray(0, 16).toString('base64url');
/**
 * The change feed (`accreditation_change`, written by triggers: migration 1764000400000) keeps
 * this long; a cursor older than what is kept answers `resync` (take a snapshot).
 */
export const CHANGE_KEEP_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 10 * 60_000;

const isUidConflict = (err: unknown) =>
  /UQ_device_subject_uid|device\.subjectId, device\.uid|Duplicate entry/i.test(String((err as Error)?.message));

/**
 * A change cursor: the sequence number of the last change taken, `4711`. `0.0` (what a station
 * keeps before its first snapshot) is the start; a cursor of the old `updatedAt.id` feed answers
 * `resync`.
 */
export function parseCursor(value: string | undefined): number | 'resync' {
  if (!value || value === '0.0') return 0;
  if (/^\d{1,15}$/.test(value)) return Number(value);
  if (/^\d{1,15}\.\d{1,12}$/.test(value)) return 'resync';
  throw AppError.validation([{ path: 'cursor', key: 'basics.invalidValue' }]);
}

/** Pairing, configuration and the offline data of api/device/v1 (docs/device-protocol.md). */
@Injectable()
export class DeviceProtocolService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeviceProtocol');
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly sessions: DeviceSessions,
    private readonly cache: GateCache,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.pruneChanges().catch((err) => this.logger.warn(`Pruning the change feed failed: ${String(err)}`));
    }, PRUNE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

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
    // the user fields of the custom date rules, so the screen can name the one a refusal is about
    const fieldIds = [...new Set((gate.template?.rules ?? []).flatMap((r) => r.customRule.map((c) => c.customField)))];
    const fields = fieldIds.length
      ? await this.ds.getRepository(CustomFieldEntity).findBy({ subjectId: auth.subjectId, id: In(fieldIds) })
      : [];
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
      fields: fields.map((f) => ({ id: f.id, name: f.name, label: f.label })),
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
   * template) a page at a time by id, plus the cursor from which `changes` continues. `others`:
   * the accreditations of the subject's other actions in the page's id range, as `{id, h}` with
   * only the hash of the code (`otherCodeHash`), so a station answers OTHER_ACTION offline; a
   * page ends early when those are many.
   */
  async snapshot(auth: DeviceAuth, after: number, limit: number) {
    const gate = await this.cache.get(auth.deviceId);
    if (!gate.action || !gate.template)
      return {
        template: null,
        action: null,
        timeZone: gate.timeZone,
        people: [],
        others: [],
        next: null,
        cursor: null,
      };
    const cursor = after === 0 ? await this.currentCursor() : null;
    let rows: Record<string, unknown>[] = await this.ds.query(
      `SELECT ${PERSON_COLUMNS} FROM accreditation WHERE subjectId = ? AND actionId = ? AND id > ? ORDER BY id LIMIT ${limit}`,
      [auth.subjectId, gate.action.id, after],
    );
    let end = rows.length === limit ? Number(rows[rows.length - 1].id) : null;
    const otherMax = limit * OTHERS_PER_PERSON;
    // in id order along the primary key, stopping at the limit: MariaDB would otherwise take the
    // (subjectId, actionId, id) index and sort all of the subject's other rows for every page
    // (SQLite walks the rowid by itself)
    const otherRows: { id: unknown; bc: unknown }[] = await this.ds.query(
      `SELECT id, bc FROM accreditation${isSqlite(this.ds) ? '' : ' FORCE INDEX (PRIMARY)'} WHERE subjectId = ? AND actionId <> ? AND id > ?${end === null ? '' : ' AND id <= ?'} ORDER BY id LIMIT ${otherMax}`,
      end === null ? [auth.subjectId, gate.action.id, after] : [auth.subjectId, gate.action.id, after, end],
    );
    if (otherRows.length === otherMax) {
      // many other codes in this range: the page ends at the last of them
      end = Number(otherRows[otherRows.length - 1].id);
      const last = end;
      rows = rows.filter((r) => Number(r.id) <= last);
    }
    const people = await this.people(rows, gate.template.id);
    return {
      template: gate.template,
      action: gate.action,
      timeZone: gate.timeZone,
      people,
      // car parks: people inside each area now (issue 14; a station recounts from parkingInside)
      parkingOccupancy:
        gate.template.mode === 5 ? (await stationExtensionData(this.ds, gate.action.id, [])).occupancy : {},
      others: otherRows.map((r) => ({ id: Number(r.id), h: otherCodeHash(String(r.bc)) })),
      next: end,
      cursor,
    };
  }

  /**
   * GET changes?cursor=: the people of the action changed since the cursor (created, edited, their
   * groups, zones, credit or passages) as snapshot rows, and the ids of those gone (deleted, moved),
   * in change order, a page of at most `limit` changes. The feed is the subject's: `others` are the
   * changed accreditations of its other actions (`{id, h}`, as in the snapshot). `resync: true`
   * (cursor null): the changes since that cursor are no longer kept, take a snapshot.
   */
  async changes(auth: DeviceAuth, cursorText: string | undefined, limit: number) {
    const gate = await this.cache.get(auth.deviceId);
    if (!gate.action || !gate.template)
      return { people: [], deleted: [], others: [], cursor: cursorText ?? null, more: false, resync: false };
    const since = parseCursor(cursorText);
    if (since === 'resync' || (await this.expired(since)))
      return { people: [], deleted: [], others: [], cursor: null, more: false, resync: true };
    const changes: {
      id: unknown;
      actionId: unknown;
      accreditationId: unknown;
      changedAt: unknown;
      dbNow: unknown;
    }[] = await this.ds.query(
      `SELECT id, actionId, accreditationId, changedAt, ${changeNowSql(this.ds)} AS dbNow FROM accreditation_change
         WHERE subjectId = ? AND id > ? ORDER BY id LIMIT ${limit}`,
      [auth.subjectId, since],
    );
    const cursor = advanceCursor(
      since,
      changes,
      changes.length ? Number(changes[0].dbNow) - changeSettleMs(this.ds) : 0,
    );
    const ids = [...new Set(changes.map((c) => Number(c.accreditationId)))];
    const all: Record<string, unknown>[] = ids.length
      ? await this.ds.query(
          `SELECT ${PERSON_COLUMNS} FROM accreditation WHERE subjectId = ? AND id IN (${ids.map(() => '?').join(', ')})`,
          [auth.subjectId, ...ids],
        )
      : [];
    const actionId = gate.action.id;
    const rows = all.filter((r) => Number(r.actionId) === actionId);
    const elsewhere = all.filter((r) => Number(r.actionId) !== actionId);
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => (order.get(Number(a.id)) ?? 0) - (order.get(Number(b.id)) ?? 0));
    const found = new Set(all.map((r) => Number(r.id)));
    // a move away from this action is a change of it: such a person is in `others` and, for stations
    // that do not read `others`, in `deleted` too
    const ours = new Set(changes.filter((c) => Number(c.actionId) === actionId).map((c) => Number(c.accreditationId)));
    const movedAway = new Set(elsewhere.map((r) => Number(r.id)).filter((id) => ours.has(id)));
    const people = await this.people(rows, gate.template.id);
    const last = changes[changes.length - 1];
    return {
      people,
      parkingOccupancy:
        gate.template.mode === 5 ? (await stationExtensionData(this.ds, gate.action.id, [])).occupancy : {},
      deleted: ids.filter((id) => !found.has(id) || movedAway.has(id)),
      others: elsewhere.map((r) => ({ id: Number(r.id), h: otherCodeHash(String(r.bc)) })),
      cursor: String(cursor),
      // another page only when this one was full and the cursor passed all of it
      more: changes.length === limit && cursor === Number(last.id),
      resync: false,
    };
  }

  /** Deletes the changes older than CHANGE_KEEP_MS, in chunks; the newest change always stays. */
  async pruneChanges(now = Date.now()): Promise<number> {
    const [range]: { lo: unknown; hi: unknown }[] = await this.ds.query(
      'SELECT MIN(id) AS lo, MAX(id) AS hi FROM accreditation_change',
    );
    if (range?.hi === null || range?.hi === undefined) return 0;
    const [old]: { upto: unknown }[] = await this.ds.query(
      'SELECT MAX(id) AS upto FROM accreditation_change WHERE changedAt < ?',
      [now - CHANGE_KEEP_MS],
    );
    const upto = Math.min(Number(old?.upto ?? 0), Number(range.hi) - 1);
    let deleted = 0;
    for (let from = Number(range.lo); from <= upto; from += 10_000) {
      const res = await this.ds.query('DELETE FROM accreditation_change WHERE id >= ? AND id <= ?', [
        from,
        Math.min(from + 9_999, upto),
      ]);
      deleted += Number((res as { affectedRows?: number })?.affectedRows ?? 0);
    }
    return deleted;
  }

  /** Whether changes after `since` may have been pruned (or the feed is not the one the cursor came from). */
  private async expired(since: number): Promise<boolean> {
    const [range]: { lo: unknown; hi: unknown }[] = await this.ds.query(
      'SELECT MIN(id) AS lo, MAX(id) AS hi FROM accreditation_change',
    );
    if (range?.hi === null || range?.hi === undefined) return since > 0;
    return since < Number(range.lo) - 1 || since > Number(range.hi);
  }

  /** The cursor a snapshot starts the changes from: the newest change, or before an unsettled gap. */
  private async currentCursor(): Promise<string> {
    return String(await settledCursor(this.ds));
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
        const list = m.get(k);
        if (list) list.push(f(r));
        else m.set(k, [f(r)]);
      }
      return m;
    };
    // meals and car parks of modes 4 and 5 (issue 14)
    const ext = await stationExtensionData(this.ds, Number(rows[0].actionId), ids);
    const g = by(groups, (r) => Number(r.groupId));
    const z = by(zones, (r) => Number(r.zoneId));
    const p = by(passages, (r) => ({ type: Number(r.type) === 1 ? 1 : 0, at: readDate(r.createdAt) }));
    // the photos' file keys, for the photoUrl a station shows offline (the scan answer's, docs/station.md)
    const imageIds = [...new Set(rows.filter((r) => r.imageId != null).map((r) => Number(r.imageId)))];
    const photoKeys = new Map<number, string>();
    if (imageIds.length)
      for (const i of (await this.ds.query(
        `SELECT id, fileKey FROM image WHERE id IN (${imageIds.map(() => '?').join(', ')})`,
        imageIds,
      )) as { id: unknown; fileKey: unknown }[])
        if (i.fileKey) photoKeys.set(Number(i.id), String(i.fileKey));
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
        meals: ext.meals.get(id) ?? [],
        parking: ext.parking.get(id) ?? [],
        parkingInside: ext.inside.get(id) ?? [],
        // the valid badge (docs/access-control.md "Badge versions"): an older badge's code is refused offline too
        badgeVersion: Number(r.badgeVersion ?? 0),
        badgeReplacedAt:
          r.badgeReplacedAt === null || r.badgeReplacedAt === undefined ? null : readDate(r.badgeReplacedAt),
        customId: Number(r.customId),
        firstname: String(r.firstname),
        lastname: String(r.lastname),
        imageId: r.imageId === null || r.imageId === undefined ? null : Number(r.imageId),
        photoUrl: photoKeys.has(Number(r.imageId))
          ? `/api/file/${encodeURIComponent(photoKeys.get(Number(r.imageId)) ?? '')}`
          : null,
        passages: p.get(id) ?? [],
      };
    });
  }
}
