import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn } from '../../database/columns.js';

@Entity('zone')
export class ZoneEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('IDX_zone_subjectId')
  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int', nullable: true })
  actionId: number | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** The zone's name on the badge. */
  @Column({ type: 'varchar', length: 64 })
  onAccreditation: string;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;
}
