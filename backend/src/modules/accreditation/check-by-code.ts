import { formatBadgeCode, parseBadgeCode } from '@accredo/access';
import type { CheckedAccreditationDto, Language } from '@accredo/domain';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { type PreparedReader, preparedReader } from '../../database/prepared.js';
import { type ReadBatch, rowsByKeys } from '../../database/read-batch.js';
import { isSqlite, readDate, readJson } from '../device/sql.js';

/**
 * The columns the check reads (FROM), in its order: a row is an array of their values (`at` gives each one's
 * place), the person's columns and one of their groups and one of their zones (or nulls).
 */
const COLUMNS = {
  id: 'a.id',
  subjectId: 'a.subjectId',
  customId: 'a.customId',
  actionId: 'a.actionId',
  firstname: 'a.firstname',
  lastname: 'a.lastname',
  email: 'a.email',
  bc: 'a.bc',
  days: 'a.days',
  fieldValues: 'a.fieldValues',
  imageId: 'a.imageId',
  fileKey: 'i.fileKey',
  printCount: 'a.printCount',
  badgeVersion: 'a.badgeVersion',
  badgeReplacedAt: 'a.badgeReplacedAt',
  credit: 'a.credit',
  isUnlimited: 'a.isUnlimited',
  source: 'a.source',
  language: 'a.language',
  createdAt: 'a.createdAt',
  groupId: 'lg.groupId',
  groupName: 'g.name',
  zoneId: 'lz.zoneId',
  zoneName: 'z.name',
} as const;
const at = Object.fromEntries(Object.keys(COLUMNS).map((name, i) => [name, i])) as Record<keyof typeof COLUMNS, number>;
type CheckRow = unknown[];

// The person with the file key of their photo (of the same subject, as the tenant repositories
// read it) and their groups and zones with names ('' for one that is gone), in one statement: the
// person's row joined with each link, so a person in g groups and z zones gives max(1, g) x
// max(1, z) rows (a badge has a group or two and a few zones). One round trip, not two: on MariaDB
// each statement's packet is a write to the socket and a wake-up of the server's thread (about a
// quarter of the check's CPU, measured 2026-11-29), and this join costs MariaDB ~120 us a check
// where a UNION ALL of the three reads (through a temporary table) cost ~200. The DTO's columns
// only, read as arrays: each column read costs, and an object per row about as much again. Links
// are put in id order here, not by the statement.
const FROM = `SELECT ${Object.values(COLUMNS).join(', ')}
  FROM accreditation a LEFT JOIN image i ON i.id = a.imageId AND i.subjectId = a.subjectId
  LEFT JOIN accreditation_group lg ON lg.accreditationId = a.id
  LEFT JOIN \`groups\` g ON g.id = lg.groupId AND g.subjectId = a.subjectId
  LEFT JOIN accreditation_zone lz ON lz.accreditationId = a.id
  LEFT JOIN zone z ON z.id = lz.zoneId AND z.subjectId = a.subjectId`;

/**
 * The checks that arrive together go as one statement (ReadBatch, database/read-batch.ts): the
 * people of up to BATCH_KEYS codes (bc is unique over all subjects; each check keeps only its own
 * subject's person), the list padded to a power of two so that there are seven texts to prepare.
 * - MariaDB: a check asked while BATCH_IN_FLIGHT such statements are on the server waits for one
 *   to come back. With 50 checks in flight on this 2-core machine 1 and 2 measured alike (and 4
 *   worse: smaller batches), 2 so that one slow statement does not hold every check.
 * - SQLite (one connection, synchronous): the statement runs at the end of the event loop's turn
 *   (setImmediate), with the checks asked meanwhile waiting for the next one. A statement outside
 *   a transaction takes and drops the log's read lock (two fcntl calls, ~5 µs of a ~12 µs read
 *   here); 64 codes in one statement cost ~6 µs a code.
 * Measured in bench/check.mjs (docs/architecture.md "The lean admin routes").
 */
const BATCH_KEYS = 64;
const BATCH_IN_FLIGHT = 2;
/** The distinct links of the rows (a group repeats once per zone, a zone once per group), in id order. */
function links(rows: CheckRow[], id: number, name: number) {
  const seen = new Map<number, string>();
  for (const r of rows)
    if (r[id] !== null && r[id] !== undefined) seen.set(Number(r[id]), (r[name] as string | null) ?? '');
  return [...seen].map(([linkId, linkName]) => ({ id: linkId, name: linkName })).sort((x, y) => x.id - y.id);
}

const iso = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  const ms = readDate(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

/**
 * GET user/check/{bc} on the lean path (issue 16): the same answer as AccreditationService.check
 * (its spec in accreditation.spec.ts and badge-replace.spec.ts), read by one prepared statement
 * on the driver (FROM: the person with their photo's key, their groups and zones with names)
 * instead of TypeORM's six. The code may be a versioned badge code `{bc}-{version}`
 * (docs/access-control.md "Badge versions"); a version never printed is not found.
 */
export class CheckByCode {
  private readonly reader: PreparedReader;
  /** The checks' reads by code, shared (see BATCH_KEYS). */
  private readonly batch: ReadBatch<string, CheckRow[]>;

  constructor(ds: DataSource) {
    this.reader = preparedReader(ds);
    const sqlite = isSqlite(ds);
    this.batch = rowsByKeys(
      sqlite
        ? (sql, keys) =>
            new Promise<CheckRow[]>((ok, fail) =>
              setImmediate(() => this.reader.arrays<CheckRow>(sql, keys).then(ok, fail)),
            )
        : (sql, keys) => this.reader.arrays<CheckRow>(sql, keys),
      (marks) => `${FROM}\n  WHERE a.bc IN (${marks})`,
      // a case-insensitive collation may match a code stored in another case: keyed as asked
      (row) => String(row[at.bc]).toUpperCase(),
      { maxKeys: BATCH_KEYS, maxInFlight: sqlite ? 1 : BATCH_IN_FLIGHT },
    );
  }

  private async rowsOf(subjectId: number, key: string): Promise<CheckRow[]> {
    if (!/^[A-Z0-9]{1,32}$/.test(key)) return [];
    const rows = (await this.batch.get(key)) ?? [];
    // another subject's person is not found, as `a.subjectId = ?` of one person's read would have it
    return rows.length && Number(rows[0][at.subjectId]) === subjectId ? rows : [];
  }

  async check(subjectId: number, code: string): Promise<CheckedAccreditationDto> {
    const { bc, version } = parseBadgeCode(code.trim());
    const rows = await this.rowsOf(subjectId, bc.toUpperCase());
    const row = rows[0];
    const badgeVersion = Number(row?.[at.badgeVersion] ?? 0);
    if (!row || version > badgeVersion) throw new AppError('BC_NOT_EXIST');
    const groups = links(rows, at.groupId, at.groupName);
    const zones = links(rows, at.zoneId, at.zoneName);
    const fieldValues = readJson<Record<string, unknown> | null>(row[at.fieldValues], {}) ?? {};
    const bcOf = row[at.bc] as string;
    const imageId = row[at.imageId];
    const fileKey = row[at.fileKey];
    const credit = row[at.credit];
    return {
      id: Number(row[at.id]),
      customId: Number(row[at.customId]),
      actionId: Number(row[at.actionId]),
      firstname: row[at.firstname] as string,
      lastname: row[at.lastname] as string,
      email: row[at.email] as string,
      bc: bcOf,
      groupIds: groups.map((g) => g.id),
      groups,
      zoneIds: zones.map((z) => z.id),
      zones,
      days: readJson<string[]>(row[at.days], []),
      customField: Object.entries(fieldValues).map(([id, value]) => ({ id: Number(id), value })),
      image: imageId && fileKey ? { id: Number(imageId), path: `/api/file/${fileKey}` } : null,
      printCount: Number(row[at.printCount]),
      badgeVersion,
      badgeCode: formatBadgeCode(bcOf, badgeVersion),
      badgeReplacedAt: iso(row[at.badgeReplacedAt]),
      credit: credit === null || credit === undefined ? null : Number(credit),
      isUnlimited: Boolean(Number(row[at.isUnlimited])),
      source: row[at.source] as string,
      language: (row[at.language] || 'cs') as Language,
      dateCreate: iso(row[at.createdAt]) ?? '',
      checked: { code: formatBadgeCode(bcOf, version), version, superseded: version < badgeVersion },
    };
  }
}
