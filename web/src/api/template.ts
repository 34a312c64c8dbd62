import type { mailTemplateSchema, PreviewType, templateParamsSchema, templateSchema } from '@accredo/domain';
import type { z } from 'zod';
import { adminConfig } from './admin';
import { rawCall } from './accreditation-files';
import { type Method, request, type RequestOptions } from './client';

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

export type TemplatePayload = z.output<typeof templateSchema>;
export type MailTemplatePayload = z.output<typeof mailTemplateSchema>;

/** An accreditation (badge) template of spec §3. */
/** archivedAt (issue 15): when the badge template was archived; null while in use */
export type TemplateDto = TemplatePayload & { id: number; archivedAt?: string | null };
/** A mail template of spec §3. */
export type MailTemplateDto = MailTemplatePayload & { id: number };

export interface TemplateLists {
  mail: MailTemplateDto[];
  accreditation: TemplateDto[];
}

/** Picks the two lists out of GET template, whatever their order. */
export function splitTemplateGroups(groups: { type: string; items: unknown[] }[]): TemplateLists {
  const find = (type: string) => groups.find((g) => g.type === type)?.items ?? [];
  return {
    mail: find('mail') as MailTemplateDto[],
    accreditation: find('accreditation') as TemplateDto[],
  };
}

export const templateApi = {
  lists: async () => splitTemplateGroups(await call<{ type: string; items: unknown[] }[]>('GET', 'template')),
  get: (id: number) => call<TemplateDto>('GET', `template/${id}`),
  create: (body: TemplatePayload) => call<TemplateDto>('POST', 'template', body),
  update: (id: number, body: TemplatePayload) => call<TemplateDto>('PUT', `template/${id}`, body),
  remove: (id: number) => call<{ deleted: boolean }>('DELETE', `template/${id}`),
};

export const mailTemplateApi = {
  list: () => call<MailTemplateDto[]>('GET', 'mail-template'),
  get: (id: number) => call<MailTemplateDto>('GET', `mail-template/${id}`),
  /** the sample body a new mail template starts with */
  defaultBody: () => call<{ html: string }>('GET', 'mail-template/default'),
  create: (body: MailTemplatePayload) => call<MailTemplateDto>('POST', 'mail-template', body),
  update: (id: number, body: MailTemplatePayload) => call<MailTemplateDto>('PUT', `mail-template/${id}`, body),
  remove: (id: number) => call<{ deleted: boolean }>('DELETE', `mail-template/${id}`),
};

/** The values the check and the preview use (plain data; see libs/templates TemplateParams). */
export type TemplateParamsPayload = z.input<typeof templateParamsSchema>;

export interface TemplateCheckResult {
  missing: string[];
  unknown: string[];
  /** where each problem is first written (1-based line and column), for the editor's marks */
  marks?: { name: string; problem: 'missing' | 'unknown'; line: number; column: number }[];
}

export interface TemplatePreviewRequest {
  data: string;
  /** left out: the server renders a sample person */
  params?: TemplateParamsPayload;
  count?: number;
  type: PreviewType;
  pageSize?: TemplatePayload['pageSize'];
}

/** POST template/validate and the preview call (spec §5 Template preview, §7). */
export const templateEngineApi = {
  validate: (data: string, params?: TemplateParamsPayload, options?: RequestOptions) =>
    request<TemplateCheckResult>(adminConfig, 'POST', 'template/validate', { data, params }, options),
  preview: (body: TemplatePreviewRequest, options?: RequestOptions) =>
    request<string>(adminConfig, 'POST', 'template/preview', body, options),
  /** the preview of type pdf: the PDF file itself */
  previewPdf: async (body: Omit<TemplatePreviewRequest, 'type'>): Promise<Blob> =>
    (await rawCall('POST', 'template/preview', { ...body, type: 'pdf' })).blob(),
};
