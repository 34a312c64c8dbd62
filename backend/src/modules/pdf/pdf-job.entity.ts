import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

/** `expired`: the file (or a failed job's parts) removed a day after it finished; the row stays a while. */
export type PdfJobState = 'waiting' | 'running' | 'done' | 'error' | 'expired';

/** The people left out of a print, as user/print lists them. */
export interface PdfJobError {
  user: number;
  error: string;
  name?: string;
}

/**
 * A big PDF print (more badges than one request renders): the record of the job, its progress and
 * its file under DATA_DIR/pdf-jobs, or in the bucket with STORAGE_URL. Claimed atomically (waiting → running) by the worker of any
 * instance; a run that died is taken up again from its progress.
 */
@Entity('pdf_job')
@Index('IDX_pdf_job_state', ['state', 'id'])
export class PdfJobEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  adminUserId: number;

  @Column({ type: 'int' })
  actionId: number;

  /** the admin's language (the document's language and the templates' texts) */
  @Column({ type: 'varchar', length: 8 })
  language: string;

  @Column({ type: 'varchar', length: 16, default: 'waiting' })
  state: PdfJobState;

  /** printed with "replace the old badge": each printed person's badge version goes up by 1 */
  @BoolColumn(false)
  replace: boolean;

  /** the accreditation ids to print, resolved when the job was made (the filter of that moment) */
  @JsonColumn()
  ids: number[];

  /** people handled so far (the progress), printed badges and the people left out */
  @Column({ type: 'int', default: 0 })
  done: number;

  @Column({ type: 'int', default: 0 })
  printed: number;

  @JsonColumn()
  errors: PdfJobError[];

  /**
   * set once the PDF is finished: `pdf-jobs/<id>/badges.pdf`, relative to DATA_DIR, or with
   * STORAGE_URL the same file as `_pdf-jobs/<id>/badges.pdf` in the bucket (under its folder)
   */
  @Column({ type: 'varchar', length: 500, nullable: true })
  filePath: string | null;

  @Column({ type: 'varchar', length: 255 })
  fileName: string;

  @Column({ type: 'text', nullable: true })
  failReason: string | null;

  /** how often the admin started the failed job again (once at most) */
  @Column({ type: 'int', default: 0 })
  retries: number;

  @DateColumn({ nullable: true })
  claimedAt: Date | null;

  @DateColumn()
  createdAt: Date;

  @DateColumn({ nullable: true })
  finishedAt: Date | null;
}
