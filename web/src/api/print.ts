import type { PrintErrorCode } from '@accredo/domain';
import { adminConfig } from './admin';
import type { BulkTarget } from './accreditation-list';
import { requestEnvelope } from './client';

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

export const printApi = {
  /** the badges of the chosen people, or with `all` of everyone of the filter */
  print: async (target: BulkTarget): Promise<PrintAnswer> => {
    const answer = await requestEnvelope<Partial<PrintAnswer>>(adminConfig, 'POST', 'user/print', {
      ...target,
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
