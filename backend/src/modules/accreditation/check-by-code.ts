import { formatBadgeCode, parseBadgeCode } from '@accredo/access';
import type { CheckedAccreditationDto, Language } from '@accredo/domain';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { type PreparedReader, preparedReader } from '../../database/prepared.js';
import { readDate, readJson } from '../device/sql.js';

interface PersonRow {
  id: number;
  customId: number;
  actionId: number;
  firstname: string;
  lastname: string;
  email: string;
  bc: string;
  days: unknown;
  fieldValues: unknown;
  imageId: number | null;
  fileKey: string | null;
  printCount: number;
  badgeVersion: number | null;
  badgeReplacedAt: unknown;
  credit: number | null;
  isUnlimited: unknown;
  source: string;
  language: string | null;
  createdAt: unknown;
}

// the person with the file key of their photo (of the same subject, as the tenant repositories read it)
// (the DTO's columns only: each column read costs on MariaDB's binary protocol)
const PERSON = `SELECT a.id, a.customId, a.actionId, a.firstname, a.lastname, a.email, a.bc, a.days, a.fieldValues,
  a.imageId, i.fileKey AS fileKey, a.printCount, a.badgeVersion, a.badgeReplacedAt, a.credit, a.isUnlimited, a.source,
  a.language, a.createdAt FROM accreditation a LEFT JOIN image i ON i.id = a.imageId AND i.subjectId = a.subjectId
  WHERE a.bc = ? AND a.subjectId = ?`;
// the groups (k = 1) and zones (k = 2) with their names ('' for one that is gone); put in id order
// here, not by the statement (an ORDER BY over the UNION made MariaDB sort it in a temporary table)
const LINKS = `SELECT 1 AS k, l.groupId AS id, g.name AS name FROM accreditation_group l
  LEFT JOIN \`groups\` g ON g.id = l.groupId AND g.subjectId = ? WHERE l.accreditationId = ?
  UNION ALL SELECT 2 AS k, l.zoneId AS id, z.name AS name FROM accreditation_zone l
  LEFT JOIN zone z ON z.id = l.zoneId AND z.subjectId = ? WHERE l.accreditationId = ?`;

const iso = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  const ms = readDate(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

/**
 * GET user/check/{bc} on the lean path (issue 16): the same answer as AccreditationService.check
 * (its spec in accreditation.spec.ts and badge-replace.spec.ts), read by two prepared statements
 * on the driver, the person with their photo's key, then their groups and zones with names,
 * instead of TypeORM's six. The code may be a versioned badge code `{bc}-{version}`
 * (docs/access-control.md "Badge versions"); a version never printed is not found.
 */
export class CheckByCode {
  private readonly reader: PreparedReader;

  constructor(ds: DataSource) {
    this.reader = preparedReader(ds);
  }

  async check(subjectId: number, code: string): Promise<CheckedAccreditationDto> {
    const { bc, version } = parseBadgeCode(code.trim());
    const [row] = /^[A-Z0-9]{1,32}$/i.test(bc)
      ? await this.reader.all<PersonRow>(PERSON, [bc.toUpperCase(), subjectId])
      : [];
    const badgeVersion = Number(row?.badgeVersion ?? 0);
    if (!row || version > badgeVersion) throw new AppError('BC_NOT_EXIST');
    const links = await this.reader.all<{ k: number; id: number; name: string | null }>(LINKS, [
      subjectId,
      row.id,
      subjectId,
      row.id,
    ]);
    const kind = (k: number) =>
      links
        .filter((l) => Number(l.k) === k)
        .map((l) => ({ id: Number(l.id), name: l.name ?? '' }))
        .sort((x, y) => x.id - y.id);
    const groups = kind(1);
    const zones = kind(2);
    const fieldValues = readJson<Record<string, unknown> | null>(row.fieldValues, {}) ?? {};
    return {
      id: Number(row.id),
      customId: Number(row.customId),
      actionId: Number(row.actionId),
      firstname: row.firstname,
      lastname: row.lastname,
      email: row.email,
      bc: row.bc,
      groupIds: groups.map((g) => g.id),
      groups,
      zoneIds: zones.map((z) => z.id),
      zones,
      days: readJson<string[]>(row.days, []),
      customField: Object.entries(fieldValues).map(([id, value]) => ({ id: Number(id), value })),
      image: row.imageId && row.fileKey ? { id: Number(row.imageId), path: `/api/file/${row.fileKey}` } : null,
      printCount: Number(row.printCount),
      badgeVersion,
      badgeCode: formatBadgeCode(row.bc, badgeVersion),
      badgeReplacedAt: iso(row.badgeReplacedAt),
      credit: row.credit === null || row.credit === undefined ? null : Number(row.credit),
      isUnlimited: Boolean(Number(row.isUnlimited)),
      source: row.source,
      language: (row.language || 'cs') as Language,
      dateCreate: iso(row.createdAt) ?? '',
      checked: { code: formatBadgeCode(row.bc, version), version, superseded: version < badgeVersion },
    };
  }
}
