import type { AccreditationHistory, AccreditationRow, MultiText } from '@accredo/domain';
import { adminConfig } from './admin';
import { type Method, request, requestPaged } from './client';

export type { AccreditationHistory, AccreditationRow };

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

/** A user field of the current action, offered by the filter panel. */
export interface ActionField {
  id: number;
  name: string;
  label: Partial<MultiText>;
  /** 1 TEXT, 2 NUMBER, 3 SELECT_MULTI, 4 SELECT, 5 ADDRESS, 6 EMAIL, 7 BOOL, 8 PHONE, 9 IMAGE */
  customFieldType: number | { id: number; code?: string };
  options: { id: string | number; value: string }[];
}

/** The filter panel's values (spec §2 Accreditation list); BOOL user fields use 1 yes, -1 no. */
export interface AccreditationFilterData {
  text: string | null;
  groupId: number | null;
  zoneId: number | null;
  printed: 1 | -1 | null;
  /** 1 entered, 2 entered on a day, 3 not entered, 4 not entered on a day */
  entrance?: 1 | 2 | 3 | 4 | null;
  /** YYYY-MM-DD for entrance 2 and 4; the server takes today when it is left out */
  entranceDate?: string | null;
  customField: Record<string, string | number>;
}

export const EMPTY_FILTER: AccreditationFilterData = {
  text: null,
  groupId: null,
  zoneId: null,
  printed: null,
  customField: {},
};

export interface AccreditationListQuery {
  actionId: number;
  /** 1-based */
  page: number;
  pageSize: number;
  /** null lists everything (user/all); a filter uses user/filter */
  filterData: AccreditationFilterData | null;
  /** count every match; otherwise the server stops at its cap and says `maxCapped` */
  exactCount?: boolean;
}

export interface AccreditationPage {
  data: AccreditationRow[];
  /** how many match; with `maxCapped` at least this many (the server's count cap, 10,000) */
  max: number;
  maxCapped: boolean;
  customField: ActionField[];
}

/** The selection a bulk change works on: the chosen ids, or with `all` every row of the filter (spec §7). */
export interface BulkTarget {
  actionId: number;
  userId: number[];
  all: boolean;
  filterData: AccreditationFilterData;
}

export interface DeletePreview {
  count: number;
  actions: { id: number; name: MultiText; count: number }[];
}

export interface BulkResult {
  changed: number;
}

/** The type id of a user field, whether the server sends the id or `{id, code}`. */
export function fieldTypeId(field: ActionField): number {
  const type = field.customFieldType;
  return typeof type === 'object' && type !== null ? Number(type.id) : Number(type);
}

/** POST user/all and user/filter answer `{data, max, customField}` at the top level. */
async function pageCall(path: string, body: unknown, signal?: AbortSignal): Promise<AccreditationPage> {
  const envelope = await requestPaged<AccreditationRow, Partial<AccreditationPage>>(adminConfig, path, body, {
    signal,
  });
  return {
    data: envelope.data,
    max: envelope.max,
    maxCapped: envelope.maxCapped === true,
    customField: Array.isArray(envelope.customField) ? envelope.customField : [],
  };
}

export const ACCREDITATION_LIST_KEY = ['admin', 'accreditation', 'list'] as const;

export const accreditationListApi = {
  list: ({ actionId, page, pageSize, filterData, exactCount }: AccreditationListQuery, signal?: AbortSignal) => {
    const exact = exactCount ? { exactCount: true } : {};
    return filterData
      ? pageCall('user/filter', { actionId, page, pageSize, filterData, ...exact }, signal)
      : pageCall('user/all', { actionId, page, pageSize, ...exact }, signal);
  },
  assignGroups: (body: BulkTarget & { groupsId: number[]; mode: 'replace' | 'add' }) =>
    call<BulkResult>('POST', 'user/assign-groups', body),
  assignZones: (body: BulkTarget & { zones: number[] }) => call<BulkResult>('POST', 'user/assign-zone', body),
  assignDays: (body: BulkTarget & { days: string[] }) => call<BulkResult>('POST', 'user/assign-days', body),
  /** duplicates into another action: `actualAction` is the source, `actionId` the target */
  copy: ({ actionId, ...rest }: BulkTarget, target: number) =>
    call<BulkResult & { skipped: number }>('POST', 'user/copy', { ...rest, actualAction: actionId, actionId: target }),
  /** type 1 removes from the action, 2 from the system */
  remove: (body: BulkTarget & { type: 1 | 2 }) => call<BulkResult>('POST', 'user/delete', body),
  /** what `remove` with the same body would delete: how many, in which actions */
  removePreview: (body: BulkTarget & { type: 1 | 2 }) => call<DeletePreview>('POST', 'user/delete/preview', body),
};
