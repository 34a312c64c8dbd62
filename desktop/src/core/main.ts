/**
 * `npm run station`: the station's core without Electron. Reads the settings from the data
 * directory, opens the readers and serves the gate screen on a local port (for a Chromium in
 * app/kiosk mode or a tablet on the desk) at /gate, with the gate behind it (pairing, scans online
 * with the offline fallback, readers -> decision -> relay). Environment: ACCREDO_STATION_DATA (data
 * directory), STATION_HOST and STATION_PORT (override the settings' http.host and http.port),
 * WEB_DIST (the built web app, default web/dist of the repository).
 */
import { pathToFileURL } from 'node:url';
import { ConfigError, dataDir, loadConfig } from './config.js';
import { EventHub } from './events.js';
import { type CreateGate, GateBridge } from './gate-bridge.js';
import { type StationServerOptions, startServer } from './server.js';
import { Station, type StationDeps } from './station.js';
import { defaultWebDist } from './static.js';

export interface StartOptions extends StationDeps {
  /** replaces the gate client (tests) */
  createGate?: CreateGate;
  fetch?: typeof fetch;
  /** the settings API's hardware listings (tests) */
  settings?: StationServerOptions['settings'];
}

export async function startStation(env: NodeJS.ProcessEnv = process.env, options: StartOptions = {}) {
  const dir = dataDir(env);
  const config = loadConfig(dir);
  const station = new Station(config, options);
  station.onScan((scan) => console.log(`scan ${scan.readerId} ${scan.direction}: ${scan.code}`));
  // also the readers of settings saved later on the settings screen
  station.onReaderStatus((s) => console.log(`reader ${s.readerId}: ${s.status}${s.message ? ` (${s.message})` : ''}`));
  const events = new EventHub();
  const bridge = new GateBridge({ dir, station, events, createGate: options.createGate, fetch: options.fetch });
  bridge.start();
  const server = await startServer(station, {
    host: env.STATION_HOST || undefined,
    port: env.STATION_PORT ? Number(env.STATION_PORT) : undefined,
    bridge,
    events,
    webDist: defaultWebDist(env),
    dir,
    settings: options.settings,
  });
  await station.start();
  return {
    dir,
    station,
    bridge,
    events,
    server,
    stop: async () => {
      await server.close();
      await bridge.stop();
      await station.stop();
    },
  };
}

const isEntry = !!process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isEntry) {
  try {
    const { dir, server, stop } = await startStation();
    console.log(`Accredo Station: settings in ${dir}, gate screen at ${server.url}`);
    const shutdown = () => void stop().then(() => process.exit(0));
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}
