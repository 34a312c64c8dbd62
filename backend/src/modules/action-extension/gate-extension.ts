import { type Effect, localDay, type MealSlot, type ParkingHold } from '@accredo/access';
import type { DataSource } from 'typeorm';
import { readDate } from '../device/sql.js';
import { type Core, readStep as all, writeStep as run } from '../../database/core-runner.js';

/**
 * What a gate in mode 4 (meal) or 5 (parking) reads and writes of a person's extension items, as
 * statements of the scan's transaction (run by database/core-runner.ts: synchronously on SQLite and
 * awaited on MariaDB, after the person's row is locked). The SQL texts are fixed, so the gate's
 * prepared-statement cache stays small. docs/extensions.md, docs/access-control.md D14/D15.
 */

const MEALS =
  'SELECT e.id AS id, i.date AS date, i.timeFrom AS timeFrom, i.timeTo AS timeTo, e.dateUsed AS dateUsed FROM accreditation_extension e JOIN extension_item i ON i.id = e.itemId WHERE e.accreditationId = ? AND e.type = 1';
/** the person's car parks, locked (MariaDB) before their occupancy is read: D15's "the caller's lock covers the area" */
const AREAS_LOCK =
  'SELECT i.id AS id FROM extension_item i JOIN accreditation_extension e ON e.itemId = i.id WHERE e.accreditationId = ? AND e.type = 2 ORDER BY i.id';
// a SUM, not a COUNT: mysql2's binary protocol (prepared statements of the scan) cannot read a BIGINT here
const AREAS =
  'SELECT i.id AS areaId, i.capacity AS capacity, i.date AS date, e.inside AS inside, (SELECT COALESCE(SUM(o.inside), 0) FROM accreditation_extension o WHERE o.itemId = i.id AND o.inside = 1) AS occupancy FROM accreditation_extension e JOIN extension_item i ON i.id = e.itemId WHERE e.accreditationId = ? AND e.type = 2 ORDER BY i.id';

export interface GateExtensionState {
  meals: MealSlot[];
  parking: ParkingHold[];
  parkingOccupancy: Record<number, number>;
  parkingInside: number[];
}

/**
 * Mode 4: the person's meal slots (an offline scan is replayed against the uses before it, so the
 * earliest use wins, D20). Mode 5: the car parks of today (or of the whole event), their
 * occupancy (people inside) and where the person is inside.
 */
export function* gateExtensionState(
  lock: string,
  mode: number,
  personId: number,
  at: number,
  timeZone: string,
  offline: boolean,
): Core<GateExtensionState> {
  const state: GateExtensionState = { meals: [], parking: [], parkingOccupancy: {}, parkingInside: [] };
  if (mode === 4) {
    const rows = (yield all(MEALS, [personId])) as Record<string, unknown>[];
    state.meals = rows.map((r) => ({
      id: Number(r.id),
      date: String(r.date ?? ''),
      timeFrom: String(r.timeFrom),
      timeTo: String(r.timeTo),
      used: r.dateUsed !== null && r.dateUsed !== undefined && (!offline || readDate(r.dateUsed) <= at),
    }));
  } else if (mode === 5) {
    if (lock) yield all(AREAS_LOCK + lock, [personId]);
    const today = localDay(at, timeZone);
    const rows = (yield all(AREAS, [personId])) as Record<string, unknown>[];
    for (const r of rows) {
      if (r.date !== null && r.date !== undefined && String(r.date) !== today) continue;
      const areaId = Number(r.areaId);
      state.parking.push({ areaId, capacity: r.capacity === null ? null : Number(r.capacity) });
      state.parkingOccupancy[areaId] = Number(r.occupancy ?? 0);
      if (Number(r.inside) === 1) state.parkingInside.push(areaId);
    }
  }
  return state;
}

/** Writes a meal or parking effect of the engine's decision. `at` is the scan's moment as the driver binds it. */
export function* gateExtensionEffect(
  effect: Extract<Effect, { kind: 'meal' } | { kind: 'parking' }>,
  personId: number,
  at: unknown,
): Core<void> {
  if (effect.kind === 'meal') {
    // the earliest use wins: an offline scan replayed later may move dateUsed earlier, never later
    yield run('UPDATE accreditation_extension SET dateUsed = ? WHERE id = ? AND (dateUsed IS NULL OR dateUsed > ?)', [
      at,
      effect.slotId,
      at,
    ]);
  } else {
    yield run('UPDATE accreditation_extension SET inside = ? WHERE accreditationId = ? AND itemId = ? AND type = 2', [
      effect.type,
      personId,
      effect.areaId,
    ]);
  }
}

/**
 * The people's extension data for a station's snapshot and changes (docs/device-protocol.md):
 * meals as the engine's MealSlot, parking holds with the area's date (a station keeps those of
 * today and of the whole event), the areas the person is inside, and each area's occupancy.
 */
export async function stationExtensionData(
  ds: DataSource,
  actionId: number,
  ids: number[],
): Promise<{
  meals: Map<number, MealSlot[]>;
  parking: Map<number, (ParkingHold & { date: string | null })[]>;
  inside: Map<number, number[]>;
  occupancy: Record<number, number>;
}> {
  const meals = new Map<number, MealSlot[]>();
  const parking = new Map<number, (ParkingHold & { date: string | null })[]>();
  const inside = new Map<number, number[]>();
  const occupancy: Record<number, number> = {};
  const marks = ids.map(() => '?').join(', ');
  const rows: Record<string, unknown>[] = !ids.length
    ? []
    : await ds.query(
        `SELECT e.id AS id, e.accreditationId AS accreditationId, e.type AS type, e.itemId AS itemId, e.dateUsed AS dateUsed, e.inside AS inside,
       i.date AS date, i.timeFrom AS timeFrom, i.timeTo AS timeTo, i.capacity AS capacity
     FROM accreditation_extension e JOIN extension_item i ON i.id = e.itemId
     WHERE e.actionId = ? AND e.accreditationId IN (${marks}) ORDER BY e.itemId`,
        [actionId, ...ids],
      );
  const push = <T>(m: Map<number, T[]>, k: number, v: T) => m.set(k, [...(m.get(k) ?? []), v]);
  for (const r of rows) {
    const person = Number(r.accreditationId);
    if (Number(r.type) === 1)
      push(meals, person, {
        id: Number(r.id),
        date: String(r.date ?? ''),
        timeFrom: String(r.timeFrom),
        timeTo: String(r.timeTo),
        used: r.dateUsed !== null && r.dateUsed !== undefined,
      });
    else {
      push(parking, person, {
        areaId: Number(r.itemId),
        capacity: r.capacity === null ? null : Number(r.capacity),
        date: r.date === null || r.date === undefined ? null : String(r.date),
      });
      if (Number(r.inside) === 1) push(inside, person, Number(r.itemId));
    }
  }
  const occ: { itemId: unknown; n: unknown }[] = await ds.query(
    `SELECT e.itemId AS itemId, COUNT(*) AS n FROM accreditation_extension e JOIN accreditation a ON a.id = e.accreditationId
     WHERE e.actionId = ? AND e.type = 2 AND e.inside = 1 GROUP BY e.itemId`,
    [actionId],
  );
  for (const o of occ) occupancy[Number(o.itemId)] = Number(o.n);
  return { meals, parking, inside, occupancy };
}
