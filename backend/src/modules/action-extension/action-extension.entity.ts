import type { MultiText } from '@accredo/domain';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

/**
 * An item of an action's extension (spec §3): a meal time slot (type 1, with date and times) or a
 * parking area (type 2, date null for the whole event). Capacity null = unlimited.
 */
@Entity('extension_item')
@Index('IDX_extension_item_action_type', ['actionId', 'type'])
export class ExtensionItemEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  actionId: number;

  @Column({ type: 'int' })
  type: number;

  @JsonColumn()
  label: MultiText;

  @Column({ type: 'varchar', length: 10, nullable: true })
  date: string | null;

  @Column({ type: 'varchar', length: 5, default: '' })
  timeFrom: string;

  @Column({ type: 'varchar', length: 5, default: '' })
  timeTo: string;

  @Column({ type: 'int', nullable: true })
  capacity: number | null;

  @BoolColumn(true)
  active: boolean;

  @Column({ type: 'int', default: 0 })
  position: number;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;
}

/** A meal option or a parking place of an item. */
@Entity('extension_option')
@Index('IDX_extension_option_itemId', ['itemId'])
export class ExtensionOptionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  itemId: number;

  @JsonColumn()
  name: MultiText;

  @Column({ type: 'varchar', length: 1000, default: '' })
  note: string;

  @Column({ type: 'int', nullable: true })
  capacity: number | null;

  @Column({ type: 'int', default: 0 })
  position: number;
}

/**
 * A person's item (spec §3 "Per user: itemId, dateUsed, option, have"): one row per person and
 * item while they have it. Meals: dateUsed set by a mode-4 gate (then locked). Parking: the
 * licence plate and whether the person is inside the area now (mode 5, D15).
 */
@Entity('accreditation_extension')
@Index('UQ_accreditation_extension_person_item', ['accreditationId', 'itemId'], { unique: true })
@Index('IDX_accreditation_extension_itemId', ['itemId', 'optionId'])
@Index('IDX_accreditation_extension_action', ['actionId', 'type'])
/** a car park's occupancy at every mode-5 scan: the people inside, read from the index alone */
@Index('IDX_accreditation_extension_inside', ['itemId', 'inside'])
export class AccreditationExtensionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  actionId: number;

  @Column({ type: 'int' })
  accreditationId: number;

  @Column({ type: 'int' })
  type: number;

  @Column({ type: 'int' })
  itemId: number;

  @Column({ type: 'int', nullable: true })
  optionId: number | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  licencePlate: string | null;

  @DateColumn({ nullable: true })
  dateUsed: Date | null;

  @BoolColumn(false)
  inside: boolean;

  @DateColumn()
  createdAt: Date;
}

/** A group's default item (spec §3 Group assignDefaultMeal / assignDefaultParking). */
@Entity('group_extension')
@Index('UQ_group_extension_group_item', ['groupId', 'itemId'], { unique: true })
@Index('IDX_group_extension_itemId', ['itemId'])
export class GroupExtensionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  groupId: number;

  @Column({ type: 'int' })
  type: number;

  @Column({ type: 'int' })
  itemId: number;

  @Column({ type: 'int', nullable: true })
  optionId: number | null;
}
