import { EMAIL_PATTERN } from './constants.js';

/** Phone countries of spec §5/§9 and their national number patterns (digits after the prefix). */
const PHONE_COUNTRIES: { country: string; prefix: string; pattern: RegExp }[] = [
  { country: 'CZ', prefix: '420', pattern: /^[1-9]\d{8}$/ },
  { country: 'SK', prefix: '421', pattern: /^[1-9]\d{8}$/ },
  { country: 'GB', prefix: '44', pattern: /^[1-9]\d{9}$/ },
  { country: 'DE', prefix: '49', pattern: /^[1-9]\d{5,12}$/ },
  { country: 'US', prefix: '1', pattern: /^[2-9]\d{9}$/ },
];

/**
 * Spec §5 Phone: a pattern by the detected country (CZ, SK, GB, US, DE); an unknown country needs
 * more than 5 digits. A number without a country prefix is taken as Czech.
 */
export function isValidPhone(raw: string): boolean {
  const compact = raw.replace(/[\s().-]/g, '');
  if (!/^(\+|00)?\d+$/.test(compact)) return false;
  const international = compact.startsWith('+') || compact.startsWith('00');
  const digits = compact.replace(/^(\+|00)/, '');
  if (!international) return PHONE_COUNTRIES[0].pattern.test(digits);
  const country = PHONE_COUNTRIES.find((c) => digits.startsWith(c.prefix));
  return country ? country.pattern.test(digits.slice(country.prefix.length)) : digits.length > 5;
}

export interface FieldForValue {
  customFieldType: number;
  options?: { id: string; value: string }[];
  isMandatory?: boolean;
}

const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && !Array.isArray(v) && !Object.values(v as object).some((x) => x));

/**
 * Checks one user-field value against its field (spec §3 value shapes, §5 rules) and returns the
 * normalised value, or the message key of what is wrong. BOOL 'false' counts as a value.
 */
export function checkFieldValue(field: FieldForValue, value: unknown): { value: unknown } | { error: string } {
  const type = field.customFieldType;
  if (type === 7) {
    if (value === undefined || value === null || value === '')
      return field.isMandatory ? { error: 'basics.requireField' } : { value: false };
    if (typeof value === 'boolean') return { value };
    if (value === 1 || value === '1' || value === 'true') return { value: true };
    if (value === 0 || value === '0' || value === 'false') return { value: false };
    return { error: 'basics.invalidValue' };
  }
  if (isEmpty(value)) return field.isMandatory ? { error: 'basics.requireField' } : { value: null };
  const options = new Set((field.options ?? []).map((o) => o.id));
  switch (type) {
    case 1:
      return typeof value === 'string' && value.length <= 1000
        ? { value: value.trim() }
        : { error: 'basics.invalidValue' };
    case 2: {
      const n = typeof value === 'number' ? value : Number(String(value).replace(',', '.'));
      return Number.isFinite(n) ? { value: n } : { error: 'basics.numberInvalid' };
    }
    case 3:
      return Array.isArray(value) && value.every((v) => options.has(String(v)))
        ? { value: value.map(String) }
        : { error: 'basics.invalidValue' };
    case 4:
      return options.has(String(value)) ? { value: String(value) } : { error: 'basics.invalidValue' };
    case 5: {
      const a = value as { street?: unknown; city?: unknown; zip?: unknown; gps?: unknown };
      const str = (x: unknown) => (typeof x === 'string' ? x.trim() : '');
      if (!str(a.street) || !str(a.zip)) return { error: 'accreditation.addressInvalid' };
      return { value: { street: str(a.street), city: str(a.city), zip: str(a.zip), gps: str(a.gps) } };
    }
    case 6:
      return typeof value === 'string' && EMAIL_PATTERN.test(value.trim())
        ? { value: value.trim() }
        : { error: 'basics.emailNotValid' };
    case 8:
      return typeof value === 'string' && isValidPhone(value)
        ? { value: value.trim() }
        : { error: 'basics.phoneInvalid' };
    case 9:
      return typeof value === 'number' || typeof value === 'string' ? { value } : { error: 'basics.invalidValue' };
    default:
      return { error: 'basics.invalidValue' };
  }
}

/** A value as one line of text (search, export). */
export function fieldValueText(field: FieldForValue, value: unknown): string {
  if (value === null || value === undefined) return '';
  const label = (id: unknown) => field.options?.find((o) => o.id === String(id))?.value ?? String(id);
  switch (field.customFieldType) {
    case 3:
      return (value as unknown[]).map(label).join(', ');
    case 4:
      return label(value);
    case 5: {
      const a = value as Record<string, string>;
      return [a.street, a.city, a.zip].filter(Boolean).join(', ');
    }
    case 7:
      return value ? '1' : '-1';
    default:
      return String(value);
  }
}

/**
 * Text as searches compare it: lower case without diacritics ("Novák" → "novak", "Weiß" → "weiss"),
 * the same on SQLite and MariaDB (whose collations would fold accents, SQLite's LIKE does not).
 * Stored searchable texts and the typed query both go through it.
 */
export function foldSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[łŁ]/g, 'l')
    .replace(/[øØ]/g, 'o')
    .toLowerCase();
}
