import type { MultiText } from '@accredo/domain';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

/** A group of accreditations (table `groups`: GROUP is a reserved word in SQL). */
@Entity('groups')
export class GroupEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('IDX_groups_subjectId')
  @Column({ type: 'int' })
  subjectId: number;

  /** null: not assigned to an action (the list's 'not assigned' tab). */
  @Column({ type: 'int', nullable: true })
  actionId: number | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @JsonColumn()
  displayName: MultiText;

  @Column({ type: 'varchar', length: 255 })
  label: string;

  @Column({ type: 'text' })
  htmlData: string;

  @Column({ type: 'int', nullable: true })
  adminTemplateId: number | null;

  @JsonColumn()
  zoneIds: number[];

  @BoolColumn(false)
  assignDefaultMeal: boolean;

  @BoolColumn(false)
  assignDefaultParking: boolean;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;

  /** when it was archived (issue 15, docs/archive.md); null while in use */
  @DateColumn({ nullable: true })
  archivedAt: Date | null;
}
