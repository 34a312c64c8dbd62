import type { PrintErrorCode } from '@accredo/domain';
import { adminConfig } from './admin';
import type { BulkTarget } from './accreditation-list';
import { type DownloadedFile, fileCall, filenameFromDisposition, rawCall } from './accreditation-files';
import { request, requestEnvelope } from './client';

/** A person whose badge was not printed, and why (an error code of spec §8 / libs/domain). */
export interface PrintFailure {
  user: number;
  error: PrintErrorCode | 'NOT_FOUND';
  name?: string;
}

/** POST user/print answers `{data, fileName, error}` at the top level (spec §7). */
export interface PrintAnswer {
  /** the badges as one HTML document, one per page; null when none could be printed */
  data: string | null;
  fileName: string;
  error: PrintFailure[];
  printed: number;
}

/**
 * How a print is made (issue 13): `replace` gives every printed person a new badge version, so
 * their old badge is refused at the gates (docs/access-control.md "Badge versions"); sent only when on.
 */
export interface PrintOptions {
  replace?: boolean;
}

const withOptions = (options: PrintOptions) => (options.replace ? { replace: true } : {});

export const printApi = {
  /** the badges of the chosen people, or with `all` of everyone of the filter */
  print: async (target: BulkTarget, options: PrintOptions = {}): Promise<PrintAnswer> => {
    const answer = await requestEnvelope<Partial<PrintAnswer>>(adminConfig, 'POST', 'user/print', {
      ...target,
      ...withOptions(options),
      type: 'html',
    });
    return {
      data: typeof answer?.data === 'string' ? answer.data : null,
      fileName: answer?.fileName ?? 'badges.html',
      error: Array.isArray(answer?.error) ? answer.error : [],
      printed: Number(answer?.printed ?? 0),
    };
  },
};

/** A big PDF print running on the server (POST user/print type pdf answered 202; spec §7 extended, issue 13). */
export interface PdfJob {
  id: number;
  /** `expired`: the file was removed a day after it finished */
  state: 'waiting' | 'running' | 'done' | 'error' | 'expired';
  total: number;
  done: number;
  printed: number;
  fileName: string;
  error: PrintFailure[];
  /** why a job failed: an error code (errors.<code>) or the renderer's message */
  failReason: string | null;
  /** a failed job can be started again once */
  canRetry?: boolean;
}

/** What "generate PDF" got: the file at once, a job to follow, or nobody printable. */
export type PdfAnswer =
  | { kind: 'file'; file: DownloadedFile; error: PrintFailure[]; printed: number }
  | { kind: 'job'; job: PdfJob }
  | { kind: 'empty'; error: PrintFailure[] };

function headerErrors(value: string | null): PrintFailure[] {
  if (!value) return [];
  try {
    const parsed = JSON.parse(decodeURIComponent(value));
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

export const pdfApi = {
  /** POST user/print with type pdf: the PDF (up to 200 badges) or a job (more). */
  print: async (target: BulkTarget, options: PrintOptions = {}): Promise<PdfAnswer> => {
    const response = await rawCall('POST', 'user/print', { ...target, ...withOptions(options), type: 'pdf' });
    const type = response.headers.get('content-type') ?? '';
    if (type.startsWith('application/pdf')) {
      return {
        kind: 'file',
        file: {
          blob: await response.blob(),
          filename: filenameFromDisposition(response.headers.get('content-disposition'), 'badges.pdf'),
        },
        error: headerErrors(response.headers.get('x-print-errors')),
        printed: Number(response.headers.get('x-print-printed') ?? 0),
      };
    }
    const body = (await response.json()) as { data?: unknown; error?: PrintFailure[] };
    if (response.status === 202) return { kind: 'job', job: body.data as PdfJob };
    return { kind: 'empty', error: Array.isArray(body.error) ? body.error : [] };
  },
  /** GET user/print/job/{id}: the progress */
  job: (id: number) => request<PdfJob>(adminConfig, 'GET', `user/print/job/${id}`),
  /** POST user/print/job/{id}/retry: a failed job started again (once), from its progress */
  retry: (id: number) => request<PdfJob>(adminConfig, 'POST', `user/print/job/${id}/retry`, {}),
  /** GET user/print/job/{id}/file: the finished PDF */
  file: (job: Pick<PdfJob, 'id' | 'fileName'>) => fileCall('GET', `user/print/job/${job.id}/file`, job.fileName),
};
