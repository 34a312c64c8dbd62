import type {
  ExtensionActionRow,
  ExtensionActivation,
  ExtensionAssignResult,
  ExtensionAssignUsersInput,
  ExtensionCopyInput,
  ExtensionData,
  ExtensionGroupDefaults,
  ExtensionGroupInput,
  ExtensionItemsInput,
  ExtensionReport,
  ExtensionType,
  ExtensionUserItems,
  ExtensionUserRow,
  ExtensionUsersQueryInput,
} from '@accredo/domain';
import { type DownloadedFile, fileCall } from './accreditation-files';
import { adminConfig } from './admin';
import { type Method, request, requestEnvelope } from './client';

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

export interface ExtensionUsersPage {
  data: ExtensionUserRow[];
  max: number;
}

/** A paged answer, whether the page sits at the top level (`{data: [], max}`) or inside `data`. */
function pageOf(payload: unknown): ExtensionUsersPage {
  const top = (payload ?? {}) as { data?: unknown; max?: unknown };
  const inner = Array.isArray(top.data) ? top : ((top.data ?? {}) as { data?: unknown; max?: unknown });
  const data = Array.isArray(inner.data) ? (inner.data as ExtensionUserRow[]) : [];
  return { data, max: Number(inner.max ?? data.length) };
}

const base = (type: ExtensionType, actionId: number) => `action-extension/${type}/${actionId}`;

/** The action-extension calls of spec §7 ({type} 1 meal, 2 parking); shapes from libs/domain extension.ts. */
export const extensionApi = {
  /** GET action-extension/{type}: the subject's actions with their activation */
  actions: (type: ExtensionType) => call<ExtensionActionRow[]>('GET', `action-extension/${type}`),
  activate: (type: ExtensionType, actionId: number, active: boolean) =>
    call<ExtensionActivation>('POST', base(type, actionId), { active }),
  get: (type: ExtensionType, actionId: number) => call<ExtensionData>('GET', base(type, actionId)),
  /** PUT action-extension/{actionId}/{type} {items}: the edit screen's save */
  save: (type: ExtensionType, actionId: number, body: ExtensionItemsInput) =>
    call<ExtensionData>('PUT', `action-extension/${actionId}/${type}`, body),
  copy: (type: ExtensionType, actionId: number, body: ExtensionCopyInput) =>
    call<ExtensionData>('POST', `${base(type, actionId)}/copy`, body),
  users: async (type: ExtensionType, actionId: number, query: ExtensionUsersQueryInput) =>
    pageOf(await requestEnvelope(adminConfig, 'POST', `${base(type, actionId)}/users`, query)),
  userItems: (type: ExtensionType, actionId: number, userId: number) =>
    call<ExtensionUserItems>('GET', `${base(type, actionId)}/users/${userId}`),
  assign: (type: ExtensionType, actionId: number, body: ExtensionAssignUsersInput) =>
    call<ExtensionAssignResult>('PUT', `${base(type, actionId)}/users`, body),
  group: (type: ExtensionType, actionId: number, groupId: number) =>
    call<ExtensionGroupDefaults>('GET', `${base(type, actionId)}/groups/${groupId}`),
  saveGroup: (type: ExtensionType, actionId: number, groupId: number, body: ExtensionGroupInput) =>
    call<ExtensionGroupDefaults>('PUT', `${base(type, actionId)}/groups/${groupId}`, body),
  report: (type: ExtensionType, actionId: number, day: string | null) =>
    call<ExtensionReport>('POST', `${base(type, actionId)}/report`, { responseType: 'json', day }),
  reportFile: (type: ExtensionType, actionId: number, day: string | null): Promise<DownloadedFile> =>
    fileCall('POST', `${base(type, actionId)}/report`, `extension-${type}-${actionId}.xlsx`, {
      responseType: 'xlsx',
      day,
    }),
};
