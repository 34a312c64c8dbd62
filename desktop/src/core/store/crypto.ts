import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of the offline store (issue 12, docs/station.md "Offline store"):
 * - HKDF-SHA256 (RFC 5869) of the code with the store's random 32-byte salt gives two independent
 *   values: `lookupHash` (info "lookup"), the record's slot, and `recordKey` (info "record");
 * - a record is sealed with AES-256-GCM under the record key, so only someone holding the code can
 *   open it; the lookup hash is bound as additional data, so a record moved to another slot does
 *   not open either.
 * Three HMACs a code (microseconds): see docs/station.md for why no slow KDF.
 */
const LOOKUP_INFO = Buffer.from('accredo-station-lookup-v1\x01');
const RECORD_INFO = Buffer.from('accredo-station-record-v1\x01');
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const newSalt = (): Buffer => randomBytes(32);

/** HKDF-Extract (RFC 5869): the pseudo-random key of a code under the store's salt. */
const extract = (salt: Buffer, code: string): Buffer => createHmac('sha256', salt).update(code, 'utf8').digest();
/** HKDF-Expand to one 32-byte block (T(1) = HMAC(PRK, info ‖ 0x01)). */
const expand = (prk: Buffer, info: Buffer): Buffer => createHmac('sha256', prk).update(info).digest();

/** The code's slot and record key: HKDF-SHA256(code, salt) expanded with two different infos. */
export function derive(salt: Buffer, code: string): { lookup: Buffer; key: Buffer } {
  const prk = extract(salt, code);
  return { lookup: expand(prk, LOOKUP_INFO), key: expand(prk, RECORD_INFO) };
}

export function lookupHash(salt: Buffer, code: string): Buffer {
  return expand(extract(salt, code), LOOKUP_INFO);
}

export function recordKey(salt: Buffer, code: string): Buffer {
  return expand(extract(salt, code), RECORD_INFO);
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
