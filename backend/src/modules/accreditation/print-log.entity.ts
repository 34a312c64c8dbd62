import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn } from '../../database/columns.js';

/** One printed badge (spec §3 Accreditation: print entries with date and admin user). */
@Entity('print_log')
@Index('IDX_print_log_accreditation', ['accreditationId'])
export class PrintLogEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  accreditationId: number;

  @Column({ type: 'int', nullable: true })
  adminUserId: number | null;

  /** the badge version this print carried (docs/access-control.md "Badge versions") */
  @Column({ type: 'int', default: 0 })
  badgeVersion: number;

  /** the version this print retired ("replace the old badge"); null for an ordinary reprint */
  @Column({ type: 'int', nullable: true })
  retiredVersion: number | null;

  @DateColumn()
  createdAt: Date;
}
