import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

/** An accreditation (badge) template. */
@Entity('template')
export class TemplateEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('IDX_template_subjectId')
  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'int', default: 1 })
  type: number;

  @Column({ type: 'varchar', length: 8, default: 'A6' })
  pageSize: string;

  @Column({ type: 'text' })
  htmlData: string;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;

  /** when it was archived (issue 15, docs/archive.md); null while in use */
  @DateColumn({ nullable: true })
  archivedAt: Date | null;
}

/** A mail template: 1 after registration, 2 from the admin. */
@Entity('mail_template')
export class MailTemplateEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('IDX_mail_template_subjectId')
  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'int', default: 2 })
  type: number;

  @Column({ type: 'varchar', length: 500 })
  subjectFrom: string;

  @BoolColumn(false)
  withAccreditation: boolean;

  @JsonColumn()
  mailCopy: string[];

  @Column({ type: 'text' })
  html: string;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;
}

/**
 * A mail template's subject line and body in one more language of the subject (issue 15): sk, en
 * or de. The Czech text is the template's own `subjectFrom` and `html`, the fallback of a language
 * without a row.
 */
@Entity('mail_template_translation')
export class MailTemplateTranslationEntity {
  @PrimaryColumn({ type: 'int' })
  mailTemplateId: number;

  @PrimaryColumn({ type: 'varchar', length: 2 })
  language: string;

  @Column({ type: 'varchar', length: 500 })
  subjectFrom: string;

  @Column({ type: 'text' })
  html: string;
}
