import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of the offline store (issue 12, docs/station.md "Offline store"):
 * - a record is found by `lookupHash(code)` = HMAC-SHA256 keyed with the store's random salt;
 * - it is sealed with AES-256-GCM under `recordKey(code)` = HKDF-SHA256(code, salt, info), so only
 *   someone holding the code can open it; the lookup hash is bound as additional data, so a record
 *   moved to another slot does not open either.
 * Both are one keyed hash each (a few microseconds): see docs/station.md for why no slow KDF.
 */
const RECORD_INFO = Buffer.from('accredo-station-record-v1');
const LOOKUP_PREFIX = Buffer.from('accredo-station-lookup-v1\n');
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const newSalt = (): Buffer => randomBytes(32);

export function lookupHash(salt: Buffer, code: string): Buffer {
  return createHmac('sha256', salt).update(LOOKUP_PREFIX).update(code, 'utf8').digest();
}

export function recordKey(salt: Buffer, code: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(code, 'utf8'), salt, RECORD_INFO, 32));
}

/** iv ‖ ciphertext ‖ tag */
export function seal(key: Buffer, aad: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

/** null when the key (the code) is wrong or the record was altered */
export function open(key: Buffer, aad: Buffer, sealed: Buffer): Buffer | null {
  if (sealed.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(aad);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}
