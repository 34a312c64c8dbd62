import { IMAGE_TYPES, PHOTO_MAX_BYTES } from '@accredo/domain';
import type { TFunction } from 'i18next';

/** Images per gallery page (spec §9: 24 on the gallery screen). */
export const GALLERY_PAGE_SIZE = 24;
/** Spec §9: the name search waits 600 ms after the last key. */
export const GALLERY_SEARCH_DEBOUNCE_MS = 600;

export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,.png,.jpg,.jpeg,.gif';
const EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif'];
const MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif'];

/** The type select's options: 1 accreditation, 2 template, 3 other. */
export const imageTypeData = (t: TFunction) =>
  IMAGE_TYPES.map((type) => ({ value: String(type), label: t(`gallery.type${type}`) }));

/** A file's own type by its first bytes: png, jpeg or gif, otherwise null. */
export function sniffImage(bytes: Uint8Array): 'png' | 'jpeg' | 'gif' | null {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 4 && bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46 && bytes[3] === 0x38)
    return 'gif';
  return null;
}

/**
 * The upload rules of spec §5 (png, jpg, jpeg, gif; one file; at most 2 MB = 2097152 bytes),
 * checked on the name and type before anything is read or sent: the message key, or null.
 */
export function checkImageFile(file: File | null | undefined): string | null {
  if (!file) return 'photo.saveError';
  const ext = file.name.includes('.') ? file.name.split('.').pop()?.toLowerCase() : '';
  if (!ext || !EXTENSIONS.includes(ext) || (file.type && !MIME_TYPES.includes(file.type))) return 'photo.invalidType';
  if (file.size > PHOTO_MAX_BYTES) return 'photo.chooseToolTipOnline';
  if (file.size === 0) return 'photo.invalidData';
  return null;
}

/** Reads a file as a data URL (what the server takes as `baseData`). */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** The first bytes of a file, for the content check. */
export function readHead(file: Blob, length = 16): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(file.slice(0, length));
  });
}

/** Bytes a data URL's payload decodes to. */
export function dataUrlBytes(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** 1.2 MB, 340 kB, 12 B */
export function formatBytes(size: number): string {
  if (size >= 1024 * 1024) return `${(size / (1024 * 1024)).toFixed(1)} MB`;
  if (size >= 1024) return `${Math.round(size / 1024)} kB`;
  return `${size} B`;
}
