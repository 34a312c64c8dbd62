import type { Decision, Direction } from './types.js';

/**
 * What a gate shows with a decision, on the wire of `POST api/device/v1/scan` and in the station's
 * own offline answers: one definition for the backend, the browser gate screen and the station.
 */

/** The person shown with a decision (the server adds the photo URL and group names; offline they may be missing). */
export interface GatePersonShown {
  id: number;
  customId: number;
  firstname: string;
  lastname: string;
  bc: string;
  imageId: number | null;
  groupIds: number[];
  zoneIds: number[];
  credit: number;
  isUnlimited: boolean;
  /** the photo's unguessable file URL (`/api/file/{key}`, no token needed, as <img> sends none) */
  photoUrl?: string | null;
  /** the person's groups with their names, in groupIds order */
  groups?: { id: number; name: string }[];
}

/** The decision part of a scan's answer, the same online and offline. */
export interface GateDecisionShown {
  nonce: string;
  allowed: boolean;
  reason: Decision['reason'];
  data: Decision['data'];
  info: boolean;
  effects: Decision['effects'];
  direction: Direction;
  person: GatePersonShown | null;
}

/**
 * POST scan's answer: the decision with its moment (ISO) and its message in the request's
 * language. The server's, and a station's local API's (the same shape, plus `offline`).
 */
export interface GateScanAnswer extends GateDecisionShown {
  at: string;
  /** the reason in the request's Accept-Language (a station offline: in its own language) */
  message: string;
  /** the answer of an earlier request with this nonce, sent again (D16) */
  replay: boolean;
  /** decided by a station itself and queued for upload (only a station's local API says so) */
  offline?: boolean;
}

/** What a gate station reports about itself (its local API's status and the screen's status bar). */
export interface StationStatus {
  version: string;
  uid: string;
  server: string | null;
  paired: boolean;
  device: { id: number | null; name: string | null } | null;
  mode: 'online' | 'offline';
  lastSyncAt: string | null;
  lastSyncAgeMs: number | null;
  queue: number;
  people: number;
  lastError: string | null;
  violations: number;
  direction: 'entry' | 'exit';
  language: string;
  readers: { readerId: string; status: string | null; message: string | null; direction: string | null }[];
  relay: { type: string; state: 'ready' | 'error'; message: string | null } | null;
  printer: {
    name: string;
    printOnScan: boolean;
    state: 'ready' | 'printed' | 'error' | 'unavailable';
    message: string | null;
  } | null;
}
