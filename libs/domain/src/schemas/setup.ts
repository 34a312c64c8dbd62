import { z } from 'zod';
import { EMAIL_PATTERN, IMAGE_TYPES, type LANGUAGES } from '../constants.js';
import { booleanSchema, optionalId, REQUIRED, requiredString } from './common.js';

/**
 * Event set-up (spec §3 Action, User field, Group, Zone, templates, Image; §5 rules). Date-times on
 * the wire are the venue's wall clock, `YYYY-MM-DDTHH:mm`; dates `YYYY-MM-DD`.
 */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a `YYYY-MM-DD` names a day of the calendar (2026-02-31 and 2026-13-01 do not). */
export function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** Whether a `YYYY-MM-DDTHH:mm` names a real day and time of the wall clock. */
export function isDateTime(value: string): boolean {
  return (
    DATE_TIME.test(value) &&
    isCalendarDate(value.slice(0, 10)) &&
    Number(value.slice(11, 13)) < 24 &&
    Number(value.slice(14, 16)) < 60
  );
}

/** A `YYYY-MM-DD` of the calendar, or basics.enterCorrectDate. */
export const calendarDate = () => z.string().refine(isCalendarDate, { error: 'basics.enterCorrectDate' });

const optText = (max: number) =>
  z
    .string({ error: 'basics.invalidValue' })
    .max(max, { error: 'basics.tooLong' })
    .nullish()
    .transform((v) => v ?? '');

const langShape = (max: number) => ({ sk: optText(max), en: optText(max), de: optText(max) });

/** A text per language with Czech required (cs is the fallback everywhere); no default, so a missing one is reported. */
export const requiredMultiText = (max = 255) =>
  z.object({ cs: requiredString(max), ...langShape(max) }, { error: REQUIRED });

/** A text per language, every one optional. */
export const optionalMultiText = (max = 255) =>
  z.object({ cs: optText(max), ...langShape(max) }).default({ cs: '', sk: '', en: '', de: '' });
export type MultiText = Record<(typeof LANGUAGES)[number], string>;

/**
 * Admin-written HTML stored in a `text` column: MariaDB's TEXT holds 65,535 bytes (UTF-8), so the
 * bound is in bytes, not characters (a badge of 20,000 emoji is 80,000 bytes). Pictures belong in
 * the gallery, not inline.
 */
export const TEXT_COLUMN_BYTES = 65_535;
const utf8 = new TextEncoder();
const htmlText = () =>
  z
    .string()
    .refine((v) => v.length <= TEXT_COLUMN_BYTES && utf8.encode(v).length <= TEXT_COLUMN_BYTES, {
      error: 'basics.tooLong',
    })
    .nullish()
    .transform((v) => v ?? '');

const html = (max = 100_000) => optionalMultiText(max);

/** Spec §9: a date-to without a time ends at 23:59. */
export function withDefaultEndTime(value: string): string {
  return DATE.test(value) ? `${value}T23:59` : value;
}

/** A wall-clock date-time (action and channel ranges); a date alone starts at 00:00, or as an end at 23:59. */
export const dateTime = (end: boolean) =>
  z
    .string({ error: 'basics.enterCorrectDate' })
    .trim()
    .nullish()
    .transform((v) => (v ? (end ? withDefaultEndTime(v) : DATE.test(v) ? `${v}T00:00` : v) : null))
    .refine((v) => v === null || isDateTime(v), { error: 'basics.enterCorrectDate' });

/** Every day of a range, as YYYY-MM-DD (spec §4 Multi-day: the days list comes from the range). */
export function daysInRange(dateFrom: string | null | undefined, dateTo: string | null | undefined): string[] {
  if (!dateFrom || !dateTo) return [];
  const start = Date.parse(`${dateFrom.slice(0, 10)}T00:00:00Z`);
  const end = Date.parse(`${dateTo.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end) || end < start || end - start > 366 * 86_400_000) return [];
  const out: string[] = [];
  for (let t = start; t <= end; t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export interface ActionDay {
  id: string;
  name: MultiText;
  onAccreditation: string;
}

/**
 * Regenerates an action's days after its range changed: days outside are removed, the others keep
 * their names; when the list was empty every day of the range is added.
 */
export function regenerateDays(days: ActionDay[], dateFrom: string | null, dateTo: string | null): ActionDay[] {
  const range = new Set(daysInRange(dateFrom, dateTo));
  const kept = days.filter((d) => range.has(d.id));
  if (kept.length || days.length) return kept;
  return [...range].map((id) => ({
    id,
    name: { cs: id, sk: '', en: '', de: '' },
    onAccreditation: id.slice(5).split('-').reverse().join('.'),
  }));
}

const daySchema = z.object({
  id: calendarDate(),
  name: requiredMultiText(),
  onAccreditation: requiredString(64),
});

const previewBlock = z.object({ show: booleanSchema(false), title: optionalMultiText(), html: html() });
const selectBlock = previewBlock.extend({
  allowSelect: booleanSchema(false),
  selectDateTime: dateTime(false),
});

export const actionSchema = z
  .object({
    name: requiredMultiText(),
    dateFrom: dateTime(false),
    dateTo: dateTime(true),
    multiDay: booleanSchema(false),
    days: z.array(daySchema).max(366).default([]),
    afterMailTemplateId: optionalId(),
    isCredit: booleanSchema(false),
    withPhoto: booleanSchema(false),
    requirePhoto: booleanSchema(false),
    smartBc: booleanSchema(false),
    customField: z
      .array(
        z.object({
          id: z.coerce.number().int().positive(),
          isMandatory: booleanSchema(false),
          notShow: booleanSchema(false),
          defaultValue: z
            .string()
            .max(1000)
            .nullish()
            .transform((v) => v ?? ''),
        }),
      )
      .max(200)
      .default([]),
    textOnline: html(),
    textAfterAdd: html(),
    checkingAttributes: z
      .array(
        z.object({
          id: z.string().max(64).nullish(),
          label: requiredMultiText(1000),
          url: z
            .string()
            .trim()
            .max(1000)
            .nullish()
            .transform((v) => v ?? ''),
          required: booleanSchema(false),
        }),
      )
      .max(50)
      .default([]),
    previewData: z
      .object({
        title: optionalMultiText(),
        image: optionalId(),
        credit: previewBlock.prefault({}),
        custom: previewBlock.prefault({}),
        meal: selectBlock.prefault({}),
        parking: selectBlock.prefault({}),
      })
      .prefault({}),
  })
  .superRefine((a, ctx) => {
    if (a.dateFrom && !a.dateTo) ctx.addIssue({ code: 'custom', path: ['dateTo'], message: 'action.dateToRequired' });
    if (a.dateTo && !a.dateFrom)
      ctx.addIssue({ code: 'custom', path: ['dateFrom'], message: 'action.dateFromRequired' });
    if (a.dateFrom && a.dateTo && a.dateFrom > a.dateTo)
      ctx.addIssue({ code: 'custom', path: ['dateTo'], message: 'action.dateFromAfterTo' });
    if (a.multiDay) {
      if (!a.dateFrom || !a.dateTo)
        ctx.addIssue({ code: 'custom', path: ['multiDay'], message: 'action.multiDayNeedsDates' });
      else if (a.days.length === 0)
        ctx.addIssue({ code: 'custom', path: ['days'], message: 'action.multiDayNeedsDays' });
      const range = new Set(daysInRange(a.dateFrom, a.dateTo));
      a.days.forEach((d, i) => {
        if (!range.has(d.id))
          ctx.addIssue({ code: 'custom', path: ['days', i, 'id'], message: 'basics.dateNotInActionRange' });
      });
    }
    for (const block of ['credit', 'custom', 'meal'] as const) {
      const b = a.previewData[block];
      if (b.show && !b.title.cs.trim())
        ctx.addIssue({ code: 'custom', path: ['previewData', block, 'title', 'cs'], message: REQUIRED });
    }
  })
  .transform((a) => ({ ...a, days: a.multiDay ? a.days : [], requirePhoto: a.withPhoto && a.requirePhoto }));
export type ActionInput = z.input<typeof actionSchema>;
export type ActionData = z.output<typeof actionSchema>;

export const currentActionSchema = z.object({ actionId: optionalId() });

/** User-field types of spec §3 with their ids; 3 and 4 carry options (spec §5). */
export const CUSTOM_FIELD_TYPES = [
  { id: 1, code: 'TEXT' },
  { id: 2, code: 'NUMBER' },
  { id: 3, code: 'SELECT_MULTI' },
  { id: 4, code: 'SELECT' },
  { id: 5, code: 'ADDRESS' },
  { id: 6, code: 'EMAIL' },
  { id: 7, code: 'BOOL' },
  { id: 8, code: 'PHONE' },
  { id: 9, code: 'IMAGE' },
] as const;
export type CustomFieldTypeCode = (typeof CUSTOM_FIELD_TYPES)[number]['code'];
export const OPTION_TYPES: readonly number[] = [3, 4];

export const customFieldSchema = z
  .object({
    name: requiredString(),
    label: requiredMultiText(),
    tooltip: html(20_000),
    customFieldType: z.coerce
      .number({ error: REQUIRED })
      .int({ error: REQUIRED })
      .refine((t) => CUSTOM_FIELD_TYPES.some((c) => c.id === t), { error: REQUIRED }),
    options: z
      .array(z.object({ id: z.string().max(64).nullish(), value: requiredString(255) }))
      .max(500)
      .default([]),
  })
  .superRefine((f, ctx) => {
    if (OPTION_TYPES.includes(f.customFieldType) && f.options.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'customField.optionsRequired' });
    }
  })
  // Spec §5: options are kept only for the option types; cleared for the others before saving.
  .transform((f) => ({ ...f, options: OPTION_TYPES.includes(f.customFieldType) ? f.options : [] }));
export type CustomFieldInput = z.input<typeof customFieldSchema>;

export const groupSchema = z.object({
  name: requiredString(),
  displayName: optionalMultiText(),
  label: z
    .string()
    .trim()
    .max(255)
    .nullish()
    .transform((v) => v ?? ''),
  htmlData: htmlText(),
  adminTemplateId: optionalId(),
  zoneId: z.array(z.coerce.number().int().positive()).max(500).default([]),
  actionId: optionalId(),
  assignDefaultMeal: booleanSchema(false),
  assignDefaultParking: booleanSchema(false),
});
export type GroupInput = z.input<typeof groupSchema>;

export const zoneSchema = z.object({
  name: requiredString(),
  onAccreditation: z
    .string()
    .trim()
    .max(64)
    .nullish()
    .transform((v) => v ?? ''),
  actionId: optionalId(),
});
export type ZoneInput = z.input<typeof zoneSchema>;

export const PAGE_SIZES_PRINT = ['A4', 'A4-L', 'A5', 'A5-L', 'A6', 'A6-L'] as const;

export const templateSchema = z.object({
  name: requiredString(),
  type: z.coerce.number().int().min(1).max(5).default(1),
  pageSize: z.enum(PAGE_SIZES_PRINT, { error: REQUIRED }).default('A6'),
  htmlData: htmlText(),
});
export type TemplateInput = z.input<typeof templateSchema>;

/** The languages a mail template holds besides Czech, whose text is the template's own `subjectFrom` and `html`. */
export const MAIL_TRANSLATION_LANGUAGES = ['sk', 'en', 'de'] as const;
export type MailTranslationLanguage = (typeof MAIL_TRANSLATION_LANGUAGES)[number];

/** A mail template's text in one more language: both the subject line and the body, or neither. */
export const mailTranslationSchema = z
  .object({
    subjectFrom: z
      .string({ error: 'basics.invalidValue' })
      .trim()
      .max(500, { error: 'basics.tooLong' })
      .nullish()
      .transform((v) => v ?? ''),
    html: htmlText(),
  })
  .superRefine((text, ctx) => {
    const hasHtml = text.html.trim() !== '';
    if (hasHtml && !text.subjectFrom) ctx.addIssue({ code: 'custom', path: ['subjectFrom'], message: REQUIRED });
    if (text.subjectFrom && !hasHtml) ctx.addIssue({ code: 'custom', path: ['html'], message: REQUIRED });
  });
export type MailTranslation = z.output<typeof mailTranslationSchema>;
export type MailTranslations = Partial<Record<MailTranslationLanguage, MailTranslation>>;

export const mailTemplateSchema = z.object({
  name: requiredString(),
  type: z.union([z.literal(1), z.literal(2)], { error: REQUIRED }).default(2),
  subjectFrom: requiredString(500),
  withAccreditation: booleanSchema(false),
  /** copies of every mail: at most 20 addresses, 1,000 characters together (the queue's `cc` column) */
  mailCopy: z
    .array(
      z.string().trim().max(255, { error: 'basics.tooLong' }).regex(EMAIL_PATTERN, { error: 'basics.emailNotValid' }),
    )
    .max(20, { error: 'basics.tooLong' })
    .refine((list) => list.join(', ').length <= 1000, { error: 'basics.tooLong' })
    .default([]),
  html: htmlText(),
  /**
   * The subject line and body in the other languages of the subject (issue 15): `subjectFrom` and
   * `html` above are the Czech text, required, and the fallback of a language without its own. A
   * language is there with both texts, or not at all (both empty); left out, a template keeps none.
   */
  translations: z
    .object(
      Object.fromEntries(MAIL_TRANSLATION_LANGUAGES.map((lang) => [lang, mailTranslationSchema.optional()])) as Record<
        MailTranslationLanguage,
        z.ZodOptional<typeof mailTranslationSchema>
      >,
      { error: 'basics.invalidValue' },
    )
    .nullish()
    .transform((all) => {
      const kept: MailTranslations = {};
      for (const lang of MAIL_TRANSLATION_LANGUAGES) {
        const text = all?.[lang];
        if (text && (text.subjectFrom || text.html)) kept[lang] = text;
      }
      return kept;
    }),
});
export type MailTemplateInput = z.input<typeof mailTemplateSchema>;

export const imageTypeSchema = z.coerce
  .number({ error: REQUIRED })
  .int()
  .refine((t) => (IMAGE_TYPES as readonly number[]).includes(t), { error: REQUIRED });

export const imageCreateSchema = z.object({
  type: imageTypeSchema.default(3),
  name: requiredString(),
  baseData: z.string({ error: 'photo.saveError' }).min(1, { error: 'photo.saveError' }),
});
export const imageUpdateSchema = z.object({
  name: requiredString(),
  data: z.string().nullish(),
});
export const imageListSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(24),
  type: z.union([imageTypeSchema, z.literal(0), z.null()]).optional(),
  phrase: z.string().trim().max(255).nullish(),
});
