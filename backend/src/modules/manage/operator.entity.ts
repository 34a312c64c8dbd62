import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn } from '../../database/columns.js';

/** A provider operator: signs in to the manage module, across all subjects. */
@Entity('operator')
export class OperatorEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('UQ_operator_email', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  email: string;

  @Column({ type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @DateColumn()
  createdAt: Date;
}
