import { EventEmitter } from 'node:events';

/** Which way a reader's scans go through the gate, when the reader is bound to one. */
export type Direction = 'entry' | 'exit';

/** One code read by a reader. */
export interface Scan {
  readerId: string;
  code: string;
  /** The reader's bound direction; absent when the gate screen chooses it. */
  direction?: Direction;
  at: Date;
}

/**
 * `open`: first opened. `closed`: the device went away (unplugged, port closed under us).
 * `error`: an open or read failed (the reader keeps retrying). `reopened`: back after a close or error.
 */
export type ReaderState = 'open' | 'closed' | 'error' | 'reopened';

export interface ReaderStatus {
  readerId: string;
  status: ReaderState;
  /** Why, for `closed` and `error`. */
  message?: string;
  at: Date;
}

interface ReaderEvents {
  scan: [Scan];
  status: [ReaderStatus];
}

/** A code reader (serial, HID; a keyboard wedge lives in the renderer). Several per station. */
export interface Reader {
  readonly id: string;
  readonly direction?: Direction;
  /** The last status reported, or null before the first open attempt. */
  readonly status: ReaderStatus | null;
  /** Starts reading; keeps retrying in the background if the device is not there yet. */
  open(): Promise<void>;
  /** Stops reading and any retry. */
  close(): Promise<void>;
  on<E extends keyof ReaderEvents>(event: E, listener: (...args: ReaderEvents[E]) => void): this;
  off<E extends keyof ReaderEvents>(event: E, listener: (...args: ReaderEvents[E]) => void): this;
}

/** Reconnect delays: doubling from `initialMs` up to `maxMs`, then at `maxMs` until closed. */
export interface RetryOptions {
  initialMs?: number;
  maxMs?: number;
}

export const DEFAULT_RETRY = { initialMs: 250, maxMs: 5000 };

export function nextDelay(attempt: number, retry: RetryOptions = {}): number {
  const initial = retry.initialMs ?? DEFAULT_RETRY.initialMs;
  const max = Math.max(initial, retry.maxMs ?? DEFAULT_RETRY.maxMs);
  return Math.min(max, initial * 2 ** Math.min(attempt, 30));
}

/** Shared event plumbing and the status bookkeeping of every reader. */
export abstract class ReaderBase extends EventEmitter implements Reader {
  #status: ReaderStatus | null = null;
  /** Whether the device was open at least once (so a later open is a `reopened`). */
  protected wasOpen = false;

  constructor(
    readonly id: string,
    readonly direction?: Direction,
  ) {
    super();
    // A reader's errors are status events; an `error` event nobody listens to must not crash the station.
    this.on('error', () => {});
  }

  get status() {
    return this.#status;
  }

  abstract open(): Promise<void>;
  abstract close(): Promise<void>;

  protected emitScan(code: string) {
    const scan: Scan = { readerId: this.id, code, at: new Date() };
    if (this.direction) scan.direction = this.direction;
    this.emit('scan', scan);
  }

  protected setStatus(status: ReaderState, message?: string) {
    const event: ReaderStatus = { readerId: this.id, status, at: new Date() };
    if (message) event.message = message;
    this.#status = event;
    this.emit('status', event);
  }

  /** `open` the first time, `reopened` after a close or error. */
  protected markOpen() {
    this.setStatus(this.wasOpen ? 'reopened' : 'open');
    this.wasOpen = true;
  }
}
