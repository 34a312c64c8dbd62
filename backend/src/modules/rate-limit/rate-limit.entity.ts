import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateColumn } from '../../database/columns.js';

/** Failed-attempt counters in the database, so every instance behind a load balancer shares them. */
@Entity('rate_limit')
export class RateLimitEntity {
  @PrimaryColumn({ type: 'varchar', length: 191 })
  key: string;

  @Column({ type: 'int', default: 0 })
  count: number;

  @DateColumn()
  windowStart: Date;
}
