import type { AccreditationHistory } from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { EntranceEntity, localDay, subjectTimeZone } from './entrance.entity.js';

/** How many entries of each kind a list row carries for its tooltips (spec §2). */
export const HISTORY_SIZE = 5;

type Raw = Record<string, unknown>;

/** A raw datetime from either driver (a UTC Date from mysql2, a UTC text from SQLite) as ISO. */
function iso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const text = String(value ?? '');
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(text) ? new Date(`${text.replace(' ', 'T')}Z`).toISOString() : text;
}

/**
 * The latest mails, prints and passages of accreditations: the list's row tooltips. One query per
 * kind for a whole page, the newest {@link HISTORY_SIZE} per accreditation picked by a window
 * function (SQLite 3.25+ and MariaDB 10.2+ both have ROW_NUMBER), so a person with a thousand
 * passages costs no more than one with five.
 */
@Injectable()
export class AccreditationHistoryService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Records a passage through a gate (type 1 entry, 0 exit) on the venue's day. */
  async recordEntrance(
    accreditation: { id: number; subjectId: number; actionId: number },
    type: 0 | 1,
    deviceId: number | null = null,
    at: Date = new Date(),
  ): Promise<EntranceEntity> {
    const repo = this.ds.getRepository(EntranceEntity);
    return repo.save(
      repo.create({
        subjectId: accreditation.subjectId,
        actionId: accreditation.actionId,
        accreditationId: accreditation.id,
        type,
        deviceId,
        day: localDay(at, await subjectTimeZone(this.ds, accreditation.subjectId)),
        createdAt: at,
      }),
    );
  }

  async forAccreditations(ids: number[]): Promise<Map<number, AccreditationHistory>> {
    const result = new Map<number, AccreditationHistory>();
    const clean = ids.map(Number).filter((id) => Number.isInteger(id));
    for (const id of clean) result.set(id, { mail: [], print: [], entrance: [] });
    if (!clean.length) return result;
    const list = clean.join(',');
    const latest = (table: string, columns: string, joins = '') =>
      this.ds.query(
        `SELECT * FROM (SELECT ${columns}, ROW_NUMBER() OVER (PARTITION BY t.accreditationId ORDER BY t.id DESC) AS rn
           FROM ${table} t ${joins} WHERE t.accreditationId IN (${list})) x WHERE x.rn <= ${HISTORY_SIZE} ORDER BY x.id DESC`,
      ) as Promise<Raw[]>;

    const [mails, prints, entrances] = await Promise.all([
      latest(
        'mail_queue',
        't.id, t.accreditationId, t.status, t.sentAt, t.createdAt, t.failReason, t.uncertain, t.note, u.name AS adminUser, m.name AS mailTemplate',
        'LEFT JOIN admin_user u ON u.id = t.adminUserId LEFT JOIN mail_template m ON m.id = t.mailTemplateId',
      ),
      latest(
        'print_log',
        't.id, t.accreditationId, t.createdAt, t.badgeVersion, t.retiredVersion, u.name AS adminUser',
        'LEFT JOIN admin_user u ON u.id = t.adminUserId',
      ),
      latest('entrance', 't.id, t.accreditationId, t.type, t.deviceId, t.createdAt'),
    ]);
    for (const r of mails)
      result.get(Number(r.accreditationId))?.mail.push({
        date: iso(r.sentAt ?? r.createdAt),
        status: String(r.status),
        fail: (r.failReason as string | null) ?? null,
        uncertain: Boolean(Number(r.uncertain)),
        adminUser: (r.adminUser as string | null) ?? null,
        mailTemplate: (r.mailTemplate as string | null) ?? null,
        note: (r.note as string | null) ?? null,
      });
    for (const r of prints)
      result.get(Number(r.accreditationId))?.print.push({
        date: iso(r.createdAt),
        adminUser: (r.adminUser as string | null) ?? null,
        badgeVersion: Number(r.badgeVersion ?? 0),
        // a print with "replace the old badge": which badge it retired (when: its date; by whom: adminUser)
        retiredVersion: r.retiredVersion === null || r.retiredVersion === undefined ? null : Number(r.retiredVersion),
      });
    for (const r of entrances)
      result.get(Number(r.accreditationId))?.entrance.push({
        date: iso(r.createdAt),
        type: Number(r.type),
        deviceId: r.deviceId == null ? null : Number(r.deviceId),
      });
    return result;
  }
}
