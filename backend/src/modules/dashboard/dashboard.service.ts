import {
  DASHBOARD_LATEST,
  type DashboardActionRow,
  type DashboardBasicData,
  type DashboardChartRow,
  type DashboardLatest,
  type DashboardPieRow,
  type DashboardSource,
  type MultiText,
  sharePercent,
} from '@accredo/domain';
import { isTimeZone, localDateTime } from '@accredo/access';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, In } from 'typeorm';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { ActionEntity } from '../action/action.entity.js';
import { readDate } from '../device/sql.js';
import { ImageEntity } from '../image/image.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { WebChannelEntity } from '../web-channel/web-channel.entity.js';

export interface DashboardData {
  basicData: DashboardBasicData;
  accreditationChartData: DashboardChartRow[];
  accreditationByActionChartData: DashboardActionRow[];
  actionPieChartData: DashboardPieRow[];
  listOfAccreditation: DashboardLatest[];
}

const EMPTY: MultiText = { cs: '', sk: '', en: '', de: '' };
const HOUR = 3_600_000;
const DAY = 86_400_000;

const pad = (n: number) => String(n).padStart(2, '0');

/** The instant an `accreditation_hourly.utcHour` ('YYYY-MM-DD HH') begins. */
const hourAt = (utcHour: string) => Date.parse(`${utcHour.slice(0, 10)}T${utcHour.slice(11, 13)}:00:00Z`);

/** The time zone's offset from UTC at an instant, in minutes. */
function offsetAt(at: number, timeZone: string): number {
  const minute = Math.floor(at / 60_000) * 60_000;
  const local = localDateTime(minute, timeZone);
  return Math.round((Date.parse(`${local.day}T${local.time}:00Z`) - minute) / 60_000);
}

/**
 * The zone's offsets over the hours from `lo` to `hi`: the first hour of each stretch with one
 * offset ('YYYY-MM-DD HH') and the offset in minutes. Read a day at a time; a day whose offset
 * changes is searched for the hour it changes at.
 */
export function offsetSegments(lo: number, hi: number, timeZone: string): { from: string; offset: number }[] {
  const hourText = (at: number) => new Date(at).toISOString().slice(0, 13).replace('T', ' ');
  const out = [{ from: hourText(lo), offset: offsetAt(lo, timeZone) }];
  if (Number.isNaN(lo) || Number.isNaN(hi)) return out;
  for (let at = lo; at < hi; at += DAY) {
    const next = Math.min(at + DAY, hi);
    const last = out[out.length - 1].offset;
    if (offsetAt(next, timeZone) === last) continue;
    // the first hour after `at` with another offset
    let a = at;
    let b = next;
    while (b - a > HOUR) {
      const mid = a + Math.floor((b - a) / HOUR / 2) * HOUR;
      if (offsetAt(mid, timeZone) === last) a = mid;
      else b = mid;
    }
    out.push({ from: hourText(b), offset: offsetAt(b, timeZone) });
  }
  return out;
}

/**
 * The dashboard's data (spec §3 Dashboard data): the tiles' counts, the registrations per day,
 * action and source from the hourly counts (the by-action and pie data and the accreditations' tile
 * are sums of them), and the latest registrations. Nothing here reads all of a subject's
 * accreditations: at 1,000,000 it answers in milliseconds (bench/dashboard.mjs).
 */
@Injectable()
export class DashboardService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async data(subjectId: number): Promise<DashboardData> {
    const [actionCount, webChannelCount, mails, actions, counted] = await Promise.all([
      this.ds.getRepository(ActionEntity).count({ where: { subjectId } }),
      this.ds.getRepository(WebChannelEntity).count({ where: { subjectId } }),
      this.mailCounts(subjectId),
      this.ds.getRepository(ActionEntity).find({ where: { subjectId }, select: { id: true, name: true } }),
      this.perDay(subjectId),
    ]);
    const { perDay, actionIds } = counted;
    const latest = await this.latest(subjectId, actionIds);
    // every accreditation is in exactly one hourly count (the triggers), so their sum is the tile's
    const userCount = perDay.reduce((n, r) => n + r.count, 0);
    const names = new Map(actions.map((a) => [a.id, a.name]));

    const byAction = new Map<string, DashboardActionRow>();
    const perAction = new Map<number, number>();
    for (const r of perDay) {
      const key = `${r.date}\n${r.actionId}`;
      const row = byAction.get(key) ?? { date: r.date, actionId: r.actionId, count: 0 };
      row.count += r.count;
      byAction.set(key, row);
      perAction.set(r.actionId, (perAction.get(r.actionId) ?? 0) + r.count);
    }
    const total = [...perAction.values()].reduce((a, b) => a + b, 0);
    return {
      basicData: {
        actionCount,
        webChannelCount,
        userCount,
        emailSentCount: mails.sent,
        emailInQueue: mails.waiting,
        emailErrorCount: mails.error,
      },
      accreditationChartData: perDay,
      accreditationByActionChartData: [...byAction.values()],
      actionPieChartData: [...perAction.entries()]
        .map(([actionId, count]) => ({
          actionId,
          name: names.get(actionId) ?? EMPTY,
          count,
          percent: sharePercent(count, total),
        }))
        .sort((a, b) => b.count - a.count || a.actionId - b.actionId),
      listOfAccreditation: latest.map((l) => ({ ...l, actionName: names.get(l.actionId) ?? EMPTY })),
    };
  }

  /**
   * Registrations per day of the subject's time zone, action and source, in date order, from the
   * hourly counts the triggers keep (`accreditation_hourly`, migration 1764102000000): the database
   * sums the subject's hours into UTC days, each split where the local day begins, with the zone's
   * UTC offsets over the span of the counts worked out here (one per stretch between daylight-saving
   * changes), so a few hundred rows come back whatever the number of people, and a change of the
   * subject's time zone applies at once. Zones off the hour by 30 or 45 minutes put that part of an hour on the day the hour
   * begins in. Also the actions that have accreditations (for the latest registrations).
   */
  private async perDay(subjectId: number): Promise<{ perDay: DashboardChartRow[]; actionIds: number[] }> {
    const [[span], subject] = await Promise.all([
      this.ds.query('SELECT MIN(utcHour) AS lo, MAX(utcHour) AS hi FROM accreditation_hourly WHERE subjectId = ?', [
        subjectId,
      ]) as Promise<{ lo: unknown; hi: unknown }[]>,
      this.ds.getRepository(SubjectEntity).findOne({ where: { id: subjectId }, select: { id: true, timeZone: true } }),
    ]);
    if (!span?.lo || !span?.hi) return { perDay: [], actionIds: [] };
    const timeZone = subject?.timeZone && isTimeZone(subject.timeZone) ? subject.timeZone : 'Europe/Prague';
    const segments = offsetSegments(hourAt(String(span.lo)), hourAt(String(span.hi)), timeZone);
    // per stretch: how many days an hour's local day lies from its UTC day (-1, 0 or 1), by
    // comparing the hour's digits with the first hour whose local day is another (string work, no
    // date functions; grouped without a sort: the rows are sorted here)
    const shiftOf = (offset: number) => {
      if (offset > 0) return `(SUBSTR(utcHour, 12, 2) >= '${pad(Math.ceil((1440 - offset) / 60))}')`;
      if (offset < 0) return `-(SUBSTR(utcHour, 12, 2) < '${pad(Math.ceil(-offset / 60))}')`;
      return '0';
    };
    const shift =
      segments.length === 1
        ? shiftOf(segments[0].offset)
        : `CASE ${segments
            .slice(1)
            .map((_, i) => `WHEN utcHour < ? THEN ${shiftOf(segments[i].offset)}`)
            .join(' ')} ELSE ${shiftOf(segments[segments.length - 1].offset)} END`;
    const rows: { d: unknown; s: unknown; actionId: unknown; source: unknown; n: unknown }[] = await this.ds.query(
      `SELECT SUBSTR(utcHour, 1, 10) AS d, ${shift} AS s, actionId AS actionId, source AS source,
       SUM(registrations) AS n FROM accreditation_hourly WHERE subjectId = ?
       GROUP BY d, s, actionId, source ORDER BY NULL`,
      [...segments.slice(1).map((seg) => seg.from), subjectId],
    );
    const days = new Map<string, string>();
    const localDate = (utcDate: string, shift: number) => {
      const key = `${utcDate}${shift}`;
      let date = days.get(key);
      if (date === undefined) {
        const at = Date.parse(`${utcDate}T00:00:00Z`);
        date = shift && !Number.isNaN(at) ? new Date(at + shift * DAY).toISOString().slice(0, 10) : utcDate;
        days.set(key, date);
      }
      return date;
    };
    const merged = new Map<string, DashboardChartRow>();
    const actionIds = new Set<number>();
    for (const r of rows) {
      const date = localDate(String(r.d), Number(r.s));
      const actionId = Number(r.actionId);
      const count = Number(r.n);
      if (count <= 0) continue;
      actionIds.add(actionId);
      const source: DashboardSource = r.source === 'web' ? 'web' : 'admin';
      const key = `${date}\n${actionId}\n${source}`;
      const row = merged.get(key) ?? { date, actionId, source, count: 0 };
      row.count += count;
      merged.set(key, row);
    }
    const perDay = [...merged.values()].sort(
      (a, b) => a.date.localeCompare(b.date) || a.actionId - b.actionId || a.source.localeCompare(b.source),
    );
    return { perDay, actionIds: [...actionIds] };
  }

  /**
   * The mail tiles: waiting (and being sent) and failed mails counted on the (subjectId, status)
   * index, few but at the height of a mass mail; sent ones as the rest of the subject's mails in
   * `mail_total` (kept by triggers, migration 1764102200000), a million of which would take a
   * count of a million index entries.
   */
  private async mailCounts(subjectId: number): Promise<Record<'sent' | 'waiting' | 'error', number>> {
    const [open, total]: [{ status: unknown; n: unknown }[], { mails: unknown }[]] = await Promise.all([
      this.ds.query(
        `SELECT status AS status, COUNT(*) AS n FROM mail_queue
         WHERE subjectId = ? AND status IN ('waiting', 'sending', 'error') GROUP BY status`,
        [subjectId],
      ),
      this.ds.query('SELECT mails AS mails FROM mail_total WHERE subjectId = ?', [subjectId]),
    ]);
    const of = (status: string) => Number(open.find((r) => r.status === status)?.n ?? 0);
    const waiting = of('waiting') + of('sending');
    const error = of('error');
    return { sent: Math.max(0, Number(total[0]?.mails ?? 0) - waiting - error), waiting, error };
  }

  /**
   * The latest registrations with their first group's name and photo. The newest ids of each action
   * come from the list's index (subjectId, actionId, id) read backwards, a few entries per action;
   * a sort of the subject's accreditations by id would read all of them.
   */
  private async latest(subjectId: number, actionIds: number[]): Promise<Omit<DashboardLatest, 'actionName'>[]> {
    const newest: number[] = [];
    for (let i = 0; i < actionIds.length; i += 50) {
      const chunk = actionIds.slice(i, i + 50);
      const found: { id: unknown }[] = await this.ds.query(
        chunk
          .map(
            (_, k) =>
              `SELECT id FROM (SELECT id FROM accreditation WHERE subjectId = ? AND actionId = ? ORDER BY id DESC LIMIT ${DASHBOARD_LATEST}) AS t${k}`,
          )
          .join(' UNION ALL '),
        chunk.flatMap((actionId) => [subjectId, actionId]),
      );
      newest.push(...found.map((r) => Number(r.id)));
    }
    const ids = newest.sort((a, b) => b - a).slice(0, DASHBOARD_LATEST);
    if (!ids.length) return [];
    const rows = await this.ds.getRepository(AccreditationEntity).find({
      where: { subjectId, id: In(ids) },
      order: { id: 'DESC' },
      select: { id: true, actionId: true, firstname: true, lastname: true, imageId: true, createdAt: true },
    });
    if (!rows.length) return [];
    const groups: { accreditationId: unknown; name: unknown }[] = await this.ds.query(
      `SELECT ag.accreditationId AS accreditationId, g.name AS name FROM accreditation_group ag
       JOIN \`groups\` g ON g.id = ag.groupId WHERE ag.accreditationId IN (${ids.map(() => '?').join(', ')})
       ORDER BY ag.groupId`,
      ids,
    );
    const groupName = new Map<number, string>();
    for (const g of groups)
      if (!groupName.has(Number(g.accreditationId))) groupName.set(Number(g.accreditationId), String(g.name));
    const imageIds = rows.map((r) => r.imageId).filter((x): x is number => x !== null);
    const images = imageIds.length
      ? await this.ds.getRepository(ImageEntity).find({ where: { subjectId, id: In(imageIds) } })
      : [];
    const fileKey = new Map(images.map((i) => [i.id, i.fileKey]));
    return rows.map((r) => ({
      id: r.id,
      actionId: r.actionId,
      firstname: r.firstname,
      lastname: r.lastname,
      groupName: groupName.get(r.id) ?? null,
      createdAt: new Date(readDate(r.createdAt)).toISOString(),
      image: r.imageId && fileKey.has(r.imageId) ? `/api/file/${fileKey.get(r.imageId)}` : null,
    }));
  }
}
