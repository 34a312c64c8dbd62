import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One counter that every admin change of what the online registration reads bumps in its own
 * transaction (web channels, subjects, actions, user fields, groups, zones, mail templates; see
 * web-channel/online-config.ts), so each instance may keep those rows in memory and still sees a
 * change at the next registration (issue 16). One row, id 1.
 */
export class OnlineConfigVersion1764107100000 implements MigrationInterface {
  name = 'OnlineConfigVersion1764107100000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb')
      await q.query('CREATE TABLE `online_config_version` (`id` int NOT NULL PRIMARY KEY, `version` int NOT NULL)');
    else
      await q.query(
        'CREATE TABLE "online_config_version" ("id" integer PRIMARY KEY NOT NULL, "version" integer NOT NULL)',
      );
    await q.query('INSERT INTO online_config_version (id, version) VALUES (1, 0)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE online_config_version');
  }
}
