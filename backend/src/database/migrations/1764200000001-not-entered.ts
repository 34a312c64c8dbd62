import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

const TRIGGERS = [
  'TR_accreditation_not_entered_ins',
  'TR_accreditation_not_entered_upd',
  'TR_accreditation_not_entered_del',
  'TR_entrance_not_entered_ins',
  'TR_entrance_not_entered_del',
];

/**
 * The list's "not entered" filter at a million people (issue 16, bench/accreditation-list.mjs):
 * `accreditation_not_entered` (action, accreditation) holds the people of an action with no entry
 * (`entrance` type 1 of that action) yet, so the filter is one index range in id order, its page
 * read newest first and its capped count ≤ COUNT_CAP + 1 entries, instead of a probe of the entry
 * log per person (50,000 probes for the capped count at 1 in 5).
 *
 * Kept by triggers in the writing transaction, so no path can forget it: a new accreditation is
 * not entered (every way in: admin, import, online registration, copy); its first entry (the gate's
 * scan, the station's upload, any insert into `entrance`) deletes its row, one primary-key delete
 * (a no-op for every later passage); a deleted entry puts the row back when no other entry of the
 * action remains and the person is still there; a deleted accreditation takes its row along, a
 * change of action (none of the app's paths does one) moves it. The migration fills it from the
 * accreditations and the entry log already there.
 *
 * On SQLite a later migration that rebuilds `accreditation` (TypeORM's addColumn, changeColumn …)
 * drops the accreditation triggers: add columns with ALTER TABLE there, or re-create these.
 */
export class NotEntered1764200000001 implements MigrationInterface {
  name = 'NotEntered1764200000001';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const mariadb = q.connection.driver.options.type === 'mariadb';
    await q.createTable(
      new Table({
        name: 'accreditation_not_entered',
        columns: [
          { ...c.int('actionId'), isPrimary: true },
          { ...c.int('accreditationId'), isPrimary: true },
        ],
      }),
    );
    const ignore = mariadb ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
    const dual = mariadb ? ' FROM DUAL' : '';
    const trigger = (name: string, event: string, table: string, body: string[], when?: string) =>
      mariadb
        ? `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW ${
            when
              ? `IF ${when} THEN ${body.join('; ')}; END IF`
              : body.length > 1
                ? `BEGIN ${body.join('; ')}; END`
                : body[0]
          }`
        : `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW${when ? ` WHEN ${when}` : ''} BEGIN ${body.join('; ')}; END`;
    // no entry of this action for this person, probed by IDX_entrance_accreditation (person, day):
    // the unary `+` keeps SQLite without statistics from taking IDX_entrance_filter (action, type,
    // …) for its two equalities, a walk of the action's whole entry log per person
    const noEntry = (action: string, person: string) =>
      `NOT EXISTS (SELECT 1 FROM entrance e WHERE e.accreditationId = ${person} AND +e.actionId = ${action} AND +e.type = 1)`;

    await q.query(
      `INSERT INTO accreditation_not_entered (actionId, accreditationId)
       SELECT a.actionId, a.id FROM accreditation a WHERE ${noEntry('a.actionId', 'a.id')}`,
    );
    await q.query(
      trigger('TR_accreditation_not_entered_ins', 'INSERT', 'accreditation', [
        `${ignore} INTO accreditation_not_entered (actionId, accreditationId) VALUES (NEW.actionId, NEW.id)`,
      ]),
    );
    await q.query(
      trigger('TR_accreditation_not_entered_del', 'DELETE', 'accreditation', [
        'DELETE FROM accreditation_not_entered WHERE actionId = OLD.actionId AND accreditationId = OLD.id',
      ]),
    );
    await q.query(
      trigger(
        'TR_accreditation_not_entered_upd',
        mariadb ? 'UPDATE' : 'UPDATE OF actionId',
        'accreditation',
        [
          'DELETE FROM accreditation_not_entered WHERE actionId = OLD.actionId AND accreditationId = OLD.id',
          `${ignore} INTO accreditation_not_entered (actionId, accreditationId) SELECT NEW.actionId, NEW.id${dual} WHERE ${noEntry('NEW.actionId', 'NEW.id')}`,
        ],
        mariadb ? 'NOT (NEW.actionId <=> OLD.actionId)' : 'NEW.actionId IS NOT OLD.actionId',
      ),
    );
    await q.query(
      trigger(
        'TR_entrance_not_entered_ins',
        'INSERT',
        'entrance',
        [
          'DELETE FROM accreditation_not_entered WHERE actionId = NEW.actionId AND accreditationId = NEW.accreditationId',
        ],
        'NEW.type = 1',
      ),
    );
    await q.query(
      trigger(
        'TR_entrance_not_entered_del',
        'DELETE',
        'entrance',
        [
          `${ignore} INTO accreditation_not_entered (actionId, accreditationId) SELECT a.actionId, a.id FROM accreditation a WHERE a.id = OLD.accreditationId AND a.actionId = OLD.actionId AND ${noEntry('OLD.actionId', 'OLD.accreditationId')}`,
        ],
        'OLD.type = 1',
      ),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    await q.dropTable('accreditation_not_entered');
  }
}
