import { useEffect, useRef, useState } from 'react';
import type { StationStatus } from '@accredo/access';
import type { GateDirection, GateScanAnswer } from '../../api/gate';

/**
 * The gate screen served by an Accredo Station (desktop/, issue 12): the station answers
 * `GET /api/station/v1/status` on the same origin and pushes what its hardware does over
 * Server-Sent Events at `/api/station/v1/events`. Served by the server, the status is a 404 and
 * the screen is the plain browser gate. Shapes: desktop/src/core/gate-bridge.ts, events.ts.
 */
export const STATION_STATUS_URL = '/api/station/v1/status';
export const STATION_EVENTS_URL = '/api/station/v1/events';
export const STATION_FORGET_URL = '/api/station/v1/forget';

export type { StationStatus };

/** What the station's readers did, pushed to the screen. */
export type StationEvent =
  | { type: 'scan'; data: { readerId: string; code: string; direction: GateDirection } }
  | { type: 'decision'; data: { readerId: string; code: string; answer: GateScanAnswer } }
  | { type: 'failed'; data: { readerId: string; code: string; error: string; message: string } }
  | { type: 'paired'; data: unknown }
  | { type: 'unpaired'; data: unknown };

export interface StationConnection {
  status: StationStatus;
  /** false while the event stream is broken (the station restarts); the browser reconnects */
  connected: boolean;
  /** the reader events; returns the removal */
  subscribe(listener: (event: StationEvent) => void): () => void;
}

const PUSHED = ['scan', 'decision', 'failed', 'paired', 'unpaired'] as const;

/** Drops the station's pairing (the screen's "unpair" button when served by a station). */
export async function forgetStation(): Promise<void> {
  await fetch(STATION_FORGET_URL, { method: 'POST' }).catch(() => undefined);
}

/**
 * The station this screen is served by, or null when it is not (the server's browser gate).
 * Asks the status once; when it answers, follows the event stream.
 */
export function useStationEvents(): StationConnection | null {
  const [status, setStatus] = useState<StationStatus | null>(null);
  const [connected, setConnected] = useState(false);
  const listeners = useRef(new Set<(event: StationEvent) => void>());
  const subscribe = useRef((listener: (event: StationEvent) => void) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }).current;

  useEffect(() => {
    let alive = true;
    let source: EventSource | null = null;
    void (async () => {
      let first: StationStatus | null = null;
      try {
        const response = await fetch(STATION_STATUS_URL, { headers: { accept: 'application/json' } });
        if (!response.ok) return;
        const body = (await response.json()) as { data?: StationStatus };
        first = body?.data && typeof body.data.paired === 'boolean' ? body.data : null;
      } catch {
        return;
      }
      if (!alive || !first) return;
      setStatus(first);
      // it just answered: connected until the stream says otherwise
      setConnected(true);
      if (typeof EventSource === 'undefined') return;
      source = new EventSource(STATION_EVENTS_URL);
      source.onopen = () => setConnected(true);
      source.onerror = () => setConnected(false);
      source.addEventListener('status', (event) => {
        try {
          setStatus(JSON.parse((event as MessageEvent<string>).data) as StationStatus);
          setConnected(true);
        } catch {
          // a broken frame is skipped
        }
      });
      for (const type of PUSHED)
        source.addEventListener(type, (event) => {
          let data: unknown;
          try {
            data = JSON.parse((event as MessageEvent<string>).data);
          } catch {
            return;
          }
          for (const listener of listeners.current) listener({ type, data } as StationEvent);
        });
    })();
    return () => {
      alive = false;
      source?.close();
    };
  }, []);

  return status ? { status, connected, subscribe } : null;
}
