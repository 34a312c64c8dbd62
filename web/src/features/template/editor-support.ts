import { MEMBERSHIP_HELPERS, type MembershipHelper, PLACEHOLDERS } from '@accredo/templates/catalogue';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';
import type { TemplateCheckResult } from '../../api/template';

/*
 * What the badge editor offers and marks, as plain data (no CodeMirror here, so the form's bundle
 * and the tests load it cheaply): the completions of `{{` and the marks of the server's check.
 */

export interface PlaceholderOption {
  /** what the list shows and the typed text is matched against, e.g. `{{firstname}}` */
  label: string;
  /** what is inserted; `${…}` fields of a snippet where the cursor goes */
  insert: string;
  /** the explanation in the UI language */
  detail: string;
  kind: 'placeholder' | 'field' | 'helper';
}

export interface EditorContextData {
  /** the current action's user fields */
  fields?: { id: number; name: string }[];
  /** the current action's group and zone names (helper completions for each) */
  groups?: string[];
  zones?: string[];
}

const helperSnippet = (helper: MembershipHelper, name: string) =>
  helper === 'ifGroup'
    ? `{{#ifGroup "${name}"}}\n  \${}\n{{/ifGroup}}`
    : `{{#ifZone "${name}"}}\n  \${}\n{{else}}\n  \n{{/ifZone}}`;

/**
 * The completions of `{{`: the engine's placeholder catalogue (explained in the UI language), the
 * user fields of the current action, and the group and zone helpers (for each group and zone of
 * the action, and once with a sample name).
 */
export function placeholderOptions(t: TFunction, data: EditorContextData = {}): PlaceholderOption[] {
  const options: PlaceholderOption[] = PLACEHOLDERS.map((p) => ({
    label: p.code.split('\n')[0],
    insert: p.code,
    detail: t(p.key),
    kind: 'placeholder' as const,
  }));
  for (const field of data.fields ?? []) {
    const code = `{{custom_field[${field.id}]}}`;
    options.push({
      label: code,
      insert: code,
      detail: t('badgeEditor.userField', { name: field.name }),
      kind: 'field',
    });
  }
  const helper = (name: MembershipHelper, value: string, detail: string) =>
    options.push({ label: `{{#${name} "${value}"}}`, insert: helperSnippet(name, value), detail, kind: 'helper' });
  for (const group of new Set(data.groups ?? [])) helper('ifGroup', group, t('badgeEditor.forGroup', { name: group }));
  for (const zone of new Set(data.zones ?? [])) helper('ifZone', zone, t('badgeEditor.forZone', { name: zone }));
  for (const name of Object.keys(MEMBERSHIP_HELPERS) as MembershipHelper[]) {
    const example = name === 'ifGroup' ? 'Press' : 'Backstage';
    if (!options.some((o) => o.label.startsWith(`{{#${name} `))) helper(name, example, t(MEMBERSHIP_HELPERS[name].key));
  }
  return options;
}

export interface EditorMark {
  /** 1-based */
  line: number;
  /** 1-based; null marks the whole line */
  column: number | null;
  /** characters marked from the column (to the end of the placeholder when left out) */
  length?: number;
  message: string;
  severity: 'error' | 'warning' | 'info';
}

/** The marks of a check: unknown placeholders as warnings, those without a value as notes. */
export function checkMarks(t: TFunction, result: TemplateCheckResult): EditorMark[] {
  return (result.marks ?? []).map((m) => ({
    line: m.line,
    column: m.column,
    length: m.name.length,
    message: t(m.problem === 'unknown' ? 'badgeEditor.markUnknown' : 'badgeEditor.markMissing', { name: m.name }),
    severity: m.problem === 'unknown' ? 'warning' : 'info',
  }));
}

/** The mark of a template error the server answered (its reason at its line and column). */
export function errorMarks(error: unknown): EditorMark[] {
  if (!(error instanceof ApiError) || error.code !== 'TEMPLATE_SYNTAX_ERROR') return [];
  const line = Number(error.details.line);
  const column = Number(error.details.column);
  const reason = typeof error.details.reason === 'string' ? error.details.reason : error.message;
  return [
    {
      line: Number.isInteger(line) && line > 0 ? line : 1,
      column: Number.isInteger(column) && column > 0 ? column : null,
      message: reason,
      severity: 'error',
    },
  ];
}

/** A mark as a range of a document given as its lines (the end of the placeholder, or of the line). */
export function markRange(lines: string[], mark: EditorMark): { line: number; from: number; to: number } {
  const index = Math.min(Math.max(mark.line, 1), Math.max(lines.length, 1)) - 1;
  const text = lines[index] ?? '';
  if (mark.column === null) return { line: index + 1, from: 0, to: text.length };
  const from = Math.min(mark.column - 1, text.length);
  let to: number;
  if (mark.length) to = from + mark.length;
  else {
    const close = text.indexOf('}}', from);
    to = close === -1 ? text.length : close + 2;
  }
  return { line: index + 1, from, to: Math.max(Math.min(to, text.length), Math.min(from + 1, text.length)) };
}
