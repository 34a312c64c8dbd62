import { z } from 'zod';
import type { Language } from '../constants.js';
import { booleanSchema, optionalId, REQUIRED, requiredString } from './common.js';
import { customFieldValueSchema, personShape } from './accreditation.js';
import { calendarDate, dateTime, type MultiText, optionalMultiText } from './setup.js';
import { type OnlineExtensionItem, onlineExtensionItemsSchema } from '../extension.js';

/**
 * Web channels and public online registration (spec §3 Web channel, External code, Online
 * registration payload; §4 states; §5 rules; §7 Online; §8 Online).
 *
 * ## Admin (api/admin/v1, rights webChannel get/create/update/exportExternalCode)
 * - `GET web-channel[?actionId=]` → `WebChannelListItem[]`
 * - `GET web-channel/{id}` → `WebChannel`; `POST web-channel`, `PUT web-channel/{id}` with
 *   `WebChannelInput` (schema `webChannelSchema`) → `WebChannel`
 * - `POST web-channel/external-code/import` with `ExternalCodeImportInput` (the .csv as a data URL,
 *   like the accreditation import) → `ExternalCodeImportResult`; the client merges `codes` into
 *   the form; nothing is saved until the channel is saved.
 * - `GET web-channel/external-code/{id}` → a CSV file `code;numberOfUse;used` (right exportExternalCode)
 *
 * ## Online (api/online/v1, token in the header `authorization-online`)
 * - `GET web-channel/{key}` → `OnlineChannelInfo` (public: what the authorization step needs)
 * - `GET web-channel/data/{key}` → `OnlineChannelData` (the form; needs the online token when the
 *   channel has authorization)
 * - `POST web-channel/login` with `OnlineLoginInput` → `{token}`
 * - `POST web-channel/authorize/{key}` → `{authorizationType}` (checks the stored token)
 * - `POST web-channel/logout/{key}` → `true`
 * - `POST accreditation/{key}` with `OnlineRegistrationInput` → `{id, customId, afterAdd}` (201)
 * When the channel is not open every online call answers with WEB_CHANNEL_NOT_ACTIVE,
 * WEB_CHANNEL_NOT_ACTIVE_YET, WEB_CHANNEL_IS_CLOSED or WEB_CHANNEL_DOESNT_EXIST.
 *
 * ## Groups and days of a channel (how `groupsId` and `defaultDays` are read)
 * - `viewGroups` on: the form shows a select labelled `groupsSelectName` offering the groups in
 *   `groupsId` (an empty list offers every group of the channel's action); the visitor must
 *   choose one (`groups: [id]`).
 * - `viewGroups` off: every group in `groupsId` is assigned automatically (empty: no group).
 * - `viewDays` on (multi-day actions): the form shows the action's days as checkboxes labelled
 *   `daysSelectName`, `defaultDays` pre-ticked; the visitor's choice is stored.
 * - `viewDays` off: `defaultDays` are assigned automatically.
 * - `customField`: ids of the action's user fields this channel shows; empty = every field the
 *   action does not hide. A field not shown (hidden by the action's `notShow`, or left out here)
 *   gets the action's default value and is never required from the visitor.
 *
 * ## Authorization (spec §4)
 * `authorizationType` 1 password, 2 login users, 3 external code; derived from and saved back
 * into `byPassword`/`byCode` (1: byPassword only; 2: neither; 3: byCode). `password` is write-only:
 * the answer carries `hasPassword`; a blank password keeps the stored one. Codes are compared
 * case-insensitively (stored upper-cased), user logins too (stored lower-cased).
 *
 * Message keys used here: basics.requireField, basics.invalidValue, basics.tooLong,
 * basics.enterCorrectDate, basics.emailNotValid, and webChannelRules.* (dateFromAfterTo,
 * dateToBeforeFrom, positiveNumber, userLoginExists, codeExists, groupRequired, photoRequired,
 * checkingAttributeRequired, groupsOfAction).
 */

// ---- building blocks ----

export const AUTHORIZATION_TYPES = [1, 2, 3] as const;
export type AuthorizationType = (typeof AUTHORIZATION_TYPES)[number];
export const AUTHORIZATION_PASSWORD = 1;
export const AUTHORIZATION_LOGIN = 2;
export const AUTHORIZATION_CODE = 3;

/** afterAdd.action: 1 shows an 'add next' button, 2 nothing. */
export const AFTER_ADD_NEXT = 1;
export const AFTER_ADD_NOTHING = 2;

const nonNegativeInt = () =>
  z.coerce
    .number({ error: 'webChannelRules.positiveNumber' })
    .int({ error: 'webChannelRules.positiveNumber' })
    .min(0, { error: 'webChannelRules.positiveNumber' })
    .max(1_000_000, { error: 'webChannelRules.positiveNumber' });

/**
 * A number the spec requires in some cases (numberUseExtCode for type 3): a cleared field (null,
 * '' or blanks) stays empty (null) so that the required check sees it. Coercing first would turn
 * it into 0, which means "unlimited". Only where the spec says "empty becomes 0" (entrances) may
 * a plain coercion be used.
 */
const emptyAsNull = (v: unknown) => (v === null || (typeof v === 'string' && !v.trim()) ? null : v);
const optionalNonNegativeInt = () => z.preprocess(emptyAsNull, z.union([z.null(), nonNegativeInt()])).optional();

/** External codes are compared case-insensitively: trimmed and upper-cased everywhere. */
export const normalizeCode = (code: string) => code.trim().toUpperCase();
/** Channel user logins likewise: trimmed and lower-cased. */
export const normalizeLogin = (login: string) => login.trim().toLowerCase();

export const EXTERNAL_CODE_MAX_LENGTH = 64;

// ---- admin payload ----

export const webChannelUserSchema = z
  .object({
    /** absent or null for a new user */
    id: z.coerce.number().int().positive().nullish(),
    login: requiredString(255).transform(normalizeLogin),
    /** only on create (a user without id); ignored for existing users */
    password: z.string().max(200, { error: 'basics.tooLong' }).nullish(),
    active: booleanSchema(true),
  })
  .superRefine((u, ctx) => {
    if (!u.id && !u.password?.trim()) ctx.addIssue({ code: 'custom', path: ['password'], message: REQUIRED });
  });
export type WebChannelUserInput = z.input<typeof webChannelUserSchema>;

export const externalCodeSchema = z.object({
  /** absent or null for a new code */
  id: z.coerce.number().int().positive().nullish(),
  code: requiredString(EXTERNAL_CODE_MAX_LENGTH).transform(normalizeCode),
  /** 0 = unlimited */
  numberOfUse: nonNegativeInt().default(0),
});
export type ExternalCodeInput = z.input<typeof externalCodeSchema>;

export const webChannelSchema = z
  .object({
    name: requiredString(),
    actionId: z.coerce.number({ error: REQUIRED }).int({ error: REQUIRED }).positive({ error: REQUIRED }),
    active: booleanSchema(true),
    dateFrom: dateTime(false),
    dateTo: dateTime(true),
    viewGroups: booleanSchema(false),
    groupsSelectName: optionalMultiText(),
    groupsId: z.array(z.coerce.number().int().positive()).max(500).default([]),
    viewDays: booleanSchema(false),
    daysSelectName: optionalMultiText(),
    defaultDays: z.array(calendarDate()).max(366).default([]),
    viewMealSelect: booleanSchema(false),
    viewParkingSelect: booleanSchema(false),
    customNameFirstname: optionalMultiText(),
    customNameLastname: optionalMultiText(),
    customNameEmail: optionalMultiText(),
    afterAdd: z
      .object({ action: z.union([z.literal(1), z.literal(2)], { error: 'basics.invalidValue' }).default(1) })
      .prefault({}),
    mailTemplateId: optionalId(),
    customField: z.array(z.coerce.number().int().positive()).max(200).default([]),
    withAuthorization: booleanSchema(false),
    /** derived from authorizationType on save; sent values are ignored */
    byPassword: z.boolean().optional(),
    byCode: z.boolean().optional(),
    authorizationType: z
      .union([z.literal(1), z.literal(2), z.literal(3), z.null()], { error: REQUIRED })
      .optional()
      .transform((v) => v ?? null),
    authorizationText: optionalMultiText(5000),
    /** write-only; blank keeps the stored one */
    password: z.string().max(200, { error: 'basics.tooLong' }).nullish(),
    /** the uses a code gets when added without a count (CSV lines with a code only) */
    numberUseExtCode: optionalNonNegativeInt(),
    /** the logo: a gallery image */
    imageId: optionalId(),
    users: z.array(webChannelUserSchema).max(5000).default([]),
    externalCode: z.array(externalCodeSchema).max(50_000).default([]),
  })
  .superRefine((c, ctx) => {
    if (c.dateFrom && c.dateTo && c.dateFrom > c.dateTo) {
      ctx.addIssue({ code: 'custom', path: ['dateFrom'], message: 'webChannelRules.dateFromAfterTo' });
      ctx.addIssue({ code: 'custom', path: ['dateTo'], message: 'webChannelRules.dateToBeforeFrom' });
    }
    if (c.withAuthorization && !c.authorizationType)
      ctx.addIssue({ code: 'custom', path: ['authorizationType'], message: REQUIRED });
    if (c.withAuthorization && c.authorizationType === 3 && (c.numberUseExtCode ?? null) === null)
      ctx.addIssue({ code: 'custom', path: ['numberUseExtCode'], message: REQUIRED });
    const logins = new Set<string>();
    c.users.forEach((u, i) => {
      if (logins.has(u.login))
        ctx.addIssue({ code: 'custom', path: ['users', i, 'login'], message: 'webChannelRules.userLoginExists' });
      logins.add(u.login);
    });
    const codes = new Set<string>();
    c.externalCode.forEach((e, i) => {
      if (codes.has(e.code))
        ctx.addIssue({ code: 'custom', path: ['externalCode', i, 'code'], message: 'webChannelRules.codeExists' });
      codes.add(e.code);
    });
  })
  .transform((c) => ({
    ...c,
    // Spec §4: the type is saved back into the two flags.
    byPassword: c.authorizationType === 1,
    byCode: c.authorizationType === 3,
    authorizationType: c.authorizationType ?? (2 as AuthorizationType),
    numberUseExtCode: c.numberUseExtCode ?? 0,
    password: c.password?.trim() ? c.password : null,
    groupsId: [...new Set(c.groupsId)],
    defaultDays: [...new Set(c.defaultDays)].sort(),
  }));
export type WebChannelInput = z.input<typeof webChannelSchema>;
export type WebChannelData = z.output<typeof webChannelSchema>;

/** Spec §4: 1 password only, 2 neither flag (login users), 3 code. */
export function authorizationTypeOf(flags: { byPassword: boolean; byCode: boolean }): AuthorizationType {
  if (flags.byCode) return 3;
  return flags.byPassword ? 1 : 2;
}

/**
 * Spec §5: a password is required for type 1 on create, and on edit only if none is stored. The
 * form and the server both call this (the schema alone cannot know what is stored).
 */
export function channelPasswordMissing(
  input: { withAuthorization: boolean; authorizationType: number | null; password?: string | null },
  hasStoredPassword: boolean,
): boolean {
  return input.withAuthorization && input.authorizationType === 1 && !input.password?.trim() && !hasStoredPassword;
}

/** The CSV of external codes (spec §5: one .csv file; lines `code` or `code;numberOfUse`). */
export const externalCodeImportSchema = z.object({
  /** the file as a data URL or plain base64 */
  dataFile: z.string({ error: 'webChannelRules.chooseCsvFile' }).min(1, { error: 'webChannelRules.chooseCsvFile' }),
  /** the uses of a line without a count (the form's numberUseExtCode); 0 = unlimited */
  numberUseExtCode: z.union([nonNegativeInt(), z.null()]).optional(),
  /** codes already in the form: such lines are reported as duplicates */
  existing: z.array(z.string().max(EXTERNAL_CODE_MAX_LENGTH)).max(50_000).default([]),
});
export type ExternalCodeImportInput = z.input<typeof externalCodeImportSchema>;

export type ExternalCodeSkipReason = 'duplicate' | 'badNumber' | 'empty' | 'tooLong';
export interface ExternalCodeImportResult {
  /** new codes to merge into the form (no id yet) */
  codes: { code: string; numberOfUse: number }[];
  /** lines not imported (1-based line numbers of the file), shown as a warning */
  skipped: { line: number; text: string; reason: ExternalCodeSkipReason }[];
}

// ---- admin answers ----

export interface ExternalCodeLog {
  date: string;
  firstname: string;
  lastname: string;
  email: string;
}

export interface ExternalCode {
  id: number;
  code: string;
  numberOfUse: number;
  used: number;
  log: ExternalCodeLog[];
}

export interface WebChannelUser {
  id: number;
  login: string;
  active: boolean;
}

export type WebChannelState = 'open' | 'notActive' | 'notActiveYet' | 'closed';

export interface WebChannel {
  id: number;
  name: string;
  channelKey: string;
  /** the public form's path: /app/online/{channelKey} */
  link: string;
  state: WebChannelState;
  actionId: number;
  active: boolean;
  dateFrom: string | null;
  dateTo: string | null;
  viewGroups: boolean;
  groupsSelectName: MultiText;
  groupsId: number[];
  viewDays: boolean;
  daysSelectName: MultiText;
  defaultDays: string[];
  viewMealSelect: boolean;
  viewParkingSelect: boolean;
  customNameFirstname: MultiText;
  customNameLastname: MultiText;
  customNameEmail: MultiText;
  afterAdd: { action: 1 | 2 };
  mailTemplateId: number | null;
  customField: number[];
  withAuthorization: boolean;
  byPassword: boolean;
  byCode: boolean;
  authorizationType: AuthorizationType;
  authorizationText: MultiText;
  /** a password is stored (it is never returned) */
  hasPassword: boolean;
  numberUseExtCode: number;
  imageId: number | null;
  image: { id: number; path: string } | null;
  users: WebChannelUser[];
  externalCode: ExternalCode[];
  dateCreate: string;
  /** when the channel was archived (issue 15): its form is closed; null: in use */
  archivedAt?: string | null;
}

export interface WebChannelListItem {
  id: number;
  name: string;
  channelKey: string;
  link: string;
  actionId: number;
  active: boolean;
  dateFrom: string | null;
  dateTo: string | null;
  state: WebChannelState;
  withAuthorization: boolean;
  /** null without authorization */
  authorizationType: AuthorizationType | null;
  /** when the channel was archived (issue 15); null: in use */
  archivedAt?: string | null;
}

/**
 * Spec §4: open only when active and within dateFrom..dateTo (either may be empty: no limit on
 * that side). `now` is the venue's wall clock as YYYY-MM-DDTHH:mm; the dateTo minute is still open.
 * An archived channel (issue 15) is closed for good, whatever its dates say.
 */
export function webChannelState(
  c: { active: boolean; dateFrom: string | null; dateTo: string | null; archivedAt?: Date | string | null },
  now: string,
): WebChannelState {
  if (c.archivedAt) return 'closed';
  if (!c.active) return 'notActive';
  if (c.dateFrom && now < c.dateFrom) return 'notActiveYet';
  if (c.dateTo && now > c.dateTo) return 'closed';
  return 'open';
}

/** A time zone's formatter, and the last minute it answered with its text. */
interface Clock {
  format: Intl.DateTimeFormat | null;
  minute: number;
  text: string;
}
const clocks = new Map<string, Clock>();
/** One formatter per time zone: building one costs far more than using it. */
function clockOf(timeZone: string): Clock {
  let clock = clocks.get(timeZone);
  if (!clock) {
    let format: Intl.DateTimeFormat | null = null;
    try {
      format = new Intl.DateTimeFormat('en-GB', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      format = null;
    }
    clock = { format, minute: Number.NaN, text: '' };
    clocks.set(timeZone, clock);
  }
  return clock;
}

/**
 * Every zone's offset from UTC has been whole minutes since 1980 (some had seconds before 1972), so
 * from then on a UTC minute is one wall-clock minute and its text can be reused within it.
 */
const WHOLE_MINUTES_SINCE = Date.UTC(1980, 0, 1);

/** Now (or `at`) on the wall clock of `timeZone`, as `YYYY-MM-DDTHH:mm` (UTC for an unknown zone). */
export function wallClock(timeZone: string, at: Date = new Date()): string {
  const clock = clockOf(timeZone);
  if (!clock.format) return at.toISOString().slice(0, 16);
  const ms = at.getTime();
  const minute = Math.floor(ms / 60_000);
  // formatToParts costs ~10-20 us; an online registration asks twice (issue 16)
  if (minute === clock.minute) return clock.text;
  const parts = clock.format.formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  const text = `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
  if (ms >= WHOLE_MINUTES_SINCE) {
    clock.minute = minute;
    clock.text = text;
  }
  return text;
}

/** The online error code of each closed state (spec §8 Online). */
export const WEB_CHANNEL_STATE_ERRORS = {
  notActive: 'WEB_CHANNEL_NOT_ACTIVE',
  notActiveYet: 'WEB_CHANNEL_NOT_ACTIVE_YET',
  closed: 'WEB_CHANNEL_IS_CLOSED',
} as const;

// ---- online ----

/**
 * POST web-channel/login (spec §5: by password only a password; by code only a code; otherwise
 * login and password). Which fields are needed depends on the channel: `onlineLoginSchemaFor`.
 */
export const onlineLoginSchema = z.object({
  channelKey: requiredString(64),
  login: z.string().trim().max(255, { error: 'basics.tooLong' }).nullish(),
  password: z.string().max(200, { error: 'basics.tooLong' }).nullish(),
  code: z.string().trim().max(EXTERNAL_CODE_MAX_LENGTH, { error: 'basics.tooLong' }).nullish(),
});
export type OnlineLoginInput = z.input<typeof onlineLoginSchema>;

export function onlineLoginSchemaFor(type: AuthorizationType) {
  return onlineLoginSchema.superRefine((v, ctx) => {
    const need = (field: 'login' | 'password' | 'code') => {
      if (!v[field]?.trim()) ctx.addIssue({ code: 'custom', path: [field], message: REQUIRED });
    };
    if (type === 1) need('password');
    else if (type === 3) need('code');
    else {
      need('login');
      need('password');
    }
  });
}

export interface OnlineToken {
  token: string;
  authorizationType: AuthorizationType;
}

/** GET web-channel/{key}: what the page shows before (and around) the form. */
export interface OnlineChannelInfo {
  channelKey: string;
  name: string;
  /** cs, sk, en, de when the subject is multi-language, else cs only */
  languages: Language[];
  multiLanguage: boolean;
  /** logo URL or null */
  logo: string | null;
  withAuthorization: boolean;
  authorizationType: AuthorizationType | null;
  authorizationText: MultiText;
  actionName: MultiText;
}

export interface OnlineField {
  id: number;
  name: string;
  label: MultiText;
  tooltip: MultiText;
  /** 1 TEXT … 9 IMAGE */
  customFieldType: number;
  options: { id: string; value: string }[];
  isMandatory: boolean;
}

/** GET web-channel/data/{key}: everything the registration form needs. */
export interface OnlineChannelData extends OnlineChannelInfo {
  afterAdd: { action: 1 | 2 };
  customNameFirstname: MultiText;
  customNameLastname: MultiText;
  customNameEmail: MultiText;
  textOnline: MultiText;
  textAfterAdd: MultiText;
  withPhoto: boolean;
  requirePhoto: boolean;
  viewGroups: boolean;
  groupsSelectName: MultiText;
  /** offered groups (empty unless viewGroups) */
  groups: { id: number; name: string; displayName: MultiText }[];
  viewDays: boolean;
  daysSelectName: MultiText;
  /** the action's days offered (empty unless viewDays on a multi-day action) */
  days: { id: string; name: MultiText }[];
  /** days ticked in advance */
  defaultDays: string[];
  /** user fields shown (hidden ones are left out) */
  customField: OnlineField[];
  checkingAttributes: { id: string; label: MultiText; url: string; required: boolean }[];
  /** meal / parking selection offered: the flag is on and the action has that extension */
  viewMealSelect: boolean;
  viewParkingSelect: boolean;
  /** the meal items offered (active ones; full ones marked), empty unless viewMealSelect */
  mealItems: OnlineExtensionItem[];
  /** the parking areas offered, empty unless viewParkingSelect */
  parkingItems: OnlineExtensionItem[];
}

/** Spec §3 Online registration payload; POST accreditation/{key}. */
export const onlineRegistrationSchema = z.object({
  /** the person: the same fields and bounds as the admin form and the import */
  ...personShape,
  customField: z.array(customFieldValueSchema).max(200).default([]),
  days: z.array(calendarDate()).max(366).default([]),
  /** the chosen group (viewGroups): one id */
  groups: z.array(z.coerce.number().int().positive()).max(1, { error: 'basics.invalidValue' }).default([]),
  /** the photo as a data URL (png, jpg, gif; 2 MB) */
  image: z.string().max(3_000_000, { error: 'photo.chooseToolTipOnline' }).nullish(),
  /** meal items chosen, {itemId, option} (only with viewMealSelect on an action with the meal extension) */
  mealItems: onlineExtensionItemsSchema,
  parkingItems: onlineExtensionItemsSchema,
  /** ticked checking attributes by their id (spec §5 ca-{id}) */
  checkingAttributes: z.record(z.string(), z.boolean()).default({}),
  // `language` (personShape): the language the form was shown in, stored with the person (issue 15)
});
export type OnlineRegistrationInput = z.input<typeof onlineRegistrationSchema>;

export interface OnlineRegistrationResult {
  id: number;
  customId: number;
  afterAdd: { action: 1 | 2 };
  /** a confirmation mail was queued to the visitor (the channel's or the action's after-registration template) */
  confirmationMail: boolean;
}

/** A user field's default value (a text typed by the admin) in the field's value shape. */
export function defaultFieldValue(customFieldType: number, defaultValue: string | null | undefined): unknown {
  const text = (defaultValue ?? '').trim();
  if (!text) return customFieldType === 7 ? false : null;
  switch (customFieldType) {
    case 2:
      return Number(text.replace(',', '.'));
    case 3:
      return text
        .split(/[,;]/)
        .map((s) => s.trim())
        .filter(Boolean);
    case 5:
      try {
        return JSON.parse(text);
      } catch {
        return null;
      }
    case 7:
      return ['1', 'true', 'yes', 'ano'].includes(text.toLowerCase());
    default:
      return text;
  }
}
