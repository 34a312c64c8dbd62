import type { CustomFieldDto, CustomFieldType, CustomFieldOption, MultiText } from '@accredo/domain';
import { adminConfig } from './admin';
import { type Method, request } from './client';

export type { CustomFieldDto, CustomFieldType, CustomFieldOption };

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

/** The body of `POST custom-field` / `PUT custom-field/{id}` (the output of `customFieldSchema`). */
export interface CustomFieldPayload {
  name: string;
  label: MultiText;
  tooltip: MultiText;
  customFieldType: number;
  options: { id?: string | null; value: string }[];
}

export const CUSTOM_FIELD_LIST_KEY = ['admin', 'custom-field'] as const;

export const customFieldApi = {
  list: () => call<CustomFieldDto[]>('GET', 'custom-field'),
  get: (id: number) => call<CustomFieldDto>('GET', `custom-field/${id}`),
  create: (body: CustomFieldPayload) => call<CustomFieldDto>('POST', 'custom-field', body),
  update: (id: number, body: CustomFieldPayload) => call<CustomFieldDto>('PUT', `custom-field/${id}`, body),
  remove: (id: number) => call<{ deleted: boolean }>('DELETE', `custom-field/${id}`),
  types: () => call<CustomFieldType[]>('GET', 'custom-field-type'),
};
