import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The station's settings: one JSON file, `station.json`, in the station's data directory
 * (`ACCREDO_STATION_DATA`, default `./data/station`), where the offline store will live too.
 * A missing file means defaults; a broken one is an error that names the file and the field.
 */

const direction = z.enum(['entry', 'exit']);
const retry = z.object({ initialMs: z.number().int().min(10).optional(), maxMs: z.number().int().min(10).optional() });
const id = z.string().trim().min(1).max(64);
const usbId = z.union([z.number().int().min(0).max(0xffff), z.string().regex(/^(0x)?[0-9a-f]{1,4}$/i)]);

const serialReader = z.object({
  id,
  type: z.literal('serial'),
  path: z.string().min(1),
  baudRate: z.number().int().positive().default(9600),
  terminator: z.string().min(1).default('CR'),
  prefix: z.string().optional(),
  suffix: z.string().optional(),
  direction: direction.optional(),
  retry: retry.optional(),
});

const hidReader = z.object({
  id,
  type: z.literal('hid'),
  vendorId: usbId.transform(toUsbId),
  productId: usbId.transform(toUsbId),
  format: z.enum(['auto', 'keyboard', 'pos']).default('auto'),
  direction: direction.optional(),
  retry: retry.optional(),
});

const serialRelay = z.object({
  type: z.literal('serial'),
  path: z.string().min(1),
  baudRate: z.number().int().positive().default(9600),
  openHex: z.string().min(2),
  closeHex: z.string().default(''),
  pulseMs: z.number().int().min(0).max(60_000).default(500),
});

const httpRelay = z.object({
  type: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  method: z.enum(['GET', 'POST', 'PUT']).default('GET'),
  body: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().min(100).max(60_000).default(3000),
  closeUrl: z.url({ protocol: /^https?$/ }).optional(),
  pulseMs: z.number().int().min(0).max(60_000).default(500),
});

export const stationConfigSchema = z.object({
  /** The Accredo server the station pairs with, e.g. `https://accredo.example.com`. */
  server: z
    .object({
      url: z
        .url({ protocol: /^https?$/ })
        .nullable()
        .default(null),
    })
    .default({ url: null }),
  /** The local gate server (the screen for a kiosk browser or a tablet on the desk). */
  http: z
    .object({ host: z.string().default('127.0.0.1'), port: z.number().int().min(0).max(65_535).default(8090) })
    .default({ host: '127.0.0.1', port: 8090 }),
  language: z.enum(['cs', 'sk', 'en', 'de']).default('cs'),
  /** The gate's direction when a reader is not bound to one. */
  direction: direction.default('entry'),
  kiosk: z.boolean().default(false),
  readers: z.array(z.discriminatedUnion('type', [serialReader, hidReader])).default([]),
  relay: z.discriminatedUnion('type', [serialRelay, httpRelay]).nullable().default(null),
  printer: z
    .object({
      name: z.string().min(1),
      copies: z.number().int().min(1).max(99).default(1),
      printOnScan: z.boolean().default(false),
    })
    .nullable()
    .default(null),
  /**
   * The station PIN's hash (`scrypt$salt$hash`, settings-api.ts): when set, saving the settings and
   * the test buttons need it in the `x-station-pin` header. The local API has no other login.
   */
  pin: z.string().nullable().default(null),
});

export type StationConfig = z.infer<typeof stationConfigSchema>;
export type ReaderConfig = StationConfig['readers'][number];
export type RelayConfig = NonNullable<StationConfig['relay']>;

function toUsbId(value: number | string): number {
  return typeof value === 'number' ? value : Number.parseInt(value.replace(/^0x/i, ''), 16);
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.ACCREDO_STATION_DATA || path.join('data', 'station'));
}

export function configPath(dir: string): string {
  return path.join(dir, 'station.json');
}

export function parseConfig(raw: unknown, source = 'station.json'): StationConfig {
  const result = stationConfigSchema.safeParse(raw);
  if (result.success) {
    const ids = result.data.readers.map((reader) => reader.id);
    const twice = ids.find((readerId, index) => ids.indexOf(readerId) !== index);
    if (twice) throw new ConfigError(`${source}: two readers have the id "${twice}"`);
    return result.data;
  }
  const issues = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new ConfigError(`${source} is not valid: ${issues.join('; ')}`);
}

/** Reads `station.json` from the data directory; defaults when there is none. */
export function loadConfig(dir: string): StationConfig {
  const file = configPath(dir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return parseConfig({}, file);
    throw new ConfigError(`${file} cannot be read: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not JSON: ${(error as Error).message}`);
  }
  return parseConfig(raw, file);
}

/** Writes the settings atomically (a power cut leaves the old file or the new one, never half). */
export function saveConfig(dir: string, config: StationConfig): void {
  fs.mkdirSync(dir, { recursive: true });
  const file = configPath(dir);
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, 'w');
  try {
    fs.writeSync(fd, `${JSON.stringify(config, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}

/** The settings as the local server shows them: passwords in relay URLs masked. */
export function publicConfig(config: StationConfig): StationConfig {
  if (config.relay?.type !== 'http') return config;
  const mask = (address: string | undefined) => {
    if (!address) return address;
    const url = new URL(address);
    if (url.password) url.password = '***';
    return url.toString();
  };
  return { ...config, relay: { ...config.relay, url: mask(config.relay.url)!, closeUrl: mask(config.relay.closeUrl) } };
}
