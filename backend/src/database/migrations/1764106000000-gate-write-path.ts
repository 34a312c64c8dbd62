import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fewer index pages written per gate passage (issue 11 speed): IDX_entrance_template
 * (deviceTemplateId, accreditationId) duplicated what IDX_entrance_accreditation (accreditationId,
 * day) already finds — a person's few passages, filtered by template — and cost every passage one
 * more random index leaf in the log (~4 kB of the ~16 kB a scan wrote). The gate's "passages under
 * this template" and the station sync's per-person reads now use IDX_entrance_accreditation.
 * Raw DROP INDEX: TypeORM's schema calls may rebuild a SQLite table (and drop its triggers).
 */
export class GateWritePath1764106000000 implements MigrationInterface {
  name = 'GateWritePath1764106000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb')
      await q.query('DROP INDEX `IDX_entrance_template` ON `entrance`');
    else await q.query('DROP INDEX IF EXISTS "IDX_entrance_template"');
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'mariadb')
      await q.query('CREATE INDEX `IDX_entrance_template` ON `entrance` (`deviceTemplateId`, `accreditationId`)');
    else await q.query('CREATE INDEX "IDX_entrance_template" ON "entrance" ("deviceTemplateId", "accreditationId")');
  }
}
