import type { MultiText } from '@accredo/domain';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn, JsonColumn } from '../../database/columns.js';

@Entity('custom_field')
export class CustomFieldEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('IDX_custom_field_subjectId')
  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @JsonColumn()
  label: MultiText;

  @JsonColumn()
  tooltip: MultiText;

  /** 1 TEXT … 9 IMAGE (CUSTOM_FIELD_TYPES) */
  @Column({ type: 'int' })
  customFieldType: number;

  @JsonColumn()
  options: { id: string; value: string }[];

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;
}
