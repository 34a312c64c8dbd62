import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { sha256 } from '../../common/crypto.js';
import type { DeviceAuth } from '../../common/request.js';
import { TtlCache } from '../../common/ttl-cache.js';
import { sqlDate } from './sql.js';

/** A cached token answers for this long; then the database is asked again (revocation on another instance). */
const CACHE_MS = 10_000;
/** At most this many resolved tokens are kept (the oldest stored goes first). */
const CACHE_MAX = 10_000;
/** `lastSeenAt` is written at most this often per device. */
const TOUCH_MS = 30_000;

/**
 * Device tokens (api/device/v1): 256-bit random, only the SHA-256 stored on the device row. The
 * scan path must not read a session per request, so a resolved token is kept in process; revoking
 * (delete, unpair, re-pair, key rotation) clears it here at once, and other instances within
 * CACHE_MS. A read that was under way when tokens were cleared is answered but not kept (TtlCache):
 * it may have found the token before its revocation, and would have kept it working for CACHE_MS.
 */
@Injectable()
export class DeviceSessions {
  private readonly cache = new TtlCache<string, DeviceAuth>({ ttlMs: CACHE_MS, max: CACHE_MAX });
  private readonly touched = new Map<number, number>();

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async resolve(raw: string | undefined): Promise<DeviceAuth> {
    if (!raw) throw new AppError('UNAUTHORIZED');
    if (raw.length > 200) throw new AppError('TOKEN_INVALID');
    const hash = sha256(raw);
    const now = Date.now();
    // a hit is answered without an await (the scan path)
    const auth =
      this.cache.get(hash) ??
      (await this.cache.load(hash, async () => {
        const rows: { id: number; subjectId: number }[] = await this.ds.query(
          'SELECT id, subjectId FROM device WHERE tokenHash = ?',
          [hash],
        );
        if (!rows.length) throw new AppError('TOKEN_INVALID');
        return { kind: 'device', deviceId: Number(rows[0].id), subjectId: Number(rows[0].subjectId), tokenHash: hash };
      }));
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
    const ids = new Set(deviceIds);
    this.cache.deleteWhere((auth) => ids.has(auth.deviceId));
  }

  forgetSubject(subjectId: number): void {
    this.cache.deleteWhere((auth) => auth.subjectId === subjectId);
  }
}
