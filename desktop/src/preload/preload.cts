// The preload script (CommonJS: sandboxed preloads cannot be ES modules). It exposes the typed
// bridge of ./api.ts through contextBridge; the page never gets Node or ipcRenderer itself.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ReaderStatus } from '../core/hardware/reader.js';
import type { CHANNELS, StationBridge } from './api.js';

// The channel names again (a sandboxed preload can require only electron); `typeof CHANNELS` makes
// the compiler check that they are the same as the main process's.
const channel: typeof CHANNELS = {
  info: 'station:info',
  readerStatus: 'station:reader-status',
  readerStatusEvent: 'station:reader-status-event',
  printers: 'station:printers',
  testRelay: 'station:test-relay',
  printPdf: 'station:print-pdf',
  setKiosk: 'station:set-kiosk',
};

const bridge: StationBridge = {
  info: () => ipcRenderer.invoke(channel.info),
  readerStatus: () => ipcRenderer.invoke(channel.readerStatus),
  onReaderStatus: (listener) => {
    const handler = (_event: IpcRendererEvent, status: ReaderStatus) => listener(status);
    ipcRenderer.on(channel.readerStatusEvent, handler);
    return () => ipcRenderer.off(channel.readerStatusEvent, handler);
  },
  printers: () => ipcRenderer.invoke(channel.printers),
  testRelay: () => ipcRenderer.invoke(channel.testRelay),
  printPdf: (pdf, printer) => ipcRenderer.invoke(channel.printPdf, pdf, printer),
  setKiosk: (on) => ipcRenderer.invoke(channel.setKiosk, on),
};

contextBridge.exposeInMainWorld('accredoStation', bridge);
