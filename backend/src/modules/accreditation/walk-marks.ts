import { LIST_BLOCK_SIZE } from '../../database/migrations/1764400000001-list-blocks.js';

/** The exact count leaves a mark every this many matches: any page after it skips fewer than this. */
export const MARK_EVERY = LIST_BLOCK_SIZE;
/**
 * The count up to a number (a walk of two conditions, to COUNT_CAP + 1) leaves one every this
 * many: a change near the newest, where people are added and edited most, is mended by counting
 * this many again, not the whole way.
 */
export const COUNT_MARK_EVERY = 1024;
/** A walk's marks are kept this long at most, whatever the feed says. */
export const MARKS_KEEP_MS = 10 * 60_000;
/** At most this many walks' marks are kept (the least recently used go first). */
export const MARKS_KEPT = 64;
/** At most this many marks a walk (a million matches marked every MARK_EVERY: 245). */
export const MARKS_PER_WALK = 4096;
/** A walk whose action changed is mended when at most this many people changed since its token. */
export const MEND_CHANGES = 256;
/** ... and their changes fall between at most this many pairs of marks, */
export const MEND_SPANS = 8;
/** ... each of at most this many times a WalkMarks' `every` (a longer one and the marks below it are dropped), */
const MEND_SPAN_STEPS = 2;
/** ... this many matches for MARK_EVERY. */
export const MEND_SPAN_MAX = MEND_SPAN_STEPS * MARK_EVERY;
/**
 * A walk this many times `every` or more from its nearest mark is read in two halves at once where
 * the reader can run reads side by side (`WalkReader.span`: MariaDB's pool);
 */
const SPLIT_STEPS = 4;
/** ... this many matches for MARK_EVERY. */
export const SPLIT_MIN = SPLIT_STEPS * MARK_EVERY;

/** How a walk is read, newest first. */
export interface WalkReader {
  /** `take` ids at or below `from` (from the newest when undefined), after skipping `skip` */
  ids(from: number | undefined, skip: number, take: number): Promise<number[]>;
  /** how many there are at or below `from` (from the newest when undefined), counting no further than `upTo` */
  countFrom(from: number | undefined, upTo?: number): Promise<number>;
  /** how many of the first `upTo` at or below `from` (from the newest when undefined) are above `above` */
  countAbove(from: number | undefined, above: number, upTo: number): Promise<number>;
  /** which of these ids are in the walk (each looked up, not walked to) */
  matching(ids: number[]): Promise<number[]>;
  /**
   * The lowest and highest id the walk can hold (null: none), where reads can run side by side
   * (MariaDB: each on a connection of the pool), so that a long walk is read in two halves at
   * once; absent, a walk is one read at a time (SQLite's one connection).
   */
  span?(): Promise<{ low: number; high: number } | null>;
}

/** What a walk read, as a token that moves with any change to it. */
export interface WalkToken {
  current(): Promise<string>;
  /** whether every change up to the current token has committed (or rolled back) */
  settled(): Promise<boolean>;
  /**
   * The ids (in the walk's order) of what changed after token `from` up to token `to`, or null
   * when more than `limit` did (or the tokens do not say).
   */
  changedSince(from: string, to: string, limit: number): Promise<number[] | null>;
}

interface Walk {
  token: string;
  at: number;
  /**
   * the marks by depth, shallowest first: the match `depths[k]` deep is `ids[k]` (`depths[k]`
   * match above it; a mark whose person changed is dropped when the walk is mended)
   */
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

/**
 * The walk without the marks of people who changed: each mark left is the match at its depth (its
 * person unchanged, so still matching), as `atLeast` and a later mend take it to be. A mended
 * depth holds for any id (how many match above it); only whether the id itself matches is unknown.
 */
function withoutChanged(walk: Walk, changed: number[]): Walk {
  const gone = new Set(changed);
  const keep = walk.ids.map((id) => !gone.has(id));
  return { ...walk, depths: walk.depths.filter((_, i) => keep[i]), ids: walk.ids.filter((_, i) => keep[i]) };
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
  /** the count up to a number's marks, at most `every` apart */
  private readonly countEvery: number;

  /** the longest span between two marks that is mended (MEND_SPAN_STEPS × every) */
  private readonly mendSpanMax: number;
  /** a walk this far from its nearest mark is split (SPLIT_STEPS × every) */
  private readonly splitMin: number;

  /**
   * `every`: the exact count's marks (MARK_EVERY; smaller in a spec, so that a walk of a few
   * thousand rows has the shape of one of a million); the other distances follow from it.
   */
  constructor(readonly every = MARK_EVERY) {
    this.countEvery = Math.min(COUNT_MARK_EVERY, every);
    this.mendSpanMax = MEND_SPAN_STEPS * every;
    this.splitMin = SPLIT_STEPS * every;
  }

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
    const young = kept !== undefined && Date.now() - kept.at < MARKS_KEEP_MS;
    const fresh = young && kept.token === before;
    if (kept && !fresh) this.walks.delete(key);
    // a new or mended walk only once nothing older than the token can still arrive
    if (!fresh && !(await token.settled())) return null;
    // a copy: requests on the same walk mark their own (the one read last is kept)
    let walk: Walk = { token: before, at: Date.now(), depths: [], ids: [] };
    let grown = false;
    if (fresh) walk = { ...kept, depths: [...kept.depths], ids: [...kept.ids] };
    else if (young) {
      const mended = await this.mended(kept, before, token, reader);
      if (mended) [walk, grown] = [mended, true];
    }
    let ids: number[] = [];
    // a deep page and the exact count: the walk to the end first (marks every MARK_EVERY from the
    // newest), then the page from the nearest mark, not the page's walk and then the walk on
    if (walk.total === undefined && exact && offset >= this.every) {
      await this.walkTo(walk, reader, Number.POSITIVE_INFINITY, this.every);
      grown = true;
    }
    // a page further than MARK_EVERY below the nearest mark: walked to in steps that leave marks
    // (the same matches read as by one skip), so that a change is mended by a short count there too
    if (take > 0 && walk.total === undefined && offset - nearest(walk, offset).depth > this.every) {
      await this.walkTo(walk, reader, offset, this.every);
      grown = true;
    }
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
    // the exact count: to the end, a mark every MARK_EVERY; a count up to a number, to it
    if (walk.total === undefined && (exact || (countTo > 0 && this.atLeast(walk) < countTo))) {
      await this.walkTo(
        walk,
        reader,
        exact ? Number.POSITIVE_INFINITY : countTo - 1,
        exact ? this.every : this.countEvery,
      );
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

  /**
   * The marks of a walk whose action changed, moved by what changed (its token moved from
   * `walk.token` to `to`), or null (walked again) when too much did. A change counts, if at all,
   * in the depth of the marks below it: each pair of marks with a change between is counted again
   * (at most the matches between plus the changes among them: a change adds one match at most),
   * and the depths below move by the difference; the end, when known, by that of the last mark's
   * rest. A person's change above the deepest mark costs one short walk, not the walk from the
   * newest. Where the changes fall between more than MEND_SPANS pairs, or between two marks more
   * than MEND_SPAN_MAX apart, the marks from there down are dropped; those above still hold.
   */
  private async mended(walk: Walk, to: string, token: WalkToken, reader: WalkReader): Promise<Walk | null> {
    const changed = await token.changedSince(walk.token, to, MEND_CHANGES);
    if (!changed) return null;
    const { depths, ids } = walk;
    const n = ids.length;
    // the changes between each pair: span j is (ids[j], ids[j - 1]] (the newest above ids[0]; n
    // is what lies at or below the deepest mark), and moves the depth of marks j.. and the end
    const between = new Map<number, number[]>();
    for (const id of new Set(changed)) {
      let lo = 0;
      let hi = n;
      // the first mark at or below the change: the span the change is in
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (ids[mid] < id) hi = mid;
        else lo = mid + 1;
      }
      between.set(lo, [...(between.get(lo) ?? []), id]);
    }
    const mended: Walk = { token: to, at: walk.at, depths: [...depths], ids: [...ids], total: walk.total };
    let counted = 0;
    for (const j of [...between.keys()].sort((a, b) => a - b)) {
      const inSpan = between.get(j) as number[];
      const k = inSpan.length;
      const top = j === 0 ? 0 : depths[j - 1];
      const had = j < n ? depths[j] - top : walk.total === undefined ? -1 : walk.total - top;
      if (had < 0) break; // below the deepest mark of a walk not read to its end: moves nothing known
      if (had === 0) {
        // none matched there: the span now holds those of the changed that match (a new person
        // above the newest mark, a walk that found none), each looked up
        const now = (await reader.matching(inSpan)).length;
        for (let i = j; i < n; i++) mended.depths[i] += now;
        if (mended.total !== undefined) mended.total += now;
        continue;
      }
      if (had > this.mendSpanMax || ++counted > MEND_SPANS) {
        mended.depths.length = j;
        mended.ids.length = j;
        mended.total = undefined;
        return j ? withoutChanged(mended, changed) : null;
      }
      const from = j === 0 ? undefined : ids[j - 1];
      const now =
        j < n ? await reader.countAbove(from, ids[j], had + k + 1) : await reader.countFrom(from, had + k + 1);
      // more than can be: the reader is not what the marks were read from
      if (now > had + k) return null;
      for (let i = j; i < n; i++) mended.depths[i] += now - had;
      if (mended.total !== undefined) mended.total += now - had;
    }
    return withoutChanged(mended, changed);
  }

  /**
   * Walks from the newest to the match `depth` deep, so that no two marks on the way are more
   * than `every` apart (from one mark to the next where they are close enough, a read of `every`
   * from a mark where not), with a mark there; or to the walk's end, counted, if it comes first.
   * Marks no more than MEND_SPAN_MAX apart are what a change is mended by.
   */
  private async walkTo(walk: Walk, reader: WalkReader, depth: number, every: number): Promise<void> {
    let at: { depth: number; id: number | undefined } = { depth: 0, id: undefined };
    let span: { low: number; high: number } | null | undefined;
    for (;;) {
      // the end became known (a half read to it)
      if (walk.total !== undefined) return;
      const step = Math.min(every, depth - at.depth);
      if (step <= 0 && at.id !== undefined) return;
      const jump = nearest(walk, at.depth + step);
      if (jump.id !== undefined && (jump.depth > at.depth || at.id === undefined)) {
        at = jump;
        continue;
      }
      if (reader.span && span !== null && at.id !== undefined && depth - at.depth >= this.splitMin) {
        span ??= await reader.span();
        if (span && (await this.split(walk, reader, { depth: at.depth, id: at.id }, depth, every, span))) continue;
        span = null; // not split (too short, or no progress): one read at a time from here
      }
      const [next] = await reader.ids(at.id, step, 1);
      if (next === undefined) {
        // fewer than `step` + 1 at or below the mark
        walk.total = at.depth + (step ? await reader.countFrom(at.id, step) : 0);
        return;
      }
      at = { depth: at.depth + step, id: next };
      mark(walk, at.depth, next);
    }
  }

  /**
   * Walks on from the mark `at` towards the match `depth` deep (or the end) in two halves at once:
   * the upper from `at` down to an id `b` estimated to lie halfway (by the ids per match above
   * `at`, or halfway to the lowest id for the end), marked every `every` and counted exactly to
   * `b` at its last step; the lower from `b`, marked by depth below `b`, made absolute once the
   * upper knows how many match above `b`. Both read what one walk would, plus at most one step
   * each: the upper's last (to count the matches above `b`) and the lower's beyond its share when
   * the estimate was off. Where the upper reaches `depth` before `b` the lower's marks are left
   * (they have no depth). Whether a mark was added (or the end found).
   */
  private async split(
    walk: Walk,
    reader: WalkReader,
    at: { depth: number; id: number },
    depth: number,
    every: number,
    span: { low: number; high: number },
  ): Promise<boolean> {
    const remaining = depth - at.depth;
    const halfway = Math.floor((at.id + span.low) / 2);
    let b = halfway;
    if (Number.isFinite(remaining)) {
      if (at.depth < every) return false; // too few matches above to tell how dense they are
      const perMatch = Math.max(1, (span.high - at.id) / at.depth);
      b = Math.max(Math.floor(at.id - (remaining / 2) * perMatch), halfway);
    }
    // fewer ids than two steps between: not worth two reads at once
    if (at.id - b < 2 * every) return false;
    const share = Number.isFinite(remaining) ? Math.ceil(remaining / 2) + every : Number.POSITIVE_INFINITY;
    // steps of `every` from the match `from` (at its depth in this half) to `to` deep, marked;
    // ended early by a step's match at or below `floor`, or by the walk's end (`last`: the step
    // that was not taken and its length)
    const steps = async (from: { depth: number; id: number }, to: number, floor: number) => {
      const marks: [number, number][] = [];
      let u = from;
      for (;;) {
        const step = Math.min(every, to - u.depth);
        if (step <= 0) return { marks, last: undefined };
        const [next] = await reader.ids(u.id, step, 1);
        if (next === undefined || next <= floor) return { marks, last: { at: u, step } };
        u = { depth: u.depth + step, id: next };
        marks.push([u.depth, next]);
      }
    };
    const upper = async () => {
      const { marks, last } = await steps(at, depth, b);
      // the matches at or below the last mark and above b: the mark itself and fewer than a step more
      return {
        marks,
        above: last && last.at.depth + (await reader.countAbove(last.at.id, b, last.step + 1)),
      };
    };
    const lower = async () => {
      const [first] = await reader.ids(b, 0, 1);
      if (first === undefined) return { marks: [], total: 0 };
      const { marks, last } = await steps({ depth: 0, id: first }, share, Number.NEGATIVE_INFINITY);
      return {
        marks: [[0, first], ...marks] as [number, number][],
        total: last && last.at.depth + (await reader.countFrom(last.at.id, last.step)),
      };
    };
    const [up, low] = await Promise.all([upper(), lower()]);
    // (a mark refused, MARKS_PER_WALK reached, is no progress: the caller walks on one read at a time)
    let added = false;
    for (const [d, id] of up.marks) added = mark(walk, d, id) || added;
    if (up.above === undefined) return added;
    for (const [d, id] of low.marks) added = mark(walk, up.above + d, id) || added;
    if (low.total !== undefined) {
      walk.total = up.above + low.total;
      added = true;
    }
    return added;
  }

  /** Forgets every walk (a spec's fresh start). */
  clear(): void {
    this.walks.clear();
  }
}
