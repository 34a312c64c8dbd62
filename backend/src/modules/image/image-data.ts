import { PHOTO_MAX_BYTES } from '@accredo/domain';
import { AppError } from '../../common/app-error.js';

export interface DecodedImage {
  data: Buffer;
  mimeType: 'image/png' | 'image/jpeg' | 'image/gif';
  ext: 'png' | 'jpg' | 'gif';
  width: number;
  height: number;
}

/** PNG's own bound of a side (PNG spec 11.2.2: 1 to 2^31-1); also what the int columns hold. */
const PNG_MAX_SIDE = 0x7fffffff;

/**
 * Image type by content (spec §3: png, jpg, jpeg, gif), never by a claimed name or header; `'bad'`
 * when the content claims a type but breaks its format (a PNG header of width 0 or over 2^31-1
 * would otherwise reach the int `width` column: MariaDB refuses it with a 500, SQLite keeps it).
 */
function sniff(b: Buffer): Omit<DecodedImage, 'data'> | 'bad' | null {
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) {
    const width = b.readUInt32BE(16);
    const height = b.readUInt32BE(20);
    if (width < 1 || height < 1 || width > PNG_MAX_SIDE || height > PNG_MAX_SIDE) return 'bad';
    return { mimeType: 'image/png', ext: 'png', width, height };
  }
  if (b.length > 10 && b.toString('latin1', 0, 4) === 'GIF8') {
    return { mimeType: 'image/gif', ext: 'gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    // Walk the JPEG segments to the frame header for the size.
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return { mimeType: 'image/jpeg', ext: 'jpg', width: 0, height: 0 };
      const marker = b[i + 1];
      const length = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { mimeType: 'image/jpeg', ext: 'jpg', height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
      }
      i += 2 + length;
    }
    return { mimeType: 'image/jpeg', ext: 'jpg', width: 0, height: 0 };
  }
  return null;
}

/**
 * Decodes a data URL or plain base64 from a form, and refuses what is not one png, jpg or gif of at
 * most 2 MB (spec §5 Image upload) with a field error.
 */
export function decodeImage(value: string, field: string, maxBytes = PHOTO_MAX_BYTES): DecodedImage {
  const match = /^data:[\w/+.-]*;base64,(.*)$/s.exec(value.trim());
  const base64 = (match ? match[1] : value).replace(/\s+/g, '');
  if (!base64 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
    throw AppError.validation([{ path: field, key: 'photo.invalidData' }]);
  // Refuse before decoding what is certainly too large.
  if (Math.floor((base64.length * 3) / 4) > maxBytes + 3)
    throw AppError.validation([{ path: field, key: 'photo.chooseToolTipOnline' }]);
  const data = Buffer.from(base64, 'base64');
  if (data.length > maxBytes) throw AppError.validation([{ path: field, key: 'photo.chooseToolTipOnline' }]);
  const kind = sniff(data);
  if (!kind) throw AppError.validation([{ path: field, key: 'photo.invalidType' }]);
  if (kind === 'bad') throw AppError.validation([{ path: field, key: 'photo.invalidData' }]);
  return { data, ...kind };
}
