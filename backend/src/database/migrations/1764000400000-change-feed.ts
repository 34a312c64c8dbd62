import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { columns } from './columns.js';

/**
 * The accreditation columns a gate reads (a change of e-mail, print count or search text is none;
 * the search text was added by migration 1765000000001).
 */
export const WATCHED = [
  'actionId',
  'customId',
  'firstname',
  'lastname',
  'bc',
  'days',
  'fieldValues',
  'imageId',
  'credit',
  'isUnlimited',
  'updatedAt',
];

/** The children whose rows change what a gate knows of their accreditation. */
const CHILDREN = ['accreditation_group', 'accreditation_zone', 'entrance'];

const TRIGGERS = [
  'TR_accreditation_change_ins',
  'TR_accreditation_change_upd',
  'TR_accreditation_change_del',
  ...CHILDREN.flatMap((t) => [`TR_${t}_change_ins`, `TR_${t}_change_del`]),
];

/**
 * The device protocol's change feed (issue 11/12): `accreditation_change` is a sequence (`id`) of
 * "this accreditation of this action changed (1) or went away (2)", written by triggers in the
 * transaction of whatever changed it: every path (the admin, the import, the online registration,
 * bulk assignments, copies, deletes, credit, passages at any gate) without each having to remember.
 * `changedAt` is epoch ms, for pruning and the settle window. See docs/device-protocol.md.
 */
export class ChangeFeed1764000400000 implements MigrationInterface {
  name = 'ChangeFeed1764000400000';

  async up(q: QueryRunner): Promise<void> {
    const c = columns(q);
    const mariadb = q.connection.driver.options.type === 'mariadb';
    await q.createTable(
      new Table({
        name: 'accreditation_change',
        columns: [
          c.id(),
          c.int('subjectId'),
          c.int('actionId'),
          c.int('accreditationId'),
          c.int('kind'),
          { name: 'changedAt', type: 'bigint' },
        ],
        indices: [c.index('accreditation_change', 'actionId', 'id'), c.index('accreditation_change', 'changedAt')],
      }),
    );
    const now = mariadb
      ? 'ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)'
      : "CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)";
    const into = 'INSERT INTO accreditation_change (subjectId, actionId, accreditationId, kind, changedAt)';
    const differs = WATCHED.map((col) =>
      mariadb ? `NOT (NEW.${col} <=> OLD.${col})` : `NEW.${col} IS NOT OLD.${col}`,
    ).join(' OR ');
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
    await q.query(
      trigger('TR_accreditation_change_ins', 'INSERT', 'accreditation', [
        `${into} VALUES (NEW.subjectId, NEW.actionId, NEW.id, 1, ${now})`,
      ]),
    );
    await q.query(
      trigger(
        'TR_accreditation_change_upd',
        'UPDATE',
        'accreditation',
        [
          `${into} VALUES (NEW.subjectId, NEW.actionId, NEW.id, 1, ${now})`,
          // a person moved to another action is gone from the old one's gates
          `${into} SELECT OLD.subjectId, OLD.actionId, OLD.id, 2, ${now}${dual} WHERE NOT (OLD.actionId = NEW.actionId)`,
        ],
        differs,
      ),
    );
    await q.query(
      trigger('TR_accreditation_change_del', 'DELETE', 'accreditation', [
        `${into} VALUES (OLD.subjectId, OLD.actionId, OLD.id, 2, ${now})`,
      ]),
    );
    for (const table of CHILDREN)
      for (const [event, row] of [
        ['INSERT', 'NEW'],
        ['DELETE', 'OLD'],
      ] as const)
        await q.query(
          trigger(`TR_${table}_change_${event === 'INSERT' ? 'ins' : 'del'}`, event, table, [
            // nothing when the accreditation itself is gone (its delete is the change)
            `${into} SELECT a.subjectId, a.actionId, a.id, 1, ${now} FROM accreditation a WHERE a.id = ${row}.accreditationId`,
          ]),
        );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${name}`);
    await q.dropTable('accreditation_change');
  }
}
