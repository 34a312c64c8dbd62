import { type AddressValue, EMAIL_PATTERN, type Language } from '@accredo/domain';
import type { AccreditationFormOutput } from './form-schema';
import type { ActionCustomField } from '../../../api/action';
import type { AccreditationDto, AccreditationPayload } from '../../../api/accreditation';
import type { CustomFieldDto } from '../../../api/custom-field';

/** User-field type ids (spec §3 User field). */
export const FIELD_TYPE = {
  TEXT: 1,
  NUMBER: 2,
  SELECT_MULTI: 3,
  SELECT: 4,
  ADDRESS: 5,
  EMAIL: 6,
  BOOL: 7,
  PHONE: 8,
  IMAGE: 9,
} as const;

export const REQUIRED = 'basics.requireField';
export const PHONE_INVALID = 'accreditationDetail.phoneInvalid';
export const ADDRESS_INVALID = 'accreditationDetail.addressInvalid';
export const EMAIL_INVALID = 'basics.emailNotValid';

/** One user field of the action as the form shows it: the action's entry joined with its definition. */
export interface FieldDef {
  id: number;
  /** the label in the interface language (cs fallback), else the field's name */
  label: string;
  /** the help text (html tooltip) as plain text */
  help: string;
  type: number;
  mandatory: boolean;
  options: { id: string | number; value: string }[];
  defaultValue: string;
}

const stripHtml = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Joins the action's field entries (mandatory flag, default) with the user-field definitions (label, options). */
export function fieldDefs(
  actionFields: ActionCustomField[],
  definitions: CustomFieldDto[] | undefined,
  language: string,
): FieldDef[] {
  return actionFields.map((entry) => {
    const def = definitions?.find((d) => d.id === entry.id);
    const labels = def?.label as Record<string, string | undefined> | undefined;
    const tooltips = def?.tooltip as Record<string, string | undefined> | undefined;
    const label = labels?.[language]?.trim() || labels?.cs?.trim() || def?.name || entry.name;
    const help = tooltips?.[language]?.trim() || tooltips?.cs?.trim() || '';
    return {
      id: entry.id,
      label,
      help: stripHtml(help),
      type: Number(entry.customFieldType ?? def?.customFieldType.id),
      mandatory: Boolean(entry.isMandatory),
      options: def?.options ?? [],
      defaultValue: entry.defaultValue ?? '',
    };
  });
}

/** What the form holds (user-field values keyed by field id, so a server path `customField.<id>` lands on its input). */
export interface AccreditationFormValues {
  actionId: number;
  firstname: string;
  lastname: string;
  email: string;
  groupIds: number[];
  zones: number[];
  days: string[];
  customField: Record<string, unknown>;
  imageId: number | null;
  imageData: string | null;
  /** the language every mail to the person is written in (issue 15) */
  language: Language;
}

export const emptyAddress = (): AddressValue => ({ street: '', city: '', zip: '', gps: '' });

/** A field's empty value in the form, or its default on a new accreditation. */
function initialValue(field: FieldDef, useDefault: boolean): unknown {
  const def = useDefault ? field.defaultValue.trim() : '';
  switch (field.type) {
    case FIELD_TYPE.NUMBER:
      return def !== '' && !Number.isNaN(Number(def)) ? Number(def) : '';
    case FIELD_TYPE.SELECT_MULTI:
      return def ? def.split(/[;,]/).map((v) => v.trim()) : [];
    case FIELD_TYPE.SELECT:
      return def || null;
    case FIELD_TYPE.ADDRESS:
      return emptyAddress();
    case FIELD_TYPE.BOOL:
      return ['1', 'true', 'yes', 'ano'].includes(def.toLowerCase());
    case FIELD_TYPE.IMAGE:
      return null;
    default:
      return def;
  }
}

/** The user-field values of a new form (the fields' defaults), by field id. */
export function initialFieldValues(fields: FieldDef[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [String(field.id), initialValue(field, true)]));
}

/** The form's value of a field from the stored value. */
function formValue(field: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined) return initialValue(field, false);
  switch (field.type) {
    case FIELD_TYPE.NUMBER:
      return typeof value === 'number' ? value : value === '' ? '' : Number(value);
    case FIELD_TYPE.SELECT_MULTI:
      return Array.isArray(value) ? value.map(String) : [String(value)];
    case FIELD_TYPE.SELECT:
      return String(value);
    case FIELD_TYPE.ADDRESS:
      return { ...emptyAddress(), ...(value as Partial<AddressValue>) };
    case FIELD_TYPE.BOOL:
      return value === true || value === 1 || value === '1' || value === 'true';
    default:
      return value;
  }
}

export function accreditationFormValues(
  actionId: number,
  fields: FieldDef[],
  accreditation?: AccreditationDto,
): AccreditationFormValues {
  const stored = new Map((accreditation?.customField ?? []).map((v) => [Number(v.id), v.value]));
  const customField: Record<string, unknown> = {};
  for (const field of fields)
    customField[String(field.id)] = accreditation ? formValue(field, stored.get(field.id)) : initialValue(field, true);
  return {
    actionId: accreditation?.actionId ?? actionId,
    firstname: accreditation?.firstname ?? '',
    lastname: accreditation?.lastname ?? '',
    email: accreditation?.email ?? '',
    groupIds: accreditation?.groupIds ?? accreditation?.groups.map((g) => g.id) ?? [],
    zones: accreditation?.zoneIds ?? accreditation?.zones.map((z) => z.id) ?? [],
    days: accreditation?.days ?? [],
    customField,
    imageId: accreditation?.image?.id ?? null,
    imageData: null,
    language: accreditation?.language ?? 'cs',
  };
}

/** Country patterns of spec §5 Phone (CZ, SK, GB, DE, US) by the international prefix; digits after it. */
const PHONE_COUNTRIES: { prefix: string; digits: RegExp }[] = [
  { prefix: '420', digits: /^[1-9]\d{8}$/ },
  { prefix: '421', digits: /^[1-9]\d{8}$/ },
  { prefix: '44', digits: /^[1-9]\d{9}$/ },
  { prefix: '49', digits: /^[1-9]\d{5,13}$/ },
  { prefix: '1', digits: /^[2-9]\d{9}$/ },
];

/** Spec §5 Phone: the pattern of the detected country; a number of another country needs more than 5 digits. */
export function isValidPhone(raw: string): boolean {
  const compact = raw.replace(/[\s\-().]/g, '').replace(/^00/, '+');
  if (!/^\+?\d+$/.test(compact)) return false;
  if (compact.startsWith('+')) {
    const digits = compact.slice(1);
    const country = PHONE_COUNTRIES.find((c) => digits.startsWith(c.prefix));
    if (country) return country.digits.test(digits.slice(country.prefix.length));
    return digits.length > 5;
  }
  // A national number without a prefix: Czech/Slovak nine digits, or anything longer than 5 digits.
  return compact.length > 5;
}

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/** The message key of a field's value, or null when it is fine (spec §5 E-mail, Phone, Address, Accreditation). */
export function checkFieldValue(field: FieldDef, value: unknown): string | null {
  if (field.type === FIELD_TYPE.BOOL) return field.mandatory && value !== true ? REQUIRED : null;
  if (field.type === FIELD_TYPE.ADDRESS) {
    const address = (value ?? emptyAddress()) as AddressValue;
    const filled = [address.street, address.city, address.zip].filter((v) => v?.trim()).length;
    if (filled === 0) return field.mandatory ? REQUIRED : null;
    return address.street?.trim() && address.zip?.trim() && address.city?.trim() ? null : ADDRESS_INVALID;
  }
  if (isEmpty(value)) return field.mandatory ? REQUIRED : null;
  if (field.type === FIELD_TYPE.EMAIL) return EMAIL_PATTERN.test(String(value).trim()) ? null : EMAIL_INVALID;
  if (field.type === FIELD_TYPE.PHONE) return isValidPhone(String(value)) ? null : PHONE_INVALID;
  if (field.type === FIELD_TYPE.NUMBER) return Number.isFinite(Number(value)) ? null : 'basics.invalidValue';
  return null;
}

/** The inputs hold option ids as strings; the wire carries the option's own id (number or string). */
function optionId(field: FieldDef, value: unknown): unknown {
  return field.options.find((o) => String(o.id) === String(value))?.id ?? value;
}

/** The wire value of a field (spec §7: `customField: [{id, value}]`, the shape by type). */
function wireValue(field: FieldDef, value: unknown): unknown {
  switch (field.type) {
    case FIELD_TYPE.NUMBER:
      return isEmpty(value) ? null : Number(value);
    case FIELD_TYPE.SELECT_MULTI:
      return Array.isArray(value) ? value.map((v) => optionId(field, v)) : [];
    case FIELD_TYPE.SELECT:
      return isEmpty(value) ? null : optionId(field, value);
    case FIELD_TYPE.ADDRESS: {
      const a = (value ?? emptyAddress()) as AddressValue;
      return { street: a.street.trim(), city: a.city.trim(), zip: a.zip.trim(), gps: a.gps ?? '' };
    }
    case FIELD_TYPE.BOOL:
      return value === true;
    case FIELD_TYPE.IMAGE:
      return isEmpty(value) ? null : value;
    default:
      return typeof value === 'string' ? value.trim() : (value ?? '');
  }
}

/** The form's user-field values (by field id) as the wire list of spec §7: `customField: [{id, value}]`. */
export function customFieldList(fields: FieldDef[], values: Record<string, unknown>): { id: number; value: unknown }[] {
  return fields.map((field) => ({ id: field.id, value: wireValue(field, values[String(field.id)]) }));
}

/** The body of `POST user` / `PUT user/{id}`. */
export function accreditationPayload(values: AccreditationFormOutput, fields: FieldDef[]): AccreditationPayload {
  const { imageData, ...rest } = values;
  return {
    ...rest,
    customField: customFieldList(fields, values.customField),
    ...(imageData ? { imageData } : {}),
  };
}
