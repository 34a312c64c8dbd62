import { createRequire } from 'node:module';
import { KeyboardReportDecoder, parsePosReport } from './hid-report.js';
import { type Direction, nextDelay, ReaderBase, type RetryOptions } from './reader.js';

/** What node-hid's enumeration tells about a device (the fields the station uses). */
export interface HidDeviceInfo {
  vendorId: number;
  productId: number;
  path?: string;
  usagePage?: number;
  product?: string;
}

/** An open HID device (node-hid's HIDAsync). */
export interface HidDeviceHandle {
  on(event: 'data', listener: (report: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(): unknown;
  close(): Promise<void> | void;
}

/** node-hid at its boundary: enumeration and opening. Tests hand in their own. */
export interface HidBackend {
  devicesAsync(): Promise<HidDeviceInfo[]>;
  HIDAsync: { open(path: string): Promise<HidDeviceHandle> };
}

/** node-hid, loaded on first use (its native library needs libusb-1.0 on Linux). */
export function loadNodeHid(): HidBackend {
  try {
    return createRequire(import.meta.url)('node-hid') as HidBackend;
  } catch (error) {
    throw new Error(`node-hid cannot load: ${(error as Error).message} (on Debian: apt-get install -y libusb-1.0-0)`);
  }
}

export type HidFormat = 'keyboard' | 'pos' | 'auto';

export interface HidReaderOptions {
  id: string;
  vendorId: number;
  productId: number;
  /** `auto`: POS when the device's usage page is 0x8C, else keyboard. */
  format?: HidFormat;
  direction?: Direction;
  retry?: RetryOptions;
}

const POS_USAGE_PAGE = 0x8c;

/**
 * A HID scanner by vendor and product id. Hot-plug: while the device is missing (or after it
 * fails), it looks for it again with a capped backoff and reports `reopened` when it is back.
 */
export class HidReader extends ReaderBase {
  readonly #keyboard = new KeyboardReportDecoder();
  #backend: HidBackend | null;
  #device: HidDeviceHandle | null = null;
  #timer: NodeJS.Timeout | null = null;
  #attempt = 0;
  #closed = true;

  constructor(
    private readonly options: HidReaderOptions,
    backend?: HidBackend,
  ) {
    super(options.id, options.direction);
    this.#backend = backend ?? null;
  }

  async open(): Promise<void> {
    if (!this.#closed) return;
    this.#closed = false;
    this.#attempt = 0;
    await this.#tryOpen();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const device = this.#device;
    this.#device = null;
    if (device) await this.#release(device);
  }

  async #release(device: HidDeviceHandle) {
    device.removeAllListeners();
    device.on('error', () => {});
    try {
      await device.close();
    } catch {
      // already gone
    }
  }

  async #tryOpen(): Promise<void> {
    this.#timer = null;
    if (this.#closed) return;
    let device: HidDeviceHandle;
    let info: HidDeviceInfo;
    try {
      this.#backend ??= loadNodeHid();
      const { vendorId, productId } = this.options;
      const found = (await this.#backend.devicesAsync()).filter(
        (d) => d.vendorId === vendorId && d.productId === productId && d.path,
      );
      // A POS scanner may list a keyboard interface too: take the POS one when asked for it.
      const wanted = this.options.format ?? 'auto';
      info = (wanted !== 'keyboard' && found.find((d) => d.usagePage === POS_USAGE_PAGE)) || found[0];
      if (!info) throw new Error(`no HID device ${hex(vendorId)}:${hex(productId)} connected`);
      device = await this.#backend.HIDAsync.open(info.path!);
    } catch (error) {
      if (this.#closed) return;
      this.setStatus('error', (error as Error).message);
      this.#schedule();
      return;
    }
    if (this.#closed) {
      await this.#release(device);
      return;
    }
    const format = this.options.format && this.options.format !== 'auto' ? this.options.format : undefined;
    const pos = format ? format === 'pos' : info.usagePage === POS_USAGE_PAGE;
    this.#device = device;
    this.#attempt = 0;
    this.#keyboard.reset();
    device.on('data', (report) => {
      if (pos) {
        const code = parsePosReport(report);
        if (code) this.emitScan(code);
      } else for (const code of this.#keyboard.push(report)) this.emitScan(code);
    });
    device.on('error', (error) => void this.#lost(device, error.message));
    this.markOpen();
  }

  async #lost(device: HidDeviceHandle, message: string) {
    if (this.#device !== device || this.#closed) return;
    this.#device = null;
    this.setStatus('closed', message);
    this.#schedule();
    await this.#release(device);
  }

  #schedule() {
    if (this.#closed || this.#timer) return;
    this.#timer = setTimeout(() => void this.#tryOpen(), nextDelay(this.#attempt++, this.options.retry));
    this.#timer.unref?.();
  }
}

function hex(id: number) {
  return id.toString(16).padStart(4, '0');
}
