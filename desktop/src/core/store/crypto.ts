import * as nodeCrypto from 'node:crypto';

const { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } = nodeCrypto;

/**
 * Encryption at rest of the offline store (issue 12, docs/station.md "Offline store"):
 * - HKDF-SHA512 (RFC 5869). The extract is done once per store: `PRK = HMAC-SHA512(salt, label)`
 *   with the store's random 32-byte salt (`storeKey`). Each code then costs one expand of one
 *   block, the code in its info: `OKM = HMAC-SHA512(PRK, "record:" ‖ code ‖ 0x01)`, split into
 *   the record's slot `lookup = OKM[0..32)` and its key `key = OKM[32..64)`. Knowing the slot
 *   says nothing of the key (two halves of one SHA-512 output), and both need the code;
 * - a record is sealed with AES-256-GCM under the record key, so only someone holding the code can
 *   open it; the lookup hash is bound as additional data, so a record moved to another slot does
 *   not open either.
 * One HMAC a code (about 3 µs): see docs/station.md for why no slow KDF.
 * Version 1 (until 2026-11-25) extracted per code (HMAC-SHA256(salt, code), then two expands);
 * a store of version 1 is emptied and synced again (store.ts `KDF`).
 */
const LABEL = 'accredo-station-kdf-v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const LOOKUP_BYTES = 32;
/** the stored size of an other-action code's hash */
export const OTHER_BYTES = 16;

export const newSalt = (): Buffer => randomBytes(32);

/** HKDF-Extract, once per store: the pseudo-random key all codes are expanded from. */
export const storeKey = (salt: Buffer): Buffer => createHmac('sha512', salt).update(LABEL, 'utf8').digest();

/** The code's slot and record key: one HKDF-Expand block of the store key, the code in its info. */
export function derive(prk: Buffer, code: string): { lookup: Buffer; key: Buffer } {
  const okm = createHmac('sha512', prk).update('record:', 'utf8').update(code, 'utf8').update('\x01').digest();
  return { lookup: okm.subarray(0, LOOKUP_BYTES), key: okm.subarray(LOOKUP_BYTES) };
}

/** The record's slot of a code under the store's salt (what a thief with the code computes). */
export function lookupHash(salt: Buffer, code: string): Buffer {
  return derive(storeKey(salt), code).lookup;
}

/** The record key of a code under the store's salt. */
export function recordKey(salt: Buffer, code: string): Buffer {
  return derive(storeKey(salt), code).key;
}

/**
 * What the server sends for a code of another action of the subject (device-protocol.service.ts
 * `otherCodeHash`, the same definition): the first 16 bytes of SHA-256("accredo-other:" ‖ code),
 * base64url. Only that, never the person.
 */
export const serverOtherHash = (code: string): string =>
  createHash('sha256').update(`accredo-other:${code}`, 'utf8').digest().subarray(0, OTHER_BYTES).toString('base64url');

/** The station's slot of such a hash: keyed with the store key, so it is this store's own. */
export function otherSlot(prk: Buffer, serverHash: string): Buffer {
  return createHmac('sha256', prk)
    .update('other:', 'utf8')
    .update(serverHash, 'utf8')
    .digest()
    .subarray(0, OTHER_BYTES);
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

/** A page sealed for the store: one buffer, each record's slot, id and sealed data located in it. */
export interface SealedPage {
  /** per person: [offset of the slot (32 bytes), offset of the data, length of the data, id] */
  people: Float64Array;
  /** per other-action code: [offset of the slot (16 bytes), id] */
  others: Float64Array;
  buffer: ArrayBuffer;
}

/**
 * Seals a page of people (and keys the other actions' code hashes) with the store key: the one
 * implementation, run in the sealing threads (seal-pool.ts runs this function's own source there)
 * and in this thread for small pages. Self-contained on purpose: it uses nothing but its
 * parameters, so its source runs unchanged in a worker.
 */
export function sealPage(
  c: Pick<typeof nodeCrypto, 'createCipheriv' | 'createHmac' | 'randomBytes'>,
  prk: Uint8Array,
  people: { id: number; bc: string }[],
  others: { id: number; h: string }[],
): SealedPage {
  const plains = new Array<Buffer>(people.length);
  let size = others.length * 16;
  for (let i = 0; i < people.length; i++) {
    plains[i] = Buffer.from(JSON.stringify(people[i]), 'utf8');
    size += 32 + 12 + plains[i].length + 16;
  }
  const buffer = new ArrayBuffer(size);
  const out = Buffer.from(buffer);
  const ivs = c.randomBytes(12 * people.length);
  const index = new Float64Array(people.length * 4);
  const otherIndex = new Float64Array(others.length * 2);
  let at = 0;
  for (let i = 0; i < people.length; i++) {
    const okm = c
      .createHmac('sha512', prk)
      .update('record:', 'utf8')
      .update(people[i].bc, 'utf8')
      .update('\x01')
      .digest();
    const slot = at;
    okm.copy(out, at, 0, 32);
    at += 32;
    const dataAt = at;
    const iv = ivs.subarray(12 * i, 12 * i + 12);
    iv.copy(out, at);
    at += 12;
    const cipher = c.createCipheriv('aes-256-gcm', okm.subarray(32), iv);
    cipher.setAAD(okm.subarray(0, 32));
    at += cipher.update(plains[i]).copy(out, at);
    at += cipher.final().copy(out, at);
    at += cipher.getAuthTag().copy(out, at);
    index[4 * i] = slot;
    index[4 * i + 1] = dataAt;
    index[4 * i + 2] = at - dataAt;
    index[4 * i + 3] = people[i].id;
  }
  for (let i = 0; i < others.length; i++) {
    const h = c.createHmac('sha256', prk).update('other:', 'utf8').update(others[i].h, 'utf8').digest();
    otherIndex[2 * i] = at;
    otherIndex[2 * i + 1] = others[i].id;
    at += h.copy(out, at, 0, 16);
  }
  return { people: index, others: otherIndex, buffer };
}
