import { LIST_BLOCK_SIZE } from '../../database/migrations/1764400000001-list-blocks.js';

/** The exact count leaves a mark every this many matches: any page after it skips fewer than this. */
export const MARK_EVERY = LIST_BLOCK_SIZE;
/** A walk's marks are kept this long at most, whatever the feed says. */
export const MARKS_KEEP_MS = 10 * 60_000;
/** At most this many walks' marks are kept (the least recently used go first). */
export const MARKS_KEPT = 64;
/** At most this many marks a walk (a million matches marked every MARK_EVERY: 245). */
export const MARKS_PER_WALK = 4096;

/** How a walk is read, newest first. */
export interface WalkReader {
  /** `take` ids at or below `from` (from the newest when undefined), after skipping `skip` */
  ids(from: number | undefined, skip: number, take: number): Promise<number[]>;
  /** how many there are at or below `from` (from the newest when undefined), counting no further than `upTo` */
  countFrom(from: number | undefined, upTo?: number): Promise<number>;
}

/** What a walk read, as a token that moves with any change to it. */
export interface WalkToken {
  current(): Promise<string>;
  /** whether every change up to the current token has committed (or rolled back) */
  settled(): Promise<boolean>;
}

interface Walk {
  token: string;
  at: number;
  /** the marks by depth, shallowest first: the match `depths[k]` deep is `ids[k]` */
  depths: number[];
  ids: number[];
  /** how many match, once the walk has been read to its end */
  total?: number;
}

export interface MarkedPage {
  ids: number[];
  /** how many match, when the walk has been read to its end */
  total?: number;
  /** at least this many match (the deepest mark read so far) */
  atLeast: number;
}

/** The deepest mark at most `depth` deep, or the walk's start (depth 0, from the newest). */
function nearest(walk: Walk, depth: number): { depth: number; id: number | undefined } {
  let lo = 0;
  let hi = walk.depths.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (walk.depths[mid] <= depth) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? { depth: 0, id: undefined } : { depth: walk.depths[found], id: walk.ids[found] };
}

/** Marks the match `depth` deep; whether it is new. */
function mark(walk: Walk, depth: number, id: number): boolean {
  const at = nearest(walk, depth);
  if ((at.id !== undefined && at.depth === depth) || walk.depths.length >= MARKS_PER_WALK) return false;
  const k = walk.depths.findIndex((d) => d > depth);
  const i = k < 0 ? walk.depths.length : k;
  walk.depths.splice(i, 0, depth);
  walk.ids.splice(i, 0, id);
  return true;
}

/**
 * The marks of walks newest first through a filter's matches that no index counts (a broad text:
 * every entry of the action's search index checked by LIKE; two conditions: the smaller's links
 * each probed for the other), so that a deep page, the count or the exact count is walked once:
 * every page read leaves a mark (its first match's id, at its depth), the count one at COUNT_CAP,
 * the exact count one every MARK_EVERY matches on its way to the end; a later read starts from the
 * nearest mark above it (`<=` the mark, on the same index), skipping only the matches between.
 * A first read costs what the walk did without marks (one statement for the page, one for the
 * count); the exact count costs a statement per MARK_EVERY matches.
 *
 * A walk's marks are kept under its query (key) and a token of what it read (the action's newest
 * entry in the change feed, which every write of a person, their search text, groups, zones and
 * passages included, adds to in its own transaction): a token that moved and the walk is read
 * again. A new walk is marked only when no change below the token can still arrive (MariaDB
 * numbers a change before it commits: a younger gap in the feed may be one in flight;
 * database/change-feed.ts); a change after it has a higher number, so the token moves if it is of
 * this action. Kept in the process (each instance its own), for MARKS_KEEP_MS at most, MARKS_KEPT
 * walks, least recently used first out, MARKS_PER_WALK marks each (16 bytes a mark).
 */
export class WalkMarks {
  private readonly walks = new Map<string, Walk>();

  /**
   * A page (`take` ids `offset` deep) of the walk under `key`; with `exact` its count, and with
   * `countTo` at least whether there are that many (`atLeast` or `total`). The token is read
   * before the walk and again after it, and the marks are kept only when both agree. Null when a
   * new walk cannot be marked yet (the caller walks as before).
   */
  async page(
    key: string,
    token: WalkToken,
    reader: WalkReader,
    offset: number,
    take: number,
    exact: boolean,
    countTo = 0,
  ): Promise<MarkedPage | null> {
    const before = await token.current();
    const kept = this.walks.get(key);
    const fresh = kept !== undefined && kept.token === before && Date.now() - kept.at < MARKS_KEEP_MS;
    if (kept && !fresh) this.walks.delete(key);
    // a new walk only once nothing older than the token can still arrive
    if (!fresh && !(await token.settled())) return null;
    // a copy: requests on the same walk mark their own (the one read last is kept)
    const walk: Walk = fresh
      ? { ...kept, depths: [...kept.depths], ids: [...kept.ids] }
      : { token: before, at: Date.now(), depths: [], ids: [] };
    let grown = false;
    let ids: number[] = [];
    if (take > 0 && (walk.total === undefined || offset < walk.total)) {
      const from = nearest(walk, offset);
      ids = await reader.ids(from.id, offset - from.depth, take);
      if (ids.length) grown = mark(walk, offset, ids[0]) || grown;
      // a page short of `take` is the walk's end (none past page 1: it ended before, somewhere)
      if (ids.length < take && (ids.length > 0 || offset === 0)) {
        walk.total = offset + ids.length;
        grown = true;
      }
    }
    if (walk.total === undefined && exact) grown = (await this.toEnd(walk, reader)) || grown;
    else if (walk.total === undefined && countTo > 0 && this.atLeast(walk) < countTo) {
      const from = nearest(walk, countTo - 1);
      const [last] = await reader.ids(from.id, countTo - 1 - from.depth, 1);
      if (last !== undefined) mark(walk, countTo - 1, last);
      else walk.total = from.depth + (await reader.countFrom(from.id, countTo - from.depth));
      grown = true;
    }
    if (grown && (await token.current()) === before) {
      this.walks.delete(key);
      this.walks.set(key, walk);
      while (this.walks.size > MARKS_KEPT) this.walks.delete(this.walks.keys().next().value as string);
    } else if (fresh) {
      // the least recently used goes first
      this.walks.delete(key);
      this.walks.set(key, kept);
    }
    return { ids, total: walk.total, atLeast: this.atLeast(walk) };
  }

  private atLeast(walk: Walk): number {
    return walk.total ?? (walk.depths.length ? (walk.depths.at(-1) as number) + 1 : 0);
  }

  /** Walks from the deepest mark to the end, a mark every MARK_EVERY matches, and counts. */
  private async toEnd(walk: Walk, reader: WalkReader): Promise<boolean> {
    let at = nearest(walk, Number.MAX_SAFE_INTEGER);
    if (at.id === undefined) {
      const [first] = await reader.ids(undefined, 0, 1);
      if (first === undefined) {
        walk.total = 0;
        return true;
      }
      mark(walk, 0, first);
      at = { depth: 0, id: first };
    }
    for (;;) {
      const [next] = await reader.ids(at.id, MARK_EVERY, 1);
      if (next === undefined) break;
      at = { depth: at.depth + MARK_EVERY, id: next };
      mark(walk, at.depth, next);
    }
    walk.total = at.depth + (await reader.countFrom(at.id, MARK_EVERY));
    return true;
  }

  /** Forgets every walk (a spec's fresh start). */
  clear(): void {
    this.walks.clear();
  }
}
