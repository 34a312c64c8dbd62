import type {
  ExternalCodeImportInput,
  ExternalCodeImportResult,
  WebChannel,
  WebChannelData,
  WebChannelListItem,
} from '@accredo/domain';
import { adminConfig } from './admin';
import { fileCall } from './accreditation-files';
import { type Method, request } from './client';

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

export const WEB_CHANNEL_KEY = ['admin', 'web-channel'] as const;

/** The public registration page of a channel (spec §2: /app/online/{channelKey}). */
export const onlineLink = (channelKey: string) => `/app/online/${encodeURIComponent(channelKey)}`;

/** Web channels of spec §7 (`api/admin/v1`, rights webChannel get/create/update/exportExternalCode). */
export const webChannelApi = {
  list: () => call<WebChannelListItem[]>('GET', 'web-channel'),
  get: (id: number) => call<WebChannel>('GET', `web-channel/${id}`),
  create: (body: WebChannelData) => call<WebChannel>('POST', 'web-channel', body),
  update: (id: number, body: WebChannelData) => call<WebChannel>('PUT', `web-channel/${id}`, body),
  remove: (id: number) => call<{ deleted: boolean }>('DELETE', `web-channel/${id}`),
  /**
   * Reads a .csv of external codes (lines `code` or `code;numberOfUse`): the codes to merge into the
   * form and the lines not imported. Nothing is stored until the channel is saved.
   */
  importCodes: (body: ExternalCodeImportInput) =>
    call<ExternalCodeImportResult>('POST', 'web-channel/external-code/import', body),
  /** GET web-channel/external-code/{id}: the channel's codes as a .csv download */
  exportCodes: (id: number) => fileCall('GET', `web-channel/external-code/${id}`, `external-codes-${id}.csv`),
};
