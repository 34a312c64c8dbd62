import type { ActionData, MultiText } from '@accredo/domain';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

/**
 * An action (event). Its dates are the venue's wall clock (`YYYY-MM-DDTHH:mm`) as the organiser
 * typed them: an event at 09:00 stays at 09:00 whatever time zone a viewer is in.
 */
@Entity('action')
export class ActionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('IDX_action_subjectId')
  @Column({ type: 'int' })
  subjectId: number;

  @JsonColumn()
  name: MultiText;

  @Column({ type: 'varchar', length: 16, nullable: true })
  dateFrom: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  dateTo: string | null;

  @BoolColumn(false)
  multiDay: boolean;

  @JsonColumn()
  days: ActionData['days'];

  @Column({ type: 'int', nullable: true })
  afterMailTemplateId: number | null;

  @BoolColumn(false)
  isCredit: boolean;

  @BoolColumn(false)
  withPhoto: boolean;

  @BoolColumn(false)
  requirePhoto: boolean;

  @BoolColumn(false)
  smartBc: boolean;

  @JsonColumn()
  customField: ActionData['customField'];

  @JsonColumn()
  textOnline: MultiText;

  @JsonColumn()
  textAfterAdd: MultiText;

  @JsonColumn()
  checkingAttributes: ActionData['checkingAttributes'];

  /** 1 meal, 2 parking (activated per action by the extension module). */
  @JsonColumn()
  extension: number[];

  @JsonColumn()
  previewData: ActionData['previewData'];

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;

  /** when it was archived (issue 15, docs/archive.md); null while in use */
  @DateColumn({ nullable: true })
  archivedAt: Date | null;
}
