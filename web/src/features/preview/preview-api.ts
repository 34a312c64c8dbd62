import type { PreviewData, PreviewSelectionInput } from '@accredo/domain';
import { type ApiConfig, request } from '../../api/client';
import { readStorage, STORAGE_KEYS } from '../../api/storage';

/**
 * The preview calls of spec §7 Preview (`api/preview/v1`). The page is public; the admin's token is
 * sent along only so that an admin can open the action's test preview (`tst{actionId}`), and a 401
 * never ends anything here.
 */
const config: ApiConfig = {
  base: '/api/preview/v1',
  header: 'authorization',
  getToken: () => readStorage(STORAGE_KEYS.adminToken),
  onUnauthorized: () => {},
};

const path = (subjectKey: string, code: string) => `user/${encodeURIComponent(subjectKey)}/${encodeURIComponent(code)}`;

export const previewApi = {
  get: (subjectKey: string, code: string) => request<PreviewData>(config, 'GET', path(subjectKey, code)),
  select: (subjectKey: string, code: string, type: 1 | 2, body: PreviewSelectionInput) =>
    request<PreviewData>(config, 'PUT', `${path(subjectKey, code)}/extension/${type}`, body, { auth: false }),
};

/** The page's address (spec §2): `/preview/{subjectKey}/cid/{code}`. */
export const previewPath = (subjectKey: string, code: string) =>
  `/preview/${encodeURIComponent(subjectKey)}/cid/${encodeURIComponent(code)}`;
