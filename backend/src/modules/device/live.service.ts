import { type Decision, localDateTime, localDay, type ReasonCode, reasonMessage } from '@accredo/access';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { currentSubjectId } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import { readDate, readJson } from './sql.js';

export interface LiveZone {
  /** null: passages under templates without a zone (the venue as a whole) */
  zoneId: number | null;
  name: string | null;
  entries: number;
  exits: number;
  /** entries − exits, never below 0 */
  inside: number;
}

export interface LiveView {
  actionId: number;
  /** the subject's calendar day shown (YYYY-MM-DD) */
  day: string;
  /** when the numbers were read (ISO) */
  at: string;
  zones: LiveZone[];
  /** 24 rows, the subject's wall-clock hours of the day */
  hours: { hour: number; entries: number; exits: number }[];
  scans: { total: number; allowed: number; refused: number };
  refusals: { reason: ReasonCode; count: number; message: string }[];
  /** the action's car parks of the day (or of the whole event) with the people inside now (issue 14) */
  parking: { areaId: number; name: string; inside: number; capacity: number | null }[];
}

type Lang = 'cs' | 'sk' | 'en' | 'de';

/**
 * The live view of an action (issue 11): people inside per zone (today's entries − exits through
 * templates of that zone), entries per hour today and the refused scans by reason, read from the
 * entry log (`entrance`) and the scan log (`device_scan`). Reads only.
 */
@Injectable()
export class LiveService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async view(actionId: number, day: string | null, lang: Lang): Promise<LiveView> {
    const subjectId = currentSubjectId();
    const action = await this.ds.getRepository(ActionEntity).findOneBy({ id: actionId, subjectId });
    if (!action) throw AppError.validation([{ path: 'actionId', key: 'basics.invalidValue' }]);
    const subject = await this.ds.getRepository(SubjectEntity).findOneBy({ id: subjectId });
    const timeZone = subject?.timeZone || 'Europe/Prague';
    const now = Date.now();
    const today = day ?? localDay(now, timeZone);

    const passages: { type: unknown; createdAt: unknown; zoneId: unknown }[] = await this.ds.query(
      'SELECT e.type, e.createdAt, t.zoneId FROM entrance e LEFT JOIN device_template t ON t.id = e.deviceTemplateId WHERE e.subjectId = ? AND e.actionId = ? AND e.day = ?',
      [subjectId, action.id, today],
    );
    const zoneNames = new Map(
      (await this.ds.getRepository(ZoneEntity).find({ where: { subjectId } })).map((z) => [z.id, z.name]),
    );
    const zones = new Map<string, LiveZone>();
    const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, entries: 0, exits: 0 }));
    for (const p of passages) {
      const zoneId = p.zoneId === null || p.zoneId === undefined ? null : Number(p.zoneId);
      const key = String(zoneId);
      let zone = zones.get(key);
      if (!zone) {
        zone = {
          zoneId,
          name: zoneId === null ? null : (zoneNames.get(zoneId) ?? null),
          entries: 0,
          exits: 0,
          inside: 0,
        };
        zones.set(key, zone);
      }
      const entry = Number(p.type) === 1;
      if (entry) zone.entries++;
      else zone.exits++;
      const at = readDate(p.createdAt);
      if (Number.isNaN(at)) continue;
      const hour = Number(localDateTime(at, timeZone).time.slice(0, 2));
      if (entry) hours[hour].entries++;
      else hours[hour].exits++;
    }
    for (const zone of zones.values()) zone.inside = Math.max(0, zone.entries - zone.exits);

    const scanRows: { allowed: unknown; reason: unknown; c: unknown }[] = await this.ds.query(
      'SELECT allowed, reason, COUNT(*) AS c FROM device_scan WHERE subjectId = ? AND actionId = ? AND day = ? GROUP BY allowed, reason',
      [subjectId, action.id, today],
    );
    let allowed = 0;
    let refused = 0;
    const refusals: LiveView['refusals'] = [];
    for (const r of scanRows) {
      const count = Number(r.c);
      if (Number(r.allowed)) {
        allowed += count;
        continue;
      }
      refused += count;
      const reason = String(r.reason) as ReasonCode;
      const decision: Decision = { allowed: false, reason, data: {}, info: false, effects: [] };
      refusals.push({ reason, count, message: reasonMessage(decision, lang) });
    }
    refusals.sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));

    return {
      actionId: action.id,
      day: today,
      at: new Date(now).toISOString(),
      zones: [...zones.values()].sort(
        (a, b) =>
          (a.zoneId === null ? 1 : 0) - (b.zoneId === null ? 1 : 0) || (a.name ?? '').localeCompare(b.name ?? ''),
      ),
      hours,
      scans: { total: allowed + refused, allowed, refused },
      refusals,
      parking: await this.parking(subjectId, action.id, today, lang),
    };
  }

  private async parking(subjectId: number, actionId: number, day: string, lang: Lang): Promise<LiveView['parking']> {
    const rows: { id: unknown; label: unknown; capacity: unknown; inside: unknown }[] = await this.ds.query(
      `SELECT i.id AS id, i.label AS label, i.capacity AS capacity,
         (SELECT COALESCE(SUM(e.inside), 0) FROM accreditation_extension e JOIN accreditation a ON a.id = e.accreditationId WHERE e.itemId = i.id) AS inside
       FROM extension_item i WHERE i.subjectId = ? AND i.actionId = ? AND i.type = 2 AND (i.date IS NULL OR i.date = ?)
       ORDER BY i.position, i.id`,
      [subjectId, actionId, day],
    );
    return rows.map((r) => {
      const label = readJson<Record<string, string>>(r.label, {});
      return {
        areaId: Number(r.id),
        name: label[lang] || label.cs || '',
        inside: Number(r.inside ?? 0),
        capacity: r.capacity === null || r.capacity === undefined ? null : Number(r.capacity),
      };
    });
  }
}
