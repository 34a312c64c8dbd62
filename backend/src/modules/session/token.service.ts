import type { SubjectSummary } from '@accredo/domain';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { randomToken, sha256 } from '../../common/crypto.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { preparedReader } from '../../database/prepared.js';
import { readDate } from '../device/sql.js';
import { AdminUserEntity } from '../admin-user/admin-user.entity.js';
import { OperatorEntity } from '../manage/operator.entity.js';
import { type CachedSession, isOnlineKind, SessionCache } from './session-cache.service.js';
import { SessionTokenEntity, type TokenKind } from './session-token.entity.js';

/** Refresh the sliding expiry at most this often, so reads do not all become writes. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Random session tokens, stored hashed, expiring after SESSION_TTL_HOURS without use, revoked on logout.
 * The sessions of signed-in calls (admin, manage) are resolved through the SessionCache; every change
 * that ends a session or alters its principal goes through this service (revoke, revokeAll,
 * setSubject, principalChanged), which invalidates the cache here and on the other instances.
 */
@Injectable()
export class TokenService {
  constructor(
    @InjectRepository(SessionTokenEntity) private readonly repo: Repository<SessionTokenEntity>,
    @InjectRepository(AdminUserEntity) private readonly users: Repository<AdminUserEntity>,
    @InjectRepository(OperatorEntity) private readonly operators: Repository<OperatorEntity>,
    private readonly cache: SessionCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async issue(
    kind: TokenKind,
    principalId: number,
    subjectId: number | null,
  ): Promise<{ raw: string; row: SessionTokenEntity }> {
    const raw = randomToken();
    const now = new Date();
    const row = await this.repo.save(
      this.repo.create({
        kind,
        principalId,
        subjectId,
        tokenHash: sha256(raw),
        createdAt: now,
        lastUsedAt: now,
        expiresAt: new Date(now.getTime() + this.config.sessionTtlMs),
      }),
    );
    // Expired rows of anyone are swept now and then: cheap, and keeps the table small.
    if (Math.random() < 0.05) await this.repo.delete({ expiresAt: LessThan(now) });
    return { raw, row };
  }

  /**
   * The token row: an online visitor's from the cache when it holds it (revoke and revokeAll drop it
   * there, on every instance), any other kind read from the database (the preview's test check).
   */
  async resolve(kind: TokenKind, raw: string | undefined): Promise<SessionTokenEntity> {
    if (!raw) throw new AppError('UNAUTHORIZED');
    if (!isOnlineKind(kind)) return this.resolveHash(kind, sha256(raw));
    return (await this.cached(kind, raw, async () => null)).token;
  }

  /** An admin session: its token and its active, verified user, from the cache when it holds them. */
  async resolveAdmin(raw: string | undefined): Promise<{ token: SessionTokenEntity; user: AdminUserEntity }> {
    const { token, principal } = await this.cached('admin', raw, async (token) => {
      const user = await this.users.findOneBy({ id: token.principalId });
      if (!user?.active || !user.verified) {
        await this.revoke(token.id);
        throw new AppError('TOKEN_INVALID');
      }
      return user;
    });
    return { token, user: principal };
  }

  /** A manage-module session: its token and its operator, from the cache when it holds them. */
  async resolveManage(raw: string | undefined): Promise<{ token: SessionTokenEntity; operator: OperatorEntity }> {
    const { token, principal } = await this.cached('manage', raw, async (token) => {
      const operator = await this.operators.findOneBy({ id: token.principalId });
      if (!operator) throw new AppError('TOKEN_INVALID');
      return operator;
    });
    return { token, operator: principal };
  }

  /**
   * A session of `kind` from the SessionCache, or read (the token, then its principal by
   * `principalOf`, which throws to refuse it) and kept unless something was invalidated meanwhile.
   */
  private async cached<P>(
    kind: CachedSession['kind'],
    raw: string | undefined,
    principalOf: (token: SessionTokenEntity) => Promise<P>,
  ): Promise<{ token: SessionTokenEntity; principal: P }> {
    if (!raw) throw new AppError('UNAUTHORIZED');
    const hash = sha256(raw);
    const hit = this.cache.get(hash);
    // an entry of this kind holds this kind's principal (CachedSession)
    if (hit?.kind === kind) {
      await this.keepAlive(hit.token);
      return { token: hit.token, principal: hit.principal as P };
    }
    const version = this.cache.version;
    const token = await this.resolveHash(kind, hash);
    const principal = await principalOf(token);
    this.cache.put(hash, { kind, token, principal } as CachedSession, version);
    return { token, principal };
  }

  async revoke(id: number): Promise<void> {
    await this.repo.delete({ id });
    await this.cache.tokenChanged(id);
  }

  /** Ends every session of a principal (password changed, user deactivated). */
  async revokeAll(kind: TokenKind, principalId: number, exceptId?: number): Promise<void> {
    const rows = await this.repo.find({ where: { kind, principalId }, select: { id: true } });
    const ids = rows.map((r) => r.id).filter((id) => id !== exceptId);
    if (ids.length) await this.repo.delete(ids);
    await this.cache.principalChanged(kind, principalId);
  }

  async setSubject(id: number, subjectId: number): Promise<void> {
    await this.repo.update({ id }, { subjectId });
    await this.cache.tokenChanged(id);
  }

  /**
   * The principal's row changed (rights, active, password, name, language, current action, ...):
   * its sessions are read again on their next request, on every instance. Call it after the write.
   */
  async principalChanged(kind: 'admin' | 'manage', principalId: number): Promise<void> {
    await this.cache.principalChanged(kind, principalId);
  }

  /** A subject's row changed (name, languages, extensions, time zone): session answers read it again. */
  async subjectChanged(subjectId: number): Promise<void> {
    await this.cache.subjectChanged(subjectId);
  }

  /** The subject summary of session answers, from the cache when it holds it (undefined: no such subject). */
  async subjectSummary(
    subjectId: number,
    load: (id: number) => Promise<SubjectSummary | undefined>,
  ): Promise<SubjectSummary | undefined> {
    const hit = this.cache.subject(subjectId);
    if (hit) return hit;
    const version = this.cache.version;
    const summary = await load(subjectId);
    if (summary) this.cache.putSubject(summary, version);
    return summary;
  }

  private async resolveHash(kind: TokenKind, tokenHash: string): Promise<SessionTokenEntity> {
    // one prepared read on the driver (issue 16: online registrations read their token every time)
    const [found] = await preparedReader(this.repo.manager.connection).all<Record<string, unknown>>(
      'SELECT id, kind, principalId, tokenHash, subjectId, expiresAt, createdAt, lastUsedAt FROM session_token WHERE tokenHash = ? AND kind = ?',
      [tokenHash, kind],
    );
    if (!found) throw new AppError('TOKEN_INVALID');
    const row = this.repo.create({
      id: Number(found.id),
      kind: found.kind as TokenKind,
      principalId: Number(found.principalId),
      tokenHash: String(found.tokenHash),
      subjectId: found.subjectId === null ? null : Number(found.subjectId),
      expiresAt: new Date(readDate(found.expiresAt)),
      createdAt: new Date(readDate(found.createdAt)),
      lastUsedAt: new Date(readDate(found.lastUsedAt)),
    });
    await this.keepAlive(row);
    return row;
  }

  /** Refuses an expired token and slides the expiry of a used one (written at most once a minute). */
  private async keepAlive(row: SessionTokenEntity): Promise<void> {
    const now = Date.now();
    if (row.expiresAt.getTime() <= now) {
      await this.repo.delete({ id: row.id });
      await this.cache.tokenChanged(row.id);
      throw new AppError('TOKEN_EXPIRED');
    }
    if (now - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
      // set before the write, so requests arriving meanwhile on a cached row do not write it again
      row.lastUsedAt = new Date(now);
      row.expiresAt = new Date(now + this.config.sessionTtlMs);
      await this.repo.update({ id: row.id }, { lastUsedAt: row.lastUsedAt, expiresAt: row.expiresAt });
    }
  }
}
