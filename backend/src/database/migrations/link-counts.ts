/**
 * How many of an action's people are linked to a group or a zone (`accreditation_group_count`,
 * migration 1764400000002; `accreditation_zone_count`, 1764800000001): the statements that fill
 * such a table and the triggers that keep it, for one link table. See the group migration for
 * what they guarantee: a link counts for its person's subject and action while the person exists,
 * whichever of the person and its links is written or deleted first.
 */
export interface LinkCount {
  /** the link table, e.g. `accreditation_group` */
  link: string;
  /** its other key, e.g. `groupId` */
  key: string;
  /** the count table, e.g. `accreditation_group_count` */
  counts: string;
  /** the word of the person's triggers, e.g. `grouped` → TR_accreditation_grouped_upd */
  word: string;
}

/** The triggers' names, in the order linkCountTriggers creates them. */
export function linkCountTriggerNames({ link, word }: LinkCount): string[] {
  return [
    `TR_${link}_count_ins`,
    `TR_${link}_count_del`,
    `TR_${link}_count_upd`,
    `TR_accreditation_${word}_del`,
    `TR_accreditation_${word}_upd`,
  ];
}

/** The statement that counts the links already there. */
export function linkCountFill({ link, key, counts }: LinkCount): string {
  return `INSERT INTO ${counts} (${key}, subjectId, actionId, n)
       SELECT g.${key}, a.subjectId, a.actionId, COUNT(*) FROM ${link} g
       JOIN accreditation a ON a.id = g.accreditationId GROUP BY g.${key}, a.subjectId, a.actionId`;
}

/**
 * The CREATE TRIGGER statements, named as linkCountTriggerNames; `skipInsert` leaves out the link's
 * insert trigger (MariaDB merges it into the table's one insert trigger: migration 1764500000001).
 */
export function linkCountTriggers(spec: LinkCount, mariadb: boolean, skipInsert = false): string[] {
  const { link, key, counts } = spec;
  const [ins, del, upd, personDel, personUpd] = linkCountTriggerNames(spec);
  const upsert = mariadb
    ? 'ON DUPLICATE KEY UPDATE n = n + 1'
    : `ON CONFLICT (${key}, subjectId, actionId) DO UPDATE SET n = n + 1`;
  // a link counted: its person's subject and action, when the person exists
  const linked = (row: 'NEW' | 'OLD') =>
    `INSERT INTO ${counts} (${key}, subjectId, actionId, n)
       SELECT ${row}.${key}, a.subjectId, a.actionId, 1 FROM accreditation a WHERE a.id = ${row}.accreditationId ${upsert}`;
  const unlinked = (row: 'NEW' | 'OLD') =>
    `UPDATE ${counts} SET n = n - 1 WHERE ${key} = ${row}.${key}
       AND (subjectId, actionId) IN (SELECT a.subjectId, a.actionId FROM accreditation a WHERE a.id = ${row}.accreditationId)`;
  // a person's links counted / uncounted as a whole
  const person = (row: 'NEW' | 'OLD') =>
    `INSERT INTO ${counts} (${key}, subjectId, actionId, n)
       SELECT g.${key}, ${row}.subjectId, ${row}.actionId, 1 FROM ${link} g WHERE g.accreditationId = ${row}.id ${upsert}`;
  const unperson = (row: 'NEW' | 'OLD') =>
    `UPDATE ${counts} SET n = n - 1 WHERE subjectId = ${row}.subjectId AND actionId = ${row}.actionId
       AND ${key} IN (SELECT g.${key} FROM ${link} g WHERE g.accreditationId = ${row}.id)`;
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
  const changed = (...columns: string[]) =>
    columns.map((c) => (mariadb ? `NOT (NEW.${c} <=> OLD.${c})` : `NEW.${c} IS NOT OLD.${c}`)).join(' OR ');
  return [
    ...(skipInsert ? [] : [trigger(ins, 'INSERT', link, [linked('NEW')])]),
    trigger(del, 'DELETE', link, [unlinked('OLD')]),
    trigger(upd, 'UPDATE', link, [unlinked('OLD'), linked('NEW')], changed(key, 'accreditationId')),
    trigger(personDel, 'DELETE', 'accreditation', [unperson('OLD')]),
    trigger(
      personUpd,
      'UPDATE',
      'accreditation',
      [unperson('OLD'), person('NEW')],
      changed('subjectId', 'actionId', 'id'),
    ),
  ];
}
