import type {
  DataSource,
  EntitySubscriberInterface,
  InsertEvent,
  ObjectLiteral,
  RemoveEvent,
  SoftRemoveEvent,
  UpdateEvent,
} from 'typeorm';
import { preparedReader } from '../../database/prepared.js';
import { ReadBatch } from '../../database/read-batch.js';
import { isSqlite } from '../device/sql.js';
import { ActionEntity } from '../action/action.entity.js';
import { CustomFieldEntity } from '../custom-field/custom-field.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { MailTemplateEntity, MailTemplateTranslationEntity } from '../template/template.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import { WebChannelEntity } from './web-channel.entity.js';

/** What an online registration reads of the admin's set-up: a change of any of these bumps the version. */
const WATCHED: ReadonlySet<unknown> = new Set([
  WebChannelEntity,
  SubjectEntity,
  ActionEntity,
  CustomFieldEntity,
  GroupEntity,
  ZoneEntity,
  MailTemplateEntity,
  MailTemplateTranslationEntity,
]);

const BUMP = 'UPDATE online_config_version SET version = version + 1 WHERE id = 1';

/**
 * The version of the online registration's set-up (issue 16): every insert, update or delete of a
 * watched entity through TypeORM (save, insert, update, delete, query builders) bumps one database
 * row in the same transaction, so every instance sees it at its next registration. A registration
 * reads the version first and then, only when it changed, the rows; rows read under an older
 * version are never used once a newer one is seen.
 */
export class OnlineConfigVersion implements EntitySubscriberInterface {
  /**
   * MariaDB: the registrations that ask while a read of the version is on the server share the
   * next one (ReadBatch: never a read sent before they asked, so an admin's change committed
   * before a registration arrived is seen by it); a rush asks once a round trip, not once a visitor.
   */
  private readonly shared: ReadBatch<0, number> | null;

  constructor(private readonly ds: DataSource) {
    ds.subscribers.push(this);
    this.shared = isSqlite(ds)
      ? null
      : new ReadBatch(async () => new Map([[0, await this.read()]] as const), { maxKeys: 1, maxInFlight: 2 });
  }

  async current(): Promise<number> {
    return this.shared ? ((await this.shared.get(0)) ?? 0) : this.read();
  }

  private async read(): Promise<number> {
    // a prepared read on the driver: every registration reads it (issue 16)
    const rows = await preparedReader(this.ds).all<{ version: number | string }>(
      'SELECT version FROM online_config_version WHERE id = 1',
      [],
    );
    return Number(rows[0]?.version ?? 0);
  }

  private async bump(event: { metadata?: { target: unknown }; queryRunner: { query(sql: string): Promise<unknown> } }) {
    if (event.metadata && WATCHED.has(event.metadata.target)) await event.queryRunner.query(BUMP);
  }

  afterInsert(event: InsertEvent<ObjectLiteral>) {
    return this.bump(event);
  }
  afterUpdate(event: UpdateEvent<ObjectLiteral>) {
    return this.bump(event);
  }
  afterRemove(event: RemoveEvent<ObjectLiteral>) {
    return this.bump(event);
  }
  afterSoftRemove(event: SoftRemoveEvent<ObjectLiteral>) {
    return this.bump(event);
  }
}

const versions = new WeakMap<DataSource, OnlineConfigVersion>();

/** The data source's one OnlineConfigVersion (its subscriber bumps the row once per write). */
export function configVersionOf(ds: DataSource): OnlineConfigVersion {
  let found = versions.get(ds);
  if (!found) {
    found = new OnlineConfigVersion(ds);
    versions.set(ds, found);
  }
  return found;
}
