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
  readonly printer: Printer;
  readonly #deps: StationDeps;
  readonly #listeners = new Set<(scan: Scan) => void>();
  readonly #statusListeners = new Set<(status: ReaderStatus) => void>();
  #config: StationConfig;
  #readers: Reader[] = [];
  #relay: Relay | null = null;
  #started = false;
  #unbind: (() => void)[] = [];
  #applying: Promise<void> = Promise.resolve();

  constructor(config: StationConfig, deps: StationDeps = {}) {
    this.#config = config;
    this.#deps = deps;
    this.printer = deps.printer ?? new CupsPrinter();
    this.#build(config);
  }

  /** The settings in force (replaced by apply()). */
  get config(): StationConfig {
    return this.#config;
  }

  get readers(): readonly Reader[] {
    return this.#readers;
  }

  get relay(): Relay | null {
    return this.#relay;
  }

  /** Every reader's state changes, also of readers built by a later apply(); returns the removal. */
  onReaderStatus(listener: (status: ReaderStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /**
   * New settings without a restart (the settings screen): the old readers and relay are closed, new
   * ones built from the settings and, when the station runs, opened. The printer is the system's
   * (its name is read from the settings at each print). Applies run one after another.
   */
  apply(config: StationConfig): Promise<void> {
    const run = async () => {
      const old = { readers: this.#readers, relay: this.#relay };
      for (const off of this.#unbind.splice(0)) off();
      await Promise.all([...old.readers.map((reader) => reader.close()), old.relay?.close()]);
      this.#config = config;
      this.#build(config);
      if (this.#started) await Promise.all(this.#readers.map((reader) => reader.open()));
    };
    this.#applying = this.#applying.then(run, run);
    return this.#applying;
  }

  #build(config: StationConfig) {
    this.#readers = config.readers.map((reader) => createReader(reader, this.#deps));
    this.#relay = config.relay ? createRelay(config.relay, this.#deps) : null;
    for (const reader of this.#readers) {
      const onScan = (scan: Scan) => this.#scan(scan);
      const onStatus = (status: ReaderStatus) => {
        for (const listener of this.#statusListeners) listener(status);
      };
      reader.on('scan', onScan);
      reader.on('status', onStatus);
      this.#unbind.push(() => reader.off('scan', onScan).off('status', onStatus));
    }
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
    this.#started = true;
    await Promise.all(this.#readers.map((reader) => reader.open()));
  }

  async stop() {
    this.#started = false;
    await this.#applying;
    await Promise.all([...this.#readers.map((reader) => reader.close()), this.#relay?.close()]);
  }

  #scan(scan: Scan) {
    const withDirection = scan.direction ? scan : { ...scan, direction: this.#config.direction };
    for (const listener of this.#listeners) listener(withDirection);
  }
}
