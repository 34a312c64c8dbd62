import { isErrorBody, type Paged } from '@accredo/domain';
import { adminConfig } from './admin';
import { ApiError, type Method, request } from './client';

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

/** Image types of spec §3: 1 accreditation, 2 template, 3 other (default). */
export type ImageType = 1 | 2 | 3;

/** An image of the gallery (spec §3 Image, §7 Images); `path` is the URL to show it. */
export interface ImageDto {
  id: number;
  name: string;
  type: number;
  size: number;
  width: number;
  height: number;
  mimeType: string;
  version: number;
  path: string;
  dateCreate: string;
}

export interface ImageListQuery {
  /** 1-based */
  page: number;
  pageSize: number;
  /** 0 or null for every type */
  type: number | null;
  phrase: string;
}

/**
 * POST image/all answers `{data, max}` at the top level (spec §7 paged lists); the shared client
 * keeps only `data`, so this call reads the envelope itself, with the same headers and errors.
 */
async function pagedCall<T>(path: string, body: unknown, signal?: AbortSignal): Promise<Paged<T>> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  const token = adminConfig.getToken();
  if (token) headers[adminConfig.header] = token;
  let response: Response;
  try {
    response = await fetch(`${adminConfig.base}/${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('NETWORK_ERROR', 0, error instanceof Error ? error.message : 'network error');
  }
  const text = await response.text();
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : undefined;
  } catch {
    payload = undefined;
  }
  if (!response.ok) {
    if (response.status === 401) adminConfig.onUnauthorized();
    if (isErrorBody(payload)) {
      const { code, message, details } = payload.error;
      throw new ApiError(code, response.status, message, details?.fields ?? []);
    }
    throw new ApiError(response.status >= 500 ? 'INTERNAL_ERROR' : 'HTTP_ERROR', response.status);
  }
  const envelope = (payload ?? {}) as Partial<Paged<T>>;
  return { data: envelope.data ?? [], max: Number(envelope.max ?? envelope.data?.length ?? 0) };
}

export const galleryApi = {
  list: (query: ImageListQuery, signal?: AbortSignal) =>
    pagedCall<ImageDto>('image/all', { ...query, type: query.type || null }, signal),
  get: (id: number) => call<ImageDto>('GET', `image/${id}`),
  /** `baseData` is the file as a data URL */
  create: (body: { type: number; name: string; baseData: string }) => call<ImageDto>('POST', 'image', body),
  /** `data` (a data URL of the edited picture) is saved as a new version with a new path */
  update: (id: number, body: { name: string; data?: string }) => call<ImageDto>('PUT', `image/${id}`, body),
};
