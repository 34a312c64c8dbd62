import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are hashed with scrypt, a memory-hard function built into Node (no native add-on to
 * compile). The stored string carries its own parameters, so the cost can be raised later and old
 * hashes still verify.
 */
function scryptAsync(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 64, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string, cost = 15): Promise<string> {
  const n = 2 ** cost;
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, n, 8, 1);
  return `scrypt$${n}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scryptAsync(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A dummy hash to verify against when the account does not exist, so timing says nothing. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(cost: number): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(12).toString('hex'), cost);
  return dummyHash;
}

/** An unguessable token for sessions and e-mailed links (256 bits). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  // crypto.hash: one call without a Hash object (every device scan and signed-in call hashes its token)
  return hash('sha256', value, 'hex');
}

/** A short random code (device pairing keys and similar), without look-alike characters. */
export function randomCode(length = 12): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
