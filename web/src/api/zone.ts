import type { ZoneDto, zoneSchema } from '@accredo/domain';
import type { z } from 'zod';
import { adminConfig } from './admin';
import { type Method, request } from './client';

export type { ZoneDto };

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

export type ZonePayload = z.output<typeof zoneSchema>;

export const zoneApi = {
  list: () => call<ZoneDto[]>('GET', 'zone'),
  get: (id: number) => call<ZoneDto>('GET', `zone/${id}`),
  create: (body: ZonePayload) => call<ZoneDto>('POST', 'zone', body),
  update: (id: number, body: ZonePayload) => call<ZoneDto>('PUT', `zone/${id}`, body),
  remove: (id: number) => call<{ deleted: boolean }>('DELETE', `zone/${id}`),
};
