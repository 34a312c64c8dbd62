import { type FieldError, isErrorBody } from '@accredo/domain';

/** A failed call: the stable code of spec §8, the HTTP status and the field errors of a validation failure. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields: FieldError[];
  /** the error's details as the server sent them (e.g. a template error's reason and line) */
  readonly details: Record<string, unknown>;

  constructor(
    code: string,
    status: number,
    message = code,
    fields: FieldError[] = [],
    details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.fields = fields;
    this.details = details;
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiConfig {
  /** e.g. `/api/admin/v1` */
  base: string;
  /** the header that carries the token */
  header: string;
  getToken: () => string | null;
  /** called on a 401 of a call that carried a token */
  onUnauthorized: () => void;
}

export interface RequestOptions {
  /** send the token and treat a 401 as an ended session; false for login and the password links */
  auth?: boolean;
  signal?: AbortSignal;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One JSON call: unwraps `{data}` or throws an ApiError built from `{error}`. */
export async function request<T>(
  config: ApiConfig,
  method: Method,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const payload = await requestEnvelope<{ data: T } | T>(config, method, path, body, options);
  if (payload && typeof payload === 'object' && 'data' in payload) return (payload as { data: T }).data;
  return payload as T;
}

/** A paged list of spec §7: `{data, max, …}` at the top level of the answer. */
export type PagedEnvelope<T, Extra = object> = { data: T[]; max: number } & Extra;

/** A paged call: the whole envelope, with `data` always an array and `max` a number. */
export async function requestPaged<T, Extra = object>(
  config: ApiConfig,
  path: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<PagedEnvelope<T, Extra>> {
  const envelope = ((await requestEnvelope(config, 'POST', path, body, options)) ?? {}) as Partial<PagedEnvelope<T>> &
    Extra;
  const data = Array.isArray(envelope.data) ? envelope.data : [];
  return { ...envelope, data, max: Number(envelope.max ?? data.length) };
}

/** One JSON call answering the parsed body as it came (the envelope), or an ApiError. */
export async function requestEnvelope<T>(
  config: ApiConfig,
  method: Method,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const auth = options.auth ?? true;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = auth ? config.getToken() : null;
  if (token) headers[config.header] = token;

  let response: Response;
  try {
    response = await fetch(`${config.base}/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('NETWORK_ERROR', 0, error instanceof Error ? error.message : 'network error');
  }

  const payload = await readBody(response);
  if (!response.ok) {
    if (response.status === 401 && auth) config.onUnauthorized();
    if (isErrorBody(payload)) {
      const { code, message, details } = payload.error;
      throw new ApiError(code, response.status, message, details?.fields ?? [], details ?? {});
    }
    throw new ApiError(response.status >= 500 ? 'INTERNAL_ERROR' : 'HTTP_ERROR', response.status);
  }
  return payload as T;
}
