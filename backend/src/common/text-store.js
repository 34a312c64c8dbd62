// @ts-check
// Plain JavaScript (checked by TypeScript through its JSDoc): the import's sheet reader uses it in
// a worker thread, which runs this file as it is, from the build and from the sources alike.

/**
 * Texts kept as UTF-8 bytes in one growing buffer with the offset where each ends, not as one
 * string object each: outside V8's heap and about a third of its size (a Map or Set of 200,000
 * strings is tens of MiB of heap that the garbage collector walks on every full collection).
 * Texts are numbered 0, 1, … in the order they were added. The import's sheet reader keeps the
 * shared strings in one (xlsx-sheet.js), TextSet the e-mails seen in a sheet.
 */
export class TextStore {
  /**
   * @param {number} [limit] the most bytes it holds: adding past it throws
   * @param {string} [what] what it holds, for that error
   */
  constructor(limit = 0xffffffff, what = 'texts') {
    this.limit = limit;
    this.what = what;
    /** the bytes of texts 0 … size - 1, back to back */
    this.bytes = Buffer.allocUnsafe(1 << 16);
    /** where each text ends in `bytes` */
    this.ends = new Uint32Array(1 << 10);
    this.size = 0;
  }

  /**
   * Room for `n` bytes of texts (at most the limit) from the start, not filled: only the pages
   * written count in the process's memory, and it is not copied as it fills. For an empty store.
   * @param {number} n
   */
  reserve(n) {
    if (this.size === 0 && n > this.bytes.length) this.bytes = Buffer.allocUnsafe(Math.min(n, this.limit));
  }

  /** @param {number} i @returns {number} where text i starts in `bytes` */
  start(i) {
    return i ? this.ends[i - 1] : 0;
  }

  /** @param {number} i @returns {number} where text i ends in `bytes` */
  end(i) {
    return this.ends[i];
  }

  /**
   * Adds the bytes src[0, n) as the next text.
   * @param {Buffer} src
   * @param {number} [n]
   * @returns {number} its number
   */
  push(src, n = src.length) {
    const at = this.room(n);
    src.copy(this.bytes, at, 0, n);
    return this.ended(at + n);
  }

  /**
   * Adds `text` (as UTF-8) as the next text.
   * @param {string} text
   * @returns {number} its number
   */
  pushText(text) {
    const n = Buffer.byteLength(text);
    const at = this.room(n);
    this.bytes.write(text, at);
    return this.ended(at + n);
  }

  /** @param {number} i @returns {string} text i, or '' for a number no text has */
  text(i) {
    if (!(i >= 0 && i < this.size)) return '';
    return this.bytes.toString('utf8', this.start(i), this.ends[i]);
  }

  /**
   * Whether text i is the bytes src[0, n).
   * @param {number} i
   * @param {Buffer} src
   * @param {number} n
   */
  equals(i, src, n) {
    const start = this.start(i);
    const end = this.ends[i];
    return end - start === n && src.compare(this.bytes, start, end, 0, n) === 0;
  }

  /** @param {number} n @returns {number} where the next text of n bytes goes, the buffer grown for it */
  room(n) {
    const at = this.size ? this.ends[this.size - 1] : 0;
    if (at + n > this.limit) throw new Error(`${this.what} over ${this.limit} bytes`);
    if (at + n > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.min(this.limit, Math.max(this.bytes.length * 2, at + n)));
      this.bytes.copy(bigger, 0, 0, at);
      this.bytes = bigger;
    }
    return at;
  }

  /** @param {number} end @returns {number} the number of the text just written, which ends at `end` */
  ended(end) {
    if (this.size === this.ends.length) {
      const bigger = new Uint32Array(this.ends.length * 2);
      bigger.set(this.ends);
      this.ends = bigger;
    }
    this.ends[this.size] = end;
    return this.size++;
  }
}
