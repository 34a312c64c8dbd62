import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The records that can be archived instead of deleted (issue 15, docs/archive.md). */
const TABLES = ['action', 'web_channel', 'groups', 'template'];

/**
 * `archivedAt` (issue 15): when the record was archived, null while it is in use. An archived
 * record keeps everything that refers to it but is hidden from lists and pickers and is no target
 * of anything new. Added with ALTER TABLE … ADD COLUMN on both databases: a nullable column with no
 * default needs no table rebuild (TypeORM's addColumn rebuilds the table on SQLite).
 */
export class Archive1764104000000 implements MigrationInterface {
  name = 'Archive1764104000000';

  async up(q: QueryRunner): Promise<void> {
    const mariadb = q.connection.driver.options.type === 'mariadb';
    for (const table of TABLES) {
      if (mariadb) await q.query(`ALTER TABLE \`${table}\` ADD COLUMN \`archivedAt\` datetime(3) NULL`);
      else await q.query(`ALTER TABLE "${table}" ADD COLUMN "archivedAt" datetime(3)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const mariadb = q.connection.driver.options.type === 'mariadb';
    for (const table of TABLES) {
      if (mariadb) await q.query(`ALTER TABLE \`${table}\` DROP COLUMN \`archivedAt\``);
      else await q.query(`ALTER TABLE "${table}" DROP COLUMN "archivedAt"`);
    }
  }
}
