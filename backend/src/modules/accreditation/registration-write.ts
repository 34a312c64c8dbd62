import {
  type Core,
  type CoreEnv,
  readStep as all,
  type WriteResult,
  writeStep as run,
} from '../../database/core-runner.js';
import { groupDefaultsCore } from '../action-extension/extension-core.js';

/**
 * The write of a new person (issue 16: "a handful of statements in one transaction", prepared on
 * the driver as the gate's scan does): the steps of one create as a core of SQL statements, run by
 * database/core-runner.ts (SQLite: creates that arrive together share one BEGIN IMMEDIATE, each in
 * a savepoint of its own, so one that fails - its e-mail taken, a code used up - rolls back alone,
 * and each is answered once its batch is on the disk; MariaDB: one READ COMMITTED transaction).
 * Nothing else runs between a step and the next on SQLite (one writer, no await inside), and on
 * MariaDB the action's row is locked first, so customIds are numbered one after another and dense
 * per action as every other create does (the import takes the same lock first).
 */

/** The new person's row and links, all checked (AccreditationService.prepare). */
export interface NewPerson {
  subjectId: number;
  actionId: number;
  firstname: string;
  lastname: string;
  email: string;
  bc: string;
  search: string;
  days: unknown[];
  fieldValues: Record<string, unknown>;
  imageId: number | null;
  language: string;
  source: string;
  webChannelId: number | null;
  at: Date;
  groupIds: number[];
  zoneIds: number[];
  texts: { fieldId: number; value: string }[];
  /**
   * false when the caller knows from the group rows it read for this create that none of `groupIds`
   * assigns meal or parking defaults (the online registration's set-up, kept per config version):
   * the read below is then left out; otherwise it is asked.
   */
  groupDefaults?: boolean;
}

/** The caller's steps in the same transaction, after the person and their links (a code's use, the mail row). */
export type AfterInsert = (env: CoreEnv, person: { id: number; customId: number }) => Core<void>;

const rows = (n: number, width: number) =>
  Array.from({ length: n }, () => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ');

const PERSON_COLUMNS =
  'subjectId, actionId, customId, firstname, lastname, email, bc, search, days, fieldValues, imageId, printCount, badgeVersion, credit, isUnlimited, source, webChannelId, language, createdAt, updatedAt';

/** MariaDB: the new person's number, read back after the INSERT; its rows go only into createCore's value. */
export const CUSTOM_ID_READ = 'SELECT customId FROM accreditation WHERE id = ?';

/** One create: the action's number, the row, its groups, zones and values, the caller's steps, group defaults. */
export function* createCore(env: CoreEnv, p: NewPerson, after?: AfterInsert): Core<{ id: number; customId: number }> {
  // Whether any of the groups gives defaults (a superset of groupDefaultsCore's own read): asked
  // before the lock below, so that the usual answer, none, costs the locked section no statement.
  const marks = p.groupIds.map(() => '?').join(', ');
  const defaults =
    p.groupIds.length && p.groupDefaults !== false
      ? ((yield all(
          `SELECT ge.groupId FROM group_extension ge JOIN \`groups\` g ON g.id = ge.groupId WHERE ge.groupId IN (${marks}) AND ge.subjectId = ? AND ((ge.type = 1 AND g.assignDefaultMeal = 1) OR (ge.type = 2 AND g.assignDefaultParking = 1)) LIMIT 1`,
          [...p.groupIds, p.subjectId],
        )) as unknown[])
      : [];
  // MariaDB: customId is the order in the action, numbered under the action's row lock (READ
  // COMMITTED: the MAX in the INSERT is the latest committed number) and read back after it: the
  // steps from the lock on then depend on no read, so the runner can send them in one round trip
  // (database/mariadb-batch.ts); SQLite has one writer.
  const at = env.date(p.at);
  const values = (customId: unknown) => [
    p.subjectId,
    p.actionId,
    customId,
    p.firstname,
    p.lastname,
    p.email,
    p.bc,
    p.search,
    JSON.stringify(p.days),
    JSON.stringify(p.fieldValues),
    p.imageId,
    0,
    0,
    null,
    0,
    p.source,
    p.webChannelId,
    p.language,
    at,
    at,
  ];
  let customId: number;
  let inserted: WriteResult;
  if (env.lock) {
    yield all(`SELECT id FROM action WHERE id = ?${env.lock}`, [p.actionId]);
    const v = values(null);
    inserted = (yield run(
      `INSERT INTO accreditation (${PERSON_COLUMNS}) SELECT ?, ?, COALESCE(MAX(customId), 0) + 1, ${rows(1, 17).slice(1, -1)} FROM accreditation WHERE actionId = ?`,
      [...v.slice(0, 2), ...v.slice(3), p.actionId],
    )) as WriteResult;
    const [row] = (yield all(CUSTOM_ID_READ, [inserted.insertId])) as {
      customId: unknown;
    }[];
    customId = Number(row?.customId);
  } else {
    const [max] = (yield all('SELECT MAX(customId) AS max FROM accreditation WHERE actionId = ?', [p.actionId])) as {
      max: unknown;
    }[];
    customId = Math.max(0, Number(max?.max ?? 0)) + 1;
    inserted = (yield run(
      `INSERT INTO accreditation (${PERSON_COLUMNS}) VALUES ${rows(1, 20)}`,
      values(customId),
    )) as WriteResult;
  }
  const id = inserted.insertId;
  if (p.groupIds.length)
    yield run(
      `INSERT INTO accreditation_group (accreditationId, groupId) VALUES ${rows(p.groupIds.length, 2)}`,
      p.groupIds.flatMap((g) => [id, g]),
    );
  if (p.zoneIds.length)
    yield run(
      `INSERT INTO accreditation_zone (accreditationId, zoneId) VALUES ${rows(p.zoneIds.length, 2)}`,
      p.zoneIds.flatMap((z) => [id, z]),
    );
  if (p.texts.length)
    yield run(
      `INSERT INTO accreditation_value (accreditationId, fieldId, actionId, value) VALUES ${rows(p.texts.length, 4)}`,
      p.texts.flatMap((t) => [id, t.fieldId, p.actionId, t.value]),
    );
  const person = { id, customId };
  if (after) yield* after(env, person);
  // the meal and parking defaults of the person's groups (issue 14), left out where full
  if (defaults.length)
    yield* groupDefaultsCore(
      env,
      p.subjectId,
      [{ accreditationId: id, actionId: p.actionId, groupIds: p.groupIds }],
      p.at,
    );
  return person;
}
