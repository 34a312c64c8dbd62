import { formatBadgeCode, parseBadgeCode } from '@accredo/access';
import type { CheckedAccreditationDto, Language } from '@accredo/domain';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { type PreparedReader, preparedReader } from '../../database/prepared.js';
import { readDate, readJson } from '../device/sql.js';

/** A row of CHECK: the person's (k = 0) or one of their groups' (1) or zones' (2). */
interface CheckRow {
  k: number;
  id: number;
  name: string | null;
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

// The person with the file key of their photo (of the same subject, as the tenant repositories
// read it), then their groups (k = 1) and zones (k = 2) with names ('' for one that is gone), in
// one statement: a UNION ALL of rows of one shape, the person's columns empty on a link's row and
// the link's on the person's. One round trip, not two: on MariaDB each statement's packet is a
// write to the socket and a wake-up of the server's thread, about a quarter of the check's CPU
// (measured 2026-11-29). The DTO's columns only: each column read costs on the binary protocol.
// The links are put in id order here, not by the statement (an ORDER BY over the UNION made
// MariaDB sort it in a temporary table).
const PERSON_COLUMNS = [
  'a.customId',
  'a.actionId',
  'a.firstname',
  'a.lastname',
  'a.email',
  'a.bc',
  'a.days',
  'a.fieldValues',
  'a.imageId',
  'i.fileKey',
  'a.printCount',
  'a.badgeVersion',
  'a.badgeReplacedAt',
  'a.credit',
  'a.isUnlimited',
  'a.source',
  'a.language',
  'a.createdAt',
];
const NO_PERSON = PERSON_COLUMNS.map((c) => `NULL AS ${c.slice(2)}`).join(', ');
const link = (k: number, table: string, column: string, named: string) =>
  `SELECT ${k} AS k, l.${column} AS id, n.name AS name, ${NO_PERSON} FROM accreditation a
  JOIN ${table} l ON l.accreditationId = a.id LEFT JOIN ${named} n ON n.id = l.${column} AND n.subjectId = a.subjectId
  WHERE a.bc = ? AND a.subjectId = ?`;
const CHECK = `SELECT 0 AS k, a.id AS id, NULL AS name, ${PERSON_COLUMNS.join(', ')} FROM accreditation a
  LEFT JOIN image i ON i.id = a.imageId AND i.subjectId = a.subjectId WHERE a.bc = ? AND a.subjectId = ?
  UNION ALL ${link(1, 'accreditation_group', 'groupId', '`groups`')}
  UNION ALL ${link(2, 'accreditation_zone', 'zoneId', 'zone')}`;

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
    const key = bc.toUpperCase();
    const rows = /^[A-Z0-9]{1,32}$/.test(key)
      ? await this.reader.all<CheckRow>(CHECK, [key, subjectId, key, subjectId, key, subjectId])
      : [];
    const row = rows.find((r) => Number(r.k) === 0);
    const badgeVersion = Number(row?.badgeVersion ?? 0);
    if (!row || version > badgeVersion) throw new AppError('BC_NOT_EXIST');
    const kind = (k: number) =>
      rows
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
