/**
 * The bridge the preload script exposes to the renderer as `window.accredoStation` (the gate
 * screen uses it when it runs inside the app; in a plain browser it is absent). Types only: the
 * renderer imports them, the preload implements them, the main process answers the channels.
 */
import type { ReaderStatus } from '../core/hardware/reader.js';
import type { PrinterInfo } from '../core/hardware/printer.js';
import type { RelayTestResult } from '../core/hardware/relay.js';

export interface StationInfo {
  version: string;
  /** The local gate server the window shows. */
  serverUrl: string;
  kiosk: boolean;
}

export interface StationBridge {
  info(): Promise<StationInfo>;
  readerStatus(): Promise<ReaderStatus[]>;
  /** Called on every reader state change (plugged, unplugged, reopened); returns the unsubscribe. */
  onReaderStatus(listener: (status: ReaderStatus) => void): () => void;
  printers(): Promise<PrinterInfo[]>;
  testRelay(): Promise<RelayTestResult>;
  /** Prints a PDF silently on the configured (or named) printer through Electron. */
  printPdf(pdf: Uint8Array, printer?: string): Promise<{ ok: boolean; message?: string }>;
  setKiosk(on: boolean): Promise<void>;
}

/** IPC channel names, shared by main and preload. */
export const CHANNELS = {
  info: 'station:info',
  readerStatus: 'station:reader-status',
  readerStatusEvent: 'station:reader-status-event',
  printers: 'station:printers',
  testRelay: 'station:test-relay',
  printPdf: 'station:print-pdf',
  setKiosk: 'station:set-kiosk',
} as const;
