import { setTimeout as delay } from 'node:timers/promises';
import {
  closePort,
  type OpenSerialPort,
  openPort,
  openSerialPort,
  type SerialPortLike,
  writeAndDrain,
} from './serial-port.js';

export interface RelayTestResult {
  ok: boolean;
  /** What went wrong, for the settings screen. */
  message?: string;
}

/** A gate relay: opens the turnstile or door on an allowed decision. */
export interface Relay {
  /** One opening (a pulse); rejects when the relay did not take the command. */
  open(): Promise<void>;
  /** The settings' test button: one opening, reported rather than thrown. */
  test(): Promise<RelayTestResult>;
  close(): Promise<void>;
}

export class RelayError extends Error {
  constructor(
    readonly code: 'RELAY_UNREACHABLE' | 'RELAY_REFUSED' | 'RELAY_TIMEOUT' | 'RELAY_CONFIG',
    message: string,
  ) {
    super(message);
    this.name = 'RelayError';
  }
}

async function report(relay: Relay): Promise<RelayTestResult> {
  try {
    await relay.open();
    return { ok: true };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/** `"A0 01 01 A2"`, `"a00101a2"`, `"0xA0,0x01"` → bytes. */
export function parseHex(text: string): Buffer {
  const clean = text.replace(/0x/gi, '').replace(/[\s,:;-]/g, '');
  if (!/^([0-9a-f]{2})*$/i.test(clean)) throw new RelayError('RELAY_CONFIG', `Not a hex byte sequence: "${text}"`);
  return Buffer.from(clean, 'hex');
}

export interface SerialRelayOptions {
  path: string;
  baudRate?: number;
  /** Bytes that switch the relay on (hex), e.g. the common LC-relay boards' `A0 01 01 A2`. */
  openHex: string;
  /** Bytes that switch it off again (hex), e.g. `A0 01 00 A1`; empty for boards that pulse themselves. */
  closeHex?: string;
  /** How long the relay stays on, in ms. */
  pulseMs?: number;
}

/**
 * A serial (USB) relay board: write the open sequence, wait the pulse length, write the close
 * sequence. The port is opened on first use and kept; a failed write drops it so the next opening
 * opens it again (the board was re-plugged). Openings are serialised: one pulse at a time.
 */
export class SerialRelay implements Relay {
  readonly #open: Buffer;
  readonly #close: Buffer;
  #port: SerialPortLike | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly options: SerialRelayOptions,
    private readonly openPortFn: OpenSerialPort = openSerialPort,
  ) {
    this.#open = parseHex(options.openHex);
    this.#close = parseHex(options.closeHex ?? '');
    if (!this.#open.length) throw new RelayError('RELAY_CONFIG', 'The relay needs an open byte sequence');
  }

  open(): Promise<void> {
    const run = this.#queue.then(() => this.#pulse());
    this.#queue = run.catch(() => {});
    return run;
  }

  test() {
    return report(this);
  }

  async close() {
    await this.#queue;
    const port = this.#port;
    this.#port = null;
    if (port) await closePort(port);
  }

  async #pulse() {
    const port = await this.#connect();
    try {
      await writeAndDrain(port, this.#open);
      if (this.#close.length) {
        await delay(this.options.pulseMs ?? 500);
        await writeAndDrain(port, this.#close);
      }
    } catch (error) {
      this.#drop(port);
      throw new RelayError('RELAY_UNREACHABLE', `Relay at ${this.options.path}: ${(error as Error).message}`);
    }
  }

  async #connect(): Promise<SerialPortLike> {
    if (this.#port?.isOpen) return this.#port;
    const port = this.openPortFn({ path: this.options.path, baudRate: this.options.baudRate ?? 9600 });
    port.on('error', () => this.#drop(port));
    port.on('close', () => this.#drop(port));
    try {
      await openPort(port);
    } catch (error) {
      throw new RelayError('RELAY_UNREACHABLE', `Relay at ${this.options.path}: ${(error as Error).message}`);
    }
    this.#port = port;
    return port;
  }

  #drop(port: SerialPortLike) {
    if (this.#port === port) this.#port = null;
    if (port.isOpen) port.close();
  }
}

export interface HttpRelayOptions {
  /** The relay box's switching URL; `http://user:password@host/…` becomes basic authentication. */
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  body?: string;
  headers?: Record<string, string>;
  /** Per call, in ms. */
  timeoutMs?: number;
  /** For boxes that do not pulse by themselves: called `pulseMs` after `url`. */
  closeUrl?: string;
  pulseMs?: number;
}

/**
 * An IP relay box (Shelly, ESP/Tasmota, the Ethernet relay boards): one HTTP call per opening
 * (and an optional off call after the pulse). Exactly one attempt with a timeout: a gate must not
 * open seconds late because a retry got through.
 */
export class HttpRelay implements Relay {
  constructor(private readonly options: HttpRelayOptions) {
    try {
      new URL(options.url);
      if (options.closeUrl) new URL(options.closeUrl);
    } catch {
      throw new RelayError('RELAY_CONFIG', `Not a URL: "${options.url}"`);
    }
  }

  async open() {
    await this.#call(this.options.url);
    if (this.options.closeUrl) {
      await delay(this.options.pulseMs ?? 500);
      await this.#call(this.options.closeUrl);
    }
  }

  test() {
    return report(this);
  }

  async close() {}

  async #call(address: string) {
    const url = new URL(address);
    const headers: Record<string, string> = { ...this.options.headers };
    if (url.username || url.password) {
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    const method = this.options.method ?? 'GET';
    const timeoutMs = this.options.timeoutMs ?? 3000;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: method === 'GET' ? undefined : this.options.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new RelayError('RELAY_TIMEOUT', `Relay at ${url.host} did not answer within ${timeoutMs} ms`);
      const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new RelayError('RELAY_UNREACHABLE', `Relay at ${url.host}: ${cause}`);
    }
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) throw new RelayError('RELAY_REFUSED', `Relay at ${url.host} answered HTTP ${response.status}`);
  }
}
