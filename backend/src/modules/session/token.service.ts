import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { randomToken, sha256 } from '../../common/crypto.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { SessionTokenEntity, type TokenKind } from './session-token.entity.js';

/** Refresh the sliding expiry at most this often, so reads do not all become writes. */
const TOUCH_EVERY_MS = 60_000;

/** Random session tokens, stored hashed, expiring after SESSION_TTL_HOURS without use, revoked on logout. */
@Injectable()
export class TokenService {
  constructor(
    @InjectRepository(SessionTokenEntity) private readonly repo: Repository<SessionTokenEntity>,
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

  async resolve(kind: TokenKind, raw: string | undefined): Promise<SessionTokenEntity> {
    if (!raw) throw new AppError('UNAUTHORIZED');
    const row = await this.repo.findOneBy({ tokenHash: sha256(raw), kind });
    if (!row) throw new AppError('TOKEN_INVALID');
    const now = Date.now();
    if (row.expiresAt.getTime() <= now) {
      await this.repo.delete({ id: row.id });
      throw new AppError('TOKEN_EXPIRED');
    }
    if (now - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
      row.lastUsedAt = new Date(now);
      row.expiresAt = new Date(now + this.config.sessionTtlMs);
      await this.repo.update({ id: row.id }, { lastUsedAt: row.lastUsedAt, expiresAt: row.expiresAt });
    }
    return row;
  }

  async revoke(id: number): Promise<void> {
    await this.repo.delete({ id });
  }

  /** Ends every session of a principal (password changed, user deactivated). */
  async revokeAll(kind: TokenKind, principalId: number, exceptId?: number): Promise<void> {
    const rows = await this.repo.find({ where: { kind, principalId }, select: { id: true } });
    const ids = rows.map((r) => r.id).filter((id) => id !== exceptId);
    if (ids.length) await this.repo.delete(ids);
  }

  async setSubject(id: number, subjectId: number): Promise<void> {
    await this.repo.update({ id }, { subjectId });
  }
}
