/**
 * The Electron shell: a thin layer over the headless core. It starts the same core as
 * `npm run station` in the main process, opens one window on the core's local gate server, and
 * answers the preload bridge (reader states, printers, relay test, silent PDF printing, kiosk).
 * Type-checked here; the Electron binary is not available on the build machines.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain } from 'electron';
import { startStation } from '../core/main.js';
import type { ReaderStatus } from '../core/hardware/reader.js';
import { CHANNELS, type StationInfo } from '../preload/api.js';
import { printPdfSilently } from './print.js';

const here = path.dirname(fileURLToPath(import.meta.url));

async function run() {
  // Settings and the offline store live in the user's data directory unless told otherwise.
  const env = { ...process.env };
  env.ACCREDO_STATION_DATA ||= path.join(app.getPath('userData'), 'station');
  // the gate and settings screens: the web app's build, packaged as an extra resource
  // (electron-builder.yml `extraResources`: web/dist -> resources/web); unpackaged, the core's
  // default (web/dist of the repository)
  if (app.isPackaged) env.WEB_DIST ||= path.join(process.resourcesPath, 'web');
  const core = await startStation(env);
  const kiosk = process.argv.includes('--kiosk') || core.station.config.kiosk;

  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    kiosk,
    fullscreen: kiosk,
    autoHideMenuBar: true,
    backgroundColor: '#ffffff',
    title: 'Accredo Station',
    webPreferences: {
      preload: path.join(here, '../preload/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  // Only the local gate server is shown; links elsewhere do not open windows.
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(core.server.url)) event.preventDefault();
  });

  const forward = (status: ReaderStatus) => {
    if (!window.isDestroyed()) window.webContents.send(CHANNELS.readerStatusEvent, status);
  };
  // also the readers of settings saved later (the settings screen reopens them)
  core.station.onReaderStatus(forward);

  const info: StationInfo = { version: app.getVersion(), serverUrl: core.server.url, kiosk };
  ipcMain.handle(CHANNELS.info, () => info);
  ipcMain.handle(CHANNELS.readerStatus, () => core.station.readers.flatMap((r) => (r.status ? [r.status] : [])));
  ipcMain.handle(CHANNELS.printers, () => core.station.printer.list());
  ipcMain.handle(CHANNELS.testRelay, () => core.station.relay?.test() ?? { ok: false, message: 'No relay configured' });
  ipcMain.handle(CHANNELS.printPdf, (_event, pdf: Uint8Array, printer?: string) =>
    printPdfSilently(pdf, printer ?? core.station.config.printer?.name),
  );
  ipcMain.handle(CHANNELS.setKiosk, (_event, on: boolean) => {
    window.setKiosk(on);
  });

  app.on('before-quit', () => void core.stop());
  await window.loadURL(core.server.url);
}

if (!app.requestSingleInstanceLock()) app.quit();
else {
  app.on('window-all-closed', () => app.quit());
  app
    .whenReady()
    .then(run)
    .catch((error) => {
      console.error(error);
      app.exit(1);
    });
}
