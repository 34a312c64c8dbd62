import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn } from '../../database/columns.js';

/**
 * The entry log of an accreditation (spec §3 Accreditation: entrance dates, type 1 entry, 0 exit):
 * one row per passage through a gate. Devices write it; the accreditation list filters on it
 * (entered, entered on a day, not entered, not entered on a day) and shows the latest rows.
 */
@Entity('entrance')
@Index('IDX_entrance_accreditation', ['accreditationId', 'day'])
@Index('IDX_entrance_filter', ['actionId', 'type', 'day', 'accreditationId'])
/** a template's passages of a person: the counts of D2 (issue 11) */
@Index('IDX_entrance_template', ['deviceTemplateId', 'accreditationId'])
export class EntranceEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  actionId: number;

  @Column({ type: 'int' })
  accreditationId: number;

  /** 1 entry, 0 exit */
  @Column({ type: 'int' })
  type: number;

  @Column({ type: 'int', nullable: true })
  deviceId: number | null;

  /** the rule template the passage was decided under (D2: devices sharing a template share counts) */
  @Column({ type: 'int', nullable: true })
  deviceTemplateId: number | null;

  /** the venue's calendar day of the passage (YYYY-MM-DD), what "entered on a day" compares */
  @Column({ type: 'varchar', length: 10 })
  day: string;

  @DateColumn()
  createdAt: Date;
}

/** The calendar day (YYYY-MM-DD) of an instant on the server's clock (TZ), the venue's day. */
export function localDay(at: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
