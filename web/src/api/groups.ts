import type { GroupDto, groupSchema, MultiText } from '@accredo/domain';
import type { z } from 'zod';
import { adminConfig } from './admin';
import { type Method, request } from './client';

export type { GroupDto };

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

/** An action as the set-up screens need it: its id and its name per language (GET action). */
export interface ActionOption {
  id: number;
  name: MultiText;
}

export type GroupPayload = z.output<typeof groupSchema>;

export interface GroupZone {
  id: number;
  name: string;
  onAccreditation: string;
}

export const groupsApi = {
  /** GET action: the actions the lists are tabbed by and the forms offer. */
  actions: () => call<ActionOption[]>('GET', 'action'),
  list: () => call<GroupDto[]>('GET', 'groups'),
  get: (id: number) => call<GroupDto>('GET', `groups/${id}`),
  create: (body: GroupPayload) => call<GroupDto>('POST', 'groups', body),
  update: (id: number, body: GroupPayload) => call<GroupDto>('PUT', `groups/${id}`, body),
  zones: (id: number) => call<GroupZone[]>('GET', `groups/${id}/zones`),
  remove: (id: number) => call<{ deleted: boolean }>('DELETE', `groups/${id}`),
};
