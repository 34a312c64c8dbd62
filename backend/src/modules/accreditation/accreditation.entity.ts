import { foldSearch } from '@accredo/domain';
import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

/** A person registered for an action (spec §3 Accreditation). */
@Entity('accreditation')
@Index('IDX_accreditation_list', ['subjectId', 'actionId', 'id'])
/** one e-mail per action (spec §5): two registrations racing with the same address cannot both win */
@Index('UQ_accreditation_action_email', ['actionId', 'email'], { unique: true })
@Index('UQ_accreditation_customId', ['actionId', 'customId'], { unique: true })
@Index('IDX_accreditation_actionId_imageName', ['actionId', 'imageName'])
/** the text filter's walk, newest first, from the index alone (issue 16, migration 1764900000001) */
@Index('IDX_accreditation_search', ['subjectId', 'actionId', 'id', 'search'])
/** the list's printed / not printed filter (issue 16) */
@Index('IDX_accreditation_printed', ['subjectId', 'actionId', 'printCount'])
/** the device protocol's changes since a cursor (issue 11) */
@Index('IDX_accreditation_changes', ['actionId', 'updatedAt', 'id'])
export class AccreditationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  actionId: number;

  /** order in the action (1, 2, 3 …) */
  @Column({ type: 'int' })
  customId: number;

  @Column({ type: 'varchar', length: 255 })
  firstname: string;

  @Column({ type: 'varchar', length: 255 })
  lastname: string;

  @Column({ type: 'varchar', length: 255 })
  email: string;

  /** the unguessable barcode / QR value */
  @Index('UQ_accreditation_bc', { unique: true })
  @Column({ type: 'varchar', length: 32 })
  bc: string;

  /** lower-cased "firstname lastname email bc" for the list's text filter (see the covering index) */
  @Column({ type: 'varchar', length: 760, default: '' })
  search: string;

  @JsonColumn()
  days: string[];

  /** user-field values by field id, in their typed shapes */
  @JsonColumn()
  fieldValues: Record<string, unknown>;

  @Column({ type: 'int', nullable: true })
  imageId: number | null;

  /** the photo's file name from the import sheet; the image import pairs uploaded files by it */
  @Column({ type: 'varchar', length: 255, nullable: true })
  imageName: string | null;

  @Column({ type: 'int', default: 0 })
  printCount: number;

  /**
   * The version of the valid badge (docs/access-control.md "Badge versions"): 0 for the first,
   * printed as the plain bc; a print with "replace the old badge" adds 1 and prints `{bc}-{version}`.
   */
  @Column({ type: 'int', default: 0 })
  badgeVersion: number;

  /** when the valid badge replaced the one before it (null: never replaced) */
  @DateColumn({ nullable: true })
  badgeReplacedAt: Date | null;

  @Column({ type: 'int', nullable: true })
  credit: number | null;

  @BoolColumn(false)
  isUnlimited: boolean;

  /** 'admin' or 'web' (registration source for the dashboard) */
  @Column({ type: 'varchar', length: 8, default: 'admin' })
  source: string;

  /** the web channel the person registered through; null when added in the office (issue 15) */
  @Index('IDX_accreditation_webChannelId')
  @Column({ type: 'int', nullable: true })
  webChannelId: number | null;

  /** the language the person registered in: every mail to them is written in it (issue 15) */
  @Column({ type: 'varchar', length: 2, default: 'cs' })
  language: string;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;
}

/** Groups of an accreditation: a join table, so filtering by group uses an index. */
@Entity('accreditation_group')
// (groupId, person): a group's people in id order (migration 1764600000001)
@Index('IDX_accreditation_group_person', ['groupId', 'accreditationId'])
export class AccreditationGroupEntity {
  @PrimaryColumn({ type: 'int' })
  accreditationId: number;

  @PrimaryColumn({ type: 'int' })
  groupId: number;
}

@Entity('accreditation_zone')
// (zoneId, person): a zone's people in id order (migration 1764800000001)
@Index('IDX_accreditation_zone_person', ['zoneId', 'accreditationId'])
export class AccreditationZoneEntity {
  @PrimaryColumn({ type: 'int' })
  accreditationId: number;

  @PrimaryColumn({ type: 'int' })
  zoneId: number;
}

/**
 * User-field values as searchable text (the filter panel), one row per field. `actionId` repeats
 * the accreditation's action (which never changes) so that a filter on one field of one action
 * reads one index range, and counts without touching the accreditations.
 */
@Entity('accreditation_value')
@Index('IDX_accreditation_value_field', ['fieldId', 'actionId', 'value'])
/** a field's values in person order: a page of a broad "contains" from the values alone (migration 1764900000002) */
@Index('IDX_accreditation_value_person', ['fieldId', 'actionId', 'accreditationId', 'value'])
export class AccreditationValueEntity {
  @PrimaryColumn({ type: 'int' })
  accreditationId: number;

  @PrimaryColumn({ type: 'int' })
  fieldId: number;

  @Column({ type: 'int' })
  actionId: number;

  @Column({ type: 'varchar', length: 500 })
  value: string;
}

/** Credit history (spec §3 Credit transaction): 1 deposit, 2 withdrawal, 3 correction. */
@Entity('credit_transaction')
@Index('IDX_credit_transaction_accreditation', ['accreditationId'])
export class CreditTransactionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  accreditationId: number;

  @Column({ type: 'int' })
  type: number;

  @Column({ type: 'int' })
  price: number;

  @Column({ type: 'int', nullable: true })
  deviceId: number | null;

  @Column({ type: 'int', nullable: true })
  adminUserId: number | null;

  @DateColumn()
  createdAt: Date;
}

/** The search text of an accreditation (see the `search` column): folded, so "novak" finds "Novák" on both databases. */
export function searchText(a: { firstname: string; lastname: string; email: string; bc: string }): string {
  return foldSearch(`${a.firstname} ${a.lastname} ${a.email} ${a.bc}`).slice(0, 760);
}
