import type {
  AdminUser,
  ForgotPasswordInput,
  LoginInput,
  RenewPasswordInput,
  Rights,
  Session,
  Subject,
  SubjectSummary,
  SubjectUpdateInput,
  VerifyAccountInput,
} from '@accredo/domain';
import { type ApiConfig, type Method, type RequestOptions, request } from './client';
import { clearAdminSession, readStorage, STORAGE_KEYS, writeStorage } from './storage';

let unauthorizedHandler: () => void = () => {
  clearAdminSession();
  window.location.assign('/login');
};

/** The app installs its reaction to an ended session (spec §7: clear keys, tell the user, go to login). */
export function setAdminUnauthorizedHandler(handler: () => void): void {
  unauthorizedHandler = handler;
}

export const adminConfig: ApiConfig = {
  base: '/api/admin/v1',
  header: 'authorization',
  getToken: () => readStorage(STORAGE_KEYS.adminToken),
  onUnauthorized: () => unauthorizedHandler(),
};

export const getAdminToken = () => readStorage(STORAGE_KEYS.adminToken);
export const setAdminToken = (token: string | null) => writeStorage(STORAGE_KEYS.adminToken, token);

const call = <T>(method: Method, path: string, body?: unknown, options?: RequestOptions) =>
  request<T>(adminConfig, method, path, body, options);
const pub = { auth: false } as const;

/** The admin user payload of spec §7 (create: password required; update: blank keeps). */
export interface AdminUserPayload {
  login: string;
  password?: string;
  name: string;
  active: boolean;
  actionId: number | null;
  rights?: Rights;
}

export interface ProfilePayload {
  name: string;
  language?: string;
  password?: string;
  confirmPassword?: string | null;
}

export const adminApi = {
  login: (body: LoginInput) => call<Session>('POST', 'login', body, pub),
  authorization: () => call<Session>('GET', 'authorization'),
  logout: () => call<boolean>('POST', 'logout'),
  forgotPassword: (body: ForgotPasswordInput) => call<boolean>('POST', 'login/forgot-password', body, pub),
  passLinkAuthorize: (passwordLink: string) =>
    call<{ email: string }>('POST', 'login/pass-link-authorize', { passwordLink }, pub),
  renewPassword: (body: RenewPasswordInput) => call<boolean>('POST', 'login/renew-password', body, pub),
  verifyAuthorize: (confirmLink: string) =>
    call<{ email: string }>('POST', 'login/verify-authorize', { confirmLink }, pub),
  verifyAccount: (body: VerifyAccountInput) => call<boolean>('POST', 'login/verify-account', body, pub),

  getActual: () => call<AdminUser>('GET', 'actual'),
  updateActual: (body: ProfilePayload) => call<AdminUser>('PUT', 'actual', body),
  subjectsAll: () => call<SubjectSummary[]>('GET', 'subject/all'),
  switchSubject: (subjectId: number) => call<Session>('POST', 'actual/subject', { subjectId }),
  setCurrentAction: (actionId: number | null) =>
    call<{ lastAction: number | null }>('PUT', 'actual/action', { actionId }),

  adminUsers: () => call<AdminUser[]>('GET', 'admin-user'),
  adminUser: (id: number) => call<AdminUser>('GET', `admin-user/${id}`),
  createAdminUser: (body: AdminUserPayload) => call<AdminUser>('POST', 'admin-user', body),
  updateAdminUser: (id: number, body: AdminUserPayload) => call<AdminUser>('PUT', `admin-user/${id}`, body),
  removeAdminUser: (id: number) => call<{ deleted: boolean }>('DELETE', `admin-user/${id}`),
  verifyAdminUser: (id: number) => call<AdminUser>('PUT', `admin-user/verify/${id}`),
  adminUserPasswordRequest: (id: number) => call<boolean>('GET', `admin-user/forgot-password/${id}`),

  subject: () => call<Subject>('GET', 'subject'),
  updateSubject: (body: SubjectUpdateInput) => call<Subject>('PUT', 'subject', body),
};
