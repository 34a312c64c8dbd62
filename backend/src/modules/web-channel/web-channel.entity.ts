import type { MultiText } from '@accredo/domain';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateColumn, JsonColumn } from '../../database/columns.js';

/**
 * A web channel: one public online registration form for an action (spec §3 Web channel). The
 * authorization type is kept as the spec's two flags (byPassword, byCode).
 */
@Entity('web_channel')
@Index('IDX_web_channel_subject_action', ['subjectId', 'actionId'])
export class WebChannelEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  subjectId: number;

  @Column({ type: 'int' })
  actionId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** the unguessable, URL-safe key of the public link /app/online/{channelKey} */
  @Index('UQ_web_channel_channelKey', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  channelKey: string;

  @BoolColumn(true)
  active: boolean;

  /** venue wall clock YYYY-MM-DDTHH:mm; null = no limit */
  @Column({ type: 'varchar', length: 16, nullable: true })
  dateFrom: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  dateTo: string | null;

  @BoolColumn(false)
  viewGroups: boolean;

  @JsonColumn()
  groupsSelectName: MultiText;

  @JsonColumn()
  groupsId: number[];

  @BoolColumn(false)
  viewDays: boolean;

  @JsonColumn()
  daysSelectName: MultiText;

  @JsonColumn()
  defaultDays: string[];

  @BoolColumn(false)
  viewMealSelect: boolean;

  @BoolColumn(false)
  viewParkingSelect: boolean;

  @JsonColumn()
  customNameFirstname: MultiText;

  @JsonColumn()
  customNameLastname: MultiText;

  @JsonColumn()
  customNameEmail: MultiText;

  /** afterAdd.action: 1 add next, 2 nothing */
  @Column({ type: 'int', default: 1 })
  afterAddAction: number;

  @Column({ type: 'int', nullable: true })
  mailTemplateId: number | null;

  /** user fields shown (ids); empty = all the action does not hide */
  @JsonColumn()
  customField: number[];

  @BoolColumn(false)
  withAuthorization: boolean;

  @BoolColumn(false)
  byPassword: boolean;

  @BoolColumn(false)
  byCode: boolean;

  @JsonColumn()
  authorizationText: MultiText;

  /** scrypt hash of the channel password (type 1); never returned */
  @Column({ type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  /** the uses a code gets when added without a count */
  @Column({ type: 'int', default: 0 })
  numberUseExtCode: number;

  /** the logo (a gallery image) */
  @Column({ type: 'int', nullable: true })
  imageId: number | null;

  @DateColumn()
  createdAt: Date;

  @DateColumn()
  updatedAt: Date;

  /** when it was archived (issue 15, docs/archive.md): its form is closed; null while in use */
  @DateColumn({ nullable: true })
  archivedAt: Date | null;
}

/** A login user of a channel with authorization type 2. */
@Entity('web_channel_user')
@Index('UQ_web_channel_user_channel_login', ['channelId', 'login'], { unique: true })
export class WebChannelUserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  channelId: number;

  /** trimmed and lower-cased */
  @Column({ type: 'varchar', length: 255 })
  login: string;

  @Column({ type: 'varchar', length: 255 })
  passwordHash: string;

  @BoolColumn(true)
  active: boolean;

  @DateColumn()
  createdAt: Date;
}

/**
 * An external code of a channel with authorization type 3 (spec §3 External code). `used` only ever
 * grows by one atomic conditional update per registration, so it never passes numberOfUse.
 */
@Entity('web_channel_code')
@Index('UQ_web_channel_code_channel_code', ['channelId', 'code'], { unique: true })
export class WebChannelCodeEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  channelId: number;

  /** trimmed and upper-cased */
  @Column({ type: 'varchar', length: 64 })
  code: string;

  /** 0 = unlimited */
  @Column({ type: 'int', default: 0 })
  numberOfUse: number;

  @Column({ type: 'int', default: 0 })
  used: number;

  @DateColumn()
  createdAt: Date;
}

/** One registration made with a code: the code's usage log. */
@Entity('web_channel_code_log')
@Index('IDX_web_channel_code_log_codeId', ['codeId'])
export class WebChannelCodeLogEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  codeId: number;

  @Column({ type: 'int' })
  accreditationId: number;

  @DateColumn()
  date: Date;

  @Column({ type: 'varchar', length: 255 })
  firstname: string;

  @Column({ type: 'varchar', length: 255 })
  lastname: string;

  @Column({ type: 'varchar', length: 255 })
  email: string;
}
