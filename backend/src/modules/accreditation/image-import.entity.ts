import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn } from '../../database/columns.js';

/**
 * A photo uploaded to the image import before any accreditation of the action named it (images
 * first, sheet second): it waits here and the sheet import pairs it with the row whose photo
 * column carries the same file name. Its picture is already a gallery image (type 1).
 */
@Entity('image_import')
@Index('UQ_image_import_actionId_nameKey', ['actionId', 'nameKey'], { unique: true })
export class ImageImportEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  actionId: number;

  /** the file name as uploaded */
  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** the name compared by: trimmed and lower-cased */
  @Column({ type: 'varchar', length: 255 })
  nameKey: string;

  @Column({ type: 'int' })
  imageId: number;

  @DateColumn()
  createdAt: Date;
}
