import {
  IMAGE_IMPORT_MAX_BYTES,
  IMAGE_IMPORT_MAX_FILES,
  type ImageImportResult,
  type ImageImportStatus,
} from '@accredo/domain';
import { adminConfig } from './admin';
import { request } from './client';

export const IMAGE_IMPORT_KEY = (actionId: number) => ['admin', 'image-import', actionId] as const;

/**
 * What one request carries at most: 20 files (spec §9) and, so a batch of large photos does not
 * hold over 100 MB of base64 in the browser at once, about 24 MB of pictures; the rest goes next.
 */
export const BATCH_MAX_BYTES = 24 * 1024 * 1024;

/** Splits the chosen files into the batches the upload sends one after another. */
export function imageBatches<T extends { size: number }>(files: T[]): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const file of files) {
    if (current.length > 0 && (current.length >= IMAGE_IMPORT_MAX_FILES || bytes + file.size > BATCH_MAX_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export { IMAGE_IMPORT_MAX_BYTES };

/** The image import of spec §7: GET image/import/{actionId}, POST image/import. */
export const imageImportApi = {
  status: (actionId: number) => request<ImageImportStatus>(adminConfig, 'GET', `image/import/${actionId}`),
  upload: (actionId: number, images: { imageName: string; imageData: string }[]) =>
    request<{ results: ImageImportResult[]; waiting: number }>(adminConfig, 'POST', 'image/import', {
      actionId,
      images,
    }),
};
