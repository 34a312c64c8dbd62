import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn } from '../../database/columns.js';

export type MailStatus = 'waiting' | 'sending' | 'sent' | 'error';

/** The queue of record for every outgoing mail (spec §3 mailQueue, §4 Mails). */
@Entity('mail_queue')
@Index('IDX_mail_queue_due', ['status', 'nextAttemptAt'])
@Index('IDX_mail_queue_accreditationId', ['accreditationId', 'id'])
/** the dashboard's mail tiles: a count per subject and status reads one index range */
@Index('IDX_mail_queue_subject_status', ['subjectId', 'status'])
export class MailQueueEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('IDX_mail_queue_subjectId')
  @Column({ type: 'int', nullable: true })
  subjectId: number | null;

  @Column({ type: 'varchar', length: 255 })
  recipient: string;

  @Column({ type: 'varchar', length: 500 })
  subject: string;

  @Column({ type: 'text' })
  bodyText: string;

  @Column({ type: 'text', nullable: true })
  bodyHtml: string | null;

  @Column({ type: 'varchar', length: 16, default: 'waiting' })
  status: MailStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @DateColumn()
  nextAttemptAt: Date;

  @DateColumn({ nullable: true })
  claimedAt: Date | null;

  @DateColumn({ nullable: true })
  sentAt: Date | null;

  @Column({ type: 'text', nullable: true })
  failReason: string | null;

  /**
   * The send was interrupted (the process died while the mail was `sending`) and the mail was sent
   * again with the same Message-ID: over SMTP the first attempt may have arrived too, so the person
   * may have it twice. Shown in the person's mail history.
   */
  @BoolColumn(false)
  uncertain: boolean;

  @Column({ type: 'int', nullable: true })
  adminUserId: number | null;

  @Column({ type: 'int', nullable: true })
  mailTemplateId: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  note: string | null;

  /** the person the mail was sent to (spec §3 Accreditation: mailQueue / mail entries) */
  @Column({ type: 'int', nullable: true })
  accreditationId: number | null;

  /** copy addresses, comma-separated (the mail template's mailCopy) */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  cc: string | null;

  /** the code the mail shows as its inline QR image (drawn when sent): `{{bc}}` in the body, or withAccreditation */
  @Column({ type: 'varchar', length: 64, nullable: true })
  attachCode: string | null;

  /** the person's badge goes with the mail as a PDF (withAccreditation), rendered by the worker at send time */
  @BoolColumn(false)
  attachBadge: boolean;

  @Index('IDX_mail_queue_actionId')
  @Column({ type: 'int', nullable: true })
  actionId: number | null;

  @DateColumn()
  createdAt: Date;

  /**
   * The language a mail the worker writes is in (a deferred mail of an online registration, issue
   * 16), fixed when it was queued; null for a mail written when queued.
   */
  @Column({ type: 'varchar', length: 2, nullable: true })
  language: string | null;
}
