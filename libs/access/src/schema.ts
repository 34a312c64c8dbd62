import { z } from 'zod';
import type { CustomRule, DeviceMode, GlobalRule, Rule } from './types.js';

/**
 * The device template's `data` (spec §3 Device template) and its saving rules (spec §4, §5):
 * mode required; in mode 1 each rule needs a groupId; entrances 0 = unlimited, empty becomes 0;
 * mode 3 forces a global rule holding only info (daily false, level 0, entrances 0); in mode 1 the
 * global rule is kept only if enabled. Messages are i18n keys (as in libs/domain's schemas).
 */
const REQUIRED = 'basics.requireField';
const INVALID = 'basics.invalidValue';

/** 0 = unlimited; empty (undefined, null, '') becomes 0. */
const entrances = z
  .union([z.literal(''), z.coerce.number({ error: INVALID })])
  .nullish()
  .transform((v) => (v === '' || v === null || v === undefined ? 0 : v))
  .pipe(
    z.number({ error: INVALID }).int({ error: INVALID }).min(0, { error: INVALID }).max(1_000_000, { error: INVALID }),
  );

const optionalId = z
  .union([z.literal(''), z.coerce.number({ error: INVALID })])
  .nullish()
  .transform((v) => (v === '' || v === null || v === undefined ? null : v))
  .pipe(z.number({ error: INVALID }).int({ error: INVALID }).positive({ error: INVALID }).nullable());

const level = z
  .union([z.literal(''), z.coerce.number({ error: INVALID })])
  .nullish()
  .transform((v) => (v === '' || v === null || v === undefined ? 0 : v))
  .pipe(z.number({ error: INVALID }).int({ error: INVALID }).min(0, { error: INVALID }));

const flag = z
  .boolean({ error: INVALID })
  .nullish()
  .transform((v) => v ?? false);

export const customRuleSchema = z.object({
  customField: z.coerce.number({ error: REQUIRED }).int({ error: INVALID }).positive({ error: REQUIRED }),
  type: z.literal('date', { error: INVALID }).default('date'),
  values: z.object({
    system: z.literal('today', { error: INVALID }).default('today'),
    check: z.enum(['gte', 'lte', 'eq'], { error: REQUIRED }),
    entrances,
  }),
});

export const ruleSchema = z.object({
  groupId: optionalId,
  entrances,
  daily: flag,
  levelId: level,
  info: flag,
  customRule: z
    .array(customRuleSchema)
    .max(20, { error: INVALID })
    .nullish()
    .transform((v) => v ?? []),
});

export const globalRuleSchema = z.object({
  enabled: flag,
  entrances,
  daily: flag,
  levelId: level,
  info: flag,
});

export const deviceModeSchema = z.coerce
  .number({ error: REQUIRED })
  .int({ error: REQUIRED })
  .min(1, { error: REQUIRED })
  .max(5, { error: REQUIRED }) as unknown as z.ZodType<DeviceMode>;

/** The raw `data` of a device template as the admin form sends it (before the saving rules). */
export const deviceTemplateDataInputSchema = z.object({
  mode: deviceModeSchema,
  rules: z
    .array(ruleSchema)
    .max(500, { error: INVALID })
    .nullish()
    .transform((v) => v ?? []),
  globalRule: globalRuleSchema.nullish().transform((v) => v ?? null),
});

export interface DeviceTemplateData {
  mode: DeviceMode;
  rules: Rule[];
  globalRule: GlobalRule | null;
}

type ParsedData = z.output<typeof deviceTemplateDataInputSchema>;

/**
 * Spec §4 saving rules applied to parsed data (see `deviceTemplateDataSchema`): mode 3 forces a
 * global rule holding only info; mode 1 keeps the global rule only if enabled. Rules without a
 * groupId (allowed outside mode 1) are dropped: a rule applies to a group (D4).
 */
export function normalizeTemplate(data: ParsedData): DeviceTemplateData {
  const rules: Rule[] = data.rules
    .filter((r): r is typeof r & { groupId: number } => r.groupId !== null)
    .map((r) => ({
      groupId: r.groupId,
      entrances: r.entrances,
      daily: r.daily,
      levelId: r.levelId,
      info: r.info,
      customRule: r.customRule.map(
        (c): CustomRule => ({
          customField: c.customField,
          type: 'date',
          values: { system: 'today', check: c.values.check, entrances: c.values.entrances },
        }),
      ),
    }));
  let globalRule: GlobalRule | null = data.globalRule;
  if (data.mode === 3) {
    globalRule = { enabled: true, entrances: 0, daily: false, levelId: 0, info: data.globalRule?.info ?? false };
  } else if (data.mode === 1 && !globalRule?.enabled) {
    globalRule = null;
  }
  return { mode: data.mode, rules, globalRule };
}

/** The device template's `data`: validated (mode 1 rules need a groupId) and normalised (spec §4). */
export const deviceTemplateDataSchema = deviceTemplateDataInputSchema
  .superRefine((data, ctx) => {
    if (data.mode !== 1) return;
    data.rules.forEach((r, i) => {
      if (r.groupId === null) ctx.addIssue({ code: 'custom', path: ['rules', i, 'groupId'], message: REQUIRED });
    });
  })
  .transform(normalizeTemplate);
