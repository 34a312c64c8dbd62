import { formatBadgeCode, parseBadgeCode } from '@accredo/access';
import {
  type AccreditationDto,
  type AccreditationFilter,
  type CheckedAccreditationDto,
  type accreditationSchema,
  checkFieldValue,
  type creditChangeSchema,
  fieldValueText,
  type FieldError,
  foldSearch,
  type Language,
  subjectLanguageError,
} from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import {
  type DataSource,
  type EntityManager,
  In,
  type ObjectLiteral,
  type Repository,
  type SelectQueryBuilder,
} from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { TtlCache } from '../../common/ttl-cache.js';
import { refuseArchived } from '../../common/archive.js';
import { applyGroupDefaults } from '../action-extension/extension-core.js';
import { randomCode } from '../../common/crypto.js';
import { assertOwned } from '../../common/crud.js';
import type { AdminAuth } from '../../common/request.js';
import { containing } from '../../database/columns.js';
import { LIST_BLOCK_SIZE } from '../../database/migrations/1764400000001-list-blocks.js';
import { FACET } from '../../database/migrations/1764700000001-list-facets.js';
import { preparedReader } from '../../database/prepared.js';
import { EmailTaken } from './email-taken.js';
import { currentSubjectId, TenantRepository } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { CustomFieldEntity } from '../custom-field/custom-field.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { ImageEntity } from '../image/image.entity.js';
import { ImageService } from '../image/image.service.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import { type AfterInsert, CUSTOM_ID_READ, createCore, type NewPerson } from './registration-write.js';
import { coreRunner, retryingTransaction } from '../../database/core-runner.js';
import { feedSettled } from '../../database/change-feed.js';
import { WalkMarks, type WalkReader } from './walk-marks.js';
import { AccreditationHistoryService } from './accreditation-history.service.js';
import { EntranceEntity, localDay, subjectTimeZone } from './entrance.entity.js';
import {
  AccreditationEntity,
  AccreditationGroupEntity,
  AccreditationValueEntity,
  AccreditationZoneEntity,
  CreditTransactionEntity,
  searchText,
} from './accreditation.entity.js';

type Input = z.output<typeof accreditationSchema>;

export interface ActionField {
  id: number;
  name: string;
  label: Record<string, string>;
  tooltip: Record<string, string>;
  customFieldType: number;
  options: { id: string; value: string }[];
  isMandatory: boolean;
}

/** How a registration differs from the admin's create (the online registration, spec §7 Online). */
export interface CreateOptions {
  /** 'admin' (default) or 'web' (the dashboard's source) */
  source?: 'admin' | 'web';
  /** the web channel of an online registration (a channel with registrations cannot be deleted) */
  webChannelId?: number;
  /**
   * User fields the registrant does not see (hidden on the channel): their value is this one,
   * whatever the input says, and they are never required; an unusable default is left empty.
   */
  fixedFields?: Map<number, unknown>;
  /**
   * Steps run in the insert's transaction after the person and their links (e.g. counting a code's
   * use, the confirmation mail's row); an error rolls the whole create back.
   */
  afterInsert?: AfterInsert;
  /** The request's name of the photo, named by its field errors (`imageData`; the online form's `image`). */
  photoField?: string;
  /**
   * What the caller read in this request already (the online registration, issue 16): the action,
   * its user fields and the subject are not read again, and the groups and zones are taken as
   * checked (the caller kept only the subject's, of this action or of none, not archived).
   */
  context?: CreateContext;
}

/** See CreateOptions.context. */
export interface CreateContext {
  action: ActionEntity;
  fields: ActionField[];
  subject: Pick<SubjectEntity, 'id' | 'multiLanguage'>;
  linksChecked: true;
  /** whether any of the groups assigns meal or parking defaults (NewPerson.groupDefaults) */
  groupDefaults?: boolean;
}

/** The largest balance: what the int `credit` column holds on MariaDB (signed 32 bits). */
const CREDIT_MAX = 2_147_483_647;

/** The unique (actionId, email) index: two creates racing with one address, only one wins. */
function isEmailConflict(err: unknown): boolean {
  return /UQ_accreditation_action_email|accreditation\.actionId, accreditation\.email/i.test(
    String((err as Error)?.message),
  );
}
const emailExists = () => new AppError('EMAIL_EXIST', { fields: [{ path: 'email', key: 'errors.EMAIL_EXIST' }] });

/**
 * Accreditations (spec §3, §5, §7): register and edit with the action's user fields, find with the
 * filter panel, change in bulk (on ids or on a whole filter), check by code, and credit.
 */
/** Up to this many matches a filter counts as selective (see AccreditationService.page). */
const SELECTIVE = 2000;
/** How long and how many of rareTrigrams' answers are kept. */
const RARE_KEPT_MS = 60_000;
const RARE_KEPT = 256;

/** The mark's parameter while a walk's statement is written (AccreditationService.markedPage): no id is negative. */
const WALK_MARK = -0x7fff_fff1;
/**
 * A list counts its rows exactly up to this many; beyond, `max` is this and `maxCapped` says "or
 * more", and the exact count is there on request (`exactCount`, issue 16).
 */
export const COUNT_CAP = 10_000;

/** Up to 6 distinct trigrams (3 characters) spread over the text, none under 3 characters. */
function spreadTrigrams(text: string): string[] {
  const chars = Array.from(text);
  const every = [...new Set(chars.slice(2).map((_, i) => chars.slice(i, i + 3).join('')))];
  return [
    ...new Set(
      every.length <= 6 ? every : [0, 1, 2, 3, 4, 5].map((k) => every[Math.round((k * (every.length - 1)) / 5)]),
    ),
  ];
}

/**
 * SQLite's trigram indexes (AccreditationService.rareTrigrams): trigrams are weighed at `first`
 * rows, then those that may be rare at `rare`; one of at most `rare` rows drives a text search,
 * with every other one estimated at most `short` rows (a spec lowers them to take every path on a
 * small database).
 */
export const FTS_TRIGRAMS = { first: 1000, rare: COUNT_CAP, short: 10 * COUNT_CAP };

/**
 * The unfiltered list reads its blocks of ids (accreditation_block) only for a page at least
 * `offset` entries deep: above that the plain OFFSET skips fewer index entries than one block
 * holds, so the blocks' read (~250 rows at a million) would cost more than it saves, on page 1
 * above all (a spec lowers it to 0 to take the blocks' path on a small database).
 */
export const LIST_BLOCKS_FROM = { offset: LIST_BLOCK_SIZE };

/** A trigram as an FTS5 phrase (a string in double quotes, its quotes doubled): one token. */
const ftsPhrase = (gram: string) => `"${gram.replaceAll('"', '""')}"`;

/**
 * A filter as a query, with how many conditions it holds and, for some, a cheaper exact count, a
 * cheaper count that stops after COUNT_CAP + 1 (`capped`: the one condition's own index range,
 * instead of walking the action's people newest first and probing each), and whether its one
 * condition is known to match more than SELECTIVE (`broad`: its first ids were read already).
 */
interface Filtered {
  qb: SelectQueryBuilder<AccreditationEntity>;
  conditions: number;
  /** the column the page is ordered by, newest first: `a.id`, or the driving links' person */
  order?: string;
  /** the person's id in `qb` (`a.id`, or the driving links' person when the person is not read) */
  idColumn?: string;
  /** with the links alone: the action the page's people must be of (a link written meanwhile) */
  ofAction?: number;
  count?: () => Promise<number>;
  capped?: () => Promise<number>;
  broad?: boolean;
  /**
   * The unfiltered list's blocks of ids (accreditation_block, migration 1764400000001): `read` them
   * newest first, and the page's ids `below` a block's end skipping `skip` of the list's entries.
   */
  blocks?: {
    read: () => Promise<{ block: number; n: number }[]>;
    below: (end: number, skip: number, take: number) => Promise<number[]>;
  };
  /**
   * A deep page (from LIST_BLOCKS_FROM) of the one condition there is, read by that condition's own
   * index instead of the walk newest first; null where it cannot be (the walk then reads it).
   */
  pageOf?: (offset: number, take: number, exactCount: boolean) => Promise<ListPage | null>;
  /**
   * The walk newest first reads only what the change feed follows (a text, groups, zones,
   * passages, printed, user fields' values) and no index counts it: its pages and count are read
   * from its marks while the action has not changed (walk-marks.ts). `deep`: a broad text's or user
   * field's walk alone, over `index` alone (a range of it from a mark), for a deep page or the
   * exact count; `always`: two or more conditions, whose count walks up to COUNT_CAP matches.
   */
  marked?: { kind: 'deep' | 'always'; index?: WalkIndex };
}

/** The index a walk alone reads (Filtered `marked`), of this table under this alias. */
interface WalkIndex {
  table: string;
  alias: string;
  name: string;
}

type ListPage = { rows: AccreditationEntity[]; max: number; maxCapped: boolean };

/** The rows of the action, where the page was read from links alone (Filtered `ofAction`). */
const ofActionOnly = (rows: AccreditationEntity[], actionId: number | undefined) =>
  actionId === undefined ? rows : rows.filter((r) => r.actionId === actionId);

/** A count as the list shows it: exact up to COUNT_CAP, or when asked, else COUNT_CAP and "+". */
const shownCount = (n: number, exact = false) =>
  exact || n <= COUNT_CAP ? { max: n, maxCapped: false } : { max: COUNT_CAP, maxCapped: true };

/**
 * The ids of a page of a list of `total` entries newest first (`take` of them after `offset`),
 * read from the nearer end: a page past the middle from the oldest, skipping at most half of the
 * entries. `read(order, skip)` reads `take` ids in that order after skipping `skip`.
 */
async function fromNearerEnd(
  total: number,
  offset: number,
  take: number,
  read: (order: 'ASC' | 'DESC', skip: number) => Promise<number[]>,
): Promise<number[]> {
  const fromOldest = offset > total / 2;
  const ids = await read(fromOldest ? 'ASC' : 'DESC', fromOldest ? total - offset - take : offset);
  return fromOldest ? ids.reverse() : ids;
}

/**
 * The block of ids (newest first, each with how many of the list's entries it holds) in which an
 * entry `offset` deep lies, and how many of its entries come before it; undefined past the last.
 */
function blockAt(counts: { block: number; n: number }[], offset: number): { block: number; skip: number } | undefined {
  let skip = offset;
  for (const b of counts) {
    if (skip < b.n) return { block: b.block, skip };
    skip -= b.n;
  }
  return undefined;
}

@Injectable()
export class AccreditationService {
  private readonly scoped: TenantRepository<AccreditationEntity>;
  private readonly actions: TenantRepository<ActionEntity>;
  private readonly groups: TenantRepository<GroupEntity>;
  private readonly zones: TenantRepository<ZoneEntity>;
  private readonly fields: TenantRepository<CustomFieldEntity>;
  private readonly images: TenantRepository<ImageEntity>;
  private readonly emailTaken: EmailTaken;
  /** the marks of the walks no index counts (walk-marks.ts), in this process */
  private readonly walkMarks = new WalkMarks();
  /** rareTrigrams' answers by table and text */
  private readonly rareKept = new TtlCache<string, string | null>({ ttlMs: RARE_KEPT_MS, max: RARE_KEPT });

  constructor(
    @InjectRepository(AccreditationEntity) repo: Repository<AccreditationEntity>,
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    @InjectRepository(GroupEntity) groups: Repository<GroupEntity>,
    @InjectRepository(ZoneEntity) zones: Repository<ZoneEntity>,
    @InjectRepository(CustomFieldEntity) fields: Repository<CustomFieldEntity>,
    @InjectRepository(ImageEntity) images: Repository<ImageEntity>,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly imageService: ImageService,
    private readonly history: AccreditationHistoryService,
  ) {
    this.scoped = new TenantRepository(repo);
    this.actions = new TenantRepository(actions);
    this.groups = new TenantRepository(groups);
    this.zones = new TenantRepository(zones);
    this.fields = new TenantRepository(fields);
    this.images = new TenantRepository(images);
    this.emailTaken = new EmailTaken(ds);
  }

  // ---- register, edit, read ----

  async create(input: Input, options: CreateOptions = {}): Promise<AccreditationDto> {
    const { actionId, id } = await this.register(input, options);
    return this.get(actionId, id);
  }

  /**
   * The create without reading the new person back: only what a caller that needs no more than the
   * id and the number gets (the online registration, issue 16).
   */
  async register(
    input: Input,
    options: CreateOptions = {},
  ): Promise<{ id: number; customId: number; actionId: number; row: NewPerson & { id: number; customId: number } }> {
    const action = options.context?.action ?? (await this.action(input.actionId));
    // an archived action takes no new people (issue 15); its own people stay editable
    if (action.archivedAt) throw new AppError('ACTION_ARCHIVED');
    const prepared = await this.prepare(action, input, null, options.fixedFields, options.photoField, options.context);
    const person: NewPerson = {
      ...prepared.row,
      subjectId: currentSubjectId(),
      actionId: action.id,
      bc: '',
      search: '',
      source: options.source ?? 'admin',
      webChannelId: options.webChannelId ?? null,
      at: new Date(),
      groupIds: prepared.groupIds,
      zoneIds: prepared.zoneIds,
      texts: prepared.texts,
      groupDefaults: options.context?.groupDefaults,
    };
    // One transaction of prepared statements on the driver (registration-write.ts): the row, its
    // links, the caller's steps (a code's use, the confirmation mail's row) and group defaults.
    for (let attempt = 0; ; attempt++) {
      // a new code on every attempt (a retry may follow a clash of codes)
      person.bc = randomCode(16);
      person.search = searchText(person);
      try {
        const { id, customId } = await coreRunner(this.ds).run((env) => createCore(env, person, options.afterInsert), {
          batch: { resultReads: [CUSTOM_ID_READ] },
        });
        return { id, customId, actionId: action.id, row: { ...person, id, customId } };
      } catch (err) {
        if (isEmailConflict(err)) throw emailExists();
        // MariaDB under a rush may also fail an insert's AUTO_INCREMENT read (error 1467): retried too
        const retried = /unique|duplicate|deadlock|lock wait timeout|auto-increment value/i;
        if (attempt < 5 && retried.test((err as Error).message)) continue;
        throw err;
      }
    }
  }

  async update(id: number, input: Input): Promise<AccreditationDto> {
    const row = await this.scoped.get(id);
    const action = await this.action(row.actionId);
    const prepared = await this.prepare(action, input, row);
    await retryingTransaction(this.ds, async (m) => {
      const before = await m.getRepository(AccreditationGroupEntity).find({ where: { accreditationId: row.id } });
      Object.assign(row, prepared.row, { updatedAt: new Date() });
      row.search = searchText(row);
      await m.getRepository(AccreditationEntity).save(row);
      await this.writeLinks(m, row, prepared);
      // groups joined by this edit give their meal and parking defaults (issue 14)
      const joined = prepared.groupIds.filter((g) => !before.some((b) => b.groupId === g));
      await applyGroupDefaults(this.ds, m, row.subjectId, [
        { accreditationId: row.id, actionId: row.actionId, groupIds: joined },
      ]);
    }).catch((err) => {
      throw isEmailConflict(err) ? emailExists() : err;
    });
    return this.get(action.id, id);
  }

  async get(actionId: number, id: number): Promise<AccreditationDto> {
    const row = await this.scoped.findOne({ id, actionId });
    if (!row) throw AppError.notFound();
    return (await this.toDtos([row]))[0];
  }

  /** The accreditations of these ids (of the current subject), in id order. */
  async byIds(ids: number[]): Promise<AccreditationDto[]> {
    if (!ids.length) return [];
    return this.toDtos(await this.scoped.find({ where: { id: In(ids) }, order: { id: 'ASC' } }));
  }

  /**
   * GET user/check/{bc}: the accreditation of any action of the subject carrying this code. The
   * code may be a badge's versioned code `{bc}-{version}` (docs/access-control.md "Badge
   * versions"): `checked` says which badge was read and whether it is superseded; a version that
   * was never printed is not found, as at the gate.
   */
  async check(code: string): Promise<CheckedAccreditationDto> {
    const { bc, version } = parseBadgeCode(code.trim());
    const row = /^[A-Z0-9]{1,32}$/i.test(bc) ? await this.scoped.findOne({ bc: bc.toUpperCase() }) : null;
    if (!row || version > (row.badgeVersion ?? 0)) throw new AppError('BC_NOT_EXIST');
    const dto = (await this.toDtos([row]))[0];
    return {
      ...dto,
      checked: { code: formatBadgeCode(row.bc, version), version, superseded: version < (row.badgeVersion ?? 0) },
    };
  }

  // ---- find ----

  async list(actionId: number, page: number, pageSize: number, filter: AccreditationFilter | null, exactCount = false) {
    const action = await this.action(actionId);
    const rows = await this.page(await this.filtered(action.id, filter, true), page, pageSize, exactCount);
    const [data, history] = await Promise.all([
      this.toDtos(rows.rows),
      this.history.forAccreditations(rows.rows.map((r) => r.id)),
    ]);
    return {
      data: data.map((dto) => ({ ...dto, history: history.get(dto.id) })),
      max: rows.max,
      maxCapped: rows.maxCapped,
      customField: await this.actionFields(action),
    };
  }

  /**
   * One page of a (filtered) list, newest first, and the size of the whole result. A filter first
   * reads the matching ids through its indexes, stopping after SELECTIVE + 1: when that is all of
   * them (a selective filter) they give the count and the page at once. Otherwise (a broad filter,
   * or none) the page's ids are read from the index alone, newest first, skipping the rows before
   * the page as index entries, not rows (a deferred join), and then those rows; the count stops at
   * COUNT_CAP + 1 matches unless `exactCount` asks for all (issue 16, bench/accreditation-list.mjs).
   */
  private async page(
    {
      qb,
      conditions,
      order = 'a.id',
      idColumn = 'a.id',
      ofAction,
      count,
      capped,
      broad,
      blocks,
      pageOf,
      marked,
    }: Filtered,
    page: number,
    pageSize: number,
    exactCount: boolean,
  ): Promise<ListPage> {
    const offset = (page - 1) * pageSize;
    if (!conditions && count) {
      // No filter: the action's size is the dashboard's count (accreditation_hourly, kept by
      // triggers in the writing transaction), so the count reads a few rows. The page's place comes
      // from the blocks of LIST_BLOCK_SIZE ids (accreditation_block, kept by triggers too): summed
      // newest first until the offset falls inside one, the page is read below that block's end,
      // skipping fewer than LIST_BLOCK_SIZE index entries instead of up to the whole offset (for a
      // page that deep: LIST_BLOCKS_FROM).
      const deep = offset >= LIST_BLOCKS_FROM.offset;
      const [total, counts] = await Promise.all([count(), deep ? blocks?.read() : undefined]);
      const counted = shownCount(total, exactCount);
      const take = Math.min(pageSize, total - offset);
      if (take <= 0) return { rows: [], ...counted };
      // only when the blocks add up to the count (read in the same moment; a write between the two
      // reads, or blocks gone wrong, falls back to skipping by OFFSET)
      if (blocks && counts && counts.reduce((sum, b) => sum + b.n, 0) === total) {
        const at = blockAt(counts, offset);
        if (at) {
          const ids = await blocks.below((at.block + 1) * LIST_BLOCK_SIZE, at.skip, take);
          return { rows: await this.rowsByIds(ids), ...counted };
        }
      }
      const ids = await fromNearerEnd(total, offset, take, async (order, skip) =>
        (
          await qb
            .clone()
            .select('a.id', 'id')
            .orderBy('a.id', order)
            .offset(skip)
            .limit(take)
            .getRawMany<{ id: number }>()
        ).map((r) => Number(r.id)),
      );
      return { rows: await this.rowsByIds(ids), ...counted };
    }
    if (pageOf && offset >= LIST_BLOCKS_FROM.offset) {
      const found = await pageOf(offset, pageSize, exactCount);
      if (found) return found;
    }
    if (marked?.kind === 'always') {
      const found = await this.markedPage(qb, marked, order, idColumn, ofAction, offset, pageSize, exactCount);
      if (found) return found;
    }
    if (conditions && !broad) {
      const ids = (
        await qb
          .clone()
          .select(idColumn, 'id')
          .limit(SELECTIVE + 1)
          .getRawMany<{ id: number }>()
      ).map((r) => Number(r.id));
      if (ids.length <= SELECTIVE) {
        const pageIds = ids.sort((a, b) => b - a).slice(offset, offset + pageSize);
        return { rows: ofActionOnly(await this.rowsByIds(pageIds), ofAction), max: ids.length, maxCapped: false };
      }
    }
    if (marked?.kind === 'deep' && (exactCount || offset >= LIST_BLOCKS_FROM.offset)) {
      const found = await this.markedPage(qb, marked, order, idColumn, ofAction, offset, pageSize, exactCount);
      if (found) return found;
    }
    const [pageIds, counted] = await Promise.all([
      qb
        .clone()
        .select(idColumn, 'id')
        .orderBy(order, 'DESC')
        .offset(offset)
        .limit(pageSize)
        .getRawMany<{ id: number }>(),
      exactCount
        ? (count ? count() : this.countAll(qb, idColumn)).then((max) => ({ max, maxCapped: false }))
        : capped
          ? capped().then((n) => shownCount(n))
          : this.cappedCount(qb, idColumn),
    ]);
    return { rows: ofActionOnly(await this.rowsByIds(pageIds.map((r) => Number(r.id))), ofAction), ...counted };
  }

  /**
   * A page of a walk the change feed follows (Filtered `marked`) from its marks (walk-marks.ts),
   * or null where a new walk cannot be marked yet. The walk continues from a mark by `order <=`
   * the mark, on the index the walk reads: a text's alone on IDX_accreditation_search (subject,
   * action, id, search), a user field's on IDX_accreditation_value_person (field, action, person,
   * value), the index alone, a range; a driven one on its links' (key, person).
   * `always` (two or more conditions) reads at least COUNT_CAP + 1 matches, so its count is known.
   */
  private async markedPage(
    qb: SelectQueryBuilder<AccreditationEntity>,
    { kind, index }: NonNullable<Filtered['marked']>,
    order: string,
    idColumn: string,
    ofAction: number | undefined,
    offset: number,
    take: number,
    exactCount: boolean,
  ): Promise<ListPage | null> {
    const actionId = Number(qb.getParameters().actionId);
    if (!Number.isInteger(actionId)) return null;
    const walk = qb.clone().select(idColumn, 'id').orderBy(order, 'DESC');
    const mariadb = this.ds.options.type === 'mariadb';
    if (kind === 'deep' && !index) return null;
    if (mariadb && index) walk.useIndex(index.name);
    // A walk alone from a mark must be a range of its index: SQLite took (subject, action, id) of
    // IDX_accreditation_list for a text and read each row for its text; MariaDB, told to USE the
    // index, took its (subject, action) ref and filtered `id <=`, walking every entry above the
    // mark (a page of a million: seconds), where FORCE INDEX is the range.
    const indexed = (q: string) =>
      !index
        ? q
        : mariadb
          ? q.replace(`USE INDEX (\`${index.name}\`)`, `FORCE INDEX (\`${index.name}\`)`)
          : q.replace(
              `FROM "${index.table}" "${index.alias}"`,
              `FROM "${index.table}" "${index.alias}" INDEXED BY "${index.name}"`,
            );
    const [sql, params] = walk.getQueryAndParameters();
    // the mark as a value no other parameter has, bound or written into the statement (whole
    // numbers are, as the statement shows), then bound as a parameter of its own: the statements
    // are prepared once on the driver (database/prepared.ts), a walk being up to a few hundred
    const [markSql, markParams] = walk
      .clone()
      .andWhere(`${order} <= :walkMark`, { walkMark: WALK_MARK })
      .getQueryAndParameters();
    const bound = markParams.indexOf(WALK_MARK);
    const written = indexed(markSql).split(String(WALK_MARK));
    if (
      (index && !new RegExp(`(INDEXED BY|FORCE INDEX) \\W*${index.name}\\W`).test(indexed(markSql))) ||
      (bound < 0 && written.length !== 2)
    )
      return null;
    const at = bound >= 0 ? bound : (written[0].match(/\?/g) ?? []).length;
    const fromSql = bound >= 0 ? indexed(markSql) : written.join('?');
    const rest = bound >= 0 ? markParams.filter((_, i) => i !== bound) : markParams;
    const fromMark = (from: number): [string, unknown[]] => [fromSql, [...rest.slice(0, at), from, ...rest.slice(at)]];
    const read = preparedReader(this.ds);
    const reader: WalkReader = {
      ids: async (from, skip, n) => {
        const [q, p] = from === undefined ? [indexed(sql), params] : fromMark(from);
        return (await read.arrays<[unknown]>(`${q} LIMIT ${Number(n)} OFFSET ${Number(skip)}`, p)).map((r) =>
          Number(r[0]),
        );
      },
      countFrom: async (from, upTo) => {
        const [q, p] = from === undefined ? [indexed(sql), params] : fromMark(from);
        // once per walk; through TypeORM, as mysql2's prepared statements read no BIGINT here
        const limit = upTo === undefined ? '' : ` LIMIT ${Number(upTo)}`;
        const [row] = await this.ds.query(`SELECT COUNT(*) AS n FROM (${q}${limit}) w`, p);
        return Number(row.n);
      },
      countAbove: async (from, above, upTo) => {
        const [q, p] = from === undefined ? [indexed(sql), params] : fromMark(from);
        const [row] = await this.ds.query(`SELECT COUNT(*) AS n FROM (${q} LIMIT ${Number(upTo)}) w WHERE w.id > ?`, [
          ...p,
          above,
        ]);
        return Number(row.n);
      },
      matching: async (ids) => {
        const [q, p] = walk.clone().andWhere(`${order} IN (:...walkIds)`, { walkIds: ids }).getQueryAndParameters();
        return (await this.ds.query(indexed(q), p)).map((r: { id: unknown }) => Number(r.id));
      },
      // MariaDB: a long walk read in two halves at once, each on a connection of the pool (the
      // action's lowest and highest id: two ends of IDX_accreditation_list)
      span: mariadb
        ? async () => {
            const [row] = await this.ds.query(
              'SELECT MIN(a.id) AS low, MAX(a.id) AS high FROM accreditation a WHERE a.subjectId = ? AND a.actionId = ?',
              [currentSubjectId(), actionId],
            );
            return row?.low == null ? null : { low: Number(row.low), high: Number(row.high) };
          }
        : undefined,
    };
    const found = await this.walkMarks.page(
      `${sql}\u0000${JSON.stringify(params)}`,
      {
        current: async () => {
          const [row] = await this.ds.query('SELECT MAX(c.id) AS v FROM accreditation_change c WHERE c.actionId = ?', [
            actionId,
          ]);
          return String(row?.v ?? 0);
        },
        settled: () => feedSettled(this.ds),
        changedSince: async (from, to, limit) => {
          const rows: { a: unknown }[] = await this.ds.query(
            `SELECT c.accreditationId AS a FROM accreditation_change c WHERE c.actionId = ? AND c.id > ? AND c.id <= ? ORDER BY c.id LIMIT ${limit + 1}`,
            [actionId, Number(from), Number(to)],
          );
          return rows.length > limit ? null : rows.map((r) => Number(r.a));
        },
      },
      reader,
      offset,
      take,
      exactCount,
      kind === 'deep' ? 0 : COUNT_CAP + 1,
    );
    if (!found) return null;
    const counted =
      found.total !== undefined
        ? shownCount(found.total, exactCount)
        : found.atLeast > COUNT_CAP
          ? shownCount(found.atLeast)
          : await this.cappedCount(qb, idColumn);
    return { rows: ofActionOnly(await this.rowsByIds(found.ids), ofAction), ...counted };
  }

  /** How many rows the query has, every one (the exact count asked for). */
  private async countAll(qb: SelectQueryBuilder<AccreditationEntity>, idColumn: string): Promise<number> {
    const [sql, params] = qb.clone().select(idColumn, 'id').getQueryAndParameters();
    const [row] = await this.ds.query(`SELECT COUNT(*) AS n FROM (${sql}) counted`, params);
    return Number(row.n);
  }

  /** How many rows a query of ids has, counting no further than COUNT_CAP + 1. */
  private async countUpToCap(sql: string, params: unknown[]): Promise<number> {
    const [row] = await this.ds.query(`SELECT COUNT(*) AS n FROM (${sql} LIMIT ${COUNT_CAP + 1}) capped`, params);
    return Number(row.n);
  }

  /** How many rows the query has, counting no further than COUNT_CAP + 1. */
  private async cappedCount(
    qb: SelectQueryBuilder<AccreditationEntity>,
    idColumn = 'a.id',
  ): Promise<{ max: number; maxCapped: boolean }> {
    const [sql, params] = qb
      .clone()
      .select(idColumn, 'id')
      .limit(COUNT_CAP + 1)
      .getQueryAndParameters();
    const [row] = await this.ds.query(`SELECT COUNT(*) AS n FROM (${sql}) capped`, params);
    return shownCount(Number(row.n));
  }

  /** The accreditations of these ids, in this order (newest first). */
  private async rowsByIds(ids: number[]): Promise<AccreditationEntity[]> {
    if (!ids.length) return [];
    const byId = new Map((await this.scoped.find({ where: { id: In(ids) } })).map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * The ids of the first SELECTIVE + 1 rows of an index lookup (a filter's own table), to decide
   * between handing the matches over as a list (few) and a correlated EXISTS (many: the walk
   * newest first finds a page of them after a few rows, where `a.id IN (SELECT …)` would first
   * read every match).
   */
  private async firstIds(sql: string, params: unknown[]): Promise<number[]> {
    return (await this.ds.query(`${sql} LIMIT ${SELECTIVE + 1}`, params)).map((r: { id: number }) => Number(r.id));
  }

  /** The days with entries of the action, read one index dive each (at most 32). */
  private async entranceDays(actionId: number): Promise<string[]> {
    const days: string[] = [];
    while (days.length <= 31) {
      const [row] = await this.ds.query(
        'SELECT MIN(e.day) AS day FROM entrance e WHERE e.actionId = ? AND e.type = 1 AND e.day > ?',
        [actionId, days.at(-1) ?? ''],
      );
      if (!row?.day) break;
      days.push(String(row.day));
    }
    return days;
  }

  /**
   * MariaDB: the ids of the rows holding `text` (at most COUNT_CAP of them), through a trigram
   * table of migration 1764108100000 (`key(alias)` its rows of the action, or of the field), or
   * null when the text is shorter than 3 characters or common (its rarest trigram, or the
   * candidates, over COUNT_CAP: then the walk newest first finds a page at once). Up to 6
   * trigrams spread over the text are weighed by the optimizer's estimate of their index range
   * (EXPLAIN: an index dive each, nothing read); the rarest drives, the other rare ones are
   * primary-key probes in order of rarity, and every candidate is checked with the exact `LIKE` (`check`): the
   * same matches as the scan. The action's people whose rows the trigram worker has not written yet
   * (`trigram_pending`, migration 1764300000001) are candidates too, checked the same way.
   */
  private async trigramIds(
    actionId: number,
    table: string,
    key: (alias: string) => string,
    keyParams: unknown[],
    text: string,
    check: { join: string; where: string; params: unknown[] },
  ): Promise<number[] | null> {
    const grams = spreadTrigrams(text);
    if (!grams.length) return null;
    const plan: { id: number | null; rows: number | null }[] = await this.ds.query(
      `EXPLAIN ${grams.map(() => `SELECT 1 FROM ${table} t WHERE ${key('t')} AND t.trigram = ?`).join(' UNION ALL ')}`,
      grams.flatMap((gram) => [...keyParams, gram]),
    );
    const estimate = new Map(plan.map((r) => [Number(r.id), Number(r.rows ?? 0)]));
    const ordered = grams.map((gram, k) => ({ gram, n: estimate.get(k + 1) ?? 0 })).sort((a, b) => a.n - b.n);
    if (ordered[0].n > COUNT_CAP) return null;
    // Another trigram is probed only when its range is small too (its pages stay cached): a probe
    // into a common trigram's long range is a random page read per candidate, dearer than checking
    // the candidate's text (at a million, 5 such probes per candidate took 300 ms against 9).
    const probed = ordered.slice(1).filter((r) => r.n <= 4 * COUNT_CAP);
    const joins = probed
      .map((_, i) => `t${i + 1}`)
      .map(
        (t) =>
          ` STRAIGHT_JOIN ${table} ${t} ON ${key(t)} AND ${t}.trigram = ? AND ${t}.accreditationId = t0.accreditationId`,
      )
      .join('');
    // With the people not indexed yet (migration 1764300000001: their rows are written by the
    // trigram worker after their transaction), each checked the same way, in the same statement.
    const rows: { id: number }[] = await this.ds.query(
      `(SELECT t0.accreditationId AS id FROM ${table} t0${joins} STRAIGHT_JOIN ${check.join} WHERE ${key('t0')} AND t0.trigram = ? AND ${check.where} LIMIT ${COUNT_CAP + 1}) UNION (SELECT t0.accreditationId AS id FROM trigram_pending t0 STRAIGHT_JOIN ${check.join} WHERE t0.actionId = ? AND ${check.where} LIMIT ${COUNT_CAP + 1})`,
      [
        ...probed.flatMap((r) => [...keyParams, r.gram]),
        ...keyParams,
        ordered[0].gram,
        ...check.params,
        actionId,
        ...check.params,
      ],
    );
    return rows.length > COUNT_CAP ? null : rows.map((r) => Number(r.id));
  }

  /**
   * SQLite: a MATCH that finds the rows of an FTS5 trigram index (`accreditation_fts`, migration
   * 1764105000000; `accreditation_value_fts`, 1764105100000) holding `text` from its rarer trigrams
   * alone, or null when none of them is rare (each has more than COUNT_CAP rows: then the `LIKE`
   * through the index as before). FTS5 answers `LIKE '%…%'` by intersecting the doclists of every
   * trigram of the text, and a trigram in every row costs its whole doclist: "Company 100" among a
   * million "Company …" values read six doclists of a million entries (60–100 ms) for a thousand
   * matches. Up to 6 trigrams spread over the text are weighed (`weighTrigrams`) at 1,000 rows
   * (~0.05 ms for a common one); when none has fewer, those estimated at COUNT_CAP or fewer are
   * weighed again at COUNT_CAP (~0.4 ms each), which says exactly whether one is rare. With a rare
   * one, the MATCH is the AND of it and the others estimated at 10 × COUNT_CAP rows or fewer
   * (short doclists, cheap to intersect, that leave fewer candidates to check; see FTS_TRIGRAMS),
   * and the caller checks the exact `LIKE` on each candidate, its column behind a unary `+` so that
   * FTS5 is not handed the `LIKE` (every trigram) again: the same matches as the scan, from at most
   * COUNT_CAP candidates. FTS5 folds a trigram's case as it folds the text's, so every trigram of
   * the text is one of each matching row's (`LIKE` folds ASCII letters only, which FTS5 folds too).
   */
  private async rareTrigrams(table: 'accreditation_fts' | 'accreditation_value_fts', text: string) {
    // The answer only chooses the way to the matches (both are exact: every row holding the text
    // holds each of its trigrams, and every candidate is checked by the LIKE), so it is kept a
    // minute: a broad text's page read from its marks no longer weighs its trigrams each time
    // (a statement of up to six FTS5 lookups, and a second one when none of them is rare).
    return this.rareKept.load(`${table}\u0000${text}`, () => this.weighRare(table, text));
  }

  private async weighRare(table: 'accreditation_fts' | 'accreditation_value_fts', text: string) {
    const grams = spreadTrigrams(text);
    if (!grams.length) return null;
    const { first, rare, short } = FTS_TRIGRAMS;
    let weighed = await this.weighTrigrams(table, grams, first);
    if (weighed.every((g) => g.n > 0)) {
      const maybe = weighed.filter((g) => g.n <= rare).map((g) => g.gram);
      if (!maybe.length) return null;
      const exact = new Set((await this.weighTrigrams(table, maybe, rare)).filter((g) => !g.n).map((g) => g.gram));
      if (!exact.size) return null;
      weighed = weighed.map((g) => (exact.has(g.gram) ? { gram: g.gram, n: 0 } : g));
    }
    return weighed
      .sort((a, b) => a.n - b.n)
      .filter((g) => g.n <= short)
      .map((g) => ftsPhrase(g.gram))
      .join(' AND ');
  }

  /**
   * Each trigram's row number `offset` in an FTS5 index, in one statement: none (n = 0) means it
   * has at most `offset` rows; else its rows are estimated (n) from how far into the table's
   * rowids its first `offset` + 1 reach.
   */
  private async weighTrigrams(table: string, grams: string[], offset: number) {
    const [row] = await this.ds.query(
      `SELECT ${grams.map((_, k) => `(SELECT ${offset + 1} * (b.hi - b.lo + 1.0) / (rowid - b.lo + 1) FROM ${table} WHERE ${table} MATCH ? LIMIT 1 OFFSET ${offset}) AS n${k}`).join(', ')} FROM (SELECT (SELECT rowid FROM ${table} ORDER BY rowid LIMIT 1) AS lo, (SELECT MAX(rowid) FROM ${table}) AS hi) b`,
      grams.map(ftsPhrase),
    );
    return grams.map((gram, k) => ({ gram, n: Number(row[`n${k}`] ?? 0) }));
  }

  /**
   * The filter panel (spec §2) as one query on the action's accreditations, how many conditions it
   * holds, and, where one condition alone can be counted cheaper than the combined query, that
   * exact count (used when the exact count is asked for).
   */
  private async filtered(actionId: number, filter: AccreditationFilter | null, forList = false): Promise<Filtered> {
    const qb = this.scoped.query('a').andWhere('a.actionId = :actionId', { actionId });
    let conditions = 0;
    const where = (sql: string, params?: Record<string, unknown>) => {
      qb.andWhere(sql, params);
      conditions++;
    };
    // A condition matched by few (≤ SELECTIVE) ids, given as the list, or by many, as `broad`.
    let known = 0; // conditions whose first ids, read already, were more than SELECTIVE
    const selectiveOr = (name: string, ids: number[], broad: string, params?: Record<string, unknown>, not = false) => {
      if (ids.length > SELECTIVE) {
        where(broad, params);
        known++;
      } else if (ids.length) where(`a.id ${not ? 'NOT IN' : 'IN'} (:...${name})`, { [name]: ids });
      else where(not ? '1 = 1' : '1 = 0');
    };
    // A way to count the matches of the one condition there is, cheaper than the combined query,
    // and one that stops after COUNT_CAP + 1 reading that condition's own index range.
    let soleCount: (() => Promise<number>) | undefined;
    let soleCapped: (() => Promise<number>) | undefined;
    let solePage: Filtered['pageOf'];
    // The action's people, from the dashboard's counts (migration 1764102000000): a few rows.
    const actionCount = async () => {
      const [row] = await this.ds.query(
        'SELECT COALESCE(SUM(h.registrations), 0) AS n FROM accreditation_hourly h WHERE h.subjectId = ? AND h.actionId = ?',
        [currentSubjectId(), actionId],
      );
      return Number(row.n);
    };
    // the action's blocks of ids, newest first (migration 1764400000001): ~250 rows at a million
    const blocks: Filtered['blocks'] = {
      read: async () =>
        (
          await this.ds.query(
            'SELECT b.block AS block, b.n AS n FROM accreditation_block b WHERE b.subjectId = ? AND b.actionId = ? ORDER BY b.block DESC',
            [currentSubjectId(), actionId],
          )
        ).map((r: { block: number; n: number }) => ({ block: Number(r.block), n: Number(r.n) })),
      // the list's base query (no condition) below a block's end, on IDX_accreditation_list
      // (subject, action, id): MariaDB took the primary key's range of `id <` for it, which reads
      // whole rows, and every other action's rows too where actions' ids interleave
      below: async (end, skip, take) =>
        (
          await this.ds.query(
            `SELECT a.id AS id FROM accreditation a ${this.ds.options.type === 'mariadb' ? 'FORCE INDEX (IDX_accreditation_list)' : 'INDEXED BY IDX_accreditation_list'} WHERE a.subjectId = ? AND a.actionId = ? AND a.id < ? ORDER BY a.id DESC LIMIT ${Number(take)} OFFSET ${Number(skip)}`,
            [currentSubjectId(), actionId, end],
          )
        ).map((r: { id: number }) => Number(r.id)),
    };
    if (!filter) return { qb, conditions, count: actionCount, blocks };
    // A deep page of a facet alone (printed, not entered, entered on a day; migration
    // 1764700000001), or with `complement` of the action's people outside it (not printed,
    // entered, not entered on a day): its people counted per block of ids, summed newest first
    // until the offset falls inside a block, and the filter's own walk newest first from that
    // block's end, reading at most about a block's people instead of every one before the page.
    // The complement's blocks are the action's less the facet's, read only when the action's add
    // up to its count; null (the walk from the newest reads the page) where the counts cannot be
    // right, or the walk found fewer people than they promised.
    const facetPage =
      (facet: string, complement: boolean): Filtered['pageOf'] =>
      async (offset, take, exactCount) => {
        const [own, people] = await Promise.all([
          this.ds.query(
            'SELECT f.block AS block, f.n AS n FROM accreditation_facet_block f WHERE f.actionId = ? AND f.facet = ? ORDER BY f.block DESC',
            [actionId, facet],
          ) as Promise<{ block: number; n: number }[]>,
          complement ? Promise.all([blocks.read(), actionCount()]) : undefined,
        ]);
        let counts = own.map((b) => ({ block: Number(b.block), n: Number(b.n) }));
        if (people) {
          const [all, size] = people;
          if (all.reduce((sum, b) => sum + b.n, 0) !== size) return null;
          const inFacet = new Map(counts.map((b) => [b.block, b.n]));
          const outside = all.map((b) => ({ block: b.block, n: b.n - (inFacet.get(b.block) ?? 0) }));
          const ofAction = new Set(all.map((b) => b.block));
          if (outside.some((b) => b.n < 0) || counts.some((b) => !ofAction.has(b.block))) return null;
          counts = outside;
        }
        const total = counts.reduce((sum, b) => sum + b.n, 0);
        const counted = shownCount(total, exactCount);
        const n = Math.min(take, total - offset);
        if (n <= 0) return { rows: [], ...counted };
        const at = blockAt(counts, offset);
        if (!at) return null;
        const ids = (
          await qb
            .clone()
            .select('a.id', 'id')
            .andWhere('a.id < :facetEnd', { facetEnd: (at.block + 1) * LIST_BLOCK_SIZE })
            .orderBy('a.id', 'DESC')
            .offset(at.skip)
            .limit(n)
            .getRawMany<{ id: number }>()
        ).map((r) => Number(r.id));
        return ids.length === n ? { rows: await this.rowsByIds(ids), ...counted } : null;
      };
    // A group or a zone alone. Counted by the triggers (accreditation_group_count, migration
    // 1764400000002; accreditation_zone_count, 1764800000001: the action's people linked to it,
    // exact): one primary-key read, not 10,001 links each looked up in IDX_accreditation_list (a
    // group or zone without an action links several actions' people).
    // A deep page: the walk newest first probes every person for the link (a page 100,000 deep
    // into a group of a tenth walked a million people, 150-270 ms at a million). When every link
    // is a person of this subject and action (the links, counted on their index, are as many as
    // the kept count of this action's linked people, which counts only people that exist), the
    // page is read from the links alone, in person order (IDX_accreditation_group_person,
    // migration 1764600000001; IDX_accreditation_zone_person, 1764800000001), from the nearer end;
    // its people are checked to be the action's all the same (a link written between the two
    // reads: the walk reads the page instead).
    const linkedAlone = (
      link: 'accreditation_group' | 'accreditation_zone',
      key: 'groupId' | 'zoneId',
      id: number,
    ): { count: () => Promise<number>; page: Filtered['pageOf'] } => ({
      count: async () => {
        const [row] = await this.ds.query(
          `SELECT c.n AS n FROM ${link}_count c WHERE c.${key} = ? AND c.subjectId = ? AND c.actionId = ?`,
          [id, currentSubjectId(), actionId],
        );
        return Number(row?.n ?? 0);
      },
      page: async (offset, take, exactCount) => {
        const [own]: { links: number; n: number }[] = await this.ds.query(
          `SELECT (SELECT COUNT(*) FROM ${link} g WHERE g.${key} = ?) AS links, c.n AS n FROM ${link}_count c WHERE c.${key} = ? AND c.subjectId = ? AND c.actionId = ?`,
          [id, id, currentSubjectId(), actionId],
        );
        if (!own || Number(own.links) !== Number(own.n)) return null;
        const total = Number(own.n);
        const counted = shownCount(total, exactCount);
        const n = Math.min(take, total - offset);
        if (n <= 0) return { rows: [], ...counted };
        const ids = await fromNearerEnd(total, offset, n, async (order, skip) =>
          (
            await this.ds.query(
              `SELECT g.accreditationId AS id FROM ${link} g WHERE g.${key} = ? ORDER BY g.accreditationId ${order} LIMIT ${n} OFFSET ${skip}`,
              [id],
            )
          ).map((r: { id: number }) => Number(r.id)),
        );
        const rows = await this.rowsByIds(ids);
        if (rows.length !== n || rows.some((r) => r.actionId !== actionId)) return null;
        return { rows, ...counted };
      },
    });
    let textWalk = false;
    if (filter.text) {
      // One folded column: names, e-mail, code (see searchText), matched byte for byte: the text
      // is folded as the column is, so MariaDB compares it in utf8mb4_bin (as SQLite's LIKE does
      // the folded bytes) rather than the column's unicode_ci, which equates more (e.g. "æ" and
      // "ae") than the trigram path can find and costs a broad text's walk ~20 % more a step
      // (4,096 entries of IDX_accreditation_search: 2.67 against 2.08 ms, measured 2026-12-08)
      const folded = foldSearch(filter.text);
      const like = containing(folded);
      const search = this.ds.options.type === 'mariadb' ? 'a.search COLLATE utf8mb4_bin' : 'a.search';
      const scan = () => {
        where(`${search} LIKE :like ESCAPE '!'`, { like });
        textWalk = true;
      };
      if (this.ds.options.type === 'mariadb') {
        // MariaDB: the trigram table (migration 1764108100000), each candidate checked by the LIKE
        const ids = await this.trigramIds(
          actionId,
          'accreditation_trigram',
          (t) => `${t}.actionId = ?`,
          [actionId],
          folded,
          {
            join: 'accreditation a ON a.id = t0.accreditationId',
            where: `${search} LIKE ? ESCAPE '!'`,
            params: [like],
          },
        );
        if (!ids) scan();
        else if (ids.length <= SELECTIVE) selectiveOr('textIds', ids, '');
        else {
          where('a.id IN (:...textIds)', { textIds: ids });
          known++;
          soleCapped = async () => ids.length;
        }
      } else if (folded.length < 3 || /[%_]/.test(folded)) scan();
      else {
        // SQLite: the trigram index (migration 1764105000000) finds every row holding the text,
        // of any action, for a pattern of 3 characters or more; with at most COUNT_CAP of them the
        // list reads those, otherwise the text is common and the walk newest first finds a page at once.
        // A text with a rare trigram is read from its rarer ones (rareTrigrams: FTS5 would also read
        // the long doclists of its common ones), every match (at most COUNT_CAP, of any action).
        const fts = `%${folded}%`;
        const rare = await this.rareTrigrams('accreditation_fts', folded);
        const hits = await (rare
          ? this.ds.query(
              'SELECT rowid AS id FROM accreditation_fts WHERE accreditation_fts MATCH ? AND +search LIKE ?',
              [rare, fts],
            )
          : this.ds.query('SELECT rowid AS id FROM accreditation_fts WHERE search LIKE ? LIMIT ?', [
              fts,
              COUNT_CAP + 1,
            ]));
        const ids = hits.map((r: { id: number }) => Number(r.id));
        if (hits.length > COUNT_CAP) scan();
        else if (hits.length <= SELECTIVE) selectiveOr('textIds', ids, '');
        else if (rare) where('a.id IN (:...textIds)', { textIds: ids });
        else where('a.id IN (SELECT f.rowid FROM accreditation_fts f WHERE f.search LIKE :fts)', { fts });
      }
    }
    // A group's or zone's many people are a probe of the link per person (EXISTS), added once every
    // condition is known: with other conditions, the smallest of them drives instead (below).
    const linked: { link: string; key: string; id: number; size: () => Promise<number> }[] = [];
    const linkProbe = (l: (typeof linked)[number]): [string, Record<string, unknown>] => [
      `EXISTS (SELECT 1 FROM ${l.link} g WHERE g.accreditationId = a.id AND g.${l.key} = :${l.key})`,
      { [l.key]: l.id },
    ];
    // many printed (1) or not printed (-1): a probe added once the driver is known (below)
    let printedProbe: 1 | -1 | undefined;
    for (const [link, key, id] of [
      ['accreditation_group', 'groupId', filter.groupId],
      ['accreditation_zone', 'zoneId', filter.zoneId],
    ] as const) {
      if (!id) continue;
      const ids = await this.firstIds(`SELECT g.accreditationId AS id FROM ${link} g WHERE g.${key} = ?`, [id]);
      const alone = linkedAlone(link, key, id);
      if (ids.length > SELECTIVE) {
        linked.push({ link, key, id, size: alone.count });
        conditions++;
        known++;
      } else selectiveOr(`${key}s`, ids, '');
      ({ count: soleCount, page: solePage } = alone);
      soleCapped = soleCount;
    }
    if (filter.printed === 1 || filter.printed === -1) {
      // IDX_accreditation_printed (subject, action, printCount): the first ids, and alone the capped
      // count, from its range. Many are `+a.printCount …` (no index): the walk newest first finds a
      // page at once, where SQLite took the range and sorted it (140,000 ids for a page at 1 in 7).
      const test = filter.printed === 1 ? '> 0' : '= 0';
      const own = `SELECT a.id AS id FROM accreditation a WHERE a.subjectId = ? AND a.actionId = ? AND a.printCount ${test}`;
      const ownParams = [currentSubjectId(), actionId];
      const ids = await this.firstIds(own, ownParams);
      if (ids.length > SELECTIVE) {
        printedProbe = filter.printed;
        conditions++;
        known++;
      } else selectiveOr('printedIds', ids, '');
      soleCapped = () => this.countUpToCap(own, ownParams);
      solePage = facetPage(FACET.printed, filter.printed === -1);
    }
    if (filter.entrance) {
      // 1 entered, 2 entered on a day, 3 not entered, 4 not entered on a day (spec §2); the day
      // defaults to today, as the date picker does.
      const onDay = filter.entrance === 2 || filter.entrance === 4;
      const entranceDay =
        filter.entranceDate || localDay(new Date(), await subjectTimeZone(this.ds, currentSubjectId()));
      const params = { actionId, entranceDay };
      const day = onDay ? ' AND e.day = :entranceDay' : '';
      const not = filter.entrance > 2;
      // entered (1) and not entered (3) from "not entered"'s blocks, on a day (2, 4) from the day's
      solePage = onDay
        ? facetPage(FACET.enteredOn(entranceDay), not)
        : facetPage(FACET.notEntered, filter.entrance === 1);
      if (filter.entrance === 3) {
        // "Not entered": the action's people without an entry are `accreditation_not_entered`
        // (action, person; migration 1764200000001, kept by triggers on the accreditations and the
        // entry log), one index range in id order: few are handed over as a list, many are a join
        // on its key (the walk newest first probes it; read newest first itself, it is the page's
        // order), and the count reads that range alone, never further than asked.
        const notEntered = 'SELECT ne.accreditationId AS id FROM accreditation_not_entered ne WHERE ne.actionId = ?';
        const ids = await this.firstIds(notEntered, [actionId]);
        // (driven by a group's or zone's links, below, MariaDB would start from this join instead:
        // the person's row is probed by a scalar sub-query there, which it does not turn into a join)
        if (ids.length > SELECTIVE && this.ds.options.type === 'mariadb' && linked.length) {
          where(
            '(SELECT 1 FROM accreditation_not_entered ne WHERE ne.actionId = :actionId AND ne.accreditationId = a.id) IS NOT NULL',
            { actionId },
          );
          known++;
        } else if (ids.length > SELECTIVE && this.ds.options.type === 'mariadb') {
          // MariaDB reads the range newest first and each row by its key: the page's order, no sort
          qb.innerJoin('accreditation_not_entered', 'ne', 'ne.actionId = :actionId AND ne.accreditationId = a.id', {
            actionId,
          });
          conditions++;
          known++;
        }
        // SQLite would read the join from the range too, then sort it (200,000 ids at a million):
        // the walk newest first probing its key finds a page at once
        else
          selectiveOr(
            'notEnteredIds',
            ids,
            'EXISTS (SELECT 1 FROM accreditation_not_entered ne WHERE ne.actionId = :actionId AND ne.accreditationId = a.id)',
            { actionId },
          );
        soleCapped = () => this.countUpToCap(notEntered, [actionId]);
        soleCount = async () => {
          const [row] = await this.ds.query(
            'SELECT COUNT(*) AS n FROM accreditation_not_entered ne WHERE ne.actionId = ?',
            [actionId],
          );
          return Number(row.n);
        };
      } else {
        // The people who entered, from IDX_entrance_filter (action, type, day, person): few are
        // handed over as a list; many (or many who did not enter) are a probe per row of that same
        // covering index, every equality given: (action, entry, the day or each day with entries,
        // this person). The probe is a scalar `(SELECT 1 … LIMIT 1) IS [NOT] NULL` (for "not
        // entered" the anti-join): MariaDB turns an EXISTS or NOT EXISTS on the entry log into
        // reading every entry of the action first (exists_to_in), 240,000 rows at 300,000 people.
        const ids = await this.firstIds(
          `SELECT DISTINCT e.accreditationId AS id FROM entrance e WHERE e.actionId = ? AND e.type = 1${onDay ? ' AND e.day = ?' : ''}`,
          onDay ? [actionId, entranceDay] : [actionId],
        );
        let probe = `SELECT 1 FROM entrance e WHERE e.accreditationId = a.id AND e.type = 1${day}`;
        const probeParams: Record<string, unknown> = { ...params };
        let antiJoined = false;
        if (ids.length > SELECTIVE) {
          const days = onDay ? [entranceDay] : await this.entranceDays(actionId);
          if (not && days.length === 1 && this.ds.options.type === 'mariadb') {
            // MariaDB, "not entered" (on the one day there is): a LEFT JOIN anti-join ("Not
            // exists": it stops at the first entry) costs a quarter of the scalar sub-query's
            // executions, which the capped count runs 5 times per match (50,000 at 1 in 5).
            // Only with the day an equality: with several days MariaDB reads the entry log by
            // person (IDX_entrance_accreditation) and each row, so the probe below stays.
            qb.leftJoin(
              'entrance',
              'ne',
              'ne.actionId = :actionId AND ne.type = 1 AND ne.day = :notEnteredDay AND ne.accreditationId = a.id',
              { actionId, notEnteredDay: days[0] },
            );
            where('ne.accreditationId IS NULL');
            antiJoined = true;
          }
          // a log over more days than an event has: the probe of IDX_entrance_accreditation (person, day)
          else if (days.length <= 31) {
            probe =
              'SELECT 1 FROM entrance e WHERE e.actionId = :actionId AND e.type = 1 AND e.day IN (:...entranceDays) AND e.accreditationId = a.id';
            probeParams.entranceDays = days;
          }
        }
        if (!antiJoined)
          selectiveOr('enteredIds', ids, `(${probe} LIMIT 1) IS ${not ? '' : 'NOT '}NULL`, probeParams, not);
        // Alone, counted from IDX_entrance_filter (action, type, day, person) without a probe per
        // accreditation: the entry log holds rows of existing accreditations only (remove()).
        soleCount = async () => {
          const [row] = await this.ds
            .createQueryBuilder()
            .from('entrance', 'e')
            .select('COUNT(DISTINCT e.accreditationId)', 'n')
            .where(`e.actionId = :actionId AND e.type = 1${day}`, params)
            .getRawMany<{ n: number }>();
          return not ? (await actionCount()) - Number(row.n) : Number(row.n);
        };
        // Alone and entered: the same index range, distinct people up to COUNT_CAP + 1 (not the walk
        // newest first probing each person).
        if (!not)
          soleCapped = () =>
            this.countUpToCap(
              `SELECT DISTINCT e.accreditationId AS id FROM entrance e WHERE e.actionId = ? AND e.type = 1${onDay ? ' AND e.day = ?' : ''}`,
              onDay ? [actionId, entranceDay] : [actionId],
            );
      }
    }
    // A user field's value matched by many, probed per person (EXISTS): read alone when it is the
    // only condition (below).
    let broadValue: { v: string; values: () => SelectQueryBuilder<ObjectLiteral> } | undefined;
    for (const [i, [fieldId, wanted]] of Object.entries(filter.customField ?? {}).entries()) {
      // field ids are digits (accreditationFilterSchema)
      if (wanted === '' || wanted === null) continue;
      const exact = String(wanted) === '1' || String(wanted) === '-1';
      const v = `v${i}`;
      const condition = `${v}.fieldId = :f${i} AND ${v}.actionId = :actionId AND ${v}.value ${exact ? '= :' : 'LIKE :'}${v}${exact ? '' : " ESCAPE '!'"}`;
      const params = {
        actionId,
        [`f${i}`]: Number(fieldId),
        [v]: exact ? String(wanted) : containing(String(wanted)),
      };
      // The field's matches are read first through IDX_accreditation_value_field (field, action,
      // value): MariaDB would drive `a.id IN (SELECT … FROM accreditation_value …)` from the
      // action's rows, one probe each, several times slower than handing over a short list. A broad
      // match is a probe of the value's key per row; alone, it is counted from the index without
      // touching the rows.
      const values = () => this.ds.createQueryBuilder().from('accreditation_value', v).where(condition, params);
      const text = String(wanted);
      // On SQLite a "contains" of 3 characters or more is read from the trigram index of the
      // values (migration 1764105100000); SQLite checks the LIKE on each row it returns.
      const indexed = !exact && this.ds.options.type !== 'mariadb' && text.length >= 3 && !/[%_!]/.test(text);
      // On SQLite, a text with a rare trigram from its rarer ones (rareTrigrams), each candidate
      // checked by the LIKE: every match. On MariaDB, from its trigram table (migration
      // 1764108100000): every match, checked by the LIKE, when there are at most COUNT_CAP of them.
      const rare = indexed ? await this.rareTrigrams('accreditation_value_fts', text) : null;
      const all = rare
        ? (
            await this.ds.query(
              "SELECT rowid >> 32 AS id FROM accreditation_value_fts WHERE accreditation_value_fts MATCH ? AND fieldId = ? AND actionId = ? AND +value LIKE ? ESCAPE '!'",
              [rare, Number(fieldId), actionId, params[v]],
            )
          ).map((r: { id: number }) => Number(r.id))
        : !exact && this.ds.options.type === 'mariadb'
          ? await this.trigramIds(
              actionId,
              'accreditation_value_trigram',
              (t) => `${t}.actionId = ? AND ${t}.fieldId = ?`,
              [actionId, Number(fieldId)],
              text,
              {
                join: 'accreditation_value v ON v.accreditationId = t0.accreditationId',
                where: "v.fieldId = ? AND v.value LIKE ? ESCAPE '!'",
                params: [Number(fieldId), params[v]],
              },
            )
          : null;
      if (all && all.length > SELECTIVE) {
        where(`a.id IN (:...ids${i})`, { [`ids${i}`]: all });
        known++;
        soleCount = async () => all.length;
        soleCapped = async () => all.length;
        continue;
      }
      const ids =
        all ??
        (indexed
          ? await this.firstIds(
              'SELECT f.rowid >> 32 AS id FROM accreditation_value_fts f WHERE f.value LIKE ? AND f.fieldId = ? AND f.actionId = ?',
              [`%${text}%`, Number(fieldId), actionId],
            )
          : (
              await values()
                .select(`${v}.accreditationId`, 'id')
                .limit(SELECTIVE + 1)
                .getRawMany<{ id: number }>()
            ).map((r) => Number(r.id)));
      selectiveOr(
        `ids${i}`,
        ids,
        `EXISTS (SELECT 1 FROM accreditation_value ${v} WHERE ${v}.accreditationId = a.id AND ${condition})`,
        params,
      );
      if (ids.length > SELECTIVE) {
        broadValue = { v, values };
        soleCount = async () => {
          const [row] = await values().select('COUNT(*)', 'n').getRawMany<{ n: number }>();
          return Number(row.n);
        };
        // up to COUNT_CAP + 1 entries of IDX_accreditation_value_field (one value per person)
        soleCapped = () => this.countUpToCap(...values().select(`${v}.accreditationId`, 'id').getQueryAndParameters());
      }
    }
    // Several conditions, one of them a group or zone of many: its links drive the query, newest
    // first on their (key, person) index, each person probed for the other conditions, instead of
    // the walk of every person of the action probing each for all of them (a group of a tenth and
    // a zone that share no one: a million people walked to find none, 360 ms of CPU on SQLite at a
    // million; the links: a tenth of that). The smallest by its kept count drives.
    let order = 'a.id';
    const sizes = linked.length && conditions > 1 ? await Promise.all(linked.map((l) => l.size())) : [];
    const drive = sizes.length ? linked[sizes.indexOf(Math.min(...sizes))] : undefined;
    if (printedProbe) {
      // Many printed (or not): walked newest first, the print count is read from
      // IDX_accreditation_printed, which the walk reads as its covering index; a query driven by
      // links reaches each person by its key, where the print count is in the row (a person's row
      // read for each link, 5-10 times the cost): there the same index is probed instead, for an
      // entry (subject, action, 0, person), one seek.
      if (drive)
        qb.andWhere(
          `(SELECT 1 FROM accreditation p ${this.ds.options.type === 'mariadb' ? 'FORCE INDEX (IDX_accreditation_printed)' : 'INDEXED BY IDX_accreditation_printed'} WHERE p.subjectId = :printedSubject AND p.actionId = :actionId AND p.printCount = 0 AND p.id = a.id) IS ${printedProbe === 1 ? '' : 'NOT '}NULL`,
          { printedSubject: currentSubjectId(), actionId },
        );
      else qb.andWhere(`+a.printCount ${printedProbe === 1 ? '> 0' : '= 0'}`);
    }
    // Marked (walk-marks.ts): every condition is of what the change feed follows (a text, a group,
    // a zone, passages, printed or not since migration 1765000000002, a user field's values with
    // the person's field values). A user field's deletion takes its values with no entry in the
    // feed, but a walk reads them only when its first read above found more than SELECTIVE: once
    // they are gone the filter is another statement (`1 = 0`), another walk.
    const marked: Filtered['marked'] =
      conditions > 1
        ? { kind: 'always' }
        : conditions === 1 && textWalk && !drive
          ? { kind: 'deep', index: { table: 'accreditation', alias: 'a', name: 'IDX_accreditation_search' } }
          : undefined;
    if (linked.length) {
      for (const l of linked) if (l !== drive) qb.andWhere(...linkProbe(l));
      // For a page of the list (not a bulk change, which acts on the people it names): when every
      // link of the driver is a person of this subject and action (its links, counted on their
      // index, are as many as its kept count, which counts only this action's people), and no
      // condition reads a column of the person but its id, the person need not be read at all:
      // the links alone, each probed for the other conditions on its person's id (a group and a
      // zone that share no one: 74 -> 28 ms of SQL on SQLite at a million). A person of another
      // action linked between the two reads is dropped from the page (ListPage `ofAction`).
      if (drive && forList && !qb.expressionMap.joinAttributes.length) {
        const others = qb.expressionMap.wheres.slice(1).map((w) => w.condition);
        const idOnly = others.every(
          (c) => typeof c === 'string' && !/\ba\.(?!id\b)\w+/.test(c.replace('a.actionId = :actionId', '')),
        );
        if (idOnly) {
          const [own] = await this.ds.query(`SELECT COUNT(*) AS n FROM ${drive.link} g WHERE g.${drive.key} = ?`, [
            drive.id,
          ]);
          if (Number(own.n) === (await drive.size())) {
            const lq = this.ds
              .createQueryBuilder()
              .from(drive.link, 'drv')
              .where(`drv.${drive.key} = :drive`, { drive: drive.id })
              .setParameters(qb.getParameters());
            for (const c of others as string[])
              if (c !== 'a.actionId = :actionId') lq.andWhere(c.replace(/\ba\.id\b/g, 'drv.accreditationId'));
            return {
              qb: lq as unknown as SelectQueryBuilder<AccreditationEntity>,
              conditions,
              order: 'drv.accreditationId',
              idColumn: 'drv.accreditationId',
              ofAction: actionId,
              marked,
            };
          }
        }
      }
      if (drive) {
        qb.innerJoin(drive.link, 'drv', `drv.${drive.key} = :drive AND drv.accreditationId = a.id`, {
          drive: drive.id,
        });
        order = 'drv.accreditationId';
        // MariaDB reads each person by the primary key, the whole row (3 s for 100,000 links at
        // a million, the rows not in the buffer pool); (subject, action, id) answers the join alone
        if (this.ds.options.type === 'mariadb') qb.useIndex('IDX_accreditation_list');
      }
    }
    const result: Filtered = {
      qb,
      conditions,
      order,
      count: conditions === 0 ? actionCount : conditions === 1 ? soleCount : undefined,
      capped: conditions === 1 ? soleCapped : undefined,
      broad: conditions === 1 && known === 1,
      blocks: conditions === 0 ? blocks : undefined,
      pageOf: conditions === 1 ? solePage : undefined,
      marked,
    };
    // For a page of the list, a user field's value matched by many and nothing else: the field's
    // values alone, newest person first on IDX_accreditation_value_person (field, action, person,
    // value), each checked there, instead of the walk of every person probing their value (two
    // seeks each on SQLite): a page half a million deep at a million reads half a million index
    // entries and no row (migration 1764900000002). A value is written and deleted with its person
    // in one transaction and carries the person's action; the page's people are still read by id,
    // in the subject's scope, and any not of this action are left off (ListPage `ofAction`).
    if (broadValue && forList && conditions === 1) {
      const vq = broadValue.values();
      // MariaDB would take (field, action, value), also covering, and sort the matches
      if (this.ds.options.type === 'mariadb') vq.useIndex('IDX_accreditation_value_person');
      const person = `${broadValue.v}.accreditationId`;
      return {
        ...result,
        qb: vq as unknown as SelectQueryBuilder<AccreditationEntity>,
        order: person,
        idColumn: person,
        ofAction: actionId,
        marked: {
          kind: 'deep',
          index: { table: 'accreditation_value', alias: broadValue.v, name: 'IDX_accreditation_value_person' },
        },
      };
    }
    return result;
  }

  // ---- bulk changes (spec §7: ids, or `all` with the filter) ----

  async resolveIds(actionId: number, ids: number[], all: boolean, filter: AccreditationFilter): Promise<number[]> {
    await this.action(actionId);
    // in the order people were added (a print, a mail run, an export): the filter's plan (an index
    // probe per row, EXISTS) decides no order of its own, and MariaDB's differs from SQLite's
    if (all)
      return (
        await (
          await this.filtered(actionId, filter)
        ).qb
          .select('a.id', 'id')
          .orderBy('a.id', 'ASC')
          .getRawMany<{ id: number }>()
      ).map((r) => Number(r.id));
    if (!ids.length) return [];
    const found: number[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.scoped.find({
        where: { actionId, id: In(ids.slice(i, i + 1000)) },
        select: { id: true, subjectId: true },
      });
      found.push(...rows.map((r) => r.id));
    }
    return found;
  }

  /** `replace`: the people hold exactly these groups afterwards; `add`: these join the groups they hold. */
  async assignGroups(
    actionId: number,
    ids: number[],
    groupIds: number[],
    mode: 'replace' | 'add' = 'replace',
  ): Promise<number> {
    await this.assertOfAction(this.groups, groupIds, actionId, 'groupsId');
    await refuseArchived(this.groups, groupIds, 'groupsId', 'recordArchive.groupArchived');
    if (mode === 'add') await this.addLinks(ids, groupIds);
    else await this.replaceLinks(ids, AccreditationGroupEntity, 'groupId', groupIds);
    // the meal and parking defaults of the groups (issue 14), left out where full
    await applyGroupDefaults(
      this.ds,
      null,
      currentSubjectId(),
      ids.map((accreditationId) => ({ accreditationId, actionId, groupIds })),
    );
    return ids.length;
  }

  async assignZones(actionId: number, ids: number[], zoneIds: number[]): Promise<number> {
    await this.assertOfAction(this.zones, zoneIds, actionId, 'zones');
    await this.replaceLinks(ids, AccreditationZoneEntity, 'zoneId', zoneIds);
    return ids.length;
  }

  async assignDays(actionId: number, ids: number[], days: string[]): Promise<number> {
    const action = await this.action(actionId);
    const allowed = new Set(action.days.map((d) => d.id));
    if (!action.multiDay && days.length)
      throw AppError.validation([{ path: 'days', key: 'accreditation.daysOnlyMultiDay' }]);
    if (days.some((d) => !allowed.has(d)))
      throw AppError.validation([{ path: 'days', key: 'basics.dateNotInActionRange' }]);
    await retryingTransaction(this.ds, async (m) => {
      for (let i = 0; i < ids.length; i += 1000) {
        await m
          .getRepository(AccreditationEntity)
          .update({ id: In(ids.slice(i, i + 1000)) }, { days, updatedAt: new Date() });
      }
    });
    return ids.length;
  }

  /**
   * Duplicates people into another action: names, e-mail, photo and the values of user fields the
   * target action also has; groups, zones and days belong to the source action and stay behind.
   * People whose e-mail the target already has are skipped.
   */
  async copy(ids: number[], targetActionId: number): Promise<{ changed: number; skipped: number }> {
    const target = await this.action(targetActionId);
    if (target.archivedAt) throw new AppError('ACTION_ARCHIVED');
    const targetFields = new Set(target.customField.map((f) => f.id));
    let changed = 0;
    let skipped = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.scoped.find({ where: { id: In(ids.slice(i, i + 500)) }, order: { id: 'ASC' } });
      const present = new Set(
        (
          await this.scoped.find({
            where: { actionId: target.id, email: In(rows.map((r) => r.email)) },
            select: { email: true, subjectId: true },
          })
        ).map((r) => r.email),
      );
      // the person's mail language goes along where the subject offers it (issue 15)
      const multiLanguage =
        (await this.ds.getRepository(SubjectEntity).findOneBy({ id: target.subjectId }))?.multiLanguage ?? false;
      for (const row of rows) {
        if (present.has(row.email)) {
          skipped++;
          continue;
        }
        const fieldValues = Object.fromEntries(
          Object.entries(row.fieldValues ?? {}).filter(([id]) => targetFields.has(Number(id))),
        );
        await this.create({
          actionId: target.id,
          firstname: row.firstname,
          lastname: row.lastname,
          email: row.email,
          groupIds: [],
          zones: [],
          days: [],
          customField: Object.entries(fieldValues).map(([id, value]) => ({ id: Number(id), value })),
          imageId: row.imageId,
          language: subjectLanguageError(row.language, multiLanguage) ? undefined : (row.language as Language),
        })
          .catch((err) => {
            // A copy must not fail on the target's stricter rules (a field mandatory there): keep going.
            if (err instanceof AppError && (err.code === 'VALIDATION_ERROR' || err.code === 'EMAIL_EXIST')) {
              skipped++;
              return null;
            }
            throw err;
          })
          .then((r) => {
            if (r) changed++;
          });
        present.add(row.email);
      }
    }
    return { changed, skipped };
  }

  /** type 1: remove from the action; type 2: delete the people from the system (every action). */
  /** The accreditations a delete reaches: the chosen ones, or (type 2) every one with their e-mails. */
  private async removeTargets(ids: number[], type: 1 | 2): Promise<number[]> {
    if (type !== 2 || !ids.length) return ids;
    const emails = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      for (const r of await this.scoped.find({
        where: { id: In(ids.slice(i, i + 1000)) },
        select: { email: true, subjectId: true },
      }))
        emails.add(r.email);
    }
    const all: number[] = [];
    const list = [...emails];
    for (let i = 0; i < list.length; i += 1000) {
      all.push(
        ...(
          await this.scoped.find({
            where: { email: In(list.slice(i, i + 1000)) },
            select: { id: true, subjectId: true },
          })
        ).map((r) => r.id),
      );
    }
    return all;
  }

  /**
   * What a delete would remove, for its confirmation: how many accreditations, in which actions
   * (type 2 reaches every accreditation with the same e-mail across the organisation).
   */
  async removePreview(
    ids: number[],
    type: 1 | 2,
  ): Promise<{ count: number; actions: { id: number; name: unknown; count: number }[] }> {
    const targets = await this.removeTargets(ids, type);
    const perAction = new Map<number, number>();
    for (let i = 0; i < targets.length; i += 1000)
      for (const r of await this.scoped.find({
        where: { id: In(targets.slice(i, i + 1000)) },
        select: { id: true, actionId: true, subjectId: true },
      }))
        perAction.set(r.actionId, (perAction.get(r.actionId) ?? 0) + 1);
    const actions = perAction.size
      ? await this.actions.find({
          where: { id: In([...perAction.keys()]) },
          select: { id: true, name: true, subjectId: true },
        })
      : [];
    return {
      count: targets.length,
      actions: actions
        .map((a) => ({ id: a.id, name: a.name, count: perAction.get(a.id) ?? 0 }))
        .sort((a, b) => b.count - a.count || a.id - b.id),
    };
  }

  async remove(ids: number[], type: 1 | 2): Promise<number> {
    const targets = await this.removeTargets(ids, type);
    await retryingTransaction(this.ds, async (m) => {
      for (let i = 0; i < targets.length; i += 1000) {
        const chunk = targets.slice(i, i + 1000);
        for (const entity of [
          AccreditationGroupEntity,
          AccreditationZoneEntity,
          AccreditationValueEntity,
          CreditTransactionEntity,
          // The entry log goes with the person (the list counts entries from it alone).
          EntranceEntity,
        ]) {
          await m.getRepository(entity).delete({ accreditationId: In(chunk) });
        }
        await m.getRepository(AccreditationEntity).delete({ id: In(chunk), subjectId: currentSubjectId() });
      }
    });
    return targets.length;
  }

  // ---- credit (spec §3 Credit transaction, §7 user-credit) ----

  async creditHistory(id: number) {
    const row = await this.scoped.get(id);
    const history = await this.ds
      .getRepository(CreditTransactionEntity)
      .find({ where: { accreditationId: id }, order: { id: 'DESC' }, take: 500 });
    const admins = new Map<number, string>();
    const adminIds = [...new Set(history.map((h) => h.adminUserId).filter((x): x is number => x !== null))];
    if (adminIds.length) {
      for (const u of await this.ds.query(
        `SELECT id, name FROM admin_user WHERE id IN (${adminIds.map(() => '?').join(',')})`,
        adminIds,
      )) {
        admins.set(Number(u.id), u.name);
      }
    }
    return {
      credit: row.credit,
      isUnlimited: row.isUnlimited,
      history: history.map((h) => ({
        date: h.createdAt.toISOString(),
        type: h.type,
        device: h.deviceId,
        adminUser: h.adminUserId ? (admins.get(h.adminUserId) ?? null) : null,
        price: h.price,
      })),
    };
  }

  /**
   * Adds (1) or removes (3) credit atomically: two changes at once never take the balance below 0,
   * nor above what the int `credit` column holds (an addition past it was a 500 on MariaDB).
   */
  async changeCredit(id: number, change: z.output<typeof creditChangeSchema>, actor: AdminAuth) {
    const row = await this.scoped.get(id);
    if (!(await this.action(row.actionId)).isCredit)
      throw AppError.validation([{ path: 'price', key: 'accreditation.creditNotEnabled' }]);
    await retryingTransaction(this.ds, async (m) => {
      const repo = m.getRepository(AccreditationEntity);
      const credit = m.connection.driver.escape('credit');
      if (!row.isUnlimited) {
        const qb = repo.createQueryBuilder().update().where('id = :id', { id });
        const result =
          change.type === 1
            ? await qb
                .set({ credit: () => `COALESCE(${credit}, 0) + ${change.price}` })
                .andWhere(`COALESCE(${credit}, 0) <= :room`, { room: CREDIT_MAX - change.price })
                .execute()
            : await qb
                .set({ credit: () => `COALESCE(${credit}, 0) - ${change.price}` })
                .andWhere(`COALESCE(${credit}, 0) >= :price`, { price: change.price })
                .execute();
        if (!result.affected && change.type === 1)
          throw AppError.validation([{ path: 'price', key: 'credit.balanceTooHigh' }]);
        if (!result.affected) throw new AppError('CREDIT_NOT_ENOUGH');
      }
      await m.getRepository(CreditTransactionEntity).insert({
        subjectId: row.subjectId,
        accreditationId: id,
        type: change.type,
        price: change.type === 1 ? change.price : -change.price,
        deviceId: null,
        adminUserId: actor.user.id,
        createdAt: new Date(),
      });
    });
    return this.creditHistory(id);
  }

  /**
   * Unlimited credit on or off (spec §3 isUnlimited): while on, gates deduct nothing (D13) and the
   * balance is kept as it is for when it is switched off again.
   */
  async setUnlimited(id: number, isUnlimited: boolean) {
    const row = await this.scoped.get(id);
    if (!(await this.action(row.actionId)).isCredit)
      throw AppError.validation([{ path: 'isUnlimited', key: 'accreditation.creditNotEnabled' }]);
    if (row.isUnlimited !== isUnlimited)
      await this.ds.getRepository(AccreditationEntity).update({ id }, { isUnlimited, updatedAt: new Date() });
    return this.creditHistory(id);
  }

  // ---- helpers ----

  private async action(id: number): Promise<ActionEntity> {
    const action = await this.actions.findOne({ id });
    if (!action) throw new AppError('ACTION_DOESNT_EXIST');
    return action;
  }

  async actionFields(action: ActionEntity): Promise<ActionField[]> {
    const ids = action.customField.map((f) => f.id);
    const fields = new Map(
      (ids.length ? await this.fields.find({ where: { id: In(ids) } }) : []).map((f) => [f.id, f]),
    );
    return action.customField.flatMap((f) => {
      const field = fields.get(f.id);
      return field
        ? [
            {
              id: f.id,
              name: field.name,
              label: field.label,
              tooltip: field.tooltip,
              customFieldType: field.customFieldType,
              options: field.options,
              isMandatory: f.isMandatory,
            },
          ]
        : [];
    });
  }

  private async assertOfAction<T extends { id: number; subjectId: number; actionId: number | null }>(
    repo: TenantRepository<T & { id: number; subjectId: number }>,
    ids: number[],
    actionId: number,
    path: string,
  ) {
    const rows = await assertOwned(repo, ids, path);
    if (rows.some((r) => r.actionId !== null && r.actionId !== actionId))
      throw AppError.validation([{ path, key: 'basics.invalidValue' }]);
  }

  private async prepare(
    action: ActionEntity,
    input: Input,
    existing: AccreditationEntity | null,
    fixedFields?: Map<number, unknown>,
    photoField = 'imageData',
    context?: CreateContext,
  ) {
    const errors: FieldError[] = [];
    // one prepared read on the driver, shared by the asks that arrive together on MariaDB (issue
    // 16, email-taken.ts); the unique index settles a race after it
    const duplicate = await this.emailTaken.id(action.id, currentSubjectId(), input.email);
    if (duplicate !== null && duplicate !== existing?.id) throw emailExists();
    if (!context?.linksChecked) {
      await this.assertOfAction(this.groups, input.groupIds, action.id, 'groupIds');
      // an archived group is given to no one new; a person who holds it keeps it (issue 15)
      const held = existing
        ? (await this.ds.getRepository(AccreditationGroupEntity).find({ where: { accreditationId: existing.id } })).map(
            (l) => l.groupId,
          )
        : [];
      await refuseArchived(this.groups, input.groupIds, 'groupIds', 'recordArchive.groupArchived', held);
      await this.assertOfAction(this.zones, input.zones, action.id, 'zones');
    }
    const allowedDays = new Set(action.days.map((d) => d.id));
    // the language every mail to the person is written in: one the subject offers (issue 15); a
    // person's stored language sent back unchanged stays (the subject may have dropped it since)
    if (input.language !== undefined && input.language !== existing?.language) {
      const subject =
        context?.subject ?? (await this.ds.getRepository(SubjectEntity).findOneBy({ id: action.subjectId }));
      const key = subjectLanguageError(input.language, subject?.multiLanguage ?? false);
      if (key) errors.push({ path: 'language', key });
    }
    if (!action.multiDay && input.days.length) errors.push({ path: 'days', key: 'accreditation.daysOnlyMultiDay' });
    else if (input.days.some((d) => !allowedDays.has(d)))
      errors.push({ path: 'days', key: 'basics.dateNotInActionRange' });

    const given = new Map(input.customField.map((v) => [v.id, v.value]));
    const fieldValues: Record<string, unknown> = {};
    const texts: { fieldId: number; value: string }[] = [];
    for (const field of context?.fields ?? (await this.actionFields(action))) {
      if (fixedFields?.has(field.id)) {
        const checked = checkFieldValue({ ...field, isMandatory: false }, fixedFields.get(field.id));
        const value = 'error' in checked ? null : checked.value;
        fieldValues[field.id] = value;
        const text = fieldValueText(field, value);
        if (text) texts.push({ fieldId: field.id, value: text.slice(0, 500) });
        continue;
      }
      let raw = given.has(field.id) ? given.get(field.id) : existing?.fieldValues?.[field.id];
      if (field.customFieldType === 9 && typeof raw === 'string' && raw.startsWith('data:')) {
        raw = (
          await this.imageService.create({
            type: 1,
            name: `${input.firstname} ${input.lastname} – ${field.name}`,
            baseData: raw,
          })
        ).id;
      }
      const checked = checkFieldValue(field, raw);
      if ('error' in checked) {
        errors.push({ path: `customField.${field.id}`, key: checked.error });
        continue;
      }
      fieldValues[field.id] = checked.value;
      const text = fieldValueText(field, checked.value);
      if (text) texts.push({ fieldId: field.id, value: text.slice(0, 500) });
    }
    if (errors.length) throw AppError.validation(errors);

    let imageId = existing?.imageId ?? null;
    if (input.imageData) {
      imageId = (
        await this.imageService.create(
          { type: 1, name: `${input.firstname} ${input.lastname}`, baseData: input.imageData },
          photoField,
        )
      ).id;
    } else if (input.imageId !== undefined) {
      await assertOwned(this.images, [input.imageId], 'imageId');
      imageId = input.imageId;
    }
    return {
      row: {
        firstname: input.firstname,
        lastname: input.lastname,
        email: input.email,
        days: input.days,
        fieldValues,
        imageId,
        // not given: a new person gets cs (the fallback), an edit keeps the stored one
        language: input.language ?? existing?.language ?? 'cs',
      },
      groupIds: [...new Set(input.groupIds)],
      zoneIds: [...new Set(input.zones)],
      texts,
    };
  }

  private async writeLinks(
    m: EntityManager,
    { id, actionId }: { id: number; actionId: number },
    p: { groupIds: number[]; zoneIds: number[]; texts: { fieldId: number; value: string }[] },
    fresh = false,
  ) {
    // A row just inserted has no links to replace.
    if (!fresh) {
      await m.getRepository(AccreditationGroupEntity).delete({ accreditationId: id });
      await m.getRepository(AccreditationZoneEntity).delete({ accreditationId: id });
      await m.getRepository(AccreditationValueEntity).delete({ accreditationId: id });
    }
    if (p.groupIds.length)
      await m
        .getRepository(AccreditationGroupEntity)
        .insert(p.groupIds.map((groupId) => ({ accreditationId: id, groupId })));
    if (p.zoneIds.length)
      await m
        .getRepository(AccreditationZoneEntity)
        .insert(p.zoneIds.map((zoneId) => ({ accreditationId: id, zoneId })));
    if (p.texts.length)
      await m
        .getRepository(AccreditationValueEntity)
        .insert(p.texts.map((t) => ({ accreditationId: id, actionId, ...t })));
  }

  /** Adds groups to people, keeping the ones they hold (a pair already there is left as it is). */
  private async addLinks(ids: number[], groupIds: number[]) {
    await retryingTransaction(this.ds, async (m) => {
      const repo = m.getRepository(AccreditationGroupEntity);
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const held = new Set(
          (await repo.find({ where: { accreditationId: In(chunk), groupId: In(groupIds) } })).map(
            (l) => `${l.accreditationId}:${l.groupId}`,
          ),
        );
        const rows = chunk.flatMap((accreditationId) =>
          groupIds
            .filter((groupId) => !held.has(`${accreditationId}:${groupId}`))
            .map((groupId) => ({ accreditationId, groupId })),
        );
        for (let j = 0; j < rows.length; j += 500) await repo.insert(rows.slice(j, j + 500));
      }
    });
  }

  private async replaceLinks(
    ids: number[],
    entity: typeof AccreditationGroupEntity | typeof AccreditationZoneEntity,
    column: 'groupId' | 'zoneId',
    values: number[],
  ) {
    await retryingTransaction(this.ds, async (m) => {
      const repo = m.getRepository(entity);
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        await repo.delete({ accreditationId: In(chunk) });
        const rows = chunk.flatMap((accreditationId) => values.map((v) => ({ accreditationId, [column]: v })));
        for (let j = 0; j < rows.length; j += 500) if (rows.length) await repo.insert(rows.slice(j, j + 500) as never);
      }
    });
  }

  private async toDtos(rows: AccreditationEntity[]): Promise<AccreditationDto[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const [groupLinks, zoneLinks] = await Promise.all([
      this.ds.getRepository(AccreditationGroupEntity).find({ where: { accreditationId: In(ids) } }),
      this.ds.getRepository(AccreditationZoneEntity).find({ where: { accreditationId: In(ids) } }),
    ]);
    const groupIds = [...new Set(groupLinks.map((l) => l.groupId))];
    const zoneIds = [...new Set(zoneLinks.map((l) => l.zoneId))];
    const imageIds = [...new Set(rows.map((r) => r.imageId).filter((x): x is number => x !== null))];
    const [groups, zones, images] = await Promise.all([
      groupIds.length ? this.groups.find({ where: { id: In(groupIds) } }) : [],
      zoneIds.length ? this.zones.find({ where: { id: In(zoneIds) } }) : [],
      imageIds.length ? this.images.find({ where: { id: In(imageIds) } }) : [],
    ]);
    const groupName = new Map(groups.map((g) => [g.id, g.name]));
    const zoneName = new Map(zones.map((z) => [z.id, z.name]));
    const imageKey = new Map(images.map((i) => [i.id, i.fileKey]));
    return rows.map((r) => {
      const gIds = groupLinks.filter((l) => l.accreditationId === r.id).map((l) => l.groupId);
      const zIds = zoneLinks.filter((l) => l.accreditationId === r.id).map((l) => l.zoneId);
      return {
        id: r.id,
        customId: r.customId,
        actionId: r.actionId,
        firstname: r.firstname,
        lastname: r.lastname,
        email: r.email,
        bc: r.bc,
        groupIds: gIds,
        groups: gIds.map((id) => ({ id, name: groupName.get(id) ?? '' })),
        zoneIds: zIds,
        zones: zIds.map((id) => ({ id, name: zoneName.get(id) ?? '' })),
        days: r.days,
        customField: Object.entries(r.fieldValues ?? {}).map(([id, value]) => ({ id: Number(id), value })),
        image:
          r.imageId && imageKey.has(r.imageId) ? { id: r.imageId, path: `/api/file/${imageKey.get(r.imageId)}` } : null,
        printCount: r.printCount,
        badgeVersion: r.badgeVersion ?? 0,
        badgeCode: formatBadgeCode(r.bc, r.badgeVersion),
        badgeReplacedAt: r.badgeReplacedAt ? r.badgeReplacedAt.toISOString() : null,
        credit: r.credit,
        isUnlimited: r.isUnlimited,
        source: r.source,
        language: (r.language || 'cs') as Language,
        dateCreate: r.createdAt.toISOString(),
      };
    });
  }
}
