import fs from 'node:fs';
import { type CodeFraming, CodeAssembler } from './codes.js';
import { DEFAULT_RETRY, type Direction, nextDelay, ReaderBase, type RetryOptions } from './reader.js';
import { closePort, type OpenSerialPort, openPort, openSerialPort, type SerialPortLike } from './serial-port.js';

export interface SerialReaderOptions extends CodeFraming {
  id: string;
  /** `/dev/ttyACM0`, `/dev/serial/by-id/…`, `COM3`. */
  path: string;
  baudRate?: number;
  direction?: Direction;
  retry?: RetryOptions;
}

/**
 * A serial or USB-CDC scanner. Hot-plug: when the port closes or fails (unplugged), the reader
 * reports `closed`/`error` and tries to open the same path again, with delays doubling up to a cap
 * and then at the cap until `close()`; back, it reports `reopened`. The port's own close event is
 * not enough on its own: a device that goes away before the port's first read is polled is not
 * noticed by the driver, so while open the reader also checks that a device path (`/dev/…`) still
 * exists, every second (or at the retry cap when that is shorter).
 */
export class SerialReader extends ReaderBase {
  readonly #assembler: CodeAssembler;
  #port: SerialPortLike | null = null;
  #timer: NodeJS.Timeout | null = null;
  #watch: NodeJS.Timeout | null = null;
  #attempt = 0;
  #closed = true;

  constructor(
    private readonly options: SerialReaderOptions,
    private readonly openPortFn: OpenSerialPort = openSerialPort,
  ) {
    super(options.id, options.direction);
    this.#assembler = new CodeAssembler(options);
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
    this.#stopWatch();
    const port = this.#port;
    this.#port = null;
    if (port) {
      port.removeAllListeners();
      port.on('error', () => {});
      await closePort(port);
    }
  }

  async #tryOpen(): Promise<void> {
    this.#timer = null;
    if (this.#closed) return;
    const port = this.openPortFn({ path: this.options.path, baudRate: this.options.baudRate ?? 9600 });
    port.on('error', (error) => this.#lost(port, 'error', error.message));
    try {
      await openPort(port);
    } catch (error) {
      port.removeAllListeners();
      port.on('error', () => {});
      if (this.#closed) return;
      this.setStatus('error', (error as Error).message);
      this.#schedule();
      return;
    }
    if (this.#closed) {
      port.removeAllListeners();
      await closePort(port);
      return;
    }
    this.#port = port;
    this.#attempt = 0;
    this.#assembler.reset();
    port.on('data', (chunk) => {
      for (const code of this.#assembler.push(chunk)) this.emitScan(code);
    });
    port.on('close', (error) => this.#lost(port, 'closed', error?.message ?? 'port closed'));
    this.#startWatch(port);
    this.markOpen();
  }

  #startWatch(port: SerialPortLike) {
    this.#stopWatch();
    if (!this.options.path.startsWith('/')) return;
    const every = Math.min(1000, this.options.retry?.maxMs ?? DEFAULT_RETRY.maxMs);
    this.#watch = setInterval(() => {
      if (!fs.existsSync(this.options.path)) this.#lost(port, 'closed', `${this.options.path} is gone`);
    }, every);
    this.#watch.unref?.();
  }

  #stopWatch() {
    if (this.#watch) clearInterval(this.#watch);
    this.#watch = null;
  }

  #lost(port: SerialPortLike, status: 'closed' | 'error', message: string) {
    if (this.#port !== port || this.#closed) return;
    this.#port = null;
    this.#stopWatch();
    port.removeAllListeners();
    port.on('error', () => {});
    if (port.isOpen) port.close();
    this.setStatus(status, message);
    this.#schedule();
  }

  #schedule() {
    if (this.#closed || this.#timer) return;
    const delay = nextDelay(this.#attempt++, this.options.retry);
    this.#timer = setTimeout(() => void this.#tryOpen(), delay);
    this.#timer.unref?.();
  }
}
