import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn } from '../../database/columns.js';

export type LinkKind = 'verify' | 'password';

/** Single-use, expiring links sent by e-mail: account confirmation and password renewal. */
@Entity('account_link')
export class AccountLinkEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  adminUserId: number;

  @Column({ type: 'varchar', length: 16 })
  kind: LinkKind;

  @Index('UQ_account_link_linkHash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  linkHash: string;

  @DateColumn()
  expiresAt: Date;

  @DateColumn({ nullable: true })
  usedAt: Date | null;

  @DateColumn()
  createdAt: Date;
}
