import type { ReaderConfig, RelayConfig, StationConfig } from './config.js';
import { type HidBackend, HidReader } from './hardware/hid-reader.js';
import { CupsPrinter, type Printer } from './hardware/printer.js';
import type { Reader, ReaderStatus, Scan } from './hardware/reader.js';
import { HttpRelay, type Relay, SerialRelay } from './hardware/relay.js';
import type { OpenSerialPort } from './hardware/serial-port.js';
import { SerialReader } from './hardware/serial-reader.js';

export interface StationDeps {
  openSerialPort?: OpenSerialPort;
  hid?: HidBackend;
  printer?: Printer;
}

export function createReader(config: ReaderConfig, deps: StationDeps = {}): Reader {
  if (config.type === 'serial') return new SerialReader(config, deps.openSerialPort);
  return new HidReader(config, deps.hid);
}

export function createRelay(config: RelayConfig, deps: StationDeps = {}): Relay {
  if (config.type === 'serial') return new SerialRelay(config, deps.openSerialPort);
  return new HttpRelay(config);
}

/**
 * The station's hardware, built from its settings: the readers (their scans and states), the gate
 * relay and the printer. The gate screen, the offline store and the sync plug in on top of it.
 */
export class Station {
  readonly readers: Reader[];
  readonly relay: Relay | null;
  readonly printer: Printer;
  readonly #listeners = new Set<(scan: Scan) => void>();

  constructor(
    readonly config: StationConfig,
    deps: StationDeps = {},
  ) {
    this.readers = config.readers.map((reader) => createReader(reader, deps));
    this.relay = config.relay ? createRelay(config.relay, deps) : null;
    this.printer = deps.printer ?? new CupsPrinter();
    for (const reader of this.readers) reader.on('scan', (scan) => this.#scan(scan));
  }

  /** Registers the consumer of scans (the gate); returns its removal. */
  onScan(listener: (scan: Scan) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The readers' last states, for the status bar. */
  readerStatus(): (ReaderStatus | { readerId: string; status: null })[] {
    return this.readers.map((reader) => reader.status ?? { readerId: reader.id, status: null });
  }

  async start() {
    await Promise.all(this.readers.map((reader) => reader.open()));
  }

  async stop() {
    await Promise.all([...this.readers.map((reader) => reader.close()), this.relay?.close()]);
  }

  #scan(scan: Scan) {
    const withDirection = scan.direction ? scan : { ...scan, direction: this.config.direction };
    for (const listener of this.#listeners) listener(withDirection);
  }
}
