import { z } from 'zod';
import { bulkBase, notEmptySelection } from './accreditation.js';
import { booleanSchema } from './common.js';
import { PAGE_SIZES_PRINT } from './setup.js';

/**
 * The template check, preview and badge printing (spec §3 Accreditation template, §5 Template
 * preview, §7 template/validate, the preview call and user/print).
 */
const text = (max: number) =>
  z
    .union([z.string().max(max, { error: 'basics.tooLong' }), z.number()])
    .nullish()
    .transform((v) => (v === null || v === undefined ? v : String(v)));

/**
 * Sample values of the placeholders (the `params` of validate and preview), as plain data: the
 * engine draws the barcode from `bc` and the img tag from `user_image` itself. Day entries may lack
 * a field: the check reports it.
 */
export const templateParamsSchema = z.object({
  id: text(64),
  custom_id: text(64),
  bc: text(128),
  firstname: text(255),
  lastname: text(255),
  email: text(255),
  group: text(255),
  zones: z.array(z.string().max(255)).max(500).optional(),
  custom_field: z.record(z.string().max(20), z.string().max(5000)).optional(),
  /** a URL (http(s), a path of this server, or a data:image URL of at most ~200 kB) */
  user_image: text(300_000),
  html_data: text(100_000),
  days: z
    .array(
      z.object({
        id: z.string().max(32).optional(),
        name: z.string().max(255).optional(),
        onAccreditation: z.string().max(64).optional(),
      }),
    )
    .max(366)
    .optional(),
  day: text(5000),
  d: text(5000),
  actionName: text(500),
  smartLink: text(1000),
  /** the names of the person's groups and zones, for {{#ifGroup "…"}} and {{#ifZone "…"}} */
  groupNames: z.array(z.string().max(255)).max(500).optional(),
  zoneNames: z.array(z.string().max(255)).max(500).optional(),
});
export type TemplateParamsInput = z.input<typeof templateParamsSchema>;

const templateHtml = z
  .string({ error: 'basics.invalidValue' })
  .max(500_000, { error: 'basics.tooLong' })
  .nullish()
  .transform((v) => v ?? '');

/** POST template/validate: the template html (`data`) and the values to check it with. */
export const templateValidateSchema = z.object({
  data: templateHtml,
  params: templateParamsSchema.nullish(),
});

export const PREVIEW_TYPES = ['html', 'pdf', 'mail'] as const;
export type PreviewType = (typeof PREVIEW_TYPES)[number];
/** Most copies one preview renders (spec §9: copies count default 1). */
export const PREVIEW_MAX_COUNT = 20;

/** The preview call: the template html, values (a sample when left out), copies, type and page size. */
export const templatePreviewSchema = z.object({
  data: templateHtml,
  params: templateParamsSchema.nullish(),
  count: z.coerce
    .number({ error: 'basics.invalidValue' })
    .int({ error: 'basics.invalidValue' })
    .min(1, { error: 'basics.invalidValue' })
    .max(PREVIEW_MAX_COUNT, { error: 'basics.invalidValue' })
    .default(1),
  type: z.enum(PREVIEW_TYPES, { error: 'basics.invalidValue' }).default('html'),
  pageSize: z.enum(PAGE_SIZES_PRINT, { error: 'basics.invalidValue' }).default('A6'),
});

export const PRINT_TYPES = ['html', 'pdf'] as const;

/**
 * POST user/print: the chosen people, or with `all` everyone of the filter (spec §7), as html or
 * pdf. `replace: true` (issue 13, "replace the old badge") gives each printed person a new badge
 * version, so the old badge's code stops opening gates; missing or false is an ordinary reprint.
 */
export const printSchema = z
  .object({
    ...bulkBase,
    type: z.enum(PRINT_TYPES, { error: 'basics.invalidValue' }).default('html'),
    replace: booleanSchema(false),
  })
  .refine(notEmptySelection, { error: 'accreditation.chooseUsers', path: ['userId'] });

/** The per-person reasons a badge is not printed (the error list of user/print). */
export const PRINT_ERRORS = ['PRINT_NO_GROUP', 'PRINT_NO_TEMPLATE', 'TEMPLATE_SYNTAX_ERROR'] as const;
export type PrintErrorCode = (typeof PRINT_ERRORS)[number];
