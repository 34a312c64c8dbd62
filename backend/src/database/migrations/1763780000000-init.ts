import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import type { TableColumnOptions } from 'typeorm/schema-builder/options/TableColumnOptions.js';

/**
 * The foundation schema, written once with TypeORM's Table API so the same migration builds the
 * same schema on SQLite and MariaDB (a test proves entities and migrations agree on both).
 */
let idType = 'int';
const id = (): TableColumnOptions => ({
  name: 'id',
  type: idType,
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
});
const int = (name: string, nullable = false): TableColumnOptions => ({ name, type: idType, isNullable: nullable });
const varchar = (name: string, length: number, extra: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  ...extra,
});
const text = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'text', isNullable: nullable });
const bool = (name: string, def: boolean): TableColumnOptions => ({ name, type: 'boolean', default: def ? 1 : 0 });
const datetime = (name: string, nullable = false): TableColumnOptions => ({
  name,
  type: 'datetime',
  precision: 3,
  isNullable: nullable,
});

const unique = (table: string, column: string) => ({
  name: `UQ_${table}_${column}`,
  columnNames: [column],
  isUnique: true,
});

export class Init1763780000000 implements MigrationInterface {
  name = 'Init1763780000000';

  async up(q: QueryRunner): Promise<void> {
    // SQLite's auto-increment key must be declared INTEGER exactly, and TypeORM reads every
    // integer column of SQLite back as INTEGER: use it there so entities and schema agree.
    idType = q.connection.driver.options.type === 'mariadb' ? 'int' : 'integer';
    await q.createTable(
      new Table({
        name: 'subject',
        columns: [
          id(),
          varchar('name', 255),
          varchar('key', 64),
          varchar('deviceKey', 64),
          varchar('pathToFiles', 64),
          bool('multiLanguage', false),
          varchar('timeZone', 64, { default: "'Europe/Prague'" }),
          text('extensions'),
          datetime('createdAt'),
        ],
        indices: [unique('subject', 'key'), unique('subject', 'deviceKey'), unique('subject', 'pathToFiles')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'admin_user',
        columns: [
          id(),
          int('subjectId'),
          varchar('login', 255),
          varchar('passwordHash', 255, { isNullable: true }),
          varchar('name', 255),
          bool('active', true),
          bool('verified', false),
          bool('superuser', false),
          bool('manageuser', false),
          text('rights'),
          varchar('language', 2, { default: "'cs'" }),
          int('lastActionId', true),
          int('actionId', true),
          datetime('createdAt'),
          datetime('updatedAt'),
        ],
        indices: [unique('admin_user', 'login'), { name: 'IDX_admin_user_subjectId', columnNames: ['subjectId'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'operator',
        columns: [
          id(),
          varchar('email', 255),
          varchar('passwordHash', 255),
          varchar('name', 255),
          datetime('createdAt'),
        ],
        indices: [unique('operator', 'email')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'session_token',
        columns: [
          id(),
          varchar('kind', 16),
          int('principalId'),
          { name: 'tokenHash', type: 'varchar', length: '64' },
          int('subjectId', true),
          datetime('expiresAt'),
          datetime('createdAt'),
          datetime('lastUsedAt'),
        ],
        indices: [
          unique('session_token', 'tokenHash'),
          { name: 'IDX_session_token_principal', columnNames: ['kind', 'principalId'] },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'account_link',
        columns: [
          id(),
          int('adminUserId'),
          varchar('kind', 16),
          { name: 'linkHash', type: 'varchar', length: '64' },
          datetime('expiresAt'),
          datetime('usedAt', true),
          datetime('createdAt'),
        ],
        indices: [unique('account_link', 'linkHash')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'mail_queue',
        columns: [
          id(),
          int('subjectId', true),
          varchar('recipient', 255),
          varchar('subject', 500),
          text('bodyText'),
          text('bodyHtml', true),
          varchar('status', 16, { default: "'waiting'" }),
          { name: 'attempts', type: idType, default: 0 },
          datetime('nextAttemptAt'),
          datetime('claimedAt', true),
          datetime('sentAt', true),
          text('failReason', true),
          int('adminUserId', true),
          int('mailTemplateId', true),
          varchar('note', 500, { isNullable: true }),
          datetime('createdAt'),
        ],
        indices: [
          { name: 'IDX_mail_queue_due', columnNames: ['status', 'nextAttemptAt'] },
          { name: 'IDX_mail_queue_subjectId', columnNames: ['subjectId'] },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'rate_limit',
        columns: [
          { name: 'key', type: 'varchar', length: '191', isPrimary: true },
          { name: 'count', type: idType, default: 0 },
          datetime('windowStart'),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'rate_limit',
      'mail_queue',
      'account_link',
      'session_token',
      'operator',
      'admin_user',
      'subject',
    ]) {
      await q.dropTable(t);
    }
  }
}
