import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseStorageUrl } from '../modules/storage/storage-url.js';
import { z } from 'zod';

/**
 * The environment, parsed and checked once at start (the contract of the README). A bad value stops
 * the server with a message naming the variable, never later with a stack trace.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^(mysql|mariadb):\/\//.test(v), 'must start with mysql:// or mariadb://'),
  SMTP_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://'),
  MAIL_FROM: z.string().default('Accredo <no-reply@accredo.local>'),
  REDIS_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^rediss?:\/\//.test(v), 'must start with redis:// or rediss://'),
  /** Namespace of the BullMQ keys in Redis (several deployments can share one Redis). */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . - only')
    .default('accredo'),
  PUBLIC_URL: z.string().url().optional(),
  OPERATOR_EMAIL: z.string().email().optional(),
  OPERATOR_PASSWORD: z.string().min(8, 'must have at least 8 characters').optional(),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  WEB_DIST: z.string().optional(),
  /** S3-compatible object storage for the files (default: DATA_DIR/files); see storage-url.ts */
  STORAGE_URL: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (!v) return;
      try {
        parseStorageUrl(v);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  /** a Nominatim-compatible search endpoint for address suggestions; unset = manual entry only */
  GEOCODING_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^https?:\/\/[^\s]+$/.test(v), 'must be an http:// or https:// address'),
  GEOCODING_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** scrypt cost as log2(N); lower only in tests. */
  PASSWORD_HASH_COST: z.coerce.number().int().min(4).max(20).default(15),
});

export type DatabaseConfig = { type: 'sqlite'; file: string } | { type: 'mariadb'; url: string };

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  smtpUrl?: string;
  mailFrom: string;
  redisUrl?: string;
  redisPrefix: string;
  publicUrl: string;
  operatorEmail?: string;
  operatorPassword?: string;
  sessionTtlMs: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  webDist: string;
  passwordHashCost: number;
  /** address suggestions: the search endpoint (null = off) and how long to wait for it */
  geocodingUrl: string | null;
  geocodingTimeoutMs: number;
  /** S3-compatible bucket of the files (unset: DATA_DIR/files) */
  storageUrl?: string;
  /** Links in e-mails expire after these many hours. */
  verifyLinkHours: number;
  passwordLinkHours: number;
  instanceId: string;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? { type: 'mariadb', url: e.DATABASE_URL }
      : { type: 'sqlite', file: path.join(dataDir, 'accredo.sqlite') },
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    redisUrl: e.REDIS_URL || undefined,
    redisPrefix: e.REDIS_PREFIX,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    operatorEmail: e.OPERATOR_EMAIL?.toLowerCase(),
    operatorPassword: e.OPERATOR_PASSWORD,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../../web/dist')),
    passwordHashCost: e.PASSWORD_HASH_COST,
    geocodingUrl: e.GEOCODING_URL || null,
    geocodingTimeoutMs: e.GEOCODING_TIMEOUT_MS,
    storageUrl: e.STORAGE_URL || undefined,
    verifyLinkHours: 72,
    passwordLinkHours: 24,
    instanceId: randomBytes(4).toString('hex'),
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
