import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The station's pairing, `pairing.json` in the data directory (mode 0600): its device uid (made
 * once, kept across pairings, so pairing again replaces this station's token on the server), and
 * while paired the server it paired with, the device token and the last config the server sent
 * (shown while the server is away). The token never goes to the browser.
 */
export interface Pairing {
  uid: string;
  server: string | null;
  token: string | null;
  deviceId: number | null;
  deviceName: string | null;
  pairedAt: string | null;
  /** the last GET config answer, served while the server does not answer */
  config: unknown;
}

export function pairingPath(dir: string): string {
  return path.join(dir, 'pairing.json');
}

export function loadPairing(dir: string): Pairing {
  const empty: Pairing = {
    uid: `station-${randomUUID()}`,
    server: null,
    token: null,
    deviceId: null,
    deviceName: null,
    pairedAt: null,
    config: null,
  };
  let raw: Partial<Pairing>;
  try {
    raw = JSON.parse(fs.readFileSync(pairingPath(dir), 'utf8')) as Partial<Pairing>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      console.warn(`${pairingPath(dir)} is unreadable (${(error as Error).message}): the station is unpaired`);
    savePairing(dir, empty);
    return empty;
  }
  const pairing = { ...empty, ...raw };
  if (typeof pairing.uid !== 'string' || !pairing.uid) pairing.uid = empty.uid;
  if (typeof pairing.token !== 'string' || !pairing.token) pairing.token = null;
  return pairing;
}

/** Written atomically (temp file, fsync, rename), readable by the station's user only. */
export function savePairing(dir: string, pairing: Pairing): void {
  fs.mkdirSync(dir, { recursive: true });
  const file = pairingPath(dir);
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeSync(fd, `${JSON.stringify(pairing, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}
