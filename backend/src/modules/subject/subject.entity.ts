import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

@Entity('subject')
export class SubjectEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 64, unique: true })
  key: string;

  @Column({ type: 'varchar', length: 64, unique: true })
  deviceKey: string;

  /** Folder of the subject's files under DATA_DIR/files; fixed once created. */
  @Column({ type: 'varchar', length: 64, unique: true })
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
