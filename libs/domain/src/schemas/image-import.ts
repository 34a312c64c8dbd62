import { z } from 'zod';
import { id, REQUIRED } from './common.js';

/**
 * Image import (spec §5 Import, §7 image/import, §9): photos paired with accreditations by file
 * name, at most 20 files per batch and 5 MB each, png, jpg, jpeg or gif (checked by content).
 */
export const IMAGE_IMPORT_MAX_FILES = 20;
export const IMAGE_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_FILE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif'] as const;

const IMAGE_EXTENSION = /\.(png|jpe?g|gif)$/i;

/**
 * A photo file name the import can pair: a plain name (no folder, no control characters) of at
 * most 255 characters ending in .png, .jpg, .jpeg or .gif. Used by the sheet's photo column
 * (IMAGE_NAME_NOT_EXIST_ON_ROW_), the image upload and the browser's drop zone.
 */
export function isImageFileName(name: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (!name || name.length > 255 || /[\\/\u0000-\u001f]/.test(name)) return false;
  return IMAGE_EXTENSION.test(name) && name.replace(IMAGE_EXTENSION, '').trim().length > 0;
}

/** The name without its image extension (`ABC123.png` → `ABC123`): an exported photo's barcode. */
export function imageBaseName(name: string): string {
  return name.replace(IMAGE_EXTENSION, '');
}

/** The key two names are compared by: case-insensitive, surrounding spaces ignored. */
export function imageNameKey(name: string): string {
  return name.trim().toLowerCase();
}

const imageItem = z.object({
  imageName: z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(255, { error: 'basics.tooLong' }),
  imageData: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }),
});

/**
 * POST image/import: `{actionId, images: [{imageName, imageData}]}`; the spec's one-image form
 * `{actionId, imageName, imageData}` is taken as a batch of one.
 */
export const imageImportSchema = z.preprocess(
  (raw) => {
    if (raw && typeof raw === 'object' && !('images' in raw) && 'imageName' in raw) {
      const { imageName, imageData, ...rest } = raw as Record<string, unknown>;
      return { ...rest, images: [{ imageName, imageData }] };
    }
    return raw;
  },
  z.object({
    actionId: id(),
    images: z
      .array(imageItem, { error: 'imageImport.chooseImages' })
      .min(1, { error: 'imageImport.chooseImages' })
      .max(IMAGE_IMPORT_MAX_FILES, { error: 'imageImport.tooManyImages' }),
  }),
);
export type ImageImportInput = z.input<typeof imageImportSchema>;

/** Why an uploaded image was not paired (the reason of one result of POST image/import). */
export const IMAGE_IMPORT_REASONS = [
  /** not base64 / not a data URL */
  'IMAGE_BASE64_INVALID',
  /** larger than 5 MB */
  'IMAGE_TOO_LARGE',
  /** not a png, jpg or gif by its content */
  'IMAGE_TYPE_INVALID',
  /** not a usable image file name (extension, folder) */
  'IMAGE_NAME_INVALID',
  /** no accreditation names it yet: kept, and paired when a sheet row with this photo name is imported */
  'IMAGE_WAITING_FOR_ROW',
] as const;
export type ImageImportReason = (typeof IMAGE_IMPORT_REASONS)[number];

export interface ImageImportResult {
  imageName: string;
  paired: boolean;
  /** how it was paired: by the sheet's photo name, or by the barcode (an exported photo) */
  by?: 'imageName' | 'bc';
  accreditations: { id: number; name: string }[];
  reason?: ImageImportReason;
}

export interface ImageImportStatus {
  /** accreditations of the action whose sheet row named a photo that has not come yet */
  waiting: { id: number; name: string; imageName: string }[];
  /** uploaded photos no accreditation names yet (paired when the sheet comes) */
  unpaired: { imageName: string; dateCreate: string }[];
}
