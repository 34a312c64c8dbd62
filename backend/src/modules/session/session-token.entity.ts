import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn } from '../../database/columns.js';

/**
 * Online tokens (web channels) name what authorized the visitor: the channel (password), a channel
 * user (login) or an external code; the principal is the channel, user or code id.
 */
export type TokenKind = 'admin' | 'manage' | 'online-pass' | 'online-user' | 'online-code';

/**
 * One table for every kind of session (admin, manage, online channels). Only the SHA-256 of
 * a token is stored, so a copy of the database signs nobody in.
 */
@Entity('session_token')
@Index('IDX_session_token_principal', ['kind', 'principalId'])
export class SessionTokenEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 16 })
  kind: TokenKind;

  @Column({ type: 'int' })
  principalId: number;

  @Index('UQ_session_token_tokenHash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash: string;

  /** The subject the session works in (a manageuser can switch it). */
  @Column({ type: 'int', nullable: true })
  subjectId: number | null;

  @DateColumn()
  expiresAt: Date;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  lastUsedAt: Date;
}
