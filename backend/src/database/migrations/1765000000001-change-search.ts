import type { MigrationInterface, QueryRunner } from 'typeorm';
import { WATCHED } from './1764000400000-change-feed.js';

/**
 * The feed's update trigger over these columns, as migration 1764000400000 wrote it, and over
 * these further conditions of NEW and OLD (as SQLite and MariaDB write them).
 */
export function updateTrigger(
  q: QueryRunner,
  watched: string[],
  also: { sqlite: string; mariadb: string }[] = [],
): string {
  const mariadb = q.connection.driver.options.type === 'mariadb';
  const now = mariadb
    ? 'ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)'
    : "CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)";
  const into = 'INSERT INTO accreditation_change (subjectId, actionId, accreditationId, kind, changedAt)';
  const differs = watched
    .map((col) => (mariadb ? `NOT (NEW.${col} <=> OLD.${col})` : `NEW.${col} IS NOT OLD.${col}`))
    .concat(also.map((c) => (mariadb ? c.mariadb : c.sqlite)))
    .join(' OR ');
  const body = [
    `${into} VALUES (NEW.subjectId, NEW.actionId, NEW.id, 1, ${now})`,
    // a person moved to another action is gone from the old one's gates
    `${into} SELECT OLD.subjectId, OLD.actionId, OLD.id, 2, ${now}${mariadb ? ' FROM DUAL' : ''} WHERE NOT (OLD.actionId = NEW.actionId)`,
  ];
  return mariadb
    ? `CREATE TRIGGER TR_accreditation_change_upd AFTER UPDATE ON accreditation FOR EACH ROW IF ${differs} THEN ${body.join('; ')}; END IF`
    : `CREATE TRIGGER TR_accreditation_change_upd AFTER UPDATE ON accreditation FOR EACH ROW WHEN ${differs} BEGIN ${body.join('; ')}; END`;
}

/**
 * The change feed (`accreditation_change`) also records a change of the search text (names,
 * e-mail, code: an e-mail changed alone was none), so that the feed's newest entry of an action
 * says whether anything a text filter reads has changed since: the list keeps the marks of a broad
 * text's walk while it has not (AccreditationService, walk-marks.ts, issue 16). A station told of
 * such a change reads the person again: harmless, and rare.
 */
export class ChangeSearch1765000000001 implements MigrationInterface {
  name = 'ChangeSearch1765000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER IF EXISTS TR_accreditation_change_upd');
    await q.query(updateTrigger(q, [...WATCHED, 'search']));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER IF EXISTS TR_accreditation_change_upd');
    await q.query(updateTrigger(q, WATCHED));
  }
}
