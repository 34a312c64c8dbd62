import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../constants.js';

/** Pages are 1-based on the wire (spec §7). */
export const pagingSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(DEFAULT_PAGE_SIZE),
});
export type PagingInput = z.infer<typeof pagingSchema>;
