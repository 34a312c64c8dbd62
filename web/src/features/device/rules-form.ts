import { deviceTemplateDataSchema } from '@accredo/access';
import type { DeviceTemplateDto } from '@accredo/domain';
import type { FieldError, FieldErrors, Resolver } from 'react-hook-form';
import type { DeviceTemplatePayload } from '../../api/device';

/** A custom date rule as the form holds it (spec §3: a date in a user field compared with today). */
export interface CustomRuleValues {
  customField: string | null;
  check: 'gte' | 'lte' | 'eq';
  entrances: number | string;
}

export interface RuleValues {
  groupId: string | null;
  /** '' (empty) is saved as 0 = unlimited */
  entrances: number | string;
  daily: boolean;
  levelId: number | string;
  info: boolean;
  customRule: CustomRuleValues[];
}

export interface GlobalRuleValues {
  enabled: boolean;
  entrances: number | string;
  daily: boolean;
  levelId: number | string;
  info: boolean;
}

export interface RulesFormValues {
  name: string;
  actionId: string | null;
  zoneId: string | null;
  mode: string | null;
  rules: RuleValues[];
  globalRule: GlobalRuleValues;
}

export const emptyRule = (): RuleValues => ({
  groupId: null,
  entrances: '',
  daily: false,
  levelId: '',
  info: false,
  customRule: [],
});

export const emptyCustomRule = (): CustomRuleValues => ({ customField: null, check: 'gte', entrances: '' });

const text = (n: unknown) => (n === null || n === undefined ? '' : (n as number | string));

export function rulesFormValues(template?: DeviceTemplateDto, actionId?: number | null): RulesFormValues {
  const data = (template?.data ?? { mode: 1, rules: [], globalRule: null }) as {
    mode: number;
    rules: {
      groupId: number | null;
      entrances: number;
      daily: boolean;
      levelId: number;
      info: boolean;
      customRule?: { customField: number; values: { check: 'gte' | 'lte' | 'eq'; entrances: number } }[];
    }[];
    globalRule: GlobalRuleValues | null;
  };
  const action = template ? template.actionId : actionId;
  const g = data.globalRule;
  return {
    name: template?.name ?? '',
    actionId: action ? String(action) : null,
    zoneId: template?.zoneId ? String(template.zoneId) : null,
    mode: String(data.mode ?? 1),
    rules: (data.rules ?? []).map((r) => ({
      groupId: r.groupId ? String(r.groupId) : null,
      entrances: text(r.entrances),
      daily: Boolean(r.daily),
      levelId: text(r.levelId),
      info: Boolean(r.info),
      customRule: (r.customRule ?? []).map((c) => ({
        customField: c.customField ? String(c.customField) : null,
        check: c.values?.check ?? 'gte',
        entrances: text(c.values?.entrances),
      })),
    })),
    globalRule: {
      enabled: Boolean(g?.enabled),
      entrances: text(g?.entrances),
      daily: Boolean(g?.daily),
      levelId: text(g?.levelId),
      info: Boolean(g?.info),
    },
  };
}

/** The form's `data` as the engine's schema reads it (before its saving rules). */
export function rawTemplateData(values: RulesFormValues) {
  return {
    mode: values.mode,
    rules: values.rules.map((r) => ({
      groupId: r.groupId,
      entrances: r.entrances,
      daily: r.daily,
      levelId: r.levelId,
      info: r.info,
      customRule: r.customRule.map((c) => ({
        customField: c.customField ?? '',
        type: 'date',
        values: { system: 'today', check: c.check, entrances: c.entrances },
      })),
    })),
    globalRule: values.globalRule,
  };
}

/** A path of the engine's schema (`rules.0.customRule.1.values.check`) as the form's field. */
export function formPath(path: string): string {
  return path.replace(/^data\./, '').replace(/(customRule\.\d+)\.values\./, '$1.');
}

const REQUIRED = 'basics.requireField';

function setPath(target: Record<string, unknown>, path: string, error: FieldError) {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    node[part] ??= {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] ??= error;
}

/**
 * Validates with the engine's own schema (spec §4/§5: mode required, mode-1 rules need a group,
 * entrances ≥ 0 with empty = 0 …) and answers the payload the server gets: the schema's
 * normalised data (mode 3 forces a global rule holding only info; mode 1 sends it only if enabled).
 */
export const rulesResolver: Resolver<RulesFormValues, unknown, DeviceTemplatePayload> = async (values) => {
  const errors: Record<string, unknown> = {};
  const name = values.name.trim();
  if (!name) setPath(errors, 'name', { type: 'required', message: REQUIRED });
  else if (name.length > 255) setPath(errors, 'name', { type: 'maxLength', message: 'basics.tooLong' });
  if (!values.actionId) setPath(errors, 'actionId', { type: 'required', message: REQUIRED });
  const parsed = deviceTemplateDataSchema.safeParse(rawTemplateData(values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.message.includes('.') && !issue.message.includes(' ') ? issue.message : 'basics.invalidValue';
      setPath(errors, formPath(issue.path.join('.')) || 'mode', { type: 'validate', message: key });
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success)
    return { values: {} as Record<string, never>, errors: errors as FieldErrors<RulesFormValues> };
  return {
    values: {
      name,
      actionId: Number(values.actionId),
      zoneId: values.zoneId ? Number(values.zoneId) : null,
      data: parsed.data,
    },
    errors: {},
  };
};
