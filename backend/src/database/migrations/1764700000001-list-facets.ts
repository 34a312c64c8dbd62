import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';
import { MERGED } from './1764500000001-insert-triggers.js';
import { LIST_BLOCK_SIZE } from './1764400000001-list-blocks.js';

/** The facets counted, as `accreditation_facet_block.facet` holds them. */
export const FACET = {
  printed: 'printed',
  notEntered: 'not_entered',
  /** the people with an entry (type 1) of the action on this day (YYYY-MM-DD: 18 characters) */
  enteredOn: (day: string) => `entered:${day}`,
};

const TRIGGERS = [
  'TR_accreditation_printed_ins',
  'TR_accreditation_printed_upd',
  'TR_accreditation_printed_del',
  'TR_accreditation_not_entered_facet_ins',
  'TR_accreditation_not_entered_facet_upd',
  'TR_accreditation_not_entered_facet_del',
  'TR_accreditation_entered_del',
  'TR_accreditation_entered_upd',
  'TR_entrance_entered_ins',
  'TR_entrance_entered_upd',
  'TR_entrance_entered_del',
  'TR_entrance_not_entered_upd',
];

/**
 * A deep page of the list filtered by printed, entered or not entered at a million people (issue
 * 16, bench/accreditation-list.mjs "… random page"): the filter alone walked the action's people
 * newest first probing each one, a page 50,000 deep read 500,000 rows (SQLite 200–500 ms, MariaDB
 * 0.8–1.5 s at a million). `accreditation_facet_block` (action, facet, block = id DIV 4096, n)
 * counts, per block of the list's ids (the blocks of `accreditation_block`, migration
 * 1764400000001), the action's people in each facet:
 * - `printed`: people with `printCount > 0` (the complement: not printed);
 * - `not_entered`: the rows of `accreditation_not_entered` (migration 1764200000001; the complement:
 *   entered on any day);
 * - `entered:YYYY-MM-DD`: people with at least one entry (`entrance` type 1) of the action that day
 *   (the complement: not entered that day).
 * A page is then found by summing a facet's blocks (or the action's blocks less them) newest first
 * until the offset falls inside one, and the walk starts at that block's end, reading at most a
 * block's people (AccreditationService `facetPage`).
 *
 * Kept by triggers in the writing transaction, like the blocks: on `accreditation` for printed (a
 * print, any insert or delete, a change of action or id), on `accreditation_not_entered` for its
 * rows (whatever writes them: its own triggers), on `entrance` for the days (an entry counts its
 * person the first time that day; a deleted entry uncounts when no other entry of that day is
 * left; an entry counts only while its person is in its action, and a person deleted or moved to
 * another action takes their days along). A block that reaches 0 is removed. The migration fills
 * the table from the rows there.
 * On MariaDB the printed count of a new person joins the one insert trigger of `accreditation`
 * (migration 1764500000001).
 *
 * On SQLite a later migration that rebuilds `accreditation` or `entrance` drops these triggers
 * (see schema.spec).
 */
export class ListFacets1764700000001 implements MigrationInterface {
  name = 'ListFacets1764700000001';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const mariadb = q.connection.driver.options.type === 'mariadb';
    await q.createTable(
      new Table({
        name: 'accreditation_facet_block',
        columns: [
          { ...c.int('actionId'), isPrimary: true },
          { ...c.varchar('facet', 24), isPrimary: true },
          { ...c.int('block'), isPrimary: true },
          c.int('n', false, 0),
        ],
      }),
    );
    const block = (id: string) => (mariadb ? `${id} DIV ${LIST_BLOCK_SIZE}` : `${id} / ${LIST_BLOCK_SIZE}`);
    const entered = (day: string) => (mariadb ? `CONCAT('entered:', ${day})` : `'entered:' || ${day}`);
    const upsert = mariadb
      ? 'ON DUPLICATE KEY UPDATE n = n + 1'
      : 'ON CONFLICT (actionId, facet, block) DO UPDATE SET n = n + 1';
    // one more of the facet in the person's block; `when`: only if it holds (SQLite's upsert needs
    // the SELECT's WHERE, which `1 = 1` gives where there is no condition)
    const add = (action: string, facet: string, person: string, when = '1 = 1') =>
      `INSERT INTO accreditation_facet_block (actionId, facet, block, n) SELECT ${action}, ${facet}, ${block(person)}, 1${mariadb ? ' FROM DUAL' : ''} WHERE ${when} ${upsert}`;
    const remove = (action: string, facet: string, person: string, when = '1 = 1') => {
      const key = `actionId = ${action} AND facet = ${facet} AND block = ${block(person)}`;
      return [
        `UPDATE accreditation_facet_block SET n = n - 1 WHERE ${key} AND ${when}`,
        `DELETE FROM accreditation_facet_block WHERE ${key} AND n <= 0`,
      ];
    };
    const trigger = (name: string, event: string, table: string, body: string[], when?: string) =>
      mariadb
        ? `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW ${
            when ? `IF ${when} THEN ${body.join('; ')}; END IF` : `BEGIN ${body.join('; ')}; END`
          }`
        : `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW${when ? ` WHEN ${when}` : ''} BEGIN ${body.join('; ')}; END`;
    const changed = (cols: string[]) =>
      cols.map((col) => (mariadb ? `NOT (NEW.${col} <=> OLD.${col})` : `NEW.${col} IS NOT OLD.${col}`)).join(' OR ');

    // printed
    await q.query(
      `INSERT INTO accreditation_facet_block (actionId, facet, block, n)
       SELECT actionId, '${FACET.printed}', ${block('id')}, COUNT(*) FROM accreditation WHERE printCount > 0 GROUP BY actionId, ${block('id')}`,
    );
    const printed = `'${FACET.printed}'`;
    if (mariadb) {
      await q.query('DROP TRIGGER IF EXISTS TR_accreditation_ins');
      await q.query(`CREATE TRIGGER TR_accreditation_ins ${printedOnInsert(add('NEW.actionId', printed, 'NEW.id'))}`);
    } else
      await q.query(
        trigger(
          'TR_accreditation_printed_ins',
          'INSERT',
          'accreditation',
          [add('NEW.actionId', printed, 'NEW.id')],
          'NEW.printCount > 0',
        ),
      );
    await q.query(
      trigger(
        'TR_accreditation_printed_del',
        'DELETE',
        'accreditation',
        remove('OLD.actionId', printed, 'OLD.id'),
        'OLD.printCount > 0',
      ),
    );
    await q.query(
      trigger(
        'TR_accreditation_printed_upd',
        mariadb ? 'UPDATE' : 'UPDATE OF printCount, actionId, id',
        'accreditation',
        [
          ...remove('OLD.actionId', printed, 'OLD.id', 'OLD.printCount > 0'),
          add('NEW.actionId', printed, 'NEW.id', 'NEW.printCount > 0'),
        ],
        `${mariadb ? '(OLD.printCount > 0) <> (NEW.printCount > 0)' : '(OLD.printCount > 0) IS NOT (NEW.printCount > 0)'} OR ${changed(['actionId', 'id'])}`,
      ),
    );

    // not entered: the rows of accreditation_not_entered
    const notEntered = `'${FACET.notEntered}'`;
    await q.query(
      `INSERT INTO accreditation_facet_block (actionId, facet, block, n)
       SELECT actionId, ${notEntered}, ${block('accreditationId')}, COUNT(*) FROM accreditation_not_entered GROUP BY actionId, ${block('accreditationId')}`,
    );
    await q.query(
      trigger('TR_accreditation_not_entered_facet_ins', 'INSERT', 'accreditation_not_entered', [
        add('NEW.actionId', notEntered, 'NEW.accreditationId'),
      ]),
    );
    await q.query(
      trigger(
        'TR_accreditation_not_entered_facet_del',
        'DELETE',
        'accreditation_not_entered',
        remove('OLD.actionId', notEntered, 'OLD.accreditationId'),
      ),
    );
    await q.query(
      trigger(
        'TR_accreditation_not_entered_facet_upd',
        'UPDATE',
        'accreditation_not_entered',
        [
          ...remove('OLD.actionId', notEntered, 'OLD.accreditationId'),
          add('NEW.actionId', notEntered, 'NEW.accreditationId'),
        ],
        changed(['actionId', 'accreditationId']),
      ),
    );

    // entered on a day: a person counted once a day, however many entries
    await q.query(
      `INSERT INTO accreditation_facet_block (actionId, facet, block, n)
       SELECT e.actionId, ${entered('e.day')}, ${block('e.accreditationId')}, COUNT(DISTINCT e.accreditationId) FROM entrance e JOIN accreditation a ON a.id = e.accreditationId AND a.actionId = e.actionId WHERE e.type = 1 GROUP BY e.actionId, e.day, ${block('e.accreditationId')}`,
    );
    // another entry of this person, action and day than `row`'s own (IDX_entrance_filter)
    const another = (row: 'NEW' | 'OLD') =>
      `EXISTS (SELECT 1 FROM entrance e WHERE e.actionId = ${row}.actionId AND e.type = 1 AND e.day = ${row}.day AND e.accreditationId = ${row}.accreditationId AND e.id <> ${row}.id)`;
    // the entry's person is in the entry's action (an entry of a person deleted or moved away
    // counts nowhere, as "entered" reads it; the person's delete or move took their days along)
    const present = (row: 'NEW' | 'OLD') =>
      `EXISTS (SELECT 1 FROM accreditation a WHERE a.id = ${row}.accreditationId AND a.actionId = ${row}.actionId)`;
    const enteredAdd = add(
      'NEW.actionId',
      entered('NEW.day'),
      'NEW.accreditationId',
      `NEW.type = 1 AND NOT ${another('NEW')} AND ${present('NEW')}`,
    );
    const enteredRemove = remove(
      'OLD.actionId',
      entered('OLD.day'),
      'OLD.accreditationId',
      `OLD.type = 1 AND NOT ${another('OLD')} AND ${present('OLD')}`,
    );
    // the days a person has entries of their action (a person deleted with entries left, by any
    // statement: the app deletes the entries first; a person moved to another action or id)
    const days = (row: 'NEW' | 'OLD') =>
      `SELECT DISTINCT e.day AS day FROM entrance e WHERE e.accreditationId = ${row}.id AND e.actionId = ${row}.actionId AND e.type = 1`;
    const uncountDays = [
      `UPDATE accreditation_facet_block SET n = n - 1 WHERE actionId = OLD.actionId AND block = ${block('OLD.id')} AND facet IN (SELECT ${entered('d.day')} FROM (${days('OLD')}) d)`,
      `DELETE FROM accreditation_facet_block WHERE actionId = OLD.actionId AND block = ${block('OLD.id')} AND n <= 0`,
    ];
    await q.query(trigger('TR_accreditation_entered_del', 'DELETE', 'accreditation', uncountDays));
    await q.query(
      trigger(
        'TR_accreditation_entered_upd',
        mariadb ? 'UPDATE' : 'UPDATE OF actionId, id',
        'accreditation',
        [
          ...uncountDays,
          `INSERT INTO accreditation_facet_block (actionId, facet, block, n) SELECT NEW.actionId, ${entered('d.day')}, ${block('NEW.id')}, 1 FROM (${days('NEW')}) d WHERE 1 = 1 ${upsert}`,
        ],
        changed(['actionId', 'id']),
      ),
    );
    // "not entered" (migration 1764200000001) follows an entry changed by any statement too (no
    // path of the app changes one): the old person is not entered again when no other entry of the
    // old action is left, the new one is entered
    const noEntry = `NOT EXISTS (SELECT 1 FROM entrance e WHERE e.accreditationId = OLD.accreditationId AND +e.actionId = OLD.actionId AND +e.type = 1)`;
    await q.query(
      trigger(
        'TR_entrance_not_entered_upd',
        mariadb ? 'UPDATE' : 'UPDATE OF actionId, type, accreditationId',
        'entrance',
        [
          `${mariadb ? 'INSERT IGNORE' : 'INSERT OR IGNORE'} INTO accreditation_not_entered (actionId, accreditationId) SELECT a.actionId, a.id FROM accreditation a WHERE OLD.type = 1 AND a.id = OLD.accreditationId AND a.actionId = OLD.actionId AND ${noEntry}`,
          'DELETE FROM accreditation_not_entered WHERE NEW.type = 1 AND actionId = NEW.actionId AND accreditationId = NEW.accreditationId',
        ],
        changed(['actionId', 'type', 'accreditationId']),
      ),
    );
    await q.query(trigger('TR_entrance_entered_ins', 'INSERT', 'entrance', [enteredAdd], 'NEW.type = 1'));
    await q.query(trigger('TR_entrance_entered_del', 'DELETE', 'entrance', enteredRemove, 'OLD.type = 1'));
    await q.query(
      trigger(
        'TR_entrance_entered_upd',
        mariadb ? 'UPDATE' : 'UPDATE OF actionId, type, day, accreditationId',
        'entrance',
        [...enteredRemove, enteredAdd],
        changed(['actionId', 'type', 'day', 'accreditationId']),
      ),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    if (q.connection.driver.options.type === 'mariadb') {
      await q.query('DROP TRIGGER IF EXISTS TR_accreditation_ins');
      await q.query(`CREATE TRIGGER TR_accreditation_ins ${MERGED.TR_accreditation_ins}`);
    }
    await q.dropTable('accreditation_facet_block');
  }
}

/** MariaDB's one insert trigger of `accreditation` (migration 1764500000001) with the printed count. */
function printedOnInsert(add: string): string {
  const merged = MERGED.TR_accreditation_ins;
  if (!merged.endsWith('\nEND')) throw new Error('TR_accreditation_ins: unexpected body');
  return `${merged.slice(0, -'END'.length)}  IF NEW.printCount > 0 THEN ${add}; END IF;\nEND`;
}
