import type { AdminUser, ManageSession, Rights, Subject, WebChannelSummary } from '@accredo/domain';
import { type ApiConfig, type Method, type RequestOptions, request } from './client';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

let unauthorizedHandler: () => void = () => {
  writeStorage(STORAGE_KEYS.manageToken, null);
  window.location.assign('/manage/login');
};

export function setManageUnauthorizedHandler(handler: () => void): void {
  unauthorizedHandler = handler;
}

export const manageConfig: ApiConfig = {
  base: '/api/manage/v1',
  header: 'authorization-manage',
  getToken: () => readStorage(STORAGE_KEYS.manageToken),
  onUnauthorized: () => unauthorizedHandler(),
};

export const getManageToken = () => readStorage(STORAGE_KEYS.manageToken);
export const setManageToken = (token: string | null) => writeStorage(STORAGE_KEYS.manageToken, token);

const call = <T>(method: Method, path: string, body?: unknown, options?: RequestOptions) =>
  request<T>(manageConfig, method, path, body, options);

export interface ManageSubjectPayload {
  name: string;
  key: string;
  pathToFiles: string;
  multiLanguage: boolean;
  timeZone: string;
  extensions: (1 | 2)[];
}

export interface ManageAdminUserPayload {
  subjectId: number;
  login: string;
  password?: string;
  name: string;
  active: boolean;
  superuser: boolean;
  manageuser: boolean;
  actionId?: number | null;
  rights?: Rights;
}

export const manageApi = {
  login: (body: { login: string; password: string }) => call<ManageSession>('POST', 'login', body, { auth: false }),
  authorize: () => call<ManageSession>('POST', 'authorize'),
  logout: () => call<boolean>('POST', 'logout'),

  subjects: () => call<Subject[]>('GET', 'subject'),
  subject: (id: number) => call<Subject>('GET', `subject/${id}`),
  createSubject: (body: ManageSubjectPayload) => call<Subject>('POST', 'subject', body),
  updateSubject: (id: number, body: ManageSubjectPayload) => call<Subject>('PUT', `subject/${id}`, body),
  webChannels: (subjectId: number) => call<WebChannelSummary[]>('GET', `web-channel/${subjectId}`),

  adminUsers: (subjectId?: number) =>
    call<AdminUser[]>('GET', subjectId ? `admin-user?subjectId=${subjectId}` : 'admin-user'),
  adminUser: (id: number) => call<AdminUser>('GET', `admin-user/${id}`),
  createAdminUser: (body: ManageAdminUserPayload) => call<AdminUser>('POST', 'admin-user', body),
  updateAdminUser: (id: number, body: ManageAdminUserPayload) => call<AdminUser>('PUT', `admin-user/${id}`, body),
};
