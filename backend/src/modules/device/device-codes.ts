import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '../../common/crypto.js';

/**
 * The two codes of GET device/key (spec §7). `bc` carries the subject and its device key: scanned
 * at a station it pairs the station with the subject. `bcClear` carries the subject and a digest of
 * the key (so it cannot pair anything): scanned at a paired station it unpairs it. Rotating the
 * subject's device key invalidates both codes and every device token.
 */
const PAIR = 'ACCREDO-PAIR';
const CLEAR = 'ACCREDO-CLEAR';

export function pairCode(subjectId: number, deviceKey: string): string {
  return `${PAIR}.${subjectId}.${deviceKey}`;
}

export function clearCode(subjectId: number, deviceKey: string): string {
  return `${CLEAR}.${subjectId}.${sha256(`${deviceKey}:clear`).slice(0, 24)}`;
}

/** The subject a code names and its secret part, or null for anything else. */
export function parseCode(code: string, kind: 'pair' | 'clear'): { subjectId: number; secret: string } | null {
  const m = /^([A-Z-]+)\.([1-9]\d{0,9})\.([A-Za-z0-9]{1,64})$/.exec(code.trim());
  if (!m || m[1] !== (kind === 'pair' ? PAIR : CLEAR)) return null;
  return { subjectId: Number(m[2]), secret: m[3] };
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(sha256(a));
  const y = Buffer.from(sha256(b));
  return timingSafeEqual(x, y);
}
