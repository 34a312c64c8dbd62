/**
 * Reads by key that arrive together share one statement (issue 16, MariaDB: the check by code,
 * and an online registration's set-up version and code row).
 *
 * On MariaDB a statement costs its round trip more than its rows: a wake-up of the server's
 * thread, a packet each way, mysql2's parse of the answer; at 50 checks in flight on two cores
 * the round trips, not the rows, were the check's cost (the bench's floor of one `SELECT 1` a
 * call). Here a read whose key arrives while `maxInFlight` statements are already on the server
 * waits, and the reads waiting when one comes back go together as the next statement (`WHERE key IN
 * (…)`, at most `maxKeys` keys; the same key asked twice is read once). A lone read goes at once:
 * nothing waits for a timer, so an idle server answers as fast as before.
 *
 * Never a stale answer: a read is only answered by a statement sent after it was asked for (it
 * never joins a statement already on the server, which may have begun before a write the caller
 * has seen committed), so every answer is as fresh as a read of its own would be.
 * A statement that fails fails the reads it carried, and only those (no retry: the caller's error
 * is the one a read of its own would have had).
 */
export interface ReadBatchOptions {
  /** Keys in one statement at most. */
  maxKeys: number;
  /** Statements on the server at once at most. */
  maxInFlight: number;
}

type Waiter<V> = { ok: (value: V | undefined) => void; fail: (e: unknown) => void };

export class ReadBatch<K, V> {
  /** Keys asked for and not yet sent, in arrival order, each with everyone waiting for it. */
  private readonly waiting = new Map<K, Waiter<V>[]>();
  private inFlight = 0;

  /**
   * `read` answers a list of distinct keys (at most maxKeys) with what it found for each; a key
   * missing from its map is answered `undefined`.
   */
  constructor(
    private readonly read: (keys: K[]) => Promise<Map<K, V>>,
    private readonly options: ReadBatchOptions,
  ) {
    if (!(options.maxKeys >= 1 && options.maxInFlight >= 1)) throw new Error('ReadBatch: maxKeys and maxInFlight ≥ 1');
  }

  get(key: K): Promise<V | undefined> {
    return new Promise<V | undefined>((ok, fail) => {
      const list = this.waiting.get(key);
      if (list) list.push({ ok, fail });
      else this.waiting.set(key, [{ ok, fail }]);
      this.send();
    });
  }

  /** Statements on the server now, and keys waiting for one (for the tests). */
  get state() {
    return { inFlight: this.inFlight, waiting: this.waiting.size };
  }

  private send(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.size > 0) {
      const batch = new Map<K, Waiter<V>[]>();
      for (const [key, list] of this.waiting) {
        batch.set(key, list);
        this.waiting.delete(key);
        if (batch.size === this.options.maxKeys) break;
      }
      this.inFlight++;
      let answer: Promise<Map<K, V>>;
      try {
        answer = this.read([...batch.keys()]);
      } catch (e) {
        answer = Promise.reject(e);
      }
      answer.then(
        (found) => {
          this.inFlight--;
          for (const [key, list] of batch) for (const w of list) w.ok(found.get(key));
          this.send();
        },
        (e: unknown) => {
          this.inFlight--;
          for (const list of batch.values()) for (const w of list) w.fail(e);
          this.send();
        },
      );
    }
  }
}

/**
 * A ReadBatch of rows by a key list: `sqlOf(marks)` is the statement with `marks` (`?, ?, …`) in
 * its `IN (…)`, run by `run` (a prepared reader's); each row goes to the key `keyOf` gives it. The
 * list is padded to paddedSize (at most log2(maxKeys) + 1 texts to prepare).
 */
export function rowsByKeys<K, R>(
  run: (sql: string, params: K[]) => Promise<R[]>,
  sqlOf: (marks: string) => string,
  keyOf: (row: R) => K,
  options: ReadBatchOptions,
): ReadBatch<K, R[]> {
  const statement = paddedStatements(
    (size) => sqlOf(Array.from({ length: size }, () => '?').join(', ')),
    options.maxKeys,
  );
  return new ReadBatch(async (keys) => {
    const { size, sql } = statement(keys.length);
    const params = Array.from({ length: size }, (_, i) => keys[Math.min(i, keys.length - 1)]);
    const found = new Map<K, R[]>();
    for (const row of await run(sql, params)) {
      const key = keyOf(row);
      const list = found.get(key);
      if (list) list.push(row);
      else found.set(key, [row]);
    }
    return found;
  }, options);
}

/**
 * The statement for `n` keys (at most `max`): the text for its padded size (paddedSize), made by
 * `sqlOf(size)` once per size and kept.
 */
export function paddedStatements(
  sqlOf: (size: number) => string,
  max: number,
): (n: number) => { size: number; sql: string } {
  const texts = new Map<number, string>();
  return (n) => {
    const size = paddedSize(n, max);
    let sql = texts.get(size);
    if (sql === undefined) {
      sql = sqlOf(size);
      texts.set(size, sql);
    }
    return { size, sql };
  };
}

/**
 * The number of placeholders a statement for `n` keys has: the next power of two (at most
 * `max`), so that a batched read has log2(max) + 1 texts to prepare, not one per size. The list is
 * padded by repeating a key (`IN (?, ?)` with the same value twice reads the row once).
 */
export function paddedSize(n: number, max: number): number {
  let size = 1;
  while (size < n && size < max) size *= 2;
  return Math.min(size, max);
}
