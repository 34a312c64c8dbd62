import type http from 'node:http';

/**
 * The station's event stream (`GET /api/station/v1/events`, Server-Sent Events): what the gate
 * screen cannot see by itself. Events, each `event: <type>` with one JSON `data:` line:
 * - `status`: the station's status (the same body as GET /api/station/v1/status), on connect and
 *   whenever it changes;
 * - `scan`: a hardware reader read a code `{readerId, code, direction}` (the screen shows "checking");
 * - `decision`: its decision `{readerId, code, answer}` (answer in the shape of POST scan);
 * - `failed`: the code could not be decided or a pairing code failed `{readerId, code, code?, message}`;
 * - `paired`, `unpaired`: the station's pairing changed (the screen reloads its config).
 */
export type StationEventType = 'status' | 'scan' | 'decision' | 'failed' | 'paired' | 'unpaired';

export interface StationEvent {
  type: StationEventType;
  data: unknown;
}

/** A comment line every this often keeps proxies and idle timeouts from closing the stream. */
const KEEP_ALIVE_MS = 15_000;

export class EventHub {
  readonly #clients = new Set<http.ServerResponse>();
  readonly #listeners = new Set<(event: StationEvent) => void>();
  #keepAlive: ReturnType<typeof setInterval> | null = null;

  get clients(): number {
    return this.#clients.size;
  }

  /** Sends `event` to every connected screen (and to in-process listeners). */
  publish(type: StationEventType, data: unknown): void {
    const frame = format(type, data);
    for (const client of this.#clients) client.write(frame);
    for (const listener of this.#listeners) listener({ type, data });
  }

  /** An in-process subscriber (the Electron shell, tests); returns its removal. */
  subscribe(listener: (event: StationEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Turns a request into a stream: headers, the first events, and removal when it closes. */
  attach(request: http.IncomingMessage, response: http.ServerResponse, first: StationEvent[] = []): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // the browser reconnects after this many ms when the station restarts
    response.write('retry: 1000\n\n');
    for (const event of first) response.write(format(event.type, event.data));
    this.#clients.add(response);
    this.#keepAlive ??= setInterval(() => {
      for (const client of this.#clients) client.write(': keep-alive\n\n');
    }, KEEP_ALIVE_MS);
    this.#keepAlive.unref?.();
    const done = () => {
      this.#clients.delete(response);
      if (!this.#clients.size && this.#keepAlive) {
        clearInterval(this.#keepAlive);
        this.#keepAlive = null;
      }
    };
    request.once('close', done);
    response.once('close', done);
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    for (const client of this.#clients) client.end();
    this.#clients.clear();
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    this.#keepAlive = null;
  }
}

function format(type: StationEventType, data: unknown): string {
  // JSON.stringify never emits a raw newline, so one data line is one event
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}
