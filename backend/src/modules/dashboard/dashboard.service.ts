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
import { isTimeZone, localDay } from '@accredo/access';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, In } from 'typeorm';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { ActionEntity } from '../action/action.entity.js';
import { isSqlite, readDate } from '../device/sql.js';
import { ImageEntity } from '../image/image.entity.js';
import { MailService } from '../mail/mail.service.js';
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

/**
 * The dashboard's data (spec §3 Dashboard data): the tiles' counts, the registrations per day,
 * action and source in one grouped read (the by-action and pie data are sums of it), and the
 * latest registrations.
 */
@Injectable()
export class DashboardService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly mail: MailService,
  ) {}

  async data(subjectId: number): Promise<DashboardData> {
    const [actionCount, userCount, webChannelCount, mails, actions, perDay, latest] = await Promise.all([
      this.ds.getRepository(ActionEntity).count({ where: { subjectId } }),
      this.ds.getRepository(AccreditationEntity).count({ where: { subjectId } }),
      this.ds.getRepository(WebChannelEntity).count({ where: { subjectId } }),
      this.mail.counts(subjectId),
      this.ds.getRepository(ActionEntity).find({ where: { subjectId }, select: { id: true, name: true } }),
      this.perDay(subjectId),
      this.latest(subjectId),
    ]);
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
   * Registrations per day of the subject's time zone, action and source, in date order. The database
   * counts per UTC hour (portable to both databases, no time-zone tables needed); each hour is then
   * put on its local day. Zones off the hour by 30 or 45 minutes put that part of an hour on the day
   * the hour begins in.
   */
  private async perDay(subjectId: number): Promise<DashboardChartRow[]> {
    const hour = isSqlite(this.ds) ? 'substr(createdAt, 1, 13)' : "DATE_FORMAT(createdAt, '%Y-%m-%d %H')";
    const [rows, subject] = await Promise.all([
      this.ds.query(
        `SELECT ${hour} AS h, actionId AS actionId, source AS source, COUNT(*) AS n FROM accreditation
         WHERE subjectId = ? GROUP BY ${hour}, actionId, source`,
        [subjectId],
      ) as Promise<{ h: unknown; actionId: unknown; source: unknown; n: unknown }[]>,
      this.ds.getRepository(SubjectEntity).findOne({ where: { id: subjectId }, select: { id: true, timeZone: true } }),
    ]);
    const timeZone = subject?.timeZone && isTimeZone(subject.timeZone) ? subject.timeZone : 'Europe/Prague';
    const days = new Map<string, string>();
    const merged = new Map<string, DashboardChartRow>();
    for (const r of rows) {
      const utcHour = String(r.h).replace(' ', 'T');
      let date = days.get(utcHour);
      if (date === undefined) {
        const at = Date.parse(`${utcHour}:00:00Z`);
        date = Number.isNaN(at) ? utcHour.slice(0, 10) : localDay(at, timeZone);
        days.set(utcHour, date);
      }
      const source: DashboardSource = r.source === 'web' ? 'web' : 'admin';
      const key = `${date}\n${Number(r.actionId)}\n${source}`;
      const row = merged.get(key) ?? { date, actionId: Number(r.actionId), source, count: 0 };
      row.count += Number(r.n);
      merged.set(key, row);
    }
    return [...merged.values()].sort(
      (a, b) => a.date.localeCompare(b.date) || a.actionId - b.actionId || a.source.localeCompare(b.source),
    );
  }

  /** The latest registrations with their first group's name and photo. */
  private async latest(subjectId: number): Promise<Omit<DashboardLatest, 'actionName'>[]> {
    const rows = await this.ds.getRepository(AccreditationEntity).find({
      where: { subjectId },
      order: { id: 'DESC' },
      take: DASHBOARD_LATEST,
      select: { id: true, actionId: true, firstname: true, lastname: true, imageId: true, createdAt: true },
    });
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
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
