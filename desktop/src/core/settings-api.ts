import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { promisify } from 'node:util';
import { publicConfig, type StationConfig, saveConfig, stationConfigSchema } from './config.js';
import { BridgeError } from './gate-bridge.js';
import { type HidBackend, loadNodeHid } from './hardware/hid-reader.js';
import { PrinterError } from './hardware/printer.js';
import type { Station } from './station.js';

/**
 * The station's settings API (issue 12, the settings screen at `/gate/settings`):
 * - `GET /api/station/v1/settings`: the settings (relay passwords masked, the PIN's hash left out,
 *   `pinSet` instead);
 * - `PUT /api/station/v1/settings`: the whole settings, validated with the station.json schema
 *   (errors per field in the envelope's details), saved atomically and applied without a restart
 *   (readers and relay closed and reopened); `newPin` (string) sets the PIN, `null` removes it;
 * - `GET …/ports` (serial ports), `GET …/hid` (HID devices), `GET …/printers` (CUPS);
 * - `POST …/relay/test` (one pulse, `{ok, message}`), `POST …/print/test` (a test page).
 * The writes need the `x-station-pin` header when a PIN is set.
 */

export interface SerialPortInfo {
  path: string;
  manufacturer?: string;
  serialNumber?: string;
  vendorId?: string;
  productId?: string;
}

export interface SettingsApiOptions {
  /** the data directory (station.json) */
  dir: string;
  station: Station;
  /** serialport's SerialPort.list() (tests hand in their own) */
  listPorts?: () => Promise<SerialPortInfo[]>;
  /** node-hid's enumeration (tests hand in their own) */
  hid?: () => Pick<HidBackend, 'devicesAsync'>;
  /** after new settings are in force (the status to the screens) */
  onApplied?: (config: StationConfig) => void;
  /** the clock of the PIN throttle (tests) */
  now?: () => number;
}

/**
 * Wrong PINs are throttled (a 4-digit PIN is guessed in minutes otherwise): after `free` wrong
 * ones in a row every further try waits twice as long as the last, up to `maxWaitMs`; the right
 * PIN ends the series. The station's local API is one desk's, so one series for the station.
 */
export const PIN_THROTTLE = { free: 3, firstWaitMs: 1000, maxWaitMs: 5 * 60_000 };

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** The PIN as stored in station.json: `scrypt$<salt>$<hash>` (base64). */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(pin, salt, 32);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const [kind, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(pin, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

const PIN_FORMAT = /^\d{4,12}$/;

async function listSerialPorts(): Promise<SerialPortInfo[]> {
  const { SerialPort } = await import('serialport');
  return SerialPort.list();
}

async function readBody(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new BridgeError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BridgeError(400, 'BAD_REQUEST', 'The request body is not JSON');
  }
}

function send(response: http.ServerResponse, status: number, body: unknown): true {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
  return true;
}

/** The settings as the screen gets them. */
export function shownSettings(config: StationConfig) {
  const { pin, ...rest } = publicConfig(config);
  return { ...rest, pinSet: !!pin };
}

/** A masked password (`***`) in a relay URL the screen sends back means "keep the saved one". */
function keepPassword(address: unknown, saved: string | undefined): unknown {
  if (typeof address !== 'string' || !saved) return address;
  try {
    const url = new URL(address);
    const old = new URL(saved);
    if (url.password !== '***') return address;
    url.password = old.password;
    return url.toString();
  } catch {
    return address;
  }
}

const fieldError = (path: string, key: string, message: string) => ({ path, key, message });

/** Validates the screen's settings; throws VALIDATION_ERROR with one detail per field. */
export function validateSettings(raw: unknown, current: StationConfig): StationConfig {
  const body = { ...((raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>) };
  delete body.newPin;
  delete body.pinSet;
  body.pin = current.pin;
  // the local server's address is not the screen's to change (it would cut the screen off)
  body.http = current.http;
  const relay = body.relay as Record<string, unknown> | null | undefined;
  if (relay && relay.type === 'http' && current.relay?.type === 'http')
    body.relay = {
      ...relay,
      url: keepPassword(relay.url, current.relay.url),
      closeUrl: keepPassword(relay.closeUrl, current.relay.closeUrl),
    };
  const result = stationConfigSchema.safeParse(body);
  if (!result.success)
    throw new BridgeError(
      400,
      'VALIDATION_ERROR',
      'The settings are not valid',
      result.error.issues.map((issue) =>
        fieldError(issue.path.map(String).join('.') || '(root)', 'basics.invalidValue', issue.message),
      ),
    );
  const ids = result.data.readers.map((reader) => reader.id);
  const twice = ids.findIndex((id, index) => ids.indexOf(id) !== index);
  if (twice >= 0)
    throw new BridgeError(400, 'VALIDATION_ERROR', 'The settings are not valid', [
      fieldError(`readers.${twice}.id`, 'gate.settings.duplicateId', `Two readers have the id "${ids[twice]}"`),
    ]);
  // a relay the hardware layer refuses (hex bytes) is a field error too, not a failed start
  if (result.data.relay?.type === 'serial')
    for (const field of ['openHex', 'closeHex'] as const) {
      const clean = result.data.relay[field].replace(/0x/gi, '').replace(/[\s,:;-]/g, '');
      if (!/^([0-9a-f]{2})*$/i.test(clean) || (field === 'openHex' && !clean))
        throw new BridgeError(400, 'VALIDATION_ERROR', 'The settings are not valid', [
          fieldError(
            `relay.${field}`,
            'gate.settings.hexInvalid',
            `Not a hex byte sequence: "${result.data.relay[field]}"`,
          ),
        ]);
    }
  return result.data;
}

/** A one-page PDF (A6) saying what printed it: the settings' test print. */
export function testPagePdf(lines: string[]): Buffer {
  const pdfText = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
  const content = [
    'BT /F1 14 Tf 24 380 Td (Accredo Station: test page) Tj ET',
    ...lines.map((line, index) => `BT /F1 10 Tf 24 ${350 - index * 16} Td (${pdfText(line)}) Tj ET`),
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 298 420] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

function printerFailure(error: unknown): never {
  if (error instanceof PrinterError)
    throw new BridgeError(error.code === 'PRINTER_NOT_FOUND' ? 404 : 503, error.code, error.message);
  throw error;
}

/** The settings routes; false when the path is not one of them. */
export function settingsApi(options: SettingsApiOptions) {
  const { dir, station } = options;
  const listPorts = options.listPorts ?? listSerialPorts;
  const hid = options.hid ?? loadNodeHid;
  let saving: Promise<unknown> = Promise.resolve();

  const now = options.now ?? Date.now;
  let wrongPins = 0;
  let pinWaitUntil = 0;
  const checkPin = async (request: http.IncomingMessage) => {
    const stored = station.config.pin;
    if (!stored) return;
    const given = request.headers['x-station-pin'];
    const pin = Array.isArray(given) ? given[0] : given;
    if (!pin)
      throw new BridgeError(401, 'UNAUTHORIZED', 'The station PIN is needed (x-station-pin)', [
        fieldError('pin', 'gate.settings.pinRequired', 'The station PIN is needed'),
      ]);
    const wait = pinWaitUntil - now();
    if (wait > 0)
      throw new BridgeError(429, 'TOO_MANY_REQUESTS', 'Too many wrong PINs: try again later', {
        retryAfter: Math.ceil(wait / 1000),
      });
    if (!(await verifyPin(pin, stored))) {
      wrongPins += 1;
      if (wrongPins >= PIN_THROTTLE.free)
        pinWaitUntil =
          now() +
          Math.min(PIN_THROTTLE.maxWaitMs, PIN_THROTTLE.firstWaitMs * 2 ** Math.min(30, wrongPins - PIN_THROTTLE.free));
      throw new BridgeError(403, 'FORBIDDEN', 'The station PIN is wrong', [
        fieldError('pin', 'gate.settings.pinWrong', 'The station PIN is wrong'),
      ]);
    }
    wrongPins = 0;
    pinWaitUntil = 0;
  };

  const methodNotAllowed = (response: http.ServerResponse, allow: string) => {
    response.setHeader('allow', allow);
    return send(response, 405, { error: { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed', details: null } });
  };

  return async function handle(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    path: string,
  ): Promise<boolean> {
    const method = request.method ?? 'GET';
    const isGet = method === 'GET' || method === 'HEAD';
    const base = '/api/station/v1/';
    if (!path.startsWith(base)) return false;
    const what = path.slice(base.length);

    if (what === 'settings') {
      if (isGet) return send(response, 200, { data: shownSettings(station.config) });
      if (method !== 'PUT') return methodNotAllowed(response, 'GET, HEAD, PUT');
      await checkPin(request);
      const raw = await readBody(request);
      const config = validateSettings(raw, station.config);
      const newPin = (raw as { newPin?: unknown }).newPin;
      if (newPin !== undefined) {
        if (newPin === null || newPin === '') config.pin = null;
        else if (typeof newPin === 'string' && PIN_FORMAT.test(newPin)) config.pin = await hashPin(newPin);
        else
          throw new BridgeError(400, 'VALIDATION_ERROR', 'The settings are not valid', [
            fieldError('newPin', 'gate.settings.pinFormat', 'The PIN is 4 to 12 digits'),
          ]);
      }
      // one save at a time: the file is replaced atomically, then the hardware reopened
      const save = saving.then(async () => {
        saveConfig(dir, config);
        await station.apply(config);
        options.onApplied?.(config);
      });
      saving = save.catch(() => undefined);
      await save;
      send(response, 200, { data: shownSettings(station.config) });
      return true;
    }

    if (what === 'ports' || what === 'hid' || what === 'printers') {
      if (!isGet) return methodNotAllowed(response, 'GET, HEAD');
      if (what === 'ports') {
        let ports: SerialPortInfo[];
        try {
          ports = await listPorts();
        } catch (error) {
          throw new BridgeError(
            503,
            'SERIAL_UNAVAILABLE',
            `The serial ports cannot be listed: ${(error as Error).message}`,
          );
        }
        const data = ports.map(({ path: port, manufacturer, serialNumber, vendorId, productId }) => ({
          path: port,
          manufacturer: manufacturer ?? null,
          serialNumber: serialNumber ?? null,
          vendorId: vendorId ?? null,
          productId: productId ?? null,
        }));
        send(response, 200, { data });
      } else if (what === 'hid') {
        let devices: Awaited<ReturnType<HidBackend['devicesAsync']>>;
        try {
          devices = await hid().devicesAsync();
        } catch (error) {
          throw new BridgeError(
            503,
            'HID_UNAVAILABLE',
            `The HID devices cannot be listed: ${(error as Error).message}`,
          );
        }
        // one row per vendor/product (a scanner lists several interfaces)
        const seen = new Map<string, { vendorId: number; productId: number; product: string | null; pos: boolean }>();
        for (const device of devices) {
          const key = `${device.vendorId}:${device.productId}`;
          const row = seen.get(key) ?? {
            vendorId: device.vendorId,
            productId: device.productId,
            product: device.product ?? null,
            pos: false,
          };
          row.pos ||= device.usagePage === 0x8c;
          seen.set(key, row);
        }
        send(response, 200, { data: [...seen.values()] });
      } else {
        const printers = await station.printer.list().catch(printerFailure);
        send(response, 200, { data: printers });
      }
      return true;
    }

    if (what === 'relay/test' || what === 'print/test') {
      if (method !== 'POST') return methodNotAllowed(response, 'POST');
      await checkPin(request);
      if (what === 'relay/test') {
        const relay = station.relay;
        if (!relay)
          throw new BridgeError(400, 'VALIDATION_ERROR', 'No gate relay is configured', [
            fieldError('relay', 'gate.settings.noRelay', 'No gate relay is configured'),
          ]);
        const result = await relay.test();
        send(response, 200, { data: { ok: result.ok, message: result.message ?? null } });
        return true;
      }
      const body = (await readBody(request)) as { printer?: unknown };
      const printer = typeof body.printer === 'string' && body.printer ? body.printer : station.config.printer?.name;
      if (!printer)
        throw new BridgeError(400, 'VALIDATION_ERROR', 'No printer is configured', [
          fieldError('printer.name', 'gate.settings.noPrinter', 'No printer is configured'),
        ]);
      const pdf = testPagePdf([
        `Printer: ${printer}`,
        `Printed: ${new Date().toISOString()}`,
        `Server: ${station.config.server.url ?? '-'}`,
      ]);
      const job = await station.printer
        .print(pdf, { printer, copies: 1, title: `accredo-test-page-${Date.now()}` })
        .catch(printerFailure);
      send(response, 200, { data: { ok: true, jobId: job.jobId, printer } });
      return true;
    }
    return false;
  };
}
