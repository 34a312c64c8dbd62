import { LIST_BLOCK_SIZE } from '../../database/migrations/1764400000001-list-blocks.js';

/** A mark every this many matches of a walk: a page is read skipping fewer entries than this. */
export const MARK_EVERY = LIST_BLOCK_SIZE;
/** A walk's marks are kept this long at most, whatever the feed says. */
export const MARKS_KEEP_MS = 10 * 60_000;
/** At most this many walks' marks are kept (the least recently used go first). */
export const MARKS_KEPT = 64;

/** How a walk is read, newest first. */
export interface WalkReader {
  /** `take` ids at or below `from` (from the newest when undefined), after skipping `skip` */
  ids(from: number | undefined, skip: number, take: number): Promise<number[]>;
  /** how many there are at or below `from`, counting no further than `upTo` */
  countFrom(from: number, upTo: number): Promise<number>;
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
  /** marks[k]: the id of the match k × MARK_EVERY deep (marks[0]: the newest match) */
  marks: number[];
  /** how many match, once the walk has been read to its end */
  total?: number;
}

export interface MarkedPage {
  ids: number[];
  /** how many match, when the walk has been read to its end */
  total?: number;
  /** at least this many match (the marks read so far) */
  atLeast: number;
}

/**
 * The marks of walks newest first through a filter's matches that no index can count (a broad
 * text: every entry of the action's search index checked by LIKE), so that a deep page, or the
 * exact count, is read once: the walk to a page N entries deep leaves a mark (the match's id) every
 * MARK_EVERY matches on its way, and a later page reads from the nearest mark above it (`id <=`
 * the mark, on the same index), skipping fewer than MARK_EVERY entries. The exact count walks to
 * the end once and is kept with the marks.
 *
 * A walk's marks are kept under its query (key) and a token of what it read (the action's newest
 * entry in the change feed, which every write of a person, their search text included, adds to in
 * its own transaction): a token that moved and the walk is read again. A new walk is marked only
 * when no change below the token can still arrive (MariaDB numbers a change before it commits: a
 * younger gap in the feed may be one in flight; database/change-feed.ts); a change after it has a
 * higher number, so the token moves if it is of this action. Kept in the process (each instance its own), for MARKS_KEEP_MS at most,
 * MARKS_KEPT walks, least recently used first out; a mark costs 8 bytes (250 at a million).
 */
export class WalkMarks {
  private readonly walks = new Map<string, Walk>();

  /**
   * A page (`take` ids `offset` deep) of the walk under `key`, and its count when `exact` (or
   * when known; `countTo`: at least this many matches are read, or the walk to its end, so that
   * `atLeast` or `total` says whether there are that many); the token is read before the walk and
   * again after it, and the marks are kept only when both agree. Null when a new walk cannot be marked yet (the caller walks as before).
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
    const fresh = kept && kept.token === before && Date.now() - kept.at < MARKS_KEEP_MS;
    if (kept && !fresh) this.walks.delete(key);
    // a new walk only once nothing older than the token can still arrive
    if (!fresh && !(await token.settled())) return null;
    // a copy: requests on the same walk extend their own (the longer is kept)
    const walk: Walk = fresh ? { ...kept, marks: [...kept.marks] } : { token: before, at: Date.now(), marks: [] };
    const upTo = exact
      ? Number.POSITIVE_INFINITY
      : Math.max(Math.floor(offset / MARK_EVERY), Math.ceil(countTo / MARK_EVERY));
    const grown = await this.extend(walk, reader, upTo);
    const k = Math.floor(offset / MARK_EVERY);
    const ids =
      k < walk.marks.length && take > 0
        ? await reader.ids(k ? walk.marks[k] : undefined, offset - k * MARK_EVERY, take)
        : [];
    if (grown && (await token.current()) === before) {
      const now = this.walks.get(key);
      if (!now || now.token !== before || now.marks.length < walk.marks.length || walk.total !== undefined) {
        this.walks.delete(key);
        this.walks.set(key, walk);
        while (this.walks.size > MARKS_KEPT) this.walks.delete(this.walks.keys().next().value as string);
      }
    } else if (fresh) {
      // the least recently used goes first
      this.walks.delete(key);
      this.walks.set(key, kept);
    }
    return {
      ids,
      total: walk.total,
      atLeast: walk.total ?? (walk.marks.length ? (walk.marks.length - 1) * MARK_EVERY + 1 : 0),
    };
  }

  /** Reads marks up to the `upTo`-th (or the end); whether it read any. */
  private async extend(walk: Walk, reader: WalkReader, upTo: number): Promise<boolean> {
    let grown = false;
    while (walk.total === undefined && walk.marks.length <= upTo) {
      grown = true;
      const last = walk.marks.at(-1);
      const [next] = await reader.ids(last, last === undefined ? 0 : MARK_EVERY, 1);
      if (next !== undefined) walk.marks.push(next);
      else
        walk.total =
          last === undefined ? 0 : (walk.marks.length - 1) * MARK_EVERY + (await reader.countFrom(last, MARK_EVERY));
    }
    return grown;
  }

  /** Forgets every walk (a spec's fresh start). */
  clear(): void {
    this.walks.clear();
  }
}
