import type { DeviceDto, DeviceKeyDto, DeviceTemplateDto, ReportTable } from '@accredo/domain';
import type { ReasonCode } from '@accredo/access';
import { type DownloadedFile, fileCall } from './accreditation-files';
import { adminConfig } from './admin';
import { type Method, request } from './client';

export type { DeviceDto, DeviceKeyDto, DeviceTemplateDto, ReportTable };

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

/** PUT device/{id} */
export interface DevicePayload {
  name: string;
  uid: string;
  deviceTemplateId: number | null;
}

/** POST / PUT device-template: `data` is checked by the engine's schema on the server too. */
export interface DeviceTemplatePayload {
  name: string;
  actionId: number;
  zoneId: number | null;
  data: unknown;
}

export interface ReportPayload {
  type: number;
  actionId: number | null;
  deviceId: number | null;
  dateFrom: string | null;
  dateTo: string | null;
}

export interface EntranceReportPayload {
  actionId: number;
  deviceId: number | null;
  dateFrom: string | null;
  dateTo: string | null;
}

/** POST device-template/simulate: the form's unsaved template at a wall-clock moment of the subject. */
export interface SimulateTemplatePayload {
  templateId: number | null;
  actionId: number;
  zoneId: number | null;
  data: unknown;
  /** YYYY-MM-DDTHH:mm of the subject's wall clock; null = now on the server's clock */
  at: string | null;
}

export interface TemplateSimulation {
  at: string;
  total: number;
  allowed: number;
  refused: number;
  reasons: { reason: ReasonCode; allowed: boolean; count: number; message: string }[];
}

export interface SimulatePersonPayload {
  accreditationId: number;
  /** as in SimulateTemplatePayload: null = now */
  at: string | null;
  template?: { templateId: number | null; actionId: number; zoneId: number | null; data: unknown } | null;
}

export interface PersonSimulation {
  at: string;
  person: { id: number; firstname: string; lastname: string; actionId: number };
  rows: {
    deviceId: number | null;
    deviceName: string | null;
    templateId: number | null;
    templateName: string | null;
    zoneId: number | null;
    allowed: boolean;
    reason: ReasonCode;
    message: string;
  }[];
}

export interface LiveView {
  actionId: number;
  day: string;
  at: string;
  zones: { zoneId: number | null; name: string | null; entries: number; exits: number; inside: number }[];
  hours: { hour: number; entries: number; exits: number }[];
  scans: { total: number; allowed: number; refused: number };
  refusals: { reason: ReasonCode; count: number; message: string }[];
  parking: { areaId: number; name: string; inside: number; capacity: number | null }[];
}

/** Devices, pairing codes, rule templates, reports and the live view (spec §7 devices, reports; issue 11). */
export const deviceApi = {
  list: () => call<DeviceDto[]>('GET', 'device'),
  get: (id: number) => call<DeviceDto>('GET', `device/${id}`),
  update: (id: number, body: DevicePayload) => call<DeviceDto>('PUT', `device/${id}`, body),
  remove: (id: number) => call<{ deleted: boolean }>('DELETE', `device/${id}`),
  key: () => call<DeviceKeyDto>('GET', 'device/key'),
  rotateKey: () => call<DeviceKeyDto>('POST', 'device/key/rotate'),
  templates: (actionId?: number | null) =>
    call<DeviceTemplateDto[]>('GET', actionId ? `device-template?actionId=${actionId}` : 'device-template'),
  template: (id: number) => call<DeviceTemplateDto>('GET', `device-template/${id}`),
  createTemplate: (body: DeviceTemplatePayload) => call<DeviceTemplateDto>('POST', 'device-template', body),
  updateTemplate: (id: number, body: DeviceTemplatePayload) =>
    call<DeviceTemplateDto>('PUT', `device-template/${id}`, body),
  simulate: (body: SimulateTemplatePayload) => call<TemplateSimulation>('POST', 'device-template/simulate', body),
  simulatePerson: (body: SimulatePersonPayload) => call<PersonSimulation>('POST', 'device/simulate-person', body),
  report: (body: ReportPayload) => call<ReportTable>('POST', 'report', { ...body, responseType: 'json' }),
  reportFile: (body: ReportPayload): Promise<DownloadedFile> =>
    fileCall('POST', 'report', `report-${body.type}.xlsx`, { ...body, responseType: 'xlsx' }),
  entranceFile: (body: EntranceReportPayload): Promise<DownloadedFile> =>
    fileCall('POST', 'report/entrance', `entrances-${body.actionId}.xlsx`, body),
  live: (actionId: number) => call<LiveView>('GET', `report/live?actionId=${actionId}`),
};
