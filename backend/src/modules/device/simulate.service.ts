import {
  type Decision,
  type DeviceTemplateData,
  decide,
  deviceTemplateDataSchema,
  type GatePerson,
  type GateTemplate,
  isDate,
  isTime,
  localDateTime,
  localDay,
  type Passage,
  type ReasonCode,
  reasonMessage,
} from '@accredo/access';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, In } from 'typeorm';
import { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { toFieldErrors } from '../../common/zod.js';
import { currentSubjectId } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { CustomFieldEntity } from '../custom-field/custom-field.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import { DeviceEntity, DeviceTemplateEntity } from './device.entity.js';
import { gateAction, gateTemplate } from './gate-cache.service.js';
import { readDate, readJson } from './sql.js';
import { stationExtensionData } from '../action-extension/gate-extension.js';

/** The person with the car parks of that day or of the whole event (as a gate in mode 5 reads them). */
function ofDay(person: GatePerson, day: string): GatePerson {
  const holds = person.parking as (GatePerson['parking'][number] & { date?: string | null })[];
  if (!holds.some((h) => h.date)) return person;
  return { ...person, parking: holds.filter((h) => !h.date || h.date === day) };
}

/** Occupancy of every car park: the people inside now. */
function occupancyOf(people: { inside: number[] }[]): Record<number, number> {
  const occupancy: Record<number, number> = {};
  for (const p of people) for (const a of p.inside) occupancy[a] = (occupancy[a] ?? 0) + 1;
  return occupancy;
}

const INVALID = 'basics.invalidValue';
const REQUIRED = 'basics.requireField';
const id = () => z.coerce.number({ error: REQUIRED }).int({ error: INVALID }).positive({ error: REQUIRED });
const optionalId = () =>
  z.coerce
    .number({ error: INVALID })
    .int({ error: INVALID })
    .positive({ error: INVALID })
    .nullish()
    .transform((v) => v ?? null);
/**
 * A wall-clock moment of the subject: YYYY-MM-DDTHH:mm; none means now on the server's clock (D19),
 * to the millisecond, so the entries of the current minute count (and the admin's computer's time
 * zone does not matter).
 */
const at = () =>
  z
    .string({ error: REQUIRED })
    .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v) && isDate(v.slice(0, 10)) && isTime(v.slice(11)), {
      error: 'basics.enterCorrectDate',
    })
    .nullish();
/** the epoch ms of the chosen moment, or now */
const momentOf = (at: string | null | undefined, timeZone: string) =>
  at ? wallClockToEpoch(at, timeZone) : Date.now();
const amount = () =>
  z.coerce.number({ error: INVALID }).int({ error: INVALID }).min(1, { error: INVALID }).max(1_000_000_000).nullish();

/** POST device-template/simulate: the unsaved form's template against every person of its action. */
export const simulateTemplateSchema = z.object({
  /** the saved template whose entry history counts (D2); none for a new template */
  templateId: optionalId(),
  actionId: id(),
  zoneId: optionalId(),
  data: z.unknown(),
  at: at(),
  direction: z.enum(['entry', 'exit'], { error: INVALID }).default('entry'),
  /** mode 2: the amount a device would deduct (1 by default) */
  amount: amount(),
});

/** POST device/simulate-person: one person at every device of their action (and the unsaved form). */
export const simulatePersonSchema = z.object({
  accreditationId: id(),
  at: at(),
  direction: z.enum(['entry', 'exit'], { error: INVALID }).default('entry'),
  amount: amount(),
  /** the template form's unsaved state, decided first when given */
  template: z.object({ templateId: optionalId(), actionId: id(), zoneId: optionalId(), data: z.unknown() }).nullish(),
});

export interface SimulationReason {
  reason: ReasonCode;
  allowed: boolean;
  count: number;
  message: string;
}

export interface TemplateSimulation {
  /** the epoch-ms moment the wall-clock time stands for (ISO) */
  at: string;
  total: number;
  allowed: number;
  refused: number;
  reasons: SimulationReason[];
}

export interface PersonSimulationRow {
  /** null: the template form's unsaved state */
  deviceId: number | null;
  deviceName: string | null;
  templateId: number | null;
  templateName: string | null;
  zoneId: number | null;
  allowed: boolean;
  reason: ReasonCode;
  message: string;
}

export interface PersonSimulation {
  at: string;
  person: { id: number; firstname: string; lastname: string; actionId: number };
  rows: PersonSimulationRow[];
}

type Lang = 'cs' | 'sk' | 'en' | 'de';

/**
 * The epoch ms of a wall-clock time in a time zone (the inverse of localDateTime): a first guess
 * as if it were UTC, corrected by the zone's offset at that instant, twice (enough across a DST
 * change; a time that does not exist in the spring gap lands an hour later).
 */
export function wallClockToEpoch(local: string, timeZone: string): number {
  const [d, t] = local.split('T');
  const [y, mo, day] = d.split('-').map(Number);
  const [h, mi] = t.split(':').map(Number);
  const wanted = Date.UTC(y, mo - 1, day, h, mi);
  let guess = wanted;
  for (let i = 0; i < 2; i++) {
    const seen = localDateTime(guess, timeZone);
    const [sy, smo, sd] = seen.day.split('-').map(Number);
    const [sh, smi] = seen.time.split(':').map(Number);
    guess += wanted - Date.UTC(sy, smo - 1, sd, sh, smi);
  }
  return guess;
}

function fieldValues(raw: unknown): Record<number, string | null> {
  const out: Record<number, string | null> = {};
  for (const [k, v] of Object.entries(readJson<Record<string, unknown>>(raw, {}) ?? {})) {
    out[Number(k)] = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
  }
  return out;
}

const CHUNK = 500;

/**
 * The rule simulator of the template form ("who would get in, where, when"; issue 11): the engine's
 * `decide` for the action's people at a chosen moment, with the entry history as the entrance table
 * holds it before that moment. Pure: it writes nothing.
 */
@Injectable()
export class SimulateService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async template(input: z.output<typeof simulateTemplateSchema>, lang: Lang): Promise<TemplateSimulation> {
    const subjectId = currentSubjectId();
    const timeZone = await this.timeZone(subjectId);
    const action = await this.action(subjectId, input.actionId, 'actionId');
    const template = await this.gateTemplateOf(subjectId, input, action.id);
    const when = momentOf(input.at, timeZone);
    const people = await this.people(subjectId, { actionId: action.id });
    const passages = await this.passages(
      template.id > 0 ? template.id : null,
      people.map((p) => p.person.id),
      when,
    );
    const counts = new Map<string, { decision: Decision; count: number }>();
    let allowed = 0;
    const parkingOccupancy = occupancyOf(people);
    const day = localDay(when, timeZone);
    for (const { person, inside } of people) {
      const decision = decide(
        { code: person.bc, direction: input.direction, amount: input.amount ?? 1, at: when, timeZone },
        {
          template,
          action: gateAction(action),
          person: ofDay(person, day),
          state: { passages: passages.get(person.id) ?? [], parkingOccupancy, parkingInside: inside },
        },
      );
      if (decision.allowed) allowed++;
      const key = `${decision.allowed}:${decision.reason}`;
      const hit = counts.get(key);
      if (hit) hit.count++;
      else counts.set(key, { decision, count: 1 });
    }
    const reasons = [...counts.values()]
      .map(({ decision, count }) => ({
        reason: decision.reason,
        allowed: decision.allowed,
        count,
        message: reasonMessage({ ...decision, data: {} }, lang),
      }))
      .sort((a, b) => Number(b.allowed) - Number(a.allowed) || b.count - a.count || a.reason.localeCompare(b.reason));
    return {
      at: new Date(when).toISOString(),
      total: people.length,
      allowed,
      refused: people.length - allowed,
      reasons,
    };
  }

  async person(input: z.output<typeof simulatePersonSchema>, lang: Lang): Promise<PersonSimulation> {
    const subjectId = currentSubjectId();
    const timeZone = await this.timeZone(subjectId);
    const [found] = await this.people(subjectId, { accreditationId: input.accreditationId });
    if (!found) throw AppError.notFound();
    const { person, row } = found;
    const action = await this.action(subjectId, person.actionId, 'accreditationId');
    const when = momentOf(input.at, timeZone);
    const zones = new Map(
      (await this.ds.getRepository(ZoneEntity).find({ where: { subjectId } })).map((z) => [z.id, z.name]),
    );
    const targets: {
      deviceId: number | null;
      deviceName: string | null;
      name: string | null;
      template: GateTemplate;
    }[] = [];
    if (input.template) {
      if (input.template.actionId !== person.actionId)
        throw AppError.validation([{ path: 'template.actionId', key: INVALID }]);
      const template = await this.gateTemplateOf(subjectId, input.template, action.id, 'template.');
      targets.push({ deviceId: null, deviceName: null, name: null, template });
    }
    const templates = await this.ds
      .getRepository(DeviceTemplateEntity)
      .find({ where: { subjectId, actionId: action.id }, order: { id: 'ASC' } });
    const byId = new Map(templates.map((t) => [t.id, t]));
    const devices = templates.length
      ? await this.ds.getRepository(DeviceEntity).find({ where: { subjectId }, order: { name: 'ASC', id: 'ASC' } })
      : [];
    for (const device of devices) {
      const t = device.deviceTemplateId ? byId.get(device.deviceTemplateId) : undefined;
      if (!t) continue;
      targets.push({
        deviceId: device.id,
        deviceName: device.name || device.uid,
        name: t.name,
        template: gateTemplate(t),
      });
    }
    const history = new Map<number, Map<number, Passage[]>>();
    const rows: PersonSimulationRow[] = [];
    // a refused date rule names its user field (label in the admin's language)
    const fieldIds = [
      ...new Set(targets.flatMap((x) => x.template.rules.flatMap((r) => r.customRule.map((c) => c.customField)))),
    ];
    const fieldNames = new Map(
      (fieldIds.length
        ? await this.ds.getRepository(CustomFieldEntity).findBy({ subjectId, id: In(fieldIds) })
        : []
      ).map((f) => [f.id, f.label?.[lang]?.trim() || f.label?.cs?.trim() || f.name]),
    );
    for (const target of targets) {
      const tid = target.template.id > 0 ? target.template.id : null;
      if (tid !== null && !history.has(tid)) history.set(tid, await this.passages(tid, [person.id], when));
      const decision = decide(
        { code: person.bc, direction: input.direction, amount: input.amount ?? 1, at: when, timeZone },
        {
          template: target.template,
          action: gateAction(action),
          person: ofDay(person, localDay(when, timeZone)),
          state: {
            passages: (tid !== null && history.get(tid)?.get(person.id)) || [],
            parkingInside: found.inside,
            parkingOccupancy: (await stationExtensionData(this.ds, person.actionId, [])).occupancy,
          },
        },
      );
      const zoneId = target.template.zoneId;
      rows.push({
        deviceId: target.deviceId,
        deviceName: target.deviceName,
        templateId: tid,
        templateName: target.name,
        zoneId,
        allowed: decision.allowed,
        reason: decision.reason,
        message: reasonMessage(decision, lang, {
          zone: zoneId ? (zones.get(zoneId) ?? null) : null,
          field: fieldNames.get(Number((decision.data as { fieldId?: unknown }).fieldId)) ?? null,
        }),
      });
    }
    return {
      at: new Date(when).toISOString(),
      person: {
        id: person.id,
        firstname: String(row.firstname),
        lastname: String(row.lastname),
        actionId: person.actionId,
      },
      rows,
    };
  }

  private async timeZone(subjectId: number): Promise<string> {
    const subject = await this.ds.getRepository(SubjectEntity).findOneBy({ id: subjectId });
    return subject?.timeZone || 'Europe/Prague';
  }

  private async action(subjectId: number, actionId: number, path: string): Promise<ActionEntity> {
    const action = await this.ds.getRepository(ActionEntity).findOneBy({ id: actionId, subjectId });
    if (!action) throw AppError.validation([{ path, key: INVALID }]);
    return action;
  }

  /** The form's template as the gate would apply it: the engine's schema and saving rules (spec §4). */
  private async gateTemplateOf(
    subjectId: number,
    input: { templateId: number | null; zoneId: number | null; data: unknown },
    actionId: number,
    prefix = '',
  ): Promise<GateTemplate> {
    const parsed = deviceTemplateDataSchema.safeParse(input.data ?? {});
    if (!parsed.success)
      throw AppError.validation(
        toFieldErrors(parsed.error).map((f) => ({ ...f, path: `${prefix}data${f.path ? `.${f.path}` : ''}` })),
      );
    if (input.zoneId !== null) {
      const zone = await this.ds.getRepository(ZoneEntity).findOneBy({ id: input.zoneId, subjectId });
      if (!zone || (zone.actionId !== null && zone.actionId !== actionId))
        throw AppError.validation([{ path: `${prefix}zoneId`, key: INVALID }]);
    }
    let templateId = 0;
    if (input.templateId !== null) {
      const saved = await this.ds
        .getRepository(DeviceTemplateEntity)
        .findOneBy({ id: input.templateId, subjectId, actionId });
      if (!saved) throw AppError.validation([{ path: `${prefix}templateId`, key: INVALID }]);
      templateId = saved.id;
    }
    const data: DeviceTemplateData = parsed.data;
    return {
      id: templateId,
      actionId,
      mode: data.mode,
      zoneId: input.zoneId,
      rules: data.rules,
      globalRule: data.globalRule,
    };
  }

  /** The action's people (or one person) as the engine reads them, with their groups and zones. */
  private async people(
    subjectId: number,
    where: { actionId: number } | { accreditationId: number },
  ): Promise<{ person: GatePerson; row: Record<string, unknown>; inside: number[] }[]> {
    const byAction = 'actionId' in where;
    const rows: Record<string, unknown>[] = await this.ds.query(
      `SELECT id, actionId, firstname, lastname, bc, days, fieldValues, credit, isUnlimited FROM accreditation WHERE subjectId = ? AND ${byAction ? 'actionId' : 'id'} = ? ORDER BY id`,
      [subjectId, byAction ? where.actionId : where.accreditationId],
    );
    const groups = new Map<number, number[]>();
    const zones = new Map<number, number[]>();
    // meals and car parks (modes 4 and 5, issue 14)
    const meals = new Map<number, GatePerson['meals']>();
    const parking = new Map<number, GatePerson['parking']>();
    const inside = new Map<number, number[]>();
    for (let k = 0; k < rows.length; k += CHUNK) {
      const ids = rows.slice(k, k + CHUNK).map((r) => Number(r.id));
      const ext = await stationExtensionData(this.ds, Number(rows[k].actionId), ids);
      for (const [id, v] of ext.meals) meals.set(id, v);
      for (const [id, v] of ext.parking) parking.set(id, v);
      for (const [id, v] of ext.inside) inside.set(id, v);
      const marks = ids.map(() => '?').join(', ');
      // groups in id order, as the gate reads them (gate.service.ts)
      for (const g of (await this.ds.query(
        `SELECT accreditationId, groupId FROM accreditation_group WHERE accreditationId IN (${marks}) ORDER BY accreditationId, groupId`,
        ids,
      )) as { accreditationId: unknown; groupId: unknown }[]) {
        const list = groups.get(Number(g.accreditationId)) ?? [];
        list.push(Number(g.groupId));
        groups.set(Number(g.accreditationId), list);
      }
      for (const z of (await this.ds.query(
        `SELECT accreditationId, zoneId FROM accreditation_zone WHERE accreditationId IN (${marks}) ORDER BY accreditationId, zoneId`,
        ids,
      )) as { accreditationId: unknown; zoneId: unknown }[]) {
        const list = zones.get(Number(z.accreditationId)) ?? [];
        list.push(Number(z.zoneId));
        zones.set(Number(z.accreditationId), list);
      }
    }
    return rows.map((row) => {
      const pid = Number(row.id);
      return {
        row,
        inside: inside.get(pid) ?? [],
        person: {
          id: pid,
          actionId: Number(row.actionId),
          bc: String(row.bc),
          groupIds: groups.get(pid) ?? [],
          zoneIds: zones.get(pid) ?? [],
          days: readJson<string[]>(row.days, []),
          values: fieldValues(row.fieldValues),
          credit: Number(row.credit ?? 0),
          isUnlimited: Boolean(Number(row.isUnlimited)),
          meals: meals.get(pid) ?? [],
          parking: parking.get(pid) ?? [],
        },
      };
    });
  }

  /** Each person's passages under a template before the moment (D2), in scan order. */
  private async passages(templateId: number | null, ids: number[], before: number): Promise<Map<number, Passage[]>> {
    const out = new Map<number, Passage[]>();
    if (templateId === null || !ids.length) return out;
    for (let k = 0; k < ids.length; k += CHUNK) {
      const chunk = ids.slice(k, k + CHUNK);
      const rows: { accreditationId: unknown; type: unknown; createdAt: unknown }[] = await this.ds.query(
        `SELECT accreditationId, type, createdAt FROM entrance WHERE deviceTemplateId = ? AND accreditationId IN (${chunk.map(() => '?').join(', ')}) ORDER BY createdAt, id`,
        [templateId, ...chunk],
      );
      for (const r of rows) {
        const at = readDate(r.createdAt);
        if (!(at < before)) continue;
        const list = out.get(Number(r.accreditationId)) ?? [];
        list.push({ type: Number(r.type) === 1 ? 1 : 0, at });
        out.set(Number(r.accreditationId), list);
      }
    }
    return out;
  }
}
