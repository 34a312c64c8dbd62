import { isErrorBody } from '@accredo/domain';
import { adminConfig } from './admin';
import type { BulkTarget } from './accreditation-list';
import { ApiError } from './client';

/** The client-side limits of the import file (spec §5 Import, §9): .xlsx (the picker also .xls), 10 MB. */
export const IMPORT_EXTENSIONS = ['.xlsx', '.xls'] as const;
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/** One row error of a failed import (spec §8 Import codes): the row number and the row code. */
export interface ImportRowError {
  row: number;
  code: string;
}

/** A failed call that also carries the row errors of IMPORT_FAILED (`details.rows`). */
export class ImportError extends ApiError {
  readonly rows: ImportRowError[];

  constructor(source: ApiError, rows: ImportRowError[]) {
    super(source.code, source.status, source.message, source.fields);
    this.name = 'ImportError';
    this.rows = rows;
  }
}

/** 1 zones from the file's column (manual), 2 from the group; extensionImportType likewise, only with extensions. */
export interface ImportPayload {
  actionId: number;
  dataFile: string;
  zonesImportType: 1 | 2;
  extensionImportType?: 1 | 2;
}

export interface ImportResult {
  imported: number;
}

export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/** The file name of a `content-disposition` header (RFC 6266 `filename*` first), else the fallback. */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)?'[^']*'([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = plain ? (plain[2] ?? plain[1]).trim() : '';
  return name || fallback;
}

/** Offers a blob to the user as a download through a temporary `<a download>`. */
export function saveBlob({ blob, filename }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function rowsOf(details: unknown): ImportRowError[] {
  const rows = (details as { rows?: unknown } | undefined)?.rows;
  if (!Array.isArray(rows)) return [];
  return rows
    .filter((r): r is { row: unknown; code: unknown } => !!r && typeof r === 'object')
    .map((r) => ({ row: Number(r.row), code: String(r.code ?? '') }));
}

/** The ApiError of a failed answer (the `{error}` body of spec §7); a 401 ends the session. */
function failure(status: number, payload: unknown): ApiError {
  if (status === 401) adminConfig.onUnauthorized();
  if (isErrorBody(payload)) {
    const { code, message, details } = payload.error;
    const error = new ApiError(code, status, message, details?.fields ?? [], details ?? {});
    const rows = rowsOf(details);
    return rows.length > 0 || code === 'IMPORT_FAILED' ? new ImportError(error, rows) : error;
  }
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', status);
  return new ApiError(status >= 500 ? 'INTERNAL_ERROR' : 'HTTP_ERROR', status);
}

function headers(json: boolean): Record<string, string> {
  const result: Record<string, string> = {};
  if (json) result['content-type'] = 'application/json';
  const token = adminConfig.getToken();
  if (token) result[adminConfig.header] = token;
  return result;
}

/** An admin call whose successful answer the caller reads (a file or JSON); a failure is an ApiError. */
export async function rawCall(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${adminConfig.base}/${path}`, {
      method,
      headers: headers(body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError('NETWORK_ERROR', 0, error instanceof Error ? error.message : 'network error');
  }
  if (!response.ok) throw failure(response.status, parseJson(await response.text()));
  return response;
}

/** An admin call answering a binary file (xlsx, csv): the blob and its content-disposition name, or an ApiError. */
export async function fileCall(
  method: 'GET' | 'POST',
  path: string,
  fallback: string,
  body?: unknown,
): Promise<DownloadedFile> {
  const response = await rawCall(method, path, body);
  const blob = await response.blob();
  return { blob, filename: filenameFromDisposition(response.headers.get('content-disposition'), fallback) };
}

/** A chosen file as a data URL (the `dataFile` of the JSON calls: POST user/import, the external codes' CSV). */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(new ApiError('DATA_BASE64_INVALID', 0));
    reader.readAsDataURL(file);
  });
}

/** Spec §5 Import: the extension and size checks of the picker; a catalogue key, or null when fine. */
export function importFileError(file: File | null): string | null {
  if (!file) return 'accreditationImport.chooseFile';
  const name = file.name.toLowerCase();
  if (!IMPORT_EXTENSIONS.some((ext) => name.endsWith(ext))) return 'accreditationImport.wrongFileType';
  if (file.size > IMPORT_MAX_BYTES) return 'accreditationImport.fileTooLarge';
  if (file.size === 0) return 'accreditationImport.fileEmpty';
  return null;
}

/** The first bytes of an old binary Excel file (.xls, an OLE2 compound document). */
const OLE2_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * The picker offers .xls as spec §5 says, but only the .xlsx format can be read: a file in the old
 * binary format (whatever its name) is told to be saved as .xlsx before anything is sent.
 */
export async function importFileFormatError(file: File): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, OLE2_MAGIC.length).arrayBuffer());
  return OLE2_MAGIC.every((byte, i) => head[i] === byte) ? 'accreditationImport.saveAsXlsx' : null;
}

/** The upload of POST user/import/file: the import's options and the chosen file itself. */
export interface ImportUpload extends Omit<ImportPayload, 'dataFile'> {
  file: Blob;
}

/**
 * POST user/import/file with XMLHttpRequest, so the upload progress can be shown (0..1 of the bytes
 * sent): multipart/form-data with the options first and the file last (`dataFile`), which the
 * server reads as it streams in, never whole (issue 16). The server's work after the upload is not
 * measured and the caller shows it as indeterminate.
 */
export function importUsers(input: ImportUpload, onProgress?: (fraction: number) => void): Promise<ImportResult> {
  const form = new FormData();
  form.append('actionId', String(input.actionId));
  form.append('zonesImportType', String(input.zonesImportType));
  if (input.extensionImportType !== undefined) form.append('extensionImportType', String(input.extensionImportType));
  form.append('dataFile', input.file, input.file instanceof File ? input.file.name : 'import.xlsx');
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${adminConfig.base}/user/import/file`);
    // no content-type: the browser writes multipart/form-data with its boundary
    for (const [name, value] of Object.entries({ accept: 'application/json', ...headers(false) }))
      xhr.setRequestHeader(name, value);
    if (onProgress && xhr.upload) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(Math.min(1, event.loaded / event.total));
      };
      xhr.upload.onload = () => onProgress(1);
    }
    xhr.onload = () => {
      const payload = parseJson(typeof xhr.responseText === 'string' ? xhr.responseText : '');
      if (xhr.status >= 200 && xhr.status < 300) {
        const data = (payload as { data?: Partial<ImportResult> } | undefined)?.data;
        resolve({ imported: Number(data?.imported ?? 0) });
      } else reject(failure(xhr.status, payload));
    };
    xhr.onerror = () => reject(new ApiError('NETWORK_ERROR', 0, 'network error'));
    xhr.onabort = () => reject(new ApiError('NETWORK_ERROR', 0, 'aborted'));
    xhr.send(form);
  });
}

export const accreditationFilesApi = {
  /** GET user/import/template/{actionId}: the .xlsx template whose columns follow the action's user fields */
  template: (actionId: number) => fileCall('GET', `user/import/template/${actionId}`, `import-${actionId}.xlsx`),
  /** POST user/export: the .xlsx of the selection, or with `all` of the whole filter */
  export: (target: BulkTarget, form: 'readable' | 'import' = 'readable') =>
    fileCall(
      'POST',
      'user/export',
      form === 'import' ? `import-${target.actionId}.xlsx` : `export-${target.actionId}.xlsx`,
      form === 'import' ? { ...target, form } : target,
    ),
  /** POST user/export/images: a zip of the same selection's photos, named so they re-import */
  exportImages: (target: BulkTarget) => fileCall('POST', 'user/export/images', `photos-${target.actionId}.zip`, target),
  import: importUsers,
};
