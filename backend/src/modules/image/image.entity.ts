import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn } from '../../database/columns.js';

/** A gallery image; its bytes live in file storage under an unguessable key. */
@Entity('image')
@Index('IDX_image_list', ['subjectId', 'type'])
export class ImageEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** 1 accreditation, 2 template, 3 other */
  @Column({ type: 'int', default: 3 })
  type: number;

  @Column({ type: 'varchar', length: 32 })
  mimeType: string;

  @Column({ type: 'int' })
  size: number;

  @Column({ type: 'int', default: 0 })
  width: number;

  @Column({ type: 'int', default: 0 })
  height: number;

  /** storage key of the current version, also its public URL part: /api/file/{fileKey} */
  @Index('UQ_image_fileKey', { unique: true })
  @Column({ type: 'varchar', length: 191 })
  fileKey: string;

  @Column({ type: 'int', default: 1 })
  version: number;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;
}
