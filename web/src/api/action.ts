import type { ActionData, MultiText } from '@accredo/domain';
import { adminConfig } from './admin';
import { type Method, request, requestPaged } from './client';

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
  /** when the action was archived (issue 15): it takes no new people; null while in use */
  archivedAt?: string | null;
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

/** `POST image/all` answers `{data, max}` at the top level (a paged list of spec §7). */
const imagePage = (query: ImagePageQuery, signal?: AbortSignal) =>
  requestPaged<GalleryImage>(adminConfig, 'image/all', query, { signal });

export const ACTION_LIST_KEY = ['admin', 'action'] as const;

export const actionApi = {
  list: () => call<ActionDto[]>('GET', 'action'),
  get: (id: number) => call<ActionDto>('GET', `action/${id}`),
  create: (body: ActionPayload) => call<ActionDto>('POST', 'action', body),
  update: (id: number, body: ActionPayload) => call<ActionDto>('PUT', `action/${id}`, body),
  remove: (id: number) => call<{ deleted: boolean }>('DELETE', `action/${id}`),
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
