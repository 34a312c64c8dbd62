import { fieldValueText } from '@accredo/domain';

/** One day of the person's attendance (spec §3 Action days). */
export interface TemplateDay {
  id: string;
  name: string;
  onAccreditation: string;
}

/**
 * The values a template is rendered with: plain data (JSON on the wire, e.g. the `params` of the
 * preview call). `bc` is the code as text and `user_image` the photo's URL: the engine turns them
 * into the barcode SVG and the img tag itself, so no caller ever hands it markup for a person.
 */
export interface TemplateParams {
  id?: number | string | null;
  custom_id?: number | string | null;
  bc?: string | null;
  firstname?: string | null;
  lastname?: string | null;
  email?: string | null;
  group?: string | null;
  /** zone names on the badge (onAccreditation), in order */
  zones?: string[];
  /** user-field values as text, by field id */
  custom_field?: Record<string, string>;
  /** the photo's URL */
  user_image?: string | null;
  /** the group's HTML (admin-authored) */
  html_data?: string | null;
  days?: TemplateDay[];
  /** the names of the person's days, comma-separated */
  day?: string | null;
  /** the short names (onAccreditation) of the person's days, comma-separated */
  d?: string | null;
  actionName?: string | null;
  smartLink?: string | null;
  /** the names of all the person's groups, for `{{#ifGroup "…"}}` (not a placeholder) */
  groupNames?: string[];
  /** the names of the person's zones, for `{{#ifZone "…"}}` (not a placeholder) */
  zoneNames?: string[];
}

type Texts = Partial<Record<string, string>> | string | null | undefined;

/** A multilingual text in the language, falling back to Czech (spec §1), or a plain string. */
export function localizedText(text: Texts, language = 'cs'): string {
  if (typeof text === 'string') return text;
  const value = text?.[language];
  return value?.trim() ? value : (text?.cs ?? '');
}

export interface ContextField {
  id: number;
  customFieldType: number;
  options?: { id: string; value: string }[];
}

/** Everything buildContext needs; the shapes are those of the entities and DTOs (spec §3). */
export interface ContextInput {
  accreditation: {
    id: number;
    customId: number;
    bc: string;
    firstname: string;
    lastname: string;
    email: string;
    /** the person's days (YYYY-MM-DD ids of the action's days) */
    days?: string[];
    /** user-field values by field id, raw as stored */
    customField?: { id: number; value: unknown }[];
  };
  action?: {
    name: Texts;
    days?: { id: string; name: Texts; onAccreditation: string }[];
  } | null;
  /** the group whose template prints the badge */
  group?: { name: string; displayName?: Texts; htmlData?: string | null } | null;
  /** all the person's groups (for `{{#ifGroup}}`); the printing group alone when left out */
  groups?: { name: string }[];
  /** the person's zones, in order */
  zones?: { name: string; onAccreditation?: string | null }[];
  /** the action's user fields (for option labels and value shapes) */
  fields?: ContextField[];
  imageUrl?: string | null;
  smartLink?: string | null;
  language?: string;
}

/** A user-field value as the line a badge shows (option labels, address on one line, ✓ for yes). */
function fieldText(field: ContextField | undefined, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (!field) return typeof value === 'object' ? '' : String(value);
  if (field.customFieldType === 7) return value === true || value === 1 || value === '1' ? '✓' : '';
  return fieldValueText(field, value);
}

/**
 * The one way an accreditation becomes template values, used by the backend (print, mail, preview)
 * and the web (previews with the current action's data) alike.
 */
export function buildContext(input: ContextInput): TemplateParams {
  const { accreditation: a, language = 'cs' } = input;
  const fields = new Map((input.fields ?? []).map((f) => [f.id, f]));
  const custom_field: Record<string, string> = {};
  for (const { id, value } of a.customField ?? []) custom_field[String(id)] = fieldText(fields.get(id), value);

  const actionDays = input.action?.days ?? [];
  const wanted = new Set(a.days ?? []);
  const days: TemplateDay[] = actionDays
    .filter((day) => wanted.has(day.id))
    .map((day) => ({ id: day.id, name: localizedText(day.name, language), onAccreditation: day.onAccreditation }));

  const group = input.group ?? null;
  return {
    id: a.id,
    custom_id: a.customId,
    bc: a.bc,
    firstname: a.firstname,
    lastname: a.lastname,
    email: a.email,
    group: group ? localizedText(group.displayName, language) || group.name : '',
    zones: (input.zones ?? []).map((z) => z.onAccreditation?.trim() || z.name),
    custom_field,
    user_image: input.imageUrl ?? '',
    html_data: group?.htmlData ?? '',
    days,
    day: days.map((d) => d.name).join(', '),
    d: days.map((d) => d.onAccreditation).join(', '),
    actionName: localizedText(input.action?.name, language),
    smartLink: input.smartLink ?? '',
    groupNames: input.groups ? input.groups.map((g) => g.name) : group ? [group.name] : [],
    zoneNames: (input.zones ?? []).map((z) => z.name),
  };
}

/** A grey silhouette as an inline image: the sample photo needs no file and no network. */
export const SAMPLE_PHOTO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 40"><rect width="30" height="40" fill="#e9ecef"/><circle cx="15" cy="14" r="7" fill="#adb5bd"/><path d="M3 40c0-9 5-14 12-14s12 5 12 14z" fill="#adb5bd"/></svg>',
)}`;

export interface SampleOptions {
  language?: string;
  /** the action to take the name, days, zones and user fields from (the admin's current action) */
  action?: ContextInput['action'];
  zones?: ContextInput['zones'];
  fields?: (ContextField & { name?: string })[];
  /** placeholders the sample should fill when no action data is given (see sampleInput) */
  used?: { zones: number[]; customFields: string[] };
}

/**
 * A sample person for previews. With an action's data (the web passes the current action) the
 * sample has that action's days, zones and user fields, so the check reports a `{{custom_field[99]}}`
 * the action does not have. Without it (`used`, from the template's own placeholders) every zone
 * and user field the template names gets a sample value, so a preview always shows something.
 */
export function sampleInput(options: SampleOptions = {}): ContextInput {
  const used = options.used ?? { zones: [], customFields: [] };
  const action = options.action ?? {
    name: 'Accredo 2027',
    days: [
      { id: '2027-05-10', name: 'Monday', onAccreditation: 'MO' },
      { id: '2027-05-11', name: 'Tuesday', onAccreditation: 'TU' },
    ],
  };
  const zones =
    options.zones ??
    Array.from({ length: used.zones.length ? Math.max(...used.zones) + 1 : 2 }, (_, i) => ({
      name: `Zone ${i + 1}`,
      onAccreditation: String.fromCharCode(65 + (i % 26)),
    }));
  // A choice field whose options are not known samples as text (its name), not as an empty choice.
  const fields: (ContextField & { name?: string })[] = (
    options.fields ?? used.customFields.map((id) => ({ id: Number(id), customFieldType: 1, options: [] }))
  ).map((f) => ([3, 4].includes(f.customFieldType) && !f.options?.length ? { ...f, customFieldType: 1 } : f));
  const sampleValue = (f: ContextField & { name?: string }): unknown => {
    if (f.customFieldType === 3) return f.options?.length ? [f.options[0].id] : [];
    if (f.customFieldType === 4) return f.options?.[0]?.id ?? '';
    if (f.customFieldType === 7) return true;
    if (f.customFieldType === 5) return { street: 'Na Příkopě 1', city: 'Praha', zip: '110 00', gps: '' };
    return f.name ?? `Value ${f.id}`;
  };
  return {
    accreditation: {
      id: 1,
      customId: 1,
      bc: 'SAMPLE0123456789',
      firstname: 'Jan',
      lastname: 'Novák',
      email: 'jan.novak@example.com',
      days: (action?.days ?? []).map((d) => d.id),
      customField: fields.map((f) => ({ id: f.id, value: sampleValue(f) })),
    },
    action,
    group: { name: 'VIP', htmlData: '<strong>VIP</strong>' },
    zones,
    fields,
    imageUrl: SAMPLE_PHOTO,
    smartLink: 'https://accredo.example/preview/demo/cid/SAMPLE0123456789',
    language: options.language,
  };
}
