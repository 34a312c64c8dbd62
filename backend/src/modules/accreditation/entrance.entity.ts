import { localDay as dayIn } from '@accredo/access';
import { Column, type DataSource, Entity, type EntityManager, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn } from '../../database/columns.js';

/**
 * The entry log of an accreditation (spec §3 Accreditation: entrance dates, type 1 entry, 0 exit):
 * one row per passage through a gate. Devices write it; the accreditation list filters on it
 * (entered, entered on a day, not entered, not entered on a day) and shows the latest rows.
 */
@Entity('entrance')
/** a person's passages: the list's entrance dates and, filtered by template, the counts of D2 (issue 11) */
@Index('IDX_entrance_accreditation', ['accreditationId', 'day'])
@Index('IDX_entrance_filter', ['actionId', 'type', 'day', 'accreditationId'])
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

/**
 * The calendar day (YYYY-MM-DD) of an instant in the subject's time zone (D19 of issue 11): the
 * venue's day, what the gates write and "entered on a day" compares, whatever the server's `TZ`.
 */
export function localDay(at: Date | number, timeZone: string): string {
  return dayIn(typeof at === 'number' ? at : at.getTime(), timeZone);
}

/** The subject's time zone (its venue's), for `localDay`. */
export async function subjectTimeZone(m: DataSource | EntityManager, subjectId: number): Promise<string> {
  const rows: { timeZone: string }[] = await m.query('SELECT timeZone FROM subject WHERE id = ?', [subjectId]);
  return rows[0]?.timeZone || 'Europe/Prague';
}
