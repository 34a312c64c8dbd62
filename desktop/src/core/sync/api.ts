import type { Clock } from './clock.js';

export type Fetch = typeof fetch;

/** The server did not answer in time, the network failed or the server failed (5xx): go offline. */
export class ServerUnreachable extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ServerUnreachable';
  }
}

/** The server answered with an error of the client's request (4xx), in the error envelope. */
export class ServerRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ServerRefused';
  }
}

export interface DeviceApiOptions {
  /** the Accredo server, e.g. https://accredo.example.com */
  server: string;
  /** `Bearer …` or the bare device token of POST pair */
  token: string;
  clock: Clock;
  fetch?: Fetch;
  language?: string;
  appVersion?: string;
}

/** The calls of `api/device/v1` the station makes, each with its own timeout on the injected clock. */
export class DeviceApi {
  readonly #base: string;
  readonly #auth: string;
  readonly #fetch: Fetch;

  constructor(readonly options: DeviceApiOptions) {
    this.#base = `${options.server.replace(/\/+$/, '')}/api/device/v1/`;
    this.#auth = /^Bearer /i.test(options.token) ? options.token : `Bearer ${options.token}`;
    this.#fetch = options.fetch ?? fetch;
  }

  async request<T>(method: 'GET' | 'POST', path: string, body: unknown, timeoutMs: number): Promise<T> {
    return this.#call(method, path, body, timeoutMs, false) as Promise<T>;
  }

  /**
   * A GET whose answer (`{data}`) is parsed elsewhere (a snapshot page, parsed and sealed in a
   * sealing thread): the body's text; errors as `request`'s.
   */
  async requestText(path: string, timeoutMs: number): Promise<string> {
    return this.#call('GET', path, undefined, timeoutMs, true) as Promise<string>;
  }

  async #call(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    timeoutMs: number,
    asText: boolean,
  ): Promise<unknown> {
    const { clock } = this.options;
    const abort = new AbortController();
    let timedOut = false;
    const timer = clock.setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutMs);
    try {
      const headers: Record<string, string> = { authorization: this.#auth };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (this.options.language) headers['accept-language'] = this.options.language;
      if (this.options.appVersion) headers['x-app-version'] = this.options.appVersion;
      let res: Response;
      let text: string | null = null;
      let json: { data?: unknown; error?: { code?: string; message?: string } } | null;
      try {
        res = await this.#fetch(this.#base + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: abort.signal,
        });
        if (asText && res.status < 300) {
          text = await res.text();
          json = { data: null };
        } else json = (await res.json().catch(() => null)) as typeof json;
      } catch (err) {
        throw new ServerUnreachable(timedOut ? `no answer in ${timeoutMs} ms` : String((err as Error)?.message ?? err));
      }
      if (res.status >= 500) throw new ServerUnreachable(`server error ${res.status}`, res.status);
      if (res.status >= 400 || !json || json.data === undefined)
        throw new ServerRefused(
          res.status,
          json?.error?.code ?? 'UNKNOWN',
          json?.error?.message ?? `HTTP ${res.status}`,
        );
      return asText ? text : json.data;
    } finally {
      clock.clearTimeout(timer);
    }
  }
}
