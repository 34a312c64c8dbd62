import { type entranceReportSchema, type ReportTable, type reportSchema } from '@accredo/domain';
import { translate } from '@accredo/i18n';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { z } from 'zod';
import { assertOwned } from '../../common/crud.js';
import { loadExcel } from '../../common/lazy-modules.js';
import { currentSubjectId, TenantRepository } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { DeviceEntity } from './device.entity.js';
import { readDate } from './sql.js';

/** A JSON report answers at most this many rows (the xlsx has them all). */
const JSON_ROWS_MAX = 5000;

type Filter = { actionId: number | null; deviceId: number | null; dateFrom: string | null; dateTo: string | null };

/**
 * Reports of the entry log and the scan log (spec §7 POST report, POST report/entrance):
 * 1 passages, 2 entries and exits per day and device, 3 refusals by reason per day and device.
 * Days are the subject's calendar days stored with each row (D19).
 */
@Injectable()
export class ReportService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private async check(f: Filter): Promise<void> {
    await assertOwned(new TenantRepository(this.ds.getRepository(ActionEntity)), [f.actionId], 'actionId');
    await assertOwned(new TenantRepository(this.ds.getRepository(DeviceEntity)), [f.deviceId], 'deviceId');
  }

  private where(f: Filter, alias: string): { sql: string; params: unknown[] } {
    const parts = [`${alias}.subjectId = ?`];
    const params: unknown[] = [currentSubjectId()];
    if (f.actionId) parts.push(`${alias}.actionId = ?`) && params.push(f.actionId);
    if (f.deviceId) parts.push(`${alias}.deviceId = ?`) && params.push(f.deviceId);
    if (f.dateFrom) parts.push(`${alias}.day >= ?`) && params.push(f.dateFrom);
    if (f.dateTo) parts.push(`${alias}.day <= ?`) && params.push(f.dateTo);
    return { sql: parts.join(' AND '), params };
  }

  async table(input: z.output<typeof reportSchema>, lang: string, max = JSON_ROWS_MAX): Promise<ReportTable> {
    await this.check(input);
    const t = (k: string) => translate(lang, `deviceReport.${k}`);
    if (input.type === 1) return { type: 1, ...(await this.passages(input, lang, max)) };
    if (input.type === 2) {
      const w = this.where(input, 'e');
      const rows: Record<string, unknown>[] = await this.ds.query(
        `SELECT e.day AS day, d.name AS device, SUM(CASE WHEN e.type = 1 THEN 1 ELSE 0 END) AS entries, SUM(CASE WHEN e.type = 0 THEN 1 ELSE 0 END) AS exits, COUNT(DISTINCT e.accreditationId) AS people
         FROM entrance e LEFT JOIN device d ON d.id = e.deviceId WHERE ${w.sql}
         GROUP BY e.day, e.deviceId, d.name ORDER BY e.day, d.name LIMIT ${max}`,
        w.params,
      );
      return {
        type: 2,
        columns: [t('day'), t('device'), t('entries'), t('exits'), t('people')],
        rows: rows.map((r) => [
          String(r.day),
          r.device === null ? null : String(r.device),
          Number(r.entries),
          Number(r.exits),
          Number(r.people),
        ]),
      };
    }
    const w = this.where(input, 's');
    const rows: Record<string, unknown>[] = await this.ds.query(
      `SELECT s.day AS day, d.name AS device, s.reason AS reason, COUNT(*) AS n
       FROM device_scan s LEFT JOIN device d ON d.id = s.deviceId WHERE ${w.sql} AND s.allowed = 0
       GROUP BY s.day, s.deviceId, d.name, s.reason ORDER BY s.day, d.name, s.reason LIMIT ${max}`,
      w.params,
    );
    return {
      type: 3,
      columns: [t('day'), t('device'), t('reason'), t('count')],
      rows: rows.map((r) => [
        String(r.day),
        r.device === null ? null : String(r.device),
        String(r.reason),
        Number(r.n),
      ]),
    };
  }

  private async passages(f: Filter, lang: string, max: number): Promise<Omit<ReportTable, 'type'>> {
    const t = (k: string) => translate(lang, `deviceReport.${k}`);
    const w = this.where(f, 'e');
    const rows: Record<string, unknown>[] = await this.ds.query(
      `SELECT e.createdAt AS at, e.day AS day, e.type AS type, a.customId AS customId, a.firstname AS firstname, a.lastname AS lastname, a.email AS email, a.bc AS bc, d.name AS device, dt.name AS template
       FROM entrance e JOIN accreditation a ON a.id = e.accreditationId LEFT JOIN device d ON d.id = e.deviceId LEFT JOIN device_template dt ON dt.id = e.deviceTemplateId
       WHERE ${w.sql} ORDER BY e.createdAt, e.id LIMIT ${max}`,
      w.params,
    );
    return {
      columns: [
        t('time'),
        t('day'),
        t('direction'),
        t('customId'),
        t('firstname'),
        t('lastname'),
        t('email'),
        t('code'),
        t('device'),
        t('template'),
      ],
      rows: rows.map((r) => [
        new Date(readDate(r.at)).toISOString(),
        String(r.day),
        Number(r.type) === 1 ? t('entry') : t('exit'),
        Number(r.customId),
        String(r.firstname),
        String(r.lastname),
        String(r.email),
        String(r.bc),
        r.device === null ? null : String(r.device),
        r.template === null ? null : String(r.template),
      ]),
    };
  }

  async xlsx(table: Omit<ReportTable, 'type'>, sheet: string): Promise<Buffer> {
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet(sheet.slice(0, 31));
    ws.addRow(table.columns).font = { bold: true };
    for (const row of table.rows) ws.addRow(row);
    ws.columns.forEach((c) => {
      c.width = 18;
    });
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  /** POST report/entrance: every entry and exit of the action as xlsx. */
  async entrance(input: z.output<typeof entranceReportSchema>, lang: string): Promise<Buffer> {
    await this.check(input);
    return this.xlsx(await this.passages(input, lang, 1_000_000), translate(lang, 'deviceReport.entrances'));
  }
}
