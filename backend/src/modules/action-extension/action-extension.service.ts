import {
  copyDayItems,
  EXTENSION_MEAL,
  EXTENSION_PARKING,
  type ExtensionActionDates,
  type ExtensionActionRow,
  type ExtensionActivation,
  type ExtensionAssignResult,
  type extensionAssignUsersSchema,
  type ExtensionCopyInput,
  type ExtensionData,
  type ExtensionDay,
  type extensionGroupSchema,
  type ExtensionGroupDefaults,
  type ExtensionItemView,
  extensionItemsSchema,
  type ExtensionReport,
  type ExtensionReportRow,
  type ExtensionType,
  type ExtensionUserItems,
  type ExtensionUserRow,
  type extensionUsersQuerySchema,
  foldSearch,
  isExtensionType,
  type MealItem,
  type MultiText,
  type OnlineExtensionItem,
  type ParkingArea,
  type Paged,
  toItemInputs,
  type UserExtensionItem,
  type UserExtensionItemView,
} from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { loadExcel } from '../../common/lazy-modules.js';
import { toFieldErrors } from '../../common/zod.js';
import { containing } from '../../database/columns.js';
import { currentSubjectId, TenantRepository } from '../../database/tenant.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { ActionEntity } from '../action/action.entity.js';
import { readDate } from '../device/sql.js';
import { GroupEntity } from '../groups/group.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import {
  AccreditationExtensionEntity,
  ExtensionItemEntity,
  ExtensionOptionEntity,
  GroupExtensionEntity,
} from './action-extension.entity.js';
import { runCore } from '../../database/core-runner.js';
import { assignCore } from './extension-core.js';

const EMPTY: MultiText = { cs: '', sk: '', en: '', de: '' };

/** The wall-clock `YYYY-MM-DDTHH:mm` of a moment in a time zone (how dateUsed is shown). */
function wallClock(at: Date | null, timeZone: string): string | null {
  if (!at) return null;
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const p = (t: string) => parts.find((x) => x.type === t)?.value ?? '00';
  return `${p('year')}-${p('month')}-${p('day')}T${p('hour')}:${p('minute')}`;
}

export function actionDates(a: ActionEntity): ExtensionActionDates {
  return {
    dateFrom: a.dateFrom,
    dateTo: a.dateTo,
    multiDay: a.multiDay,
    days: a.multiDay ? (a.days ?? []).map((d) => d.id) : [],
  };
}

/** Counts of people per item and option: holding, used (meals) or inside (parking). */
interface Counts {
  item: Map<number, { taken: number; used: number }>;
  option: Map<number, { taken: number; used: number }>;
}

/**
 * Meal and parking extensions of an action (spec §3, §4, §5, §7 Action extensions): activation,
 * items, people's items with capacities that hold (extension-core.ts), group defaults, reports.
 */
@Injectable()
export class ActionExtensionService {
  private readonly actions: TenantRepository<ActionEntity>;
  private readonly items: TenantRepository<ExtensionItemEntity>;
  private readonly groups: TenantRepository<GroupEntity>;
  private readonly people: TenantRepository<AccreditationEntity>;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    @InjectRepository(ExtensionItemEntity) items: Repository<ExtensionItemEntity>,
    @InjectRepository(GroupEntity) groups: Repository<GroupEntity>,
    @InjectRepository(AccreditationEntity) people: Repository<AccreditationEntity>,
  ) {
    this.actions = new TenantRepository(actions);
    this.items = new TenantRepository(items);
    this.groups = new TenantRepository(groups);
    this.people = new TenantRepository(people);
  }

  // ---- gating ----

  /** A type of the path: 1 or 2 (else ACTION_EXTENSION_DOESNT_EXIST), switched on for the subject. */
  async type(raw: string): Promise<ExtensionType> {
    const type = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!isExtensionType(type)) throw new AppError('ACTION_EXTENSION_DOESNT_EXIST');
    const subject = await this.ds.getRepository(SubjectEntity).findOneByOrFail({ id: currentSubjectId() });
    if (!(subject.extensions ?? []).includes(type)) throw new AppError('ACTION_DOESNT_HAVE_EXTENSION', { type });
    return type;
  }

  /** The action of the subject; with `active`, the action must have the extension switched on. */
  async action(actionId: number, type: ExtensionType, active = true): Promise<ActionEntity> {
    const action = await this.actions.get(actionId);
    if (active && !(action.extension ?? []).includes(type))
      throw new AppError('ACTION_DOESNT_HAVE_EXTENSION', { type, actionId });
    return action;
  }

  // ---- activation ----

  async list(type: ExtensionType): Promise<ExtensionActionRow[]> {
    const rows = await this.actions.find({ order: { id: 'DESC' } });
    return rows.map((a) => ({
      id: a.id,
      name: a.name,
      dateFrom: a.dateFrom,
      dateTo: a.dateTo,
      multiDay: a.multiDay,
      active: (a.extension ?? []).includes(type),
    }));
  }

  async activate(type: ExtensionType, actionId: number, active: boolean): Promise<ExtensionActivation> {
    const action = await this.action(actionId, type, false);
    const set = new Set(action.extension ?? []);
    if (active) set.add(type);
    else set.delete(type);
    await this.actions.repo.update(
      { id: action.id, subjectId: currentSubjectId() },
      { extension: [...set].sort(), updatedAt: new Date() },
    );
    return { actionId: action.id, type, active };
  }

  // ---- items ----

  async data(type: ExtensionType, actionId: number): Promise<ExtensionData> {
    const action = await this.action(actionId, type, false);
    const items = await this.itemViews(type, action.id);
    const dates = actionDates(action);
    const dayNames = Object.fromEntries((action.multiDay ? action.days : []).map((d) => [d.id, d.name]));
    const tabs: (string | null)[] = dates.days.length ? [...dates.days] : [null];
    // dateless parking areas and items on dates outside the tabs get a tab of their own
    for (const i of items) if (!tabs.includes(i.date) && (dates.days.length > 0 || i.date === null)) tabs.push(i.date);
    const days: ExtensionDay[] = tabs.map((day) => ({
      day,
      name: (day && dayNames[day]) || EMPTY,
      items: items.filter((i) => (dates.days.length ? i.date === day : day === null || i.date === day)),
    }));
    return {
      type,
      actionId: action.id,
      active: (action.extension ?? []).includes(type),
      action: { ...dates, id: action.id, name: action.name, dayNames },
      days: dates.days.length ? days : [{ day: null, name: EMPTY, items }],
      items,
    };
  }

  private async counts(type: ExtensionType, actionId: number): Promise<Counts> {
    const used = type === EXTENSION_MEAL ? 'e.dateUsed IS NOT NULL' : 'e.inside = 1';
    const rows: { itemId: unknown; optionId: unknown; n: unknown; used: unknown }[] = await this.ds.query(
      `SELECT e.itemId AS itemId, e.optionId AS optionId, COUNT(*) AS n, SUM(CASE WHEN ${used} THEN 1 ELSE 0 END) AS used
       FROM accreditation_extension e JOIN accreditation a ON a.id = e.accreditationId
       WHERE e.actionId = ? AND e.type = ? AND e.subjectId = ? GROUP BY e.itemId, e.optionId`,
      [actionId, type, currentSubjectId()],
    );
    const counts: Counts = { item: new Map(), option: new Map() };
    for (const r of rows) {
      const n = Number(r.n);
      const u = Number(r.used ?? 0);
      const it = counts.item.get(Number(r.itemId)) ?? { taken: 0, used: 0 };
      counts.item.set(Number(r.itemId), { taken: it.taken + n, used: it.used + u });
      if (r.optionId !== null) counts.option.set(Number(r.optionId), { taken: n, used: u });
    }
    return counts;
  }

  private async itemViews(type: ExtensionType, actionId: number): Promise<ExtensionItemView[]> {
    const rows = await this.items.find({
      where: { actionId, type },
      order: { date: 'ASC', timeFrom: 'ASC', position: 'ASC', id: 'ASC' },
    });
    if (!rows.length) return [];
    const options = await this.ds
      .getRepository(ExtensionOptionEntity)
      .find({ where: { itemId: In(rows.map((r) => r.id)) }, order: { position: 'ASC', id: 'ASC' } });
    const counts = await this.counts(type, actionId);
    return rows.map((r) => {
      const c = counts.item.get(r.id) ?? { taken: 0, used: 0 };
      return {
        id: r.id,
        label: r.label,
        date: r.date,
        timeFrom: r.timeFrom,
        timeTo: r.timeTo,
        capacity: r.capacity,
        active: r.active,
        taken: c.taken,
        used: c.used,
        full: !r.active || (r.capacity !== null && c.taken >= r.capacity),
        options: options
          .filter((o) => o.itemId === r.id)
          .map((o) => {
            const oc = counts.option.get(o.id) ?? { taken: 0, used: 0 };
            return {
              id: o.id,
              name: o.name,
              note: o.note,
              capacity: o.capacity,
              taken: oc.taken,
              full: o.capacity !== null && oc.taken >= o.capacity,
            };
          }),
      };
    });
  }

  /** PUT action-extension/{actionId}/{type} {items}: the whole list of the action's items. */
  async save(type: ExtensionType, actionId: number, body: unknown): Promise<ExtensionData> {
    const action = await this.action(actionId, type);
    const parsed = extensionItemsSchema(type, actionDates(action)).safeParse(body ?? {});
    if (!parsed.success) throw AppError.validation(toFieldErrors(parsed.error));
    await this.write(type, action, parsed.data.items);
    return this.data(type, action.id);
  }

  /** POST …/copy: a day's items copied to other days, then saved like the edit screen does. */
  async copy(type: ExtensionType, actionId: number, input: Required<ExtensionCopyInput>): Promise<ExtensionData> {
    const action = await this.action(actionId, type);
    const current = toItemInputs(type, await this.itemViews(type, action.id)) as {
      id: number | null;
      date: string | null;
    }[];
    const items = copyDayItems(current, input.fromDay, input.toDays, input.replace);
    return this.save(type, action.id, { items });
  }

  private async write(type: ExtensionType, action: ActionEntity, input: (MealItem | ParkingArea)[]): Promise<void> {
    const subjectId = currentSubjectId();
    const now = new Date();
    await this.ds.transaction(async (m) => {
      const itemRepo = m.getRepository(ExtensionItemEntity);
      const optionRepo = m.getRepository(ExtensionOptionEntity);
      const existing = await itemRepo.find({ where: { subjectId, actionId: action.id, type } });
      const byId = new Map(existing.map((r) => [r.id, r]));
      for (const i of input)
        if (i.id !== null && !byId.has(i.id)) throw new AppError('EXTENSION_ITEM_INVALID', { itemId: i.id });
      const kept = new Set(input.map((i) => i.id).filter((id): id is number => id !== null));
      const removed = existing.filter((r) => !kept.has(r.id)).map((r) => r.id);
      if (removed.length) {
        const used = await m
          .getRepository(AccreditationExtensionEntity)
          .createQueryBuilder('e')
          .where('e.itemId IN (:...removed)', { removed })
          .andWhere('e.dateUsed IS NOT NULL')
          .getOne();
        if (used) throw new AppError('EXTENSION_MEAL_USED', { itemId: used.itemId, userId: used.accreditationId });
        await m.getRepository(AccreditationExtensionEntity).delete({ itemId: In(removed) });
        await m.getRepository(GroupExtensionEntity).delete({ itemId: In(removed) });
        await optionRepo.delete({ itemId: In(removed) });
        await itemRepo.delete({ id: In(removed) });
      }
      const oldOptions = existing.length
        ? await optionRepo.find({ where: { itemId: In(existing.map((r) => r.id)) } })
        : [];
      for (const [position, i] of input.entries()) {
        const meal = type === EXTENSION_MEAL ? (i as MealItem) : null;
        const row =
          (i.id !== null ? byId.get(i.id) : undefined) ??
          itemRepo.create({ subjectId, actionId: action.id, type, createdAt: now });
        Object.assign(row, {
          label: i.label,
          date: i.date,
          timeFrom: meal?.timeFrom ?? '',
          timeTo: meal?.timeTo ?? '',
          capacity: i.capacity,
          active: i.active,
          position,
          updatedAt: now,
        });
        const saved = await itemRepo.save(row);
        const wanted = meal ? meal.options : (i as ParkingArea).places;
        const mine = oldOptions.filter((o) => o.itemId === saved.id);
        const mineIds = new Set(mine.map((o) => o.id));
        for (const o of wanted)
          if (o.id !== null && !mineIds.has(o.id))
            throw new AppError('EXTENSION_ITEM_INVALID', { itemId: saved.id, option: o.id });
        const keptOptions = new Set(wanted.map((o) => o.id).filter((id): id is number => id !== null));
        const gone = mine.filter((o) => !keptOptions.has(o.id)).map((o) => o.id);
        if (gone.length) {
          // people keep the item without the option that is no more
          await m.getRepository(AccreditationExtensionEntity).update({ optionId: In(gone) }, { optionId: null });
          await m.getRepository(GroupExtensionEntity).update({ optionId: In(gone) }, { optionId: null });
          await optionRepo.delete({ id: In(gone) });
        }
        for (const [k, o] of wanted.entries()) {
          const orow =
            (o.id !== null ? mine.find((x) => x.id === o.id) : undefined) ??
            optionRepo.create({ subjectId, itemId: saved.id });
          Object.assign(orow, {
            name: o.name,
            note: 'note' in o ? o.note : '',
            capacity: o.capacity,
            position: k,
          });
          await optionRepo.save(orow);
        }
      }
    });
  }

  // ---- people ----

  private async viewsOf(
    type: ExtensionType,
    people: number[],
    day: string | null,
  ): Promise<Map<number, UserExtensionItemView[]>> {
    const out = new Map<number, UserExtensionItemView[]>();
    if (!people.length) return out;
    const subject = await this.ds.getRepository(SubjectEntity).findOneByOrFail({ id: currentSubjectId() });
    const qb = this.ds
      .getRepository(AccreditationExtensionEntity)
      .createQueryBuilder('e')
      .innerJoin(ExtensionItemEntity, 'i', 'i.id = e.itemId')
      .where('e.accreditationId IN (:...people)', { people })
      .andWhere('e.type = :type', { type })
      .andWhere('e.subjectId = :subjectId', { subjectId: subject.id })
      .orderBy('i.date', 'ASC')
      .addOrderBy('i.timeFrom', 'ASC')
      .addOrderBy('e.itemId', 'ASC');
    if (day) qb.andWhere('(i.date = :day OR i.date IS NULL)', { day });
    for (const e of await qb.getMany()) {
      const list = out.get(e.accreditationId) ?? [];
      list.push({
        itemId: e.itemId,
        option: e.optionId,
        have: true,
        dateUsed: wallClock(e.dateUsed ? new Date(readDate(e.dateUsed)) : null, subject.timeZone),
        licencePlate: e.licencePlate,
      });
      out.set(e.accreditationId, list);
    }
    return out;
  }

  async userItems(type: ExtensionType, actionId: number, userId: number): Promise<ExtensionUserItems> {
    const action = await this.action(actionId, type);
    const person = await this.people.findOne({ id: userId, actionId: action.id });
    if (!person) throw AppError.notFound();
    return { userId, items: (await this.viewsOf(type, [userId], null)).get(userId) ?? [] };
  }

  async users(
    type: ExtensionType,
    actionId: number,
    q: z.output<typeof extensionUsersQuerySchema>,
  ): Promise<Paged<ExtensionUserRow>> {
    const action = await this.action(actionId, type);
    const qb = this.people.query('a').andWhere('a.actionId = :actionId', { actionId: action.id });
    if (q.phrase) qb.andWhere("a.search LIKE :phrase ESCAPE '!'", { phrase: containing(foldSearch(q.phrase)) });
    if (q.groupId)
      qb.andWhere(
        'EXISTS (SELECT 1 FROM accreditation_group ag WHERE ag.accreditationId = a.id AND ag.groupId = :groupId)',
        {
          groupId: q.groupId,
        },
      );
    if (q.has !== 'all') {
      const dayCond = q.day ? ' AND (i.date = :day OR i.date IS NULL)' : '';
      qb.andWhere(
        `${q.has === 'without' ? 'NOT ' : ''}EXISTS (SELECT 1 FROM accreditation_extension e JOIN extension_item i ON i.id = e.itemId WHERE e.accreditationId = a.id AND e.type = :type${dayCond})`,
        { type, day: q.day },
      );
    }
    const [rows, max] = await qb
      .orderBy('a.lastname', 'ASC')
      .addOrderBy('a.firstname', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .offset((q.page - 1) * q.pageSize)
      .limit(q.pageSize)
      .getManyAndCount();
    const ids = rows.map((r) => r.id);
    const views = await this.viewsOf(type, ids, q.day);
    const groupRows: { accreditationId: unknown; name: unknown }[] = ids.length
      ? await this.ds.query(
          `SELECT ag.accreditationId AS accreditationId, g.name AS name FROM accreditation_group ag JOIN \`groups\` g ON g.id = ag.groupId WHERE ag.accreditationId IN (${ids.map(() => '?').join(', ')}) ORDER BY ag.groupId`,
          ids,
        )
      : [];
    const groupName = new Map<number, string>();
    for (const g of groupRows)
      if (!groupName.has(Number(g.accreditationId))) groupName.set(Number(g.accreditationId), String(g.name));
    return {
      data: rows.map((r) => ({
        id: r.id,
        customId: r.customId,
        firstname: r.firstname,
        lastname: r.lastname,
        email: r.email,
        bc: r.bc,
        groupName: groupName.get(r.id) ?? null,
        items: views.get(r.id) ?? [],
      })),
      max,
    };
  }

  async assignUsers(
    type: ExtensionType,
    actionId: number,
    body: z.output<typeof extensionAssignUsersSchema>,
  ): Promise<ExtensionAssignResult> {
    if (body.actionId !== actionId) throw AppError.validation([{ path: 'actionId', key: 'basics.invalidValue' }]);
    const action = await this.action(actionId, type);
    const people = [...new Set(body.usersIds)];
    let found = 0;
    for (let i = 0; i < people.length; i += 1000)
      found += await this.people.repo.count({
        where: { subjectId: currentSubjectId(), actionId: action.id, id: In(people.slice(i, i + 1000)) },
      });
    if (found !== people.length) throw AppError.validation([{ path: 'usersIds', key: 'basics.invalidValue' }]);
    const subjectId = currentSubjectId();
    const r = await runCore(this.ds, null, (env) =>
      assignCore(env, { subjectId, actionId: action.id, type }, people, body.items, {
        policy: 'strict',
        now: new Date(),
      }),
    );
    return { changed: r.changed };
  }

  // ---- groups ----

  private async group(actionId: number, groupId: number): Promise<GroupEntity> {
    const group = await this.groups.findOne({ id: groupId, actionId });
    if (!group) throw AppError.notFound();
    return group;
  }

  async groupDefaults(type: ExtensionType, actionId: number, groupId: number): Promise<ExtensionGroupDefaults> {
    const action = await this.action(actionId, type);
    const group = await this.group(action.id, groupId);
    const rows = await this.ds
      .getRepository(GroupExtensionEntity)
      .find({ where: { subjectId: currentSubjectId(), groupId: group.id, type }, order: { itemId: 'ASC' } });
    return {
      groupId: group.id,
      assignDefault: type === EXTENSION_MEAL ? group.assignDefaultMeal : group.assignDefaultParking,
      items: rows.map((r) => ({ itemId: r.itemId, option: r.optionId, have: true, licencePlate: null })),
    };
  }

  async setGroupDefaults(
    type: ExtensionType,
    actionId: number,
    groupId: number,
    body: z.output<typeof extensionGroupSchema>,
  ): Promise<ExtensionGroupDefaults> {
    if (body.actionId !== actionId) throw AppError.validation([{ path: 'actionId', key: 'basics.invalidValue' }]);
    const action = await this.action(actionId, type);
    const group = await this.group(action.id, groupId);
    const subjectId = currentSubjectId();
    const wanted = body.items.filter((i) => i.have);
    await this.assertItems(type, action.id, wanted);
    await this.ds.transaction(async (m) => {
      const repo = m.getRepository(GroupExtensionEntity);
      await repo.delete({ subjectId, groupId: group.id, type });
      if (wanted.length)
        await repo.insert(
          wanted.map((i) => ({ subjectId, groupId: group.id, type, itemId: i.itemId, optionId: i.option })),
        );
    });
    if (body.applyToMembers && wanted.length) {
      const members: { accreditationId: unknown }[] = await this.ds.query(
        'SELECT ag.accreditationId AS accreditationId FROM accreditation_group ag JOIN accreditation a ON a.id = ag.accreditationId WHERE ag.groupId = ? AND a.actionId = ?',
        [group.id, action.id],
      );
      const people = members.map((r) => Number(r.accreditationId));
      await runCore(this.ds, null, (env) =>
        assignCore(env, { subjectId, actionId: action.id, type }, people, wanted, {
          policy: 'skip',
          addOnly: true,
          now: new Date(),
        }),
      );
    }
    return this.groupDefaults(type, action.id, group.id);
  }

  /** Items and options named by a payload belong to the action's extension (EXTENSION_ITEM_INVALID). */
  private async assertItems(type: ExtensionType, actionId: number, items: UserExtensionItem[]): Promise<void> {
    if (!items.length) return;
    const ids = [...new Set(items.map((i) => i.itemId))];
    const rows = await this.items.find({ where: { id: In(ids), actionId, type } });
    const found = new Set(rows.map((r) => r.id));
    for (const id of ids) if (!found.has(id)) throw new AppError('EXTENSION_ITEM_INVALID', { itemId: id });
    const options = await this.ds.getRepository(ExtensionOptionEntity).find({ where: { itemId: In(ids) } });
    for (const i of items)
      if (i.option !== null && options.find((o) => o.id === i.option)?.itemId !== i.itemId)
        throw new AppError('EXTENSION_ITEM_INVALID', { itemId: i.itemId, option: i.option });
  }

  // ---- report ----

  async report(type: ExtensionType, actionId: number, day: string | null): Promise<ExtensionReport> {
    const action = await this.action(actionId, type, false);
    const items = await this.itemViews(type, action.id);
    const counts = await this.counts(type, action.id);
    const rows: ExtensionReportRow[] = items
      .filter((i) => !day || i.date === day || i.date === null)
      .map((i) => {
        const withOption = i.options.reduce((n, o) => n + (counts.option.get(o.id)?.taken ?? 0), 0);
        const usedWithOption = i.options.reduce((n, o) => n + (counts.option.get(o.id)?.used ?? 0), 0);
        const options: ExtensionReportRow['options'] = i.options.map((o) => ({
          option: o.id,
          name: o.name,
          chose: counts.option.get(o.id)?.taken ?? 0,
          used: counts.option.get(o.id)?.used ?? 0,
        }));
        if (i.options.length)
          options.push({ option: null, name: EMPTY, chose: i.taken - withOption, used: i.used - usedWithOption });
        return {
          date: i.date,
          itemId: i.id,
          label: i.label,
          timeFrom: i.timeFrom,
          timeTo: i.timeTo,
          capacity: i.capacity,
          chose: i.taken,
          used: i.used,
          options,
        };
      });
    return { type, actionId: action.id, rows };
  }

  async reportXlsx(report: ExtensionReport, lang: 'cs' | 'sk' | 'en' | 'de'): Promise<Buffer> {
    const text = (t: MultiText) => t[lang] || t.cs;
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet(report.type === EXTENSION_PARKING ? 'parking' : 'meal');
    const head = HEADERS[lang];
    ws.addRow(report.type === EXTENSION_PARKING ? head.parking : head.meal);
    for (const r of report.rows) {
      const time = r.timeFrom ? `${r.timeFrom}–${r.timeTo}` : '';
      ws.addRow([r.date ?? '', time, text(r.label), '', r.capacity ?? '', r.chose, r.used]);
      for (const o of r.options)
        ws.addRow([r.date ?? '', time, text(r.label), o.option === null ? '–' : text(o.name), '', o.chose, o.used]);
    }
    ws.getRow(1).font = { bold: true };
    ws.columns.forEach((c) => {
      c.width = 18;
    });
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  // ---- online form ----

  /** What the online form offers: the action's active items, full ones marked (spec §4). */
  async onlineItems(type: ExtensionType, actionId: number): Promise<OnlineExtensionItem[]> {
    const items = await this.itemViews(type, actionId);
    return items
      .filter((i) => i.active)
      .map((i) => ({
        id: i.id,
        label: i.label,
        date: i.date,
        timeFrom: i.timeFrom,
        timeTo: i.timeTo,
        full: i.full,
        options: i.options.map((o) => ({ id: o.id, name: o.name, note: o.note, full: o.full })),
      }));
  }
}

/** Stores a person's own choices (online form, preview) in `m`'s transaction: active items only, strict. */
export function storeChoices(
  ds: DataSource,
  m: EntityManager | null,
  scope: { subjectId: number; actionId: number; type: ExtensionType },
  accreditationId: number,
  items: UserExtensionItem[],
) {
  return runCore(ds, m, (env) =>
    assignCore(env, scope, [accreditationId], items, { policy: 'strict', onlyActive: true, now: new Date() }),
  );
}

const HEADERS = {
  cs: {
    meal: ['Den', 'Čas', 'Jídlo', 'Varianta', 'Kapacita', 'Vybralo', 'Vydáno'],
    parking: ['Den', '', 'Parkoviště', 'Místo', 'Kapacita', 'Přiděleno', 'Uvnitř'],
  },
  sk: {
    meal: ['Deň', 'Čas', 'Jedlo', 'Variant', 'Kapacita', 'Vybralo', 'Vydané'],
    parking: ['Deň', '', 'Parkovisko', 'Miesto', 'Kapacita', 'Pridelené', 'Vnútri'],
  },
  en: {
    meal: ['Day', 'Time', 'Meal', 'Option', 'Capacity', 'Chose', 'Used'],
    parking: ['Day', '', 'Car park', 'Place', 'Capacity', 'Assigned', 'Inside'],
  },
  de: {
    meal: ['Tag', 'Zeit', 'Mahlzeit', 'Variante', 'Kapazität', 'Gewählt', 'Ausgegeben'],
    parking: ['Tag', '', 'Parkplatz', 'Platz', 'Kapazität', 'Zugeteilt', 'Drinnen'],
  },
} as const;
