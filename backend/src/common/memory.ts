import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Memory given back after a big piece of work (issue 16: "the import's peak RSS < 300 MB, memory
 * returned after"). V8 leaves the garbage of a long import (rows promoted to the old generation
 * while they waited for the database) until its heuristics next collect, which on an idle server
 * can be never, and a second import then starts from the first one's garbage. One full collection
 * when such work ends gives the heap back to its size at rest (measured: 86 → 60 MiB used and
 * external 28 → 4 MiB after a 100,000-row import), at the cost of one pause of 70–160 ms on this
 * machine, once, after work that took seconds.
 *
 * Node offers `gc()` only with `--expose-gc`. Without that flag it is taken from a new context
 * made while the flag is set for a moment (the way the `expose-gc` package does it); where that
 * fails (another engine, a locked-down runtime) nothing is collected and nothing else changes.
 */
type Collect = () => void;

let collector: Collect | null | undefined;

function findCollector(): Collect | null {
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as Collect) : null;
  } catch {
    return null;
  } finally {
    // later contexts (a library's vm sandbox) get no `gc` of their own
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/** One full garbage collection now; false where the runtime offers none. */
export function collectGarbage(): boolean {
  if (collector === undefined) collector = findCollector();
  if (!collector) return false;
  collector();
  return true;
}

/** The rows of an import from which a collection follows it (a smaller one leaves little behind). */
export const COLLECT_AFTER_ROWS = 5000;

/**
 * A collection once the current request's answer has gone out (the next turn of the event loop
 * after this one's I/O), when the finished work was big enough to leave much behind.
 */
export function collectAfter(rows: number): boolean {
  if (rows < COLLECT_AFTER_ROWS) return false;
  setImmediate(() => collectGarbage()).unref();
  return true;
}
