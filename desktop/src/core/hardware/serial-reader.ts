import { type CodeFraming, CodeAssembler } from './codes.js';
import { type Direction, nextDelay, ReaderBase, type RetryOptions } from './reader.js';
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
 * and then at the cap until `close()`; back, it reports `reopened`.
 */
export class SerialReader extends ReaderBase {
  readonly #assembler: CodeAssembler;
  #port: SerialPortLike | null = null;
  #timer: NodeJS.Timeout | null = null;
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
    this.markOpen();
  }

  #lost(port: SerialPortLike, status: 'closed' | 'error', message: string) {
    if (this.#port !== port || this.#closed) return;
    this.#port = null;
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
