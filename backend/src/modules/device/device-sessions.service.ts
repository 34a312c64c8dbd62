import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { sha256 } from '../../common/crypto.js';
import type { DeviceAuth } from '../../common/request.js';
import { sqlDate } from './sql.js';

/** A cached token answers for this long; then the database is asked again (revocation on another instance). */
const CACHE_MS = 10_000;
/** `lastSeenAt` is written at most this often per device. */
const TOUCH_MS = 30_000;

/**
 * Device tokens (api/device/v1): 256-bit random, only the SHA-256 stored on the device row. The
 * scan path must not read a session per request, so a resolved token is kept in process; revoking
 * (delete, unpair, re-pair, key rotation) clears it here at once, and other instances within
 * CACHE_MS. A read that was under way when tokens were cleared is answered but not kept: it may
 * have found the token before its revocation, and would have kept it working for CACHE_MS.
 */
@Injectable()
export class DeviceSessions {
  private readonly cache = new Map<string, { auth: DeviceAuth; until: number }>();
  private readonly touched = new Map<number, number>();
  /** counts the clears (see above) */
  private generation = 0;

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async resolve(raw: string | undefined): Promise<DeviceAuth> {
    if (!raw) throw new AppError('UNAUTHORIZED');
    if (raw.length > 200) throw new AppError('TOKEN_INVALID');
    const hash = sha256(raw);
    const now = Date.now();
    const hit = this.cache.get(hash);
    let auth = hit && hit.until > now ? hit.auth : null;
    if (!auth) {
      const generation = this.generation;
      const rows: { id: number; subjectId: number }[] = await this.ds.query(
        'SELECT id, subjectId FROM device WHERE tokenHash = ?',
        [hash],
      );
      if (!rows.length) {
        this.cache.delete(hash);
        throw new AppError('TOKEN_INVALID');
      }
      auth = { kind: 'device', deviceId: Number(rows[0].id), subjectId: Number(rows[0].subjectId), tokenHash: hash };
      if (this.cache.size > 10_000) this.cache.clear();
      if (generation === this.generation) this.cache.set(hash, { auth, until: now + CACHE_MS });
    }
    if (now - (this.touched.get(auth.deviceId) ?? 0) > TOUCH_MS) {
      this.touched.set(auth.deviceId, now);
      // not awaited: the device's "last seen" must not slow its scans down
      this.ds
        .query('UPDATE device SET lastSeenAt = ? WHERE id = ?', [sqlDate(this.ds, new Date(now)), auth.deviceId])
        .catch(() => undefined);
    }
    return auth;
  }

  /** Forgets every cached token of these devices (after their token changed or was cleared). */
  forgetDevices(deviceIds: number[]): void {
    this.generation++;
    const ids = new Set(deviceIds);
    for (const [hash, entry] of this.cache) if (ids.has(entry.auth.deviceId)) this.cache.delete(hash);
  }

  forgetSubject(subjectId: number): void {
    this.generation++;
    for (const [hash, entry] of this.cache) if (entry.auth.subjectId === subjectId) this.cache.delete(hash);
  }
}
