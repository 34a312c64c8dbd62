import fs from 'node:fs';
import path from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/config.js';
import { AdminUserEntity } from '../modules/admin-user/admin-user.entity.js';
import { MailQueueEntity } from '../modules/mail/mail-queue.entity.js';
import { OperatorEntity } from '../modules/manage/operator.entity.js';
import { RateLimitEntity } from '../modules/rate-limit/rate-limit.entity.js';
import { AccountLinkEntity } from '../modules/session/account-link.entity.js';
import { SessionTokenEntity } from '../modules/session/session-token.entity.js';
import { SubjectEntity } from '../modules/subject/subject.entity.js';
import { Init1763780000000 } from './migrations/1763780000000-init.js';
import { EventSetup1763790000000 } from './migrations/1763790000000-event-setup.js';
import { Accreditation1763800000000 } from './migrations/1763800000000-accreditation.js';
import { AccreditationSearch1763810000000 } from './migrations/1763810000000-accreditation-search.js';
import { WebChannel1763830000000 } from './migrations/1763830000000-web-channel.js';
import {
  WebChannelCodeEntity,
  WebChannelCodeLogEntity,
  WebChannelEntity,
  WebChannelUserEntity,
} from '../modules/web-channel/web-channel.entity.js';
import { ImageImport1763845000000 } from './migrations/1763845000000-image-import.js';
import { Entrance1763850000000 } from './migrations/1763850000000-entrance.js';
import { PrintLog1763820000000 } from './migrations/1763820000000-print-log.js';
import { PrintLogEntity } from '../modules/accreditation/print-log.entity.js';
import { AccreditationSearchIndex1763860000000 } from './migrations/1763860000000-accreditation-search-index.js';
import { AccreditationFilterIndexes1763870000000 } from './migrations/1763870000000-accreditation-filter-indexes.js';
import { EntranceEntity } from '../modules/accreditation/entrance.entity.js';
import { ImageImportEntity } from '../modules/accreditation/image-import.entity.js';
import { MailAccreditation1763840000000 } from './migrations/1763840000000-mail-accreditation.js';
import { MailRecovery1764000100000 } from './migrations/1764000100000-mail-recovery.js';
import {
  AccreditationEntity,
  AccreditationGroupEntity,
  AccreditationValueEntity,
  AccreditationZoneEntity,
  CreditTransactionEntity,
} from '../modules/accreditation/accreditation.entity.js';
import { ActionEntity } from '../modules/action/action.entity.js';
import { CustomFieldEntity } from '../modules/custom-field/custom-field.entity.js';
import { GroupEntity } from '../modules/groups/group.entity.js';
import { ImageEntity } from '../modules/image/image.entity.js';
import {
  MailTemplateEntity,
  MailTemplateTranslationEntity,
  TemplateEntity,
} from '../modules/template/template.entity.js';
import { ZoneEntity } from '../modules/zone/zone.entity.js';
import {
  DeviceEntity,
  DeviceFailedScanEntity,
  DeviceScanEntity,
  DeviceTemplateEntity,
} from '../modules/device/device.entity.js';
import { Device1764000200000 } from './migrations/1764000200000-device.js';
import { PdfJob1764000300000 } from './migrations/1764000300000-pdf-job.js';
import { ChangeFeed1764000400000 } from './migrations/1764000400000-change-feed.js';
import { SearchFold1764100500000 } from './migrations/1764100500000-search-fold.js';
import { BadgeVersion1764100200000 } from './migrations/1764100200000-badge-version.js';
import { PdfJobEntity } from '../modules/pdf/pdf-job.entity.js';
import { ActionExtension1764100300000 } from './migrations/1764100300000-action-extension.js';
import { PdfJobRetry1764100800000 } from './migrations/1764100800000-pdf-job-retry.js';
import { AccreditationWebChannel1764101100011 } from './migrations/1764101100011-accreditation-web-channel.js';
import { ListScale1764105000000 } from './migrations/1764105000000-list-scale.js';
import { ValueTextIndex1764105100000 } from './migrations/1764105100000-value-text-index.js';
import { MailLanguage1764103000000 } from './migrations/1764103000000-mail-language.js';
import { DashboardCounts1764102000000 } from './migrations/1764102000000-dashboard-counts.js';
import { MailCountIndex1764102100000 } from './migrations/1764102100000-mail-count-index.js';
import { MailTotals1764102200000 } from './migrations/1764102200000-mail-totals.js';
import { Archive1764104000000 } from './migrations/1764104000000-archive.js';
import { SqliteCheckpointer } from './sqlite-checkpoint.js';
import { GateWritePath1764106000000 } from './migrations/1764106000000-gate-write-path.js';
import { MailDeferred1764107000000 } from './migrations/1764107000000-mail-deferred.js';
import { OnlineConfigVersion1764107100000 } from './migrations/1764107100000-online-config-version.js';
import { TrigramIndex1764108100000 } from './migrations/1764108100000-trigram-index.js';
import { NotEntered1764200000001 } from './migrations/1764200000001-not-entered.js';
import { TrigramPending1764300000001 } from './migrations/1764300000001-trigram-pending.js';
import { ListBlocks1764400000001 } from './migrations/1764400000001-list-blocks.js';
import { GroupCounts1764400000002 } from './migrations/1764400000002-group-counts.js';
import { InsertTriggers1764500000001 } from './migrations/1764500000001-insert-triggers.js';
import { GroupPersonIndex1764600000001 } from './migrations/1764600000001-group-person-index.js';
import { ListFacets1764700000001 } from './migrations/1764700000001-list-facets.js';
import { ZoneCounts1764800000001 } from './migrations/1764800000001-zone-counts.js';
import { SearchById1764900000001 } from './migrations/1764900000001-search-by-id.js';
import { ChangeSearch1765000000001 } from './migrations/1765000000001-change-search.js';
import { ChangePrinted1765000000002 } from './migrations/1765000000002-change-printed.js';
import { ImportBookkeeping1765100000001 } from './migrations/1765100000001-import-bookkeeping.js';
import { ImportGuardVariable1765200000001 } from './migrations/1765200000001-import-guard-variable.js';
import { ValuePersonIndex1764900000002 } from './migrations/1764900000002-value-person-index.js';
import {
  AccreditationExtensionEntity,
  ExtensionItemEntity,
  ExtensionOptionEntity,
  GroupExtensionEntity,
} from '../modules/action-extension/action-extension.entity.js';

export const ENTITIES = [
  SubjectEntity,
  AdminUserEntity,
  OperatorEntity,
  SessionTokenEntity,
  AccountLinkEntity,
  MailQueueEntity,
  RateLimitEntity,
  ActionEntity,
  CustomFieldEntity,
  GroupEntity,
  ZoneEntity,
  TemplateEntity,
  MailTemplateEntity,
  MailTemplateTranslationEntity,
  ImageEntity,
  AccreditationEntity,
  AccreditationGroupEntity,
  AccreditationZoneEntity,
  AccreditationValueEntity,
  CreditTransactionEntity,
  EntranceEntity,
  ImageImportEntity,
  PrintLogEntity,
  WebChannelEntity,
  WebChannelUserEntity,
  WebChannelCodeEntity,
  WebChannelCodeLogEntity,
  DeviceEntity,
  DeviceTemplateEntity,
  DeviceScanEntity,
  DeviceFailedScanEntity,
  PdfJobEntity,
  ExtensionItemEntity,
  ExtensionOptionEntity,
  AccreditationExtensionEntity,
  GroupExtensionEntity,
];
export const MIGRATIONS = [
  Init1763780000000,
  EventSetup1763790000000,
  Accreditation1763800000000,
  AccreditationSearch1763810000000,
  PrintLog1763820000000,
  WebChannel1763830000000,
  MailAccreditation1763840000000,
  ImageImport1763845000000,
  Entrance1763850000000,
  AccreditationSearchIndex1763860000000,
  AccreditationFilterIndexes1763870000000,
  MailRecovery1764000100000,
  Device1764000200000,
  PdfJob1764000300000,
  ChangeFeed1764000400000,
  BadgeVersion1764100200000,
  ActionExtension1764100300000,
  PdfJobRetry1764100800000,
  SearchFold1764100500000,
  AccreditationWebChannel1764101100011,
  DashboardCounts1764102000000,
  MailCountIndex1764102100000,
  MailTotals1764102200000,
  Archive1764104000000,
  MailLanguage1764103000000,
  ListScale1764105000000,
  ValueTextIndex1764105100000,
  GateWritePath1764106000000,
  MailDeferred1764107000000,
  OnlineConfigVersion1764107100000,
  TrigramIndex1764108100000,
  NotEntered1764200000001,
  TrigramPending1764300000001,
  ListBlocks1764400000001,
  GroupCounts1764400000002,
  InsertTriggers1764500000001,
  GroupPersonIndex1764600000001,
  ListFacets1764700000001,
  ZoneCounts1764800000001,
  SearchById1764900000001,
  ValuePersonIndex1764900000002,
  ChangeSearch1765000000001,
  ChangePrinted1765000000002,
  ImportBookkeeping1765100000001,
  ImportGuardVariable1765200000001,
];

type SqliteConnection = Parameters<typeof SqliteCheckpointer.attach>[0];

/** Data source options for either database; never `synchronize`: the migrations build the schema. */
export function dataSourceOptions(db: DatabaseConfig): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    logging: false,
  } as const;
  if (db.type === 'sqlite') {
    if (db.file !== ':memory:') fs.mkdirSync(path.dirname(db.file), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: db.file,
      enableWAL: db.file !== ':memory:',
      prepareDatabase: (conn: SqliteConnection) => {
        conn.pragma('busy_timeout = 5000');
        conn.pragma('foreign_keys = ON');
        // WAL now (TypeORM sets it only after this): the log's checkpoints leave the event loop
        if (db.file !== ':memory:') {
          conn.pragma('journal_mode = WAL');
          SqliteCheckpointer.attach(conn);
        }
      },
    };
  }
  // 'mariadb' rather than 'mysql': with 'mysql' a schema diff against MariaDB never goes away.
  return {
    ...common,
    type: 'mariadb',
    url: db.url,
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    extra: { connectionLimit: 20 },
  };
}

/** On MySQL/MariaDB the database named in DATABASE_URL is created when it does not exist yet. */
export async function ensureDatabaseExists(db: DatabaseConfig): Promise<void> {
  if (db.type !== 'mariadb') return;
  const url = new URL(db.url);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL must name a database, e.g. mysql://user:pass@host:3306/accredo');
  if (!/^[A-Za-z0-9_$-]+$/.test(name)) throw new Error(`DATABASE_URL names an unusable database: ${name}`);
  url.pathname = '/';
  const admin = new DataSource({ type: 'mariadb', url: url.toString() });
  await admin.initialize();
  try {
    await admin.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.destroy();
  }
}

export async function openDatabase(db: DatabaseConfig): Promise<DataSource> {
  await ensureDatabaseExists(db);
  const ds = new DataSource(dataSourceOptions(db));
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  return ds;
}
