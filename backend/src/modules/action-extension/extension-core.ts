import type { UserExtensionItem } from '@accredo/domain';
import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { type Core, type CoreEnv, readStep as all, runCore, writeStep as run } from '../../database/core-runner.js';

/**
 * The writes of people's extension items that must hold capacities under races (issue 14: two
 * admins, an import and a crowd registering online never take the last place twice), as cores of
 * SQL statements run by database/core-runner.ts:
 * - on SQLite synchronously on the raw better-sqlite3 connection: no other JavaScript runs between
 *   the counts and the inserts, in the runner's BEGIN IMMEDIATE or as part of the caller's open
 *   transaction (an accreditation being created or imported);
 * - on MariaDB awaited, with the items' rows locked (SELECT … FOR UPDATE, in id order) before the
 *   assignments are counted by locking reads, in a READ COMMITTED transaction of its own or the
 *   caller's.
 */

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export interface AssignScope {
  subjectId: number;
  actionId: number;
  type: number;
}

export interface AssignOptions {
  /**
   * strict: a full item or option is EXTENSION_CAPACITY_FULL and nothing is written (the admin,
   * the online form, the preview); skip: a full one is left out (group defaults on joining)
   */
  policy: 'strict' | 'skip';
  /** refuse inactive items as full (what people choose for themselves) */
  onlyActive?: boolean;
  /** only add items; never change or remove what a person has (group defaults) */
  addOnly?: boolean;
  now: Date;
}

export interface AssignResult {
  /** people whose items changed */
  changed: number;
  /** (person, item) pairs left out because full (policy skip) */
  skipped: number;
}

/**
 * Gives each person the items (have true, with the option, licence plate) or takes them away
 * (have false). A used meal (dateUsed set) is locked: changing or removing it is
 * EXTENSION_MEAL_USED. Items and options must be of the scope (EXTENSION_ITEM_INVALID).
 */
export function* assignCore(
  env: CoreEnv,
  scope: AssignScope,
  people: number[],
  items: UserExtensionItem[],
  options: AssignOptions,
): Core<AssignResult> {
  const result: AssignResult = { changed: 0, skipped: 0 };
  if (!people.length || !items.length) return result;
  const itemIds = [...new Set(items.map((i) => i.itemId))].sort((a, b) => a - b);
  const found = (yield all(
    `SELECT id, capacity, active FROM extension_item WHERE id IN (${marks(itemIds.length)}) AND subjectId = ? AND actionId = ? AND type = ? ORDER BY id${env.lock}`,
    [...itemIds, scope.subjectId, scope.actionId, scope.type],
  )) as { id: unknown; capacity: unknown; active: unknown }[];
  const itemById = new Map(
    found.map((r) => [
      Number(r.id),
      { capacity: r.capacity === null ? null : Number(r.capacity), active: Boolean(Number(r.active)) },
    ]),
  );
  for (const id of itemIds) if (!itemById.has(id)) throw new AppError('EXTENSION_ITEM_INVALID', { itemId: id });
  const opts = (yield all(
    `SELECT id, itemId, capacity FROM extension_option WHERE itemId IN (${marks(itemIds.length)})`,
    itemIds,
  )) as { id: unknown; itemId: unknown; capacity: unknown }[];
  const optionById = new Map(
    opts.map((o) => [
      Number(o.id),
      { itemId: Number(o.itemId), capacity: o.capacity === null ? null : Number(o.capacity) },
    ]),
  );
  for (const i of items)
    if (i.option !== null && optionById.get(i.option)?.itemId !== i.itemId)
      throw new AppError('EXTENSION_ITEM_INVALID', { itemId: i.itemId, option: i.option });

  // how many hold each item and option now, read under the items' locks (a locking read on MariaDB:
  // the latest rows even in a REPEATABLE READ transaction such as the import's). A deleted
  // person's rows are deleted with them (trigger of migration 1764100300000).
  const counts = (yield all(
    `SELECT itemId, optionId, COUNT(*) AS n FROM accreditation_extension WHERE itemId IN (${marks(itemIds.length)}) GROUP BY itemId, optionId${env.lock}`,
    itemIds,
  )) as { itemId: unknown; optionId: unknown; n: unknown }[];
  const itemTaken = new Map<number, number>();
  const optionTaken = new Map<number, number>();
  for (const c of counts) {
    itemTaken.set(Number(c.itemId), (itemTaken.get(Number(c.itemId)) ?? 0) + Number(c.n));
    if (c.optionId !== null)
      optionTaken.set(Number(c.optionId), (optionTaken.get(Number(c.optionId)) ?? 0) + Number(c.n));
  }

  const now = env.date(options.now);
  for (let p = 0; p < people.length; p += 500) {
    const chunk = people.slice(p, p + 500);
    const existing = (yield all(
      `SELECT id, accreditationId, itemId, optionId, licencePlate, dateUsed FROM accreditation_extension WHERE accreditationId IN (${marks(chunk.length)}) AND itemId IN (${marks(itemIds.length)})`,
      [...chunk, ...itemIds],
    )) as {
      id: unknown;
      accreditationId: unknown;
      itemId: unknown;
      optionId: unknown;
      licencePlate: unknown;
      dateUsed: unknown;
    }[];
    const held = new Map(existing.map((e) => [`${Number(e.accreditationId)}:${Number(e.itemId)}`, e]));
    for (const person of chunk) {
      let changed = false;
      for (const want of items) {
        const have = held.get(`${person}:${want.itemId}`);
        const used = have ? have.dateUsed !== null && have.dateUsed !== undefined : false;
        const item = itemById.get(want.itemId) as { capacity: number | null; active: boolean };
        if (!want.have) {
          if (!have || options.addOnly) continue;
          if (used) throw new AppError('EXTENSION_MEAL_USED', { itemId: want.itemId, userId: person });
          yield run('DELETE FROM accreditation_extension WHERE id = ?', [Number(have.id)]);
          itemTaken.set(want.itemId, (itemTaken.get(want.itemId) ?? 1) - 1);
          if (have.optionId !== null)
            optionTaken.set(Number(have.optionId), (optionTaken.get(Number(have.optionId)) ?? 1) - 1);
          changed = true;
          continue;
        }
        const plate = want.licencePlate ?? null;
        if (have) {
          if (options.addOnly) continue;
          const oldOption = have.optionId === null ? null : Number(have.optionId);
          const oldPlate =
            have.licencePlate === null || have.licencePlate === undefined ? null : String(have.licencePlate);
          if (oldOption === want.option && oldPlate === plate) continue;
          if (used && oldOption !== want.option)
            throw new AppError('EXTENSION_MEAL_USED', { itemId: want.itemId, userId: person });
          if (oldOption !== want.option && want.option !== null && !roomIn(want.option)) {
            if (options.policy === 'skip') {
              result.skipped++;
              continue;
            }
            throw new AppError('EXTENSION_CAPACITY_FULL', { itemId: want.itemId, option: want.option });
          }
          yield run('UPDATE accreditation_extension SET optionId = ?, licencePlate = ? WHERE id = ?', [
            want.option,
            plate,
            Number(have.id),
          ]);
          if (oldOption !== want.option) {
            if (oldOption !== null) optionTaken.set(oldOption, (optionTaken.get(oldOption) ?? 1) - 1);
            if (want.option !== null) optionTaken.set(want.option, (optionTaken.get(want.option) ?? 0) + 1);
          }
          changed = true;
          continue;
        }
        const itemFull =
          (options.onlyActive && !item.active) ||
          (item.capacity !== null && (itemTaken.get(want.itemId) ?? 0) >= item.capacity);
        if (itemFull || (want.option !== null && !roomIn(want.option))) {
          if (options.policy === 'skip') {
            result.skipped++;
            continue;
          }
          throw new AppError('EXTENSION_CAPACITY_FULL', { itemId: want.itemId, option: want.option });
        }
        yield run(
          'INSERT INTO accreditation_extension (subjectId, actionId, accreditationId, type, itemId, optionId, licencePlate, dateUsed, inside, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 0, ?)',
          [scope.subjectId, scope.actionId, person, scope.type, want.itemId, want.option, plate, now],
        );
        itemTaken.set(want.itemId, (itemTaken.get(want.itemId) ?? 0) + 1);
        if (want.option !== null) optionTaken.set(want.option, (optionTaken.get(want.option) ?? 0) + 1);
        changed = true;
      }
      if (changed) result.changed++;
    }
  }
  return result;

  function roomIn(option: number): boolean {
    const cap = optionById.get(option)?.capacity ?? null;
    return cap === null || (optionTaken.get(option) ?? 0) < cap;
  }
}

/**
 * Group defaults (spec §3 assignDefaultMeal / assignDefaultParking) for people who just joined
 * groups: each gets the defaults of their groups whose switch is on, of the group's action, left
 * out where full. What a person already has stays as it is.
 */
export function* groupDefaultsCore(
  env: CoreEnv,
  subjectId: number,
  joins: { accreditationId: number; actionId: number; groupIds: number[] }[],
  now: Date,
): Core<AssignResult> {
  const total: AssignResult = { changed: 0, skipped: 0 };
  const groupIds = [...new Set(joins.flatMap((j) => j.groupIds))];
  if (!groupIds.length) return total;
  const defaults = (yield all(
    `SELECT ge.groupId AS groupId, ge.type AS type, ge.itemId AS itemId, ge.optionId AS optionId, i.actionId AS actionId
     FROM group_extension ge JOIN \`groups\` g ON g.id = ge.groupId JOIN extension_item i ON i.id = ge.itemId
     WHERE ge.groupId IN (${marks(groupIds.length)}) AND ge.subjectId = ?
       AND ((ge.type = 1 AND g.assignDefaultMeal = 1) OR (ge.type = 2 AND g.assignDefaultParking = 1))
     ORDER BY ge.itemId`,
    [...groupIds, subjectId],
  )) as { groupId: unknown; type: unknown; itemId: unknown; optionId: unknown; actionId: unknown }[];
  if (!defaults.length) return total;
  // per (action, type, set of items): the people who get exactly those items
  const batches = new Map<string, { scope: AssignScope; items: UserExtensionItem[]; people: number[] }>();
  for (const join of joins) {
    const mine = defaults.filter(
      (d) => join.groupIds.includes(Number(d.groupId)) && Number(d.actionId) === join.actionId,
    );
    for (const type of [1, 2]) {
      const seen = new Set<number>();
      const items: UserExtensionItem[] = [];
      for (const d of mine) {
        if (Number(d.type) !== type || seen.has(Number(d.itemId))) continue;
        seen.add(Number(d.itemId));
        items.push({
          itemId: Number(d.itemId),
          option: d.optionId === null ? null : Number(d.optionId),
          have: true,
          licencePlate: null,
        });
      }
      if (!items.length) continue;
      const key = `${join.actionId}:${type}:${items.map((i) => `${i.itemId}/${i.option}`).join(',')}`;
      const batch = batches.get(key) ?? { scope: { subjectId, actionId: join.actionId, type }, items, people: [] };
      batch.people.push(join.accreditationId);
      batches.set(key, batch);
    }
  }
  for (const b of batches.values()) {
    const r = yield* assignCore(env, b.scope, b.people, b.items, { policy: 'skip', addOnly: true, now });
    total.changed += r.changed;
    total.skipped += r.skipped;
  }
  return total;
}

/** Group defaults for people who joined groups, in `m`'s transaction when given (create, import). */
export function applyGroupDefaults(
  ds: DataSource,
  m: EntityManager | null,
  subjectId: number,
  joins: { accreditationId: number; actionId: number; groupIds: number[] }[],
): Promise<AssignResult> {
  if (!joins.some((j) => j.groupIds.length)) return Promise.resolve({ changed: 0, skipped: 0 });
  return runCore(ds, m, (env) => groupDefaultsCore(env, subjectId, joins, new Date()));
}
