import type { DashboardBasicData, SendMailResult } from '@accredo/domain';
import type { BulkTarget } from './accreditation-list';
import { adminConfig } from './admin';
import { type Method, request } from './client';

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

/** E-mail from templates (spec §7 email/send, mail-template test) and the dashboard's counts. */
export const mailApi = {
  /** one mail per chosen person, or with `all` per person of the filter */
  send: ({ userId, ...target }: BulkTarget, mailTemplate: number) =>
    call<SendMailResult>('POST', 'email/send', { ...target, userIds: userId, mailTemplate }),
  /** the template (its text in `language`, Czech where it has none) filled in with sample data, sent to `email` */
  test: (mailTemplateId: number, email: string, language?: string) =>
    call<{ queued: number; email: string }>('POST', `mail-template/${mailTemplateId}/test`, {
      email,
      ...(language ? { language } : {}),
    }),
};

export const DASHBOARD_KEY = ['admin', 'dashboard'] as const;

export const dashboardApi = {
  get: () => call<{ basicData: DashboardBasicData }>('GET', 'dashboard'),
};
