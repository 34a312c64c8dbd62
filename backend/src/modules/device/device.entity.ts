import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

/**
 * A gate device (spec §3 Device): a station or browser gate screen paired with the subject through
 * the `bc` code of GET device/key. Only the SHA-256 of its token is stored; revoking clears it.
 */
@Entity('device')
@Index('UQ_device_subject_uid', ['subjectId', 'uid'], { unique: true })
export class DeviceEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 64 })
  uid: string;

  @Column({ type: 'int', nullable: true })
  deviceTemplateId: number | null;

  @Index('UQ_device_tokenHash', { unique: true })
  @Column({ type: 'varchar', length: 64, nullable: true })
  tokenHash: string | null;

  @DateColumn({ nullable: true })
  pairedAt: Date | null;

  @DateColumn({ nullable: true })
  lastSeenAt: Date | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  appVersion: string | null;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;
}

/** The template data as stored: the engine's `{mode, rules, globalRule}` (spec §3, §4). */
export interface DeviceTemplateData {
  mode: number;
  rules: unknown[];
  globalRule: unknown;
}

/** A rule set (spec §3 Device template): one action, an optional zone, mode, rules, global rule. */
@Entity('device_template')
@Index('IDX_device_template_subject_action', ['subjectId', 'actionId'])
export class DeviceTemplateEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  actionId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'int', nullable: true })
  zoneId: number | null;

  @JsonColumn()
  data: DeviceTemplateData;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;
}

/**
 * Every scan a device sent (online, or replayed from an offline upload) with the decision it got:
 * the nonce log of D16/D17 (unique per device) and the source of the refusal reports.
 */
@Entity('device_scan')
@Index('UQ_device_scan_device_nonce', ['deviceId', 'nonce'], { unique: true })
@Index('IDX_device_scan_action', ['actionId', 'day'])
export class DeviceScanEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  deviceId: number;

  @Column({ type: 'varchar', length: 64 })
  nonce: string;

  /** SHA-256 of code, direction and amount: a replay with another body is NONCE_CONFLICT */
  @Column({ type: 'varchar', length: 64 })
  requestHash: string;

  @Column({ type: 'int', nullable: true })
  actionId: number | null;

  @Column({ type: 'int', nullable: true })
  deviceTemplateId: number | null;

  @Column({ type: 'int', nullable: true })
  accreditationId: number | null;

  /** 1 entry, 0 exit */
  @Column({ type: 'int' })
  direction: number;

  @BoolColumn(false)
  allowed: boolean;

  @Column({ type: 'varchar', length: 32 })
  reason: string;

  /** the whole answer (the engine's decision plus the person shown), returned again on a replay */
  @JsonColumn()
  decision: Record<string, unknown>;

  @BoolColumn(false)
  offline: boolean;

  /** an offline scan whose replay on the server decided otherwise than the station (D20) */
  @BoolColumn(false)
  violation: boolean;

  /** the decision's moment: the server clock online, the station's scan time offline (D19) */
  @DateColumn()
  scanAt: Date;

  /** the subject's calendar day of scanAt (D19), what reports group and filter by */
  @Column({ type: 'varchar', length: 10 })
  day: string;

  /** the device clock, for diagnosis only */
  @DateColumn({ nullable: true })
  deviceTime: Date | null;

  @DateColumn()
  createdAt: Date;
}

/** Offline scans the server could not attach to a person of the subject (D20: never refused). */
@Entity('device_failed_scan')
@Index('IDX_device_failed_scan_device', ['deviceId', 'scanAt'])
export class DeviceFailedScanEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  deviceId: number;

  @Column({ type: 'varchar', length: 64 })
  nonce: string;

  /** the code as read, cut to 255 characters */
  @Column({ type: 'varchar', length: 255 })
  code: string;

  /** NOT_FOUND, OTHER_ACTION, INVALID_CODE, DEVICE_NOT_CONFIGURED */
  @Column({ type: 'varchar', length: 32 })
  reason: string;

  @DateColumn()
  scanAt: Date;

  @DateColumn()
  createdAt: Date;
}
