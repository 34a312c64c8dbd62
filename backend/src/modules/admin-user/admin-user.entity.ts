import type { Rights } from '@accredo/domain';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

@Entity('admin_user')
export class AdminUserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('IDX_admin_user_subjectId')
  @Column({ type: 'int' })
  subjectId: number;

  /** The login is an e-mail, unique across the system (sign-in happens before a subject is known). */
  @Index('UQ_admin_user_login', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  login: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @BoolColumn(true)
  active: boolean;

  @BoolColumn(false)
  verified: boolean;

  @BoolColumn(false)
  superuser: boolean;

  @BoolColumn(false)
  manageuser: boolean;

  @JsonColumn()
  rights: Rights;

  @Column({ type: 'varchar', length: 2, default: 'cs' })
  language: string;

  @Column({ type: 'int', nullable: true })
  lastActionId: number | null;

  @Column({ type: 'int', nullable: true })
  actionId: number | null;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;
}
