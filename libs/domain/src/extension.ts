import { z } from 'zod';
import {
  EXTENSION_MEAL,
  EXTENSION_PARKING,
  EXTENSION_TYPES,
  type ExtensionType,
  LICENCE_PLATE_MAX,
} from './constants.js';
import { booleanSchema, id, REQUIRED } from './schemas/common.js';
import { pagingSchema } from './schemas/paging.js';
import { calendarDate, isCalendarDate, type MultiText, requiredMultiText } from './schemas/setup.js';

/**
 * Action extensions (spec §3 Meal extension item, Parking extension; §4 Extension per action;
 * §5 Meal and Parking extension rules; §7 Action extensions). One file for the browser forms and
 * the server: the same schemas validate the edit screen, the users and groups screens, the online
 * form's selects and the API. Routes (base api/admin/v1, {type} 1 meal, 2 parking):
 *
 * | call | body | answer (inside `data`) |
 * |---|---|---|
 * | GET action-extension/{type} | – | ExtensionActionRow[] (the actions with their activation) |
 * | POST action-extension/{type}/{actionId} | ExtensionActivateInput | ExtensionActivation |
 * | GET action-extension/{type}/{actionId} | – | ExtensionData |
 * | PUT action-extension/{actionId}/{type} | ExtensionItemsInput | ExtensionData |
 * | POST action-extension/{type}/{actionId}/copy | ExtensionCopyInput | ExtensionData |
 * | POST action-extension/{type}/{actionId}/users | ExtensionUsersQueryInput | Paged<ExtensionUserRow> |
 * | GET action-extension/{type}/{actionId}/users/{userId} | – | ExtensionUserItems |
 * | PUT action-extension/{type}/{actionId}/users | ExtensionAssignUsersInput | ExtensionAssignResult |
 * | GET action-extension/{type}/{actionId}/groups/{groupId} | – | ExtensionGroupDefaults |
 * | PUT action-extension/{type}/{actionId}/groups/{groupId} | ExtensionGroupInput | ExtensionGroupDefaults |
 * | POST action-extension/{type}/{actionId}/report | ExtensionReportInput | ExtensionReport, or an xlsx file |
 *
 * Errors (spec §8 Extensions): ACTION_EXTENSION_DOESNT_EXIST (404, a type other than 1/2),
 * EXTENSION_ITEM_INVALID (400, an item, option or place id that is not in the action's extension;
 * details.itemId), ACTION_DOESNT_HAVE_EXTENSION (403, the subject's
 * extensions or the action's activation lack the type), EXTENSION_CAPACITY_FULL (409, an item,
 * option, area or place is at capacity; details.itemId / details.option name it), EXTENSION_MEAL_USED
 * (409, a used meal is locked; details.itemId, details.userId).
 */

// ---------------------------------------------------------------------------------------------
// Message keys (spec §5), in libs/i18n for cs, sk, en, de.
export const EXTENSION_MESSAGES = {
  dateNotInAction: 'actionExtension.dateIsNotActionDateArray',
  slotsOverlap: 'mealExtension.timeSlotsOverlap',
  slotNotValid: 'basics.timeSlotNotValid',
  mealNameRequired: 'mealExtension.mealNameRequired',
  capacityPositive: 'actionExtension.capacityPositive',
  timeInvalid: 'basics.enterCorrectTime',
  saved: 'actionExtension.saved',
  saveError: 'actionExtension.saveError',
  assigned: 'actionExtension.assigned',
  assignedError: 'actionExtension.assignedError',
  full: 'actionExtension.capacityFull',
  used: 'actionExtension.used',
} as const;

export const extensionTypeSchema = z.coerce.number({ error: 'basics.invalidValue' }).pipe(
  z.union(
    EXTENSION_TYPES.map((t) => z.literal(t)),
    { error: 'basics.invalidValue' },
  ),
);

export function isExtensionType(value: unknown): value is ExtensionType {
  return (EXTENSION_TYPES as readonly unknown[]).includes(value);
}
/** The route word of the admin screens: /action-extension/meal, /action-extension/parking. */
export const EXTENSION_ROUTE: Record<ExtensionType, 'meal' | 'parking'> = { 1: 'meal', 2: 'parking' };

// ---------------------------------------------------------------------------------------------
// Building blocks

export const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const time = () =>
  z
    .string({ error: REQUIRED })
    .trim()
    .superRefine((v, ctx) => {
      if (!v) ctx.addIssue({ code: 'custom', message: REQUIRED });
      else if (!TIME.test(v)) ctx.addIssue({ code: 'custom', message: EXTENSION_MESSAGES.timeInvalid });
    });

/** Spec §9: capacities above 0; blank (null, '', missing) means unlimited. */
export const MAX_CAPACITY = 1_000_000;
export const capacitySchema = () =>
  z.preprocess(
    (v) => (v === '' || v === undefined || v === null ? null : v),
    z.coerce
      .number({ error: EXTENSION_MESSAGES.capacityPositive })
      .int({ error: EXTENSION_MESSAGES.capacityPositive })
      .positive({ error: EXTENSION_MESSAGES.capacityPositive })
      .max(MAX_CAPACITY, { error: EXTENSION_MESSAGES.capacityPositive })
      .nullable(),
  ) as unknown as z.ZodType<number | null, number | string | null | undefined>;

const rowId = () =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), id().nullable()) as unknown as z.ZodType<
    number | null,
    number | string | null | undefined
  >;

const note = () =>
  z
    .string({ error: 'basics.invalidValue' })
    .trim()
    .max(1000, { error: 'basics.tooLong' })
    .nullish()
    .transform((v) => v ?? '');

/** A name per language whose cs is required, reported with its own message key. */
const namedMultiText = (key: string) =>
  z.preprocess(
    (v) => (v && typeof v === 'object' ? v : { cs: '' }),
    z
      .object({
        cs: z.string({ error: key }).trim().max(255, { error: 'basics.tooLong' }),
        sk: z.string().trim().max(255, { error: 'basics.tooLong' }).nullish(),
        en: z.string().trim().max(255, { error: 'basics.tooLong' }).nullish(),
        de: z.string().trim().max(255, { error: 'basics.tooLong' }).nullish(),
      })
      .superRefine((t, ctx) => {
        if (!t.cs) ctx.addIssue({ code: 'custom', path: ['cs'], message: key });
      })
      .transform((t): MultiText => ({ cs: t.cs, sk: t.sk ?? '', en: t.en ?? '', de: t.de ?? '' })),
  ) as unknown as z.ZodType<MultiText, Partial<MultiText> | null | undefined>;

// ---------------------------------------------------------------------------------------------
// Items (the edit screen, PUT action-extension/{actionId}/{type} {items})

/** A meal option (spec §3): name per language (cs required, mealNameRequired), note, capacity. */
export const mealOptionSchema = z.object({
  id: rowId(),
  name: namedMultiText(EXTENSION_MESSAGES.mealNameRequired),
  note: note(),
  capacity: capacitySchema(),
});
export type MealOptionInput = z.input<typeof mealOptionSchema>;
export type MealOption = z.output<typeof mealOptionSchema>;

/** A meal item: one time slot on a date (spec §3 Meal extension item). */
export const mealItemSchema = z.object({
  id: rowId(),
  label: requiredMultiText(),
  date: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }).pipe(calendarDate()),
  timeFrom: time(),
  timeTo: time(),
  capacity: capacitySchema(),
  active: booleanSchema(true),
  options: z.array(mealOptionSchema).max(50).default([]),
});
export type MealItemInput = z.input<typeof mealItemSchema>;
export type MealItem = z.output<typeof mealItemSchema>;

/** A parking place of an area (spec §3: options carry a name only). */
export const parkingPlaceSchema = z.object({
  id: rowId(),
  name: namedMultiText(REQUIRED),
  capacity: capacitySchema(),
});
export type ParkingPlaceInput = z.input<typeof parkingPlaceSchema>;
export type ParkingPlace = z.output<typeof parkingPlaceSchema>;

/**
 * A parking area (spec §3): label (cs required), capacity, places. `date` null holds for the whole
 * event; a date limits the area to that day of a multi-day action (the edit screen's day tab).
 */
export const parkingAreaSchema = z.object({
  id: rowId(),
  label: requiredMultiText(),
  date: z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    calendarDate().nullable(),
  ) as unknown as z.ZodType<string | null, string | null | undefined>,
  capacity: capacitySchema(),
  active: booleanSchema(true),
  places: z.array(parkingPlaceSchema).max(500).default([]),
});
export type ParkingAreaInput = z.input<typeof parkingAreaSchema>;
export type ParkingArea = z.output<typeof parkingAreaSchema>;

/** What the date rules need to know of the action (spec §5). */
export interface ExtensionActionDates {
  /** YYYY-MM-DD or YYYY-MM-DDTHH:mm; null when the action has no dates */
  dateFrom: string | null;
  dateTo: string | null;
  multiDay: boolean;
  /** the action's days (YYYY-MM-DD) when multi-day */
  days: string[];
}

/** Whether a date lies in the action's dates (from 00:00 of dateFrom to 23:59 of dateTo; spec §9). */
export function isActionDate(date: string, action: ExtensionActionDates): boolean {
  if (action.multiDay && action.days.length > 0) return action.days.includes(date);
  const from = action.dateFrom?.slice(0, 10) ?? null;
  const to = action.dateTo?.slice(0, 10) ?? null;
  if (from && date < from) return false;
  if (to && date > to) return false;
  return true;
}

/** Two [from, to) slots of one date overlap. */
export function slotsOverlap(
  a: { date: string; timeFrom: string; timeTo: string },
  b: { date: string; timeFrom: string; timeTo: string },
): boolean {
  return a.date === b.date && a.timeFrom < b.timeTo && b.timeFrom < a.timeTo;
}

type Issue = { path: (string | number)[]; message: string };

/** The meal rules of spec §5 that look at the whole list (dates in the action, start ≤ end, no overlap). */
export function mealItemIssues(items: MealItem[], action: ExtensionActionDates | null): Issue[] {
  const issues: Issue[] = [];
  let overlap = false;
  // a rule that compares is checked only on values that passed their own field's rule
  const timed = (item: MealItem) =>
    isCalendarDate(item.date) && TIME.test(item.timeFrom) && TIME.test(item.timeTo) && item.timeFrom <= item.timeTo;
  items.forEach((item, i) => {
    if (action && isCalendarDate(item.date) && !isActionDate(item.date, action))
      issues.push({ path: ['items', i, 'date'], message: EXTENSION_MESSAGES.dateNotInAction });
    if (TIME.test(item.timeFrom) && TIME.test(item.timeTo) && item.timeFrom > item.timeTo)
      issues.push({ path: ['items', i, 'timeTo'], message: EXTENSION_MESSAGES.slotNotValid });
  });
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      if (!timed(items[i]) || !timed(items[j])) continue;
      if (slotsOverlap(items[i], items[j])) {
        overlap = true;
        issues.push({ path: ['items', i, 'timeFrom'], message: EXTENSION_MESSAGES.slotsOverlap });
        issues.push({ path: ['items', j, 'timeFrom'], message: EXTENSION_MESSAGES.slotsOverlap });
      }
    }
  }
  if (overlap) issues.push({ path: ['items'], message: EXTENSION_MESSAGES.slotNotValid });
  return issues;
}

export function parkingAreaIssues(items: ParkingArea[], action: ExtensionActionDates | null): Issue[] {
  const issues: Issue[] = [];
  items.forEach((item, i) => {
    if (action && item.date && isCalendarDate(item.date) && !isActionDate(item.date, action))
      issues.push({ path: ['items', i, 'date'], message: EXTENSION_MESSAGES.dateNotInAction });
  });
  return issues;
}

/** PUT action-extension/{actionId}/1 {items}: the shapes alone (no action known). */
export const mealItemsSchema = z.object({ items: z.array(mealItemSchema).max(500).default([]) });
/** PUT action-extension/{actionId}/2 {items} */
export const parkingItemsSchema = z.object({ items: z.array(parkingAreaSchema).max(200).default([]) });

/**
 * The edit screen's and the server's schema of PUT action-extension/{actionId}/{type}: shapes plus
 * every rule of spec §5 against the action's dates (pass null to skip the date rule).
 */
export function extensionItemsSchema(type: 1, action: ExtensionActionDates | null): typeof mealItemsSchema;
export function extensionItemsSchema(type: 2, action: ExtensionActionDates | null): typeof parkingItemsSchema;
export function extensionItemsSchema(
  type: ExtensionType,
  action: ExtensionActionDates | null,
): typeof mealItemsSchema | typeof parkingItemsSchema;
export function extensionItemsSchema(type: ExtensionType, action: ExtensionActionDates | null) {
  if (type === EXTENSION_MEAL)
    return mealItemsSchema.superRefine((v, ctx) => {
      for (const issue of mealItemIssues(v.items, action)) ctx.addIssue({ code: 'custom', ...issue });
    });
  return parkingItemsSchema.superRefine((v, ctx) => {
    for (const issue of parkingAreaIssues(v.items, action)) ctx.addIssue({ code: 'custom', ...issue });
  });
}
export type ExtensionItemsInput = { items: MealItemInput[] } | { items: ParkingAreaInput[] };

/**
 * Copy the items of one day to other days (spec §4): new rows (ids null) with the target date;
 * the target days' own items are kept unless `replace`. Used by the edit screen before saving and
 * by POST …/copy.
 */
export function copyDayItems<T extends { id: number | null; date: string | null; options?: unknown; places?: unknown }>(
  items: T[],
  fromDay: string | null,
  toDays: string[],
  replace = false,
): T[] {
  const source = items.filter((i) => i.date === fromDay);
  const targets = new Set(toDays.filter((d) => d !== fromDay));
  const kept = replace ? items.filter((i) => !targets.has(i.date ?? '')) : items;
  const copies: T[] = [];
  for (const day of targets) {
    for (const item of source) {
      const copy = structuredClone(item);
      copy.id = null;
      copy.date = day;
      const children = (copy.options ?? copy.places) as { id: number | null }[] | undefined;
      if (Array.isArray(children)) for (const c of children) c.id = null;
      copies.push(copy);
    }
  }
  return [...kept, ...copies];
}

/** POST action-extension/{type}/{actionId}/copy: copy a day's items to other days and save. */
export const extensionCopySchema = z.object({
  /** the source day; null copies the items without a date (parking for the whole event) */
  fromDay: calendarDate().nullable(),
  toDays: z.array(calendarDate()).min(1, { error: REQUIRED }).max(366),
  /** drop the target days' own items first */
  replace: booleanSchema(false),
});
export type ExtensionCopyInput = z.input<typeof extensionCopySchema>;

// ---------------------------------------------------------------------------------------------
// Activation

/** POST action-extension/{type}/{actionId} {active} */
export const extensionActivateSchema = z.object({ active: z.boolean({ error: REQUIRED }) });
export type ExtensionActivateInput = z.input<typeof extensionActivateSchema>;

export interface ExtensionActivation {
  actionId: number;
  type: ExtensionType;
  active: boolean;
}

/** A row of GET action-extension/{type}: an action of the subject with the activation. */
export interface ExtensionActionRow {
  id: number;
  name: MultiText;
  dateFrom: string | null;
  dateTo: string | null;
  multiDay: boolean;
  active: boolean;
}

// ---------------------------------------------------------------------------------------------
// GET action-extension/{type}/{actionId}

/** An option or place as read back, with how many hold it (`full` when at capacity). */
export interface ExtensionOptionView {
  id: number;
  name: MultiText;
  /** meal options only ('' for places) */
  note: string;
  capacity: number | null;
  taken: number;
  full: boolean;
}

/** A meal item or parking area as read back. Meals have times, parking has none ('' ). */
export interface ExtensionItemView {
  id: number;
  label: MultiText;
  /** YYYY-MM-DD; null for a parking area of the whole event */
  date: string | null;
  timeFrom: string;
  timeTo: string;
  capacity: number | null;
  active: boolean;
  /** people holding the item */
  taken: number;
  /** meals: how many of them used it (dateUsed); parking: how many are inside now */
  used: number;
  /** not selectable: inactive or at capacity (spec §4: shown as capacity full) */
  full: boolean;
  /** meal options, or parking places */
  options: ExtensionOptionView[];
}

/** Spec §3 "per day: day, name, items": a tab of the edit screen. */
export interface ExtensionDay {
  /** YYYY-MM-DD, or null for 'For whole event' */
  day: string | null;
  /** the action day's name; empty for 'For whole event' */
  name: MultiText;
  items: ExtensionItemView[];
}

export interface ExtensionData {
  type: ExtensionType;
  actionId: number;
  active: boolean;
  action: ExtensionActionDates & { id: number; name: MultiText; dayNames: Record<string, MultiText> };
  /** one tab per action day on a multi-day action (plus null for dateless parking areas), else one null tab */
  days: ExtensionDay[];
  /** all items flat (what PUT takes back, after turning views into inputs) */
  items: ExtensionItemView[];
}

/** The edit form's value from a read (ids kept, counts dropped): what PUT takes. */
export function toItemInputs(type: ExtensionType, items: ExtensionItemView[]): MealItemInput[] | ParkingAreaInput[] {
  if (type === EXTENSION_PARKING)
    return items.map((i) => ({
      id: i.id,
      label: i.label,
      date: i.date,
      capacity: i.capacity,
      active: i.active,
      places: i.options.map((o) => ({ id: o.id, name: o.name, capacity: o.capacity })),
    }));
  return items.map((i) => ({
    id: i.id,
    label: i.label,
    date: i.date ?? '',
    timeFrom: i.timeFrom,
    timeTo: i.timeTo,
    capacity: i.capacity,
    active: i.active,
    options: i.options.map((o) => ({ id: o.id, name: o.name, note: o.note, capacity: o.capacity })),
  }));
}

// ---------------------------------------------------------------------------------------------
// Per person (spec §3 "Per user: itemId, dateUsed, option, have"; parking: a licence plate)

const licencePlate = () =>
  z
    .string({ error: 'basics.invalidValue' })
    .trim()
    .max(LICENCE_PLATE_MAX, { error: 'basics.tooLong' })
    .nullish()
    .transform((v) => (v ? v.toUpperCase() : null));

/**
 * One item for a person (or a group default, or an online choice): `have` true assigns it with
 * `option` (a meal option's id, or a parking place's id; null for none), false removes it.
 * `licencePlate` is parking only.
 */
export const userExtensionItemSchema = z.object({
  itemId: id(),
  option: z.preprocess((v) => (v === '' || v === undefined ? null : v), id().nullable()) as unknown as z.ZodType<
    number | null,
    number | string | null | undefined
  >,
  have: booleanSchema(true),
  licencePlate: licencePlate(),
});
export type UserExtensionItemInput = z.input<typeof userExtensionItemSchema>;
export type UserExtensionItem = z.output<typeof userExtensionItemSchema>;

const uniqueItems = (items: UserExtensionItem[]) => new Set(items.map((i) => i.itemId)).size === items.length;

export const userExtensionItemsSchema = z
  .array(userExtensionItemSchema)
  .max(500)
  .default([])
  .refine(uniqueItems, { error: 'basics.invalidValue' });

/** A person's item as read back. */
export interface UserExtensionItemView {
  itemId: number;
  option: number | null;
  have: true;
  /** meals: when a gate in mode 4 used it (YYYY-MM-DDTHH:mm, subject's time zone); locked once set */
  dateUsed: string | null;
  licencePlate: string | null;
}

/** GET action-extension/{type}/{actionId}/users/{userId} */
export interface ExtensionUserItems {
  userId: number;
  items: UserExtensionItemView[];
}

/** PUT action-extension/{type}/{actionId}/users {items, usersIds, actionId} */
export const extensionAssignUsersSchema = z.object({
  items: userExtensionItemsSchema,
  usersIds: z.array(id()).min(1, { error: 'accreditation.chooseUsers' }).max(100_000),
  actionId: id(),
});
export type ExtensionAssignUsersInput = z.input<typeof extensionAssignUsersSchema>;

export interface ExtensionAssignResult {
  /** people whose items changed */
  changed: number;
}

/** POST action-extension/{type}/{actionId}/users: the people of the action with their items. */
export const extensionUsersQuerySchema = pagingSchema.extend({
  /** a day tab: only that day's items in each row (null: all) */
  day: calendarDate()
    .nullish()
    .transform((v) => v ?? null),
  /** first name, last name, e-mail or code contains */
  phrase: z
    .string()
    .trim()
    .max(255)
    .nullish()
    .transform((v) => v ?? ''),
  groupId: z.preprocess((v) => (v === '' || v === undefined ? null : v), id().nullable()) as unknown as z.ZodType<
    number | null,
    number | string | null | undefined
  >,
  /** all people, those holding an item (of the day), or those without */
  has: z.enum(['all', 'with', 'without']).default('all'),
});
export type ExtensionUsersQueryInput = z.input<typeof extensionUsersQuerySchema>;

export interface ExtensionUserRow {
  id: number;
  customId: number;
  firstname: string;
  lastname: string;
  email: string;
  bc: string;
  groupName: string | null;
  items: UserExtensionItemView[];
}

// ---------------------------------------------------------------------------------------------
// Group defaults (spec §3 Group assignDefaultMeal / assignDefaultParking)

/** PUT action-extension/{type}/{actionId}/groups/{groupId} {items, actionId} */
export const extensionGroupSchema = z.object({
  items: userExtensionItemsSchema,
  actionId: id(),
  /** also give the items to the group's present members (else only to people who join later) */
  applyToMembers: booleanSchema(false),
});
export type ExtensionGroupInput = z.input<typeof extensionGroupSchema>;

export interface ExtensionGroupDefaults {
  groupId: number;
  /** the group's assignDefaultMeal (type 1) or assignDefaultParking (type 2) switch */
  assignDefault: boolean;
  items: { itemId: number; option: number | null; have: true; licencePlate: null }[];
}

// ---------------------------------------------------------------------------------------------
// Online registration (spec §3 payload mealItems, parkingItems; GET web-channel/data/{id})

/** The registration payload's mealItems / parkingItems: items with their option (have true). */
export const onlineExtensionItemsSchema = userExtensionItemsSchema;

/** What the online form offers (channel data mealItems / parkingItems). */
export interface OnlineExtensionItem {
  id: number;
  label: MultiText;
  date: string | null;
  timeFrom: string;
  timeTo: string;
  full: boolean;
  options: { id: number; name: MultiText; note: string; full: boolean }[];
}

// ---------------------------------------------------------------------------------------------
// Report (POST action-extension/{type}/{actionId}/report)

export const extensionReportSchema = z.object({
  /** json answers ExtensionReport; xlsx answers the file (name in content-disposition) */
  responseType: z.enum(['json', 'xlsx']).default('xlsx'),
  /** one day only (null: every day) */
  day: calendarDate()
    .nullish()
    .transform((v) => v ?? null),
});
export type ExtensionReportInput = z.input<typeof extensionReportSchema>;

export interface ExtensionReportRow {
  date: string | null;
  itemId: number;
  label: MultiText;
  timeFrom: string;
  timeTo: string;
  capacity: number | null;
  /** how many people hold the item */
  chose: number;
  /** meals: used at a gate (dateUsed); parking: inside now */
  used: number;
  options: { option: number | null; name: MultiText; chose: number; used: number }[];
}

export interface ExtensionReport {
  type: ExtensionType;
  actionId: number;
  rows: ExtensionReportRow[];
}
