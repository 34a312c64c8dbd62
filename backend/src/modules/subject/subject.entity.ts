import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

@Entity('subject')
export class SubjectEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Index('UQ_subject_key', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  key: string;

  @Index('UQ_subject_deviceKey', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  deviceKey: string;

  /** Folder of the subject's files under DATA_DIR/files; fixed once created. */
  @Index('UQ_subject_pathToFiles', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  pathToFiles: string;

  @BoolColumn(false)
  multiLanguage: boolean;

  @Column({ type: 'varchar', length: 64, default: 'Europe/Prague' })
  timeZone: string;

  /** 1 meal, 2 parking */
  @JsonColumn()
  extensions: number[];

  @DateColumn()
  createdAt: Date;
}
