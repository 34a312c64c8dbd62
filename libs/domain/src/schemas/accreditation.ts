import { z } from 'zod';
import { LANGUAGES, subjectLanguages } from '../constants.js';
import { booleanSchema, id, optionalId, REQUIRED, requiredEmail, requiredString } from './common.js';
import { calendarDate } from './setup.js';

/**
 * Accreditations (spec §3 Accreditation, §5 Accreditation, §7 Accreditations). User-field values
 * travel as `customField: [{id, value}]`; a value's shape depends on the field type (text, number,
 * option id(s), address object, boolean, …) and is checked against the action's fields by the server.
 */
export const addressValueSchema = z.object({
  street: z.string().trim().max(255).default(''),
  city: z.string().trim().max(255).default(''),
  zip: z.string().trim().max(32).default(''),
  gps: z
    .string()
    .trim()
    .max(64)
    .nullish()
    .transform((v) => v ?? ''),
});
export type AddressValue = z.output<typeof addressValueSchema>;

export const customFieldValueSchema = z.object({
  id: z.coerce.number().int().positive(),
  value: z.unknown(),
});

/**
 * An accreditation's code (`bc`, the barcode / QR value). One rule for every way a code comes in
 * (the import, later the device protocol) and is read back (check by code, image pairing by
 * `{bc}.png`): 1–32 letters and digits, compared case-insensitively and stored upper-cased. The
 * product's own codes are 16 of them. Nothing else: a code must survive a keyboard-wedge scanner
 * on a cs/sk/de keyboard layout (where punctuation sits on other keys), a URL path
 * (`/accreditation/check/{bc}`, the smartLink) and a file name without escaping, and it must fit
 * the `bc` column (varchar 32).
 */
export const ACCREDITATION_CODE_MAX_LENGTH = 32;
export const ACCREDITATION_CODE_PATTERN = /^[A-Za-z0-9]{1,32}$/;
export const isAccreditationCode = (code: string): boolean => ACCREDITATION_CODE_PATTERN.test(code);
export const accreditationCodeSchema = () =>
  z
    .string({ error: REQUIRED })
    .trim()
    .min(1, { error: REQUIRED, abort: true })
    .regex(ACCREDITATION_CODE_PATTERN, { error: 'accreditation.codeInvalid' })
    .transform((v) => v.toUpperCase());

/** The message of a language that is not one of the subject's (or not a language at all). */
export const ACCREDITATION_LANGUAGE_INVALID = 'accreditation.languageInvalid';

/**
 * The person of an accreditation: the one definition of these fields for every way in (the admin
 * form and `POST/PUT user`, the online registration, each row of the import). Each bound is the
 * column's (varchar 255), so no value the schema passes can be refused by the database.
 */
export const personShape = {
  firstname: requiredString(),
  lastname: requiredString(),
  email: requiredEmail(),
  /**
   * The language the person registered in, which every mail to them is written in (issue 15):
   * one of cs, sk, en, de; left out (or empty, null) it is not given — a new person gets cs, an
   * edit keeps the stored one. Whether the subject offers it is `subjectLanguageError`'s check.
   */
  language: z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.enum(LANGUAGES, { error: ACCREDITATION_LANGUAGE_INVALID }).optional(),
  ),
};

/**
 * The second half of the language rule, for every way a person comes in (the API, the import,
 * the online form): the language must be one the subject offers (`subjectLanguages`). Returns the
 * message key, or null when the language is fine or not given.
 */
export function subjectLanguageError(language: string | null | undefined, multiLanguage: boolean): string | null {
  if (language === undefined || language === null) return null;
  return (subjectLanguages(multiLanguage) as string[]).includes(language) ? null : ACCREDITATION_LANGUAGE_INVALID;
}

/**
 * One row of the import sheet: the person and an optional code (an empty cell: the server makes
 * one). The import maps each issue to its row code (spec §8 Import).
 */
export const importRowSchema = z.object({
  ...personShape,
  bc: z
    .preprocess((v) => (v === '' || v === null ? undefined : v), accreditationCodeSchema().optional())
    .transform((v) => v ?? null),
});

export const accreditationSchema = z.object({
  actionId: id(),
  ...personShape,
  groupIds: z.array(z.coerce.number().int().positive()).max(50).default([]),
  zones: z.array(z.coerce.number().int().positive()).max(200).default([]),
  days: z.array(calendarDate()).max(366).default([]),
  customField: z.array(customFieldValueSchema).max(200).default([]),
  /** a gallery image to use as the photo; null clears it; left out keeps the current one */
  imageId: z.union([id(), z.null()]).optional(),
  /** a new photo (data URL, png/jpg/gif, 2 MB); wins over imageId */
  imageData: z.string().nullish(),
});
export type AccreditationInput = z.input<typeof accreditationSchema>;

/** The filter panel of spec §2 Accreditation list. */
export const accreditationFilterSchema = z.object({
  text: z.string().trim().max(255).nullish(),
  groupId: optionalId(),
  zoneId: optionalId(),
  /** 1 printed, -1 not printed */
  printed: z.union([z.literal(1), z.literal(-1), z.null()]).optional(),
  /** 1 entered, 2 entered on a day, 3 not entered, 4 not entered on a day (spec §2) */
  entrance: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.null()]).optional(),
  /** the day of entrance 2 and 4 (YYYY-MM-DD); today when left out */
  entranceDate: calendarDate().nullish(),
  /** user field id → wanted value (BOOL: 1 yes, -1 no; others: contains) */
  customField: z
    .record(z.string().regex(/^\d+$/, { error: 'basics.invalidValue' }), z.union([z.string(), z.number()]))
    .default({}),
});
export type AccreditationFilter = z.output<typeof accreditationFilterSchema>;

export const accreditationListSchema = z.object({
  actionId: id(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(10),
  filterData: accreditationFilterSchema.prefault({}),
});

/** A bulk change works on the chosen ids, or with `all` on every row of the filter (spec §7). */
export const bulkBase = {
  actionId: id(),
  userId: z.array(z.coerce.number().int().positive()).max(100_000).default([]),
  all: booleanSchema(false),
  filterData: accreditationFilterSchema.prefault({}),
};
export const notEmptySelection = (v: { all: boolean; userId: number[] }) => v.all || v.userId.length > 0;
export const bulkAssignGroupsSchema = z
  .object({
    ...bulkBase,
    groupsId: z.array(z.coerce.number().int().positive()).min(1, { error: 'accreditation.chooseGroup' }),
    /** replace (the default, spec §7): the people hold exactly these groups; add: these join what they hold */
    mode: z.enum(['replace', 'add']).default('replace'),
  })
  .refine(notEmptySelection, { error: 'accreditation.chooseUsers', path: ['userId'] });
export const bulkAssignZonesSchema = z
  .object({ ...bulkBase, zones: z.array(z.coerce.number().int().positive()).default([]) })
  .refine(notEmptySelection, { error: 'accreditation.chooseUsers', path: ['userId'] });
export const bulkAssignDaysSchema = z
  .object({ ...bulkBase, days: z.array(calendarDate()).default([]) })
  .refine(notEmptySelection, { error: 'accreditation.chooseUsers', path: ['userId'] });
export const bulkDeleteSchema = z
  .object({ ...bulkBase, type: z.union([z.literal(1), z.literal(2)], { error: REQUIRED }) })
  .refine(notEmptySelection, { error: 'accreditation.chooseUsers', path: ['userId'] });

/** Copy (duplicate) to another action (spec §7: actualAction is the source, actionId the target). */
export const bulkCopySchema = z
  .object({
    actualAction: id(),
    actionId: z.coerce
      .number({ error: 'accreditation.chooseAction' })
      .int()
      .positive({ error: 'accreditation.chooseAction' }),
    userId: bulkBase.userId,
    all: bulkBase.all,
    filterData: bulkBase.filterData,
  })
  .refine(notEmptySelection, { error: 'accreditation.chooseUsers', path: ['userId'] });

/** Credit (spec §7 user-credit): 1 add, 3 remove; the amount must be a number above 0. */
/** PUT user-credit/{id}/unlimited: the person pays nothing at the gates while on (spec §3 isUnlimited). */
export const creditUnlimitedSchema = z.object({ isUnlimited: z.boolean({ error: REQUIRED }) });

export const creditChangeSchema = z.object({
  price: z.coerce
    .number({ error: 'credit.amountPositive' })
    .int({ error: 'credit.amountPositive' })
    .positive({ error: 'credit.amountPositive' })
    .max(10_000_000, { error: 'credit.amountPositive' }),
  type: z.union([z.literal(1), z.literal(3)], { error: REQUIRED }),
});

/** Import (spec §5 Import): the spreadsheet as a data URL; zones by hand (1) or from the group (2). */
export const importSchema = z.object({
  actionId: id(),
  dataFile: z.string({ error: 'accreditationImport.chooseFile' }).min(1, { error: 'accreditationImport.chooseFile' }),
  zonesImportType: z.union([z.literal(1), z.literal(2)], { error: REQUIRED }),
  extensionImportType: z.union([z.literal(1), z.literal(2)]).nullish(),
});

export const exportSchema = z
  .object({
    ...bulkBase,
    /** readable: what people read (labels, yes/no, day names); import: the import template's machine form */
    form: z.enum(['readable', 'import']).default('readable'),
  })
  .refine(notEmptySelection, { error: 'accreditation.chooseUsers', path: ['userId'] });

/** Row codes of spec §8 Import: the code, then the row number (e.g. EMPTY_EMAIL_ON_ROW_5). */
export const IMPORT_ROW_CODES = [
  'EMPTY_FIRSTNAME_ON_ROW_',
  'EMPTY_LASTNAME_ON_ROW_',
  'EMPTY_EMAIL_ON_ROW_',
  'EMAIL_EXIST_ON_ROW_',
  'GROUP_INVALID_ON_ROW_',
  /** the group is archived (issue 15): given to no one new */
  'GROUP_ARCHIVED_ON_ROW_',
  'ZONE_DOESNT_EXIST_ON_ROW_',
  'NUMBER_FORMAT_INVALID_ON_ROW_',
  'ADDRESS_INVALID_ON_ROW_',
  'INVALID_CUSTOM_FIELD_VALUE_ON_ROW_',
  'CUSTOM_FIELD_MANDATORY_ON_ROW_',
  'CUSTOM_FIELD_DOESNT_EXIST_ON_ROW_',
  'IMAGE_NAME_NOT_EXIST_ON_ROW_',
  'BC_EXIST_',
  /** the fields of `importRowSchema` that are there but not valid (too long, not an e-mail, a bad code) */
  'FIRSTNAME_INVALID_ON_ROW_',
  'LASTNAME_INVALID_ON_ROW_',
  'EMAIL_INVALID_ON_ROW_',
  'BC_INVALID_ON_ROW_',
  /** the optional language column: not cs, sk, en or de, or a language the subject does not offer */
  'LANGUAGE_INVALID_ON_ROW_',
] as const;
export type ImportRowCode = (typeof IMPORT_ROW_CODES)[number];
