/**
 * The placeholders of spec §3 Accreditation template, as data: the engine checks templates against
 * this list and the web's placeholder help shows it (with the i18n key explaining each).
 *
 * kind:
 * - `text`: a value of the person, the action or the group; HTML-escaped when rendered;
 * - `markup`: HTML the engine inserts as is: our own generated markup (the barcode image, the photo's
 *   img tag) or HTML an admin wrote (the group's html_data);
 * - `indexed`: a list addressed by a position or an id, `{{zones[0]}}`, `{{custom_field[12]}}`;
 * - `list`: an array for `{{#each}}`.
 */
export type PlaceholderKind = 'text' | 'markup' | 'indexed' | 'list';

export interface PlaceholderInfo {
  name: string;
  /** what the help offers to copy */
  code: string;
  /** i18n key of the explanation */
  key: string;
  kind: PlaceholderKind;
}

export const PLACEHOLDERS: readonly PlaceholderInfo[] = [
  { name: 'id', code: '{{id}}', key: 'template.ph.id', kind: 'text' },
  { name: 'custom_id', code: '{{custom_id}}', key: 'template.ph.customId', kind: 'text' },
  { name: 'bc', code: '{{bc}}', key: 'template.ph.bc', kind: 'markup' },
  { name: 'firstname', code: '{{firstname}}', key: 'template.ph.firstname', kind: 'text' },
  { name: 'lastname', code: '{{lastname}}', key: 'template.ph.lastname', kind: 'text' },
  { name: 'email', code: '{{email}}', key: 'template.ph.email', kind: 'text' },
  { name: 'group', code: '{{group}}', key: 'template.ph.group', kind: 'text' },
  { name: 'zones', code: '{{zones[0]}}', key: 'template.ph.zones', kind: 'indexed' },
  { name: 'custom_field', code: '{{custom_field[12]}}', key: 'template.ph.customField', kind: 'indexed' },
  { name: 'user_image', code: '{{user_image}}', key: 'template.ph.userImage', kind: 'markup' },
  { name: 'html_data', code: '{{html_data}}', key: 'template.ph.htmlData', kind: 'markup' },
  { name: 'days', code: '{{#each days}}{{name}}{{/each}}', key: 'template.ph.days', kind: 'list' },
  { name: 'day', code: '{{day}}', key: 'template.ph.day', kind: 'text' },
  { name: 'd', code: '{{d}}', key: 'template.ph.d', kind: 'text' },
  { name: 'actionName', code: '{{actionName}}', key: 'template.ph.actionName', kind: 'text' },
  { name: 'smartLink', code: '{{smartLink}}', key: 'template.ph.smartLink', kind: 'text' },
];

export const PLACEHOLDER_NAMES: ReadonlySet<string> = new Set(PLACEHOLDERS.map((p) => p.name));

/** The fields every entry of `days` carries (spec §5 Template preview). */
export const DAY_FIELDS = ['id', 'name', 'onAccreditation'] as const;

/**
 * The 'nocheck' suffix (spec §3): a placeholder whose name ends with `nocheck` (`{{firstname_nocheck}}`,
 * `{{custom_field_nocheck[12]}}`, `{{smartLinknocheck}}`) renders the placeholder without the suffix
 * but is never reported by the check, neither as missing nor as unknown.
 */
export const NOCHECK_SUFFIX = /_?nocheck$/i;

export function isNocheck(segment: string): boolean {
  return NOCHECK_SUFFIX.test(segment) && segment.replace(NOCHECK_SUFFIX, '') !== '';
}

export function stripNocheck(segment: string): string {
  return isNocheck(segment) ? segment.replace(NOCHECK_SUFFIX, '') : segment;
}

/** The loop over the days the help shows (each day has id, name, onAccreditation). */
export const DAYS_LOOP_EXAMPLE = '{{#each days}}\n  {{onAccreditation}}\n{{/each}}';
export const NOCHECK_EXAMPLE = '{{firstname_nocheck}}';

/**
 * The engine's own block helpers: `{{#ifGroup "Press"}}…{{else}}…{{/ifGroup}}` shows its content
 * when one of the person's groups has that name, `{{#ifZone "Backstage"}}…{{/ifZone}}` when the
 * person holds a zone of that name (names as written in the group and zone forms, case-sensitive).
 * The engine looks in `groupNames` and `zoneNames` of the params (see buildContext). The help and
 * the editor's completion offer the examples.
 */
export const MEMBERSHIP_HELPERS = {
  ifGroup: { example: '{{#ifGroup "Press"}}\n  \n{{/ifGroup}}', key: 'template.ph.ifGroup' },
  ifZone: { example: '{{#ifZone "Backstage"}}\n  \n{{else}}\n  \n{{/ifZone}}', key: 'template.ph.ifZone' },
} as const;
export type MembershipHelper = keyof typeof MEMBERSHIP_HELPERS;

export function isMembershipHelper(name: string): name is MembershipHelper {
  return Object.hasOwn(MEMBERSHIP_HELPERS, name);
}
