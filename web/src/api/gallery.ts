import type { ImageDto, Paged } from '@accredo/domain';
import { adminConfig } from './admin';
import { type Method, request, requestPaged } from './client';

export type { ImageDto };

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

/** Image types of spec §3: 1 accreditation, 2 template, 3 other (default). */
export type ImageType = 1 | 2 | 3;

export interface ImageListQuery {
  /** 1-based */
  page: number;
  pageSize: number;
  /** 0 or null for every type */
  type: number | null;
  phrase: string;
}

/** POST image/all answers `{data, max}` at the top level (spec §7 paged lists). */
const pagedCall = <T>(path: string, body: unknown, signal?: AbortSignal): Promise<Paged<T>> =>
  requestPaged<T>(adminConfig, path, body, { signal });

export const galleryApi = {
  list: (query: ImageListQuery, signal?: AbortSignal) =>
    pagedCall<ImageDto>('image/all', { ...query, type: query.type || null }, signal),
  get: (id: number) => call<ImageDto>('GET', `image/${id}`),
  /** `baseData` is the file as a data URL */
  create: (body: { type: number; name: string; baseData: string }) => call<ImageDto>('POST', 'image', body),
  /** `data` (a data URL of the edited picture) is saved as a new version with a new path */
  update: (id: number, body: { name: string; data?: string }) => call<ImageDto>('PUT', `image/${id}`, body),
  remove: (id: number) => call<{ deleted: boolean }>('DELETE', `image/${id}`),
};
