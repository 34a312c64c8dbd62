import type { DeviceMode, GatePersonShown, GateScanAnswer } from '@accredo/access';
import type { DevicePairResult } from '@accredo/domain';
import { ApiError, type ApiConfig, type Method, type RequestOptions, request } from './client';
import { readStorage, writeStorage } from './storage';

/**
 * The browser gate screen's side of the device protocol `api/device/v1` (issue 11,
 * docs/device-protocol.md): its own token (not the admin's), a uid per browser, and the scan with
 * a bounded timeout and retries of the same nonce (the server answers a replay with the original
 * decision and writes nothing, D16).
 */
export const GATE_STORAGE = {
  /** the device token of this browser's pairing */
  token: 'accredo.gate.token',
  /** this browser's device uid (generated once, kept across pairings) */
  uid: 'accredo.gate.uid',
  /** the last chosen direction: 'entry' or 'exit' */
  direction: 'accredo.gate.direction',
  /** '1' when the gate scans with the camera */
  camera: 'accredo.gate.camera',
} as const;

export const getGateToken = () => readStorage(GATE_STORAGE.token);
export const setGateToken = (token: string | null) => writeStorage(GATE_STORAGE.token, token);

/** A random id (crypto.randomUUID where the browser has it, e.g. on http outside localhost it may not). */
export function randomId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** This browser's device uid: generated on first use and kept. */
export function gateUid(): string {
  const known = readStorage(GATE_STORAGE.uid);
  if (known) return known;
  const uid = randomId();
  writeStorage(GATE_STORAGE.uid, uid);
  return uid;
}

let unauthorized: () => void = () => undefined;
/** What the screen does when the server no longer knows the token (unpaired, deleted, key rotated). */
export function setGateUnauthorizedHandler(handler: () => void) {
  unauthorized = handler;
}

const config: ApiConfig = {
  base: '/api/device/v1',
  header: 'authorization',
  getToken: getGateToken,
  onUnauthorized: () => {
    setGateToken(null);
    unauthorized();
  },
};

const call = <T>(method: Method, path: string, body?: unknown, options?: RequestOptions) =>
  request<T>(config, method, path, body, options);

export type GateDirection = 'entry' | 'exit';

/** GET config */
export interface GateConfig {
  device: { id: number; name: string; uid: string; appVersion: string | null };
  subject: { id: number; name: string; timeZone: string };
  template: { id: number; name: string | null; mode: DeviceMode; zoneId: number | null } | null;
  action: { id: number; name: string | Record<string, string> | null } | null;
  zone: { id: number; name: string } | null;
  /** the user fields of the template's custom date rules (a refusal names its field) */
  fields?: { id: number; name: string; label: Record<string, string> | null }[];
  screen: { configured: boolean; mode: DeviceMode | null; directions: GateDirection[]; askAmount: boolean };
}

export type { GatePersonShown };

/** POST scan (one definition with the station's local API: libs/access wire.ts) */
export type { GateScanAnswer };

export interface GateScanInput {
  code: string;
  direction: GateDirection;
  amount: number | null;
}

export interface GateNetwork {
  /** one attempt's limit */
  timeoutMs: number;
  /** attempts in all (the first and its retries), all with the same nonce */
  attempts: number;
  /** the pause before a retry */
  retryDelayMs: number;
}

export const GATE_NETWORK: GateNetwork = { timeoutMs: 4000, attempts: 3, retryDelayMs: 300 };

/** The server did not answer (network down, timeouts, 5xx) after every attempt. */
export class GateUnreachableError extends Error {
  constructor(readonly nonce: string) {
    super('gate server not reachable');
    this.name = 'GateUnreachableError';
  }
}

/** Failures worth another attempt with the same nonce: no answer, a timeout, a server error. */
function retryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === 'NETWORK_ERROR' || error.status >= 500 || error.status === 0;
  return error instanceof DOMException && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

const pause = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

export const gateApi = {
  pair: (code: string, name: string) =>
    call<DevicePairResult>('POST', 'pair', { code, uid: gateUid(), name, appVersion: 'web-gate' }, { auth: false }),
  unpair: (code: string) => call<{ unpaired: boolean }>('POST', 'unpair', { code }),
  /** The gate gives up its own pairing: the server revokes this token (no code needed). */
  unpairSelf: () => call<{ unpaired: boolean }>('POST', 'unpair', {}),
  config: () => call<GateConfig>('GET', 'config'),
  /**
   * One scan: a fresh nonce, each attempt bounded by a timeout, retried with the SAME nonce on
   * no answer; a client mistake (4xx) is thrown at once.
   */
  async scan(input: GateScanInput, network: GateNetwork = GATE_NETWORK): Promise<GateScanAnswer> {
    const body = {
      code: input.code,
      direction: input.direction,
      nonce: randomId(),
      deviceTime: new Date().toISOString(),
      amount: input.amount,
    };
    for (let attempt = 1; ; attempt++) {
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), network.timeoutMs);
      try {
        return await request<GateScanAnswer>(config, 'POST', 'scan', body, { signal: abort.signal });
      } catch (error) {
        if (!retryable(error)) throw error;
        if (attempt >= network.attempts) throw new GateUnreachableError(body.nonce);
        await pause(network.retryDelayMs);
      } finally {
        clearTimeout(timer);
      }
    }
  },
};
