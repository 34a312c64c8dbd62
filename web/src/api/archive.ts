import type { ArchivablePath } from '@accredo/domain';
import { adminConfig } from './admin';
import { request } from './client';

/** POST <entity>/{id}/archive and /restore (issue 15, docs/archive.md): answer the record as GET does. */
export const archiveApi = {
  archive: <T>(path: ArchivablePath, id: number) => request<T>(adminConfig, 'POST', `${path}/${id}/archive`),
  restore: <T>(path: ArchivablePath, id: number) => request<T>(adminConfig, 'POST', `${path}/${id}/restore`),
};
