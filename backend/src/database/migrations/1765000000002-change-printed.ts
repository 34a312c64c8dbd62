import type { MigrationInterface, QueryRunner } from 'typeorm';
import { WATCHED } from './1764000400000-change-feed.js';
import { updateTrigger } from './1765000000001-change-search.js';

/** A person printed for the first time, or whose prints were all taken back. */
const PRINTED = {
  sqlite: '(NEW.printCount > 0) IS NOT (OLD.printCount > 0)',
  mariadb: '(NEW.printCount > 0) <> (OLD.printCount > 0)',
};

/**
 * The change feed (`accreditation_change`) also records a person's first print (the print count
 * leaving 0, or returning to it), so that the feed's newest entry of an action says whether the
 * list's "printed" and "not printed" have changed since: the list keeps and mends the marks of a
 * walk of two conditions with one of them (a group and "printed": AccreditationService,
 * walk-marks.ts, issue 16). A reprint is no entry. A station told of it reads the person again:
 * once a person, when their badge is first printed.
 */
export class ChangePrinted1765000000002 implements MigrationInterface {
  name = 'ChangePrinted1765000000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER IF EXISTS TR_accreditation_change_upd');
    await q.query(updateTrigger(q, [...WATCHED, 'search'], [PRINTED]));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER IF EXISTS TR_accreditation_change_upd');
    await q.query(updateTrigger(q, [...WATCHED, 'search']));
  }
}
