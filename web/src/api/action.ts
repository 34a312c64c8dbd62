import type { ActionData, MultiText } from '@accredo/domain';
import { adminConfig } from './admin';
import { ApiError, type Method, request } from './client';

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

/** A selected user field of an action as the server answers it (spec §3 Action: customField). */
export interface ActionCustomField {
  id: number;
  isMandatory: boolean;
  notShow: boolean;
  defaultValue: string;
  name: string;
  /** the user-field type id, 1..9 */
  customFieldType: number;
}

/** `GET action`, `GET action/{id}` (spec §3 Action). */
export type ActionDto = Omit<ActionData, 'customField'> & {
  id: number;
  /** extensions activated for the action: 1 meal, 2 parking */
  extension: number[];
  customField: ActionCustomField[];
  dateCreate: string;
};

/** The body of `POST action` / `PUT action/{id}`: the output of the shared `actionSchema`. */
export type ActionPayload = ActionData;

/** A mail template of the 'mail after add' select (type 1 = after registration). */
export interface MailTemplateSummary {
  id: number;
  name: string;
  type: number;
}

/** A gallery image (spec §3 Image); `path` is the URL the browser loads it from. */
export interface GalleryImage {
  id: number;
  name: string;
  type: number;
  width: number;
  height: number;
  path: string;
}

export interface ImagePageQuery {
  page: number;
  pageSize: number;
  /** 1 accreditation, 2 template, 3 other; null for all */
  type: number | null;
  phrase: string;
}

/**
 * `POST image/all` answers `{data, max}` at the top level (a paged list of spec §7), so it is read
 * here rather than through `request`, which unwraps `data` alone.
 */
async function imagePage(query: ImagePageQuery, signal?: AbortSignal): Promise<{ data: GalleryImage[]; max: number }> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  const token = adminConfig.getToken();
  if (token) headers[adminConfig.header] = token;
  let response: Response;
  try {
    response = await fetch(`${adminConfig.base}/image/all`, {
      method: 'POST',
      headers,
      body: JSON.stringify(query),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('NETWORK_ERROR', 0);
  }
  const payload = (await response.json().catch(() => null)) as {
    data?: GalleryImage[];
    max?: number;
    error?: { code?: string; message?: string };
  } | null;
  if (!response.ok) {
    if (response.status === 401) adminConfig.onUnauthorized();
    throw new ApiError(payload?.error?.code ?? 'HTTP_ERROR', response.status, payload?.error?.message);
  }
  return { data: payload?.data ?? [], max: payload?.max ?? 0 };
}

export const ACTION_LIST_KEY = ['admin', 'action'] as const;

export const actionApi = {
  list: () => call<ActionDto[]>('GET', 'action'),
  get: (id: number) => call<ActionDto>('GET', `action/${id}`),
  create: (body: ActionPayload) => call<ActionDto>('POST', 'action', body),
  update: (id: number, body: ActionPayload) => call<ActionDto>('PUT', `action/${id}`, body),
  /** The current action of the top-bar switcher, remembered per user as lastAction. */
  setCurrent: (actionId: number | null) => call<{ lastAction: number | null }>('PUT', 'actual/action', { actionId }),
  mailTemplates: () => call<MailTemplateSummary[]>('GET', 'mail-template'),
  images: imagePage,
  image: (id: number) => call<GalleryImage>('GET', `image/${id}`),
};

/** A multilingual text in the given language, falling back to Czech (spec §1). */
export function localized(text: Partial<MultiText> | null | undefined, language: string): string {
  const value = (text as Record<string, string | undefined> | null | undefined)?.[language];
  return value?.trim() ? value : (text?.cs ?? '');
}
