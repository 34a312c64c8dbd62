import { z } from 'zod';
import { id, optionalId, REQUIRED, requiredString } from './common.js';

/**
 * Devices, rule templates, the device protocol and reports (spec §3 Device, Device template; §5;
 * §7 devices, reports; issue 11). The template's `data` (mode, rules, globalRule) is checked and
 * normalised by `@accredo/access` (one engine, one schema); here only its envelope.
 */

/** PUT device/{id} (spec §5: uid required). */
export const deviceSchema = z.object({
  name: z.string({ error: 'basics.invalidValue' }).trim().max(255, { error: 'basics.tooLong' }).default(''),
  uid: requiredString(64),
  deviceTemplateId: optionalId(),
});

/** POST / PUT device-template[/{id}]: `data` is validated by the engine's schema on the server. */
export const deviceTemplateSchema = z.object({
  name: requiredString(255),
  actionId: id(),
  zoneId: optionalId(),
  data: z.unknown(),
});

/** A control character other than the CR/LF/space that D18 trims from the ends. */
export function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** An accreditation code or pairing code as a gate reads it: bounded, printable (D18 trims it). */
export const GATE_CODE_MAX = 128;
export const gateCode = () =>
  z
    .string({ error: REQUIRED })
    .max(GATE_CODE_MAX + 16, { error: 'basics.tooLong' })
    // printable text only; CR/LF/space around it and the ECI prefix \000001 are removed by D18
    .refine((v) => !hasControlCharacter(v.trim()), { error: 'basics.invalidValue' })
    .refine((v) => v.trim().length > 0, { error: REQUIRED });

/** POST api/device/v1/pair */
export const devicePairSchema = z.object({
  code: z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(200, { error: 'basics.tooLong' }),
  uid: requiredString(64),
  name: z.string({ error: 'basics.invalidValue' }).trim().max(255, { error: 'basics.tooLong' }).default(''),
  appVersion: z.string({ error: 'basics.invalidValue' }).trim().max(64, { error: 'basics.tooLong' }).nullish(),
});

/**
 * POST api/device/v1/unpair: the `bcClear` code of GET device/key scanned at the station, or no
 * code at all: the device gives up its own token (the gate screen's Unpair button).
 */
export const deviceUnpairSchema = z.object({
  code: z
    .string({ error: 'basics.invalidValue' })
    .trim()
    .min(1, { error: REQUIRED })
    .max(200, { error: 'basics.tooLong' })
    .optional(),
});

export const NONCE_MAX = 64;
const nonce = () =>
  z
    .string({ error: REQUIRED })
    .min(1, { error: REQUIRED })
    .max(NONCE_MAX, { error: 'basics.tooLong' })
    .regex(/^[A-Za-z0-9._:-]+$/, { error: 'basics.invalidValue' });

const direction = () => z.enum(['entry', 'exit'], { error: 'basics.invalidValue' }).default('entry');
const amount = () =>
  z
    .number({ error: 'basics.invalidValue' })
    .int({ error: 'basics.invalidValue' })
    .min(-1_000_000_000, { error: 'basics.invalidValue' })
    .max(1_000_000_000, { error: 'basics.invalidValue' })
    .nullish()
    .transform((v) => v ?? null);
/** ISO 8601 instant or epoch ms */
const instant = () =>
  z
    .union([z.number().int().min(0).max(8_640_000_000_000), z.string().max(40)], { error: 'basics.invalidValue' })
    .transform((v, ctx) => {
      const ms = typeof v === 'number' ? v : Date.parse(v);
      if (Number.isNaN(ms)) {
        ctx.addIssue({ code: 'custom', message: 'basics.invalidValue' });
        return z.NEVER;
      }
      return ms;
    });

/** POST api/device/v1/scan: one online decision (D16–D19). */
export const deviceScanSchema = z.object({
  code: gateCode(),
  direction: direction(),
  nonce: nonce(),
  /** the device clock, stored for diagnosis only (D19) */
  deviceTime: instant().nullish(),
  amount: amount(),
});

/** One offline scan of POST api/device/v1/upload (D20): `scanTime` is the decision's moment. */
export const deviceOfflineScanSchema = z.object({
  code: z.string({ error: REQUIRED }).max(1000, { error: 'basics.tooLong' }),
  direction: direction(),
  nonce: nonce(),
  scanTime: instant(),
  amount: amount(),
  /** what the station decided offline, compared with the server's replay */
  allowed: z.boolean({ error: 'basics.invalidValue' }).nullish(),
  reason: z.string().max(40).nullish(),
});

export const UPLOAD_MAX = 5000;
export const deviceUploadSchema = z.object({
  scans: z.array(deviceOfflineScanSchema).max(UPLOAD_MAX, { error: 'basics.tooLong' }),
});

/** Report types of POST report: 1 passages, 2 counts per day and device, 3 refusals by reason. */
export const REPORT_TYPES = [1, 2, 3] as const;
const reportDate = () =>
  z
    .string({ error: 'basics.enterCorrectDate' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'basics.enterCorrectDate' })
    .nullish()
    .transform((v) => v ?? null);

/** POST report (spec §5: type required); responseType 'xlsx' (or 'xls') answers a file. */
export const reportSchema = z.object({
  type: z.coerce
    .number({ error: REQUIRED })
    .int({ error: 'basics.invalidValue' })
    .refine((v) => (REPORT_TYPES as readonly number[]).includes(v), { error: 'basics.invalidValue' }),
  actionId: optionalId(),
  deviceId: optionalId(),
  dateFrom: reportDate(),
  dateTo: reportDate(),
  responseType: z
    .enum(['json', 'xlsx', 'xls'], { error: 'basics.invalidValue' })
    .nullish()
    .transform((v) => v ?? 'json'),
});

/** POST report/entrance: every entry and exit of an action (xlsx). */
export const entranceReportSchema = z.object({
  actionId: id(),
  deviceId: optionalId(),
  dateFrom: reportDate(),
  dateTo: reportDate(),
});

// ---- wire types ----

export interface DeviceDto {
  id: number;
  name: string;
  uid: string;
  deviceTemplateId: number | null;
  deviceTemplate: { id: number; name: string; actionId: number } | null;
  /** holds a valid token */
  paired: boolean;
  pairedAt: string | null;
  lastSeenAt: string | null;
  /** seen within the last 2 minutes */
  online: boolean;
  appVersion: string | null;
  createdAt: string;
}

export interface DeviceKeyDto {
  /** scanned at a station or gate screen: pairs it with the subject */
  bc: string;
  /** scanned at a paired station: unpairs it */
  bcClear: string;
}

export interface DeviceTemplateDto {
  id: number;
  name: string;
  actionId: number;
  zoneId: number | null;
  /** { mode, rules, globalRule } as normalised by @accredo/access */
  data: { mode: number; rules: unknown[]; globalRule: unknown };
  createdAt: string;
  updatedAt: string;
}

export interface DevicePairResult {
  token: string;
  device: DeviceDto;
}

export interface ReportTable {
  type: number;
  columns: string[];
  rows: (string | number | null)[][];
}
