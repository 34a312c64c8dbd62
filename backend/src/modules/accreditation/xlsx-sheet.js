// @ts-check
/**
 * The reader of an .xlsx's first sheet for the import (issue 16, 2026-11-29), run in a worker
 * thread (xlsx-sheet.worker.js, started by accreditation-import.ts `sheetRows`). Plain JavaScript
 * checked by TypeScript through its JSDoc: a worker runs this file as it is, from the build and
 * from the sources alike. It loads no package.
 *
 * An .xlsx is a zip of XML parts, and the import needs only the first sheet's cell texts. The
 * upload (at most IMPORT_MAX_BYTES) is collected as it arrives; its zip directory then gives every
 * part at once, so the shared strings are read before the sheet whatever order the file stores
 * them in (exceljs's streaming reader kept the sheet in a temporary file until then, and left it
 * there), and the sheet is inflated and scanned a chunk at a time, so memory stays flat whatever
 * its rows. What a cell gives is what exceljs's reader gave (texts trimmed; numbers as JavaScript
 * prints them; a number in a date format as its ISO day; booleans true/false; errors empty), with
 * a few of its slips mended: a phonetic guide is not read as the text, an inline rich text gives
 * all its runs, a formula's date result is a day too, `_x000D_` escapes are decoded, and the first
 * sheet is the workbook's first visible one, not the first stored.
 */
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import { TextStore } from '../../common/text-store.js';

// ---- limits: a file may be anything; none of these is near a real sheet
export const MAX_STRINGS_BYTES = 256 * 1024 * 1024; // the shared strings, as UTF-8
export const MAX_TEXT = 1 << 20; // one cell's text or one tag (Excel's cell holds 32,767 characters)
export const MAX_ROWS = 1048576; // Excel's rows per sheet
export const MAX_COLUMNS = 16384; // Excel's columns

/**
 * @typedef {object} ChunkedFile the upload, kept as the chunks it arrived in
 * @property {number} length
 * @property {(at: number, n: number) => Generator<Buffer>} pieces [at, at + n) in pieces of the chunks
 * @property {(at: number, n: number) => Buffer} read a copy of [at, at + n), cut short at the end
 *
 * @typedef {object} ZipPart a part of the zip, from its central directory
 * @property {string} name
 * @property {number} method 0 stored, 8 deflated
 * @property {number} crc
 * @property {number} packed its size in the zip
 * @property {number} size
 * @property {number} offset where its local header is
 *
 * @typedef {Map<string, ZipPart>} ZipParts the parts by their lower-case names without a leading /
 *
 * @typedef {object} XmlHandler what a scan of XML meets: tag names without their prefix; a tag's
 *   attributes are s[from, to); a text is s[from, to), not yet decoded
 * @property {boolean} [done] true: the rest of the part is not scanned
 * @property {(name: string, s: string, from: number, to: number) => void} open
 * @property {(name: string) => void} close
 * @property {(s: string, from: number, to: number) => void} text
 * @property {(text: string) => void} cdata
 *
 * @typedef {object} Book the workbook as the sheet's cells need it
 * @property {boolean} date1904 whether its serial days count from 1904
 * @property {boolean[]} dates for each cell style (a cell's s), whether it shows a date
 * @property {TextStore} shared the shared strings
 *
 * @typedef {[number, string[]]} SheetRow a row's number and each cell's text
 */

/**
 * The upload, kept as the chunks it arrived in (not copied into one buffer, so it is held once).
 * @param {Buffer[]} chunks
 * @returns {ChunkedFile}
 */
export function chunkedFile(chunks) {
  /** @type {number[]} */
  const starts = [];
  let length = 0;
  for (const c of chunks) {
    starts.push(length);
    length += c.length;
  }
  /** @param {number} at @returns {number} the chunk that holds byte `at` */
  function chunkAt(at) {
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  /** @param {number} at @param {number} n */
  function* pieces(at, n) {
    if (at < 0 || n <= 0 || at + n > length) return;
    for (let k = chunkAt(at); n > 0; k++) {
      const from = at - starts[k];
      const piece = chunks[k].subarray(from, Math.min(chunks[k].length, from + n));
      yield piece;
      at += piece.length;
      n -= piece.length;
    }
  }
  /** @param {number} at @param {number} n */
  function read(at, n) {
    /** @type {Buffer[]} */
    const out = [];
    for (const piece of pieces(at, Math.min(n, length - at))) out.push(piece);
    return out.length === 1 ? out[0] : Buffer.concat(out);
  }
  return { length, pieces, read };
}

/**
 * The zip's parts from its central directory (zip64 included).
 * @param {ChunkedFile} file
 * @returns {ZipParts}
 */
export function zipEntries(file) {
  const tailAt = Math.max(0, file.length - 65557);
  const tail = file.read(tailAt, file.length - tailAt);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip file (no central directory)');
  let count = tail.readUInt16LE(end + 10);
  let size = tail.readUInt32LE(end + 12);
  let at = tail.readUInt32LE(end + 16);
  if ((at === 0xffffffff || count === 0xffff) && end >= 20 && tail.readUInt32LE(end - 20) === 0x07064b50) {
    const record = file.read(Number(tail.readBigUInt64LE(end - 12)), 56);
    if (record.length === 56 && record.readUInt32LE(0) === 0x06064b50) {
      count = Number(record.readBigUInt64LE(32));
      size = Number(record.readBigUInt64LE(40));
      at = Number(record.readBigUInt64LE(48));
    }
  }
  const dir = file.read(at, size);
  /** @type {ZipParts} */
  const parts = new Map();
  at = 0;
  for (let k = 0; k < count; k++) {
    if (at + 46 > dir.length || dir.readUInt32LE(at) !== 0x02014b50) throw new Error('a broken zip directory');
    const method = dir.readUInt16LE(at + 10);
    const crc = dir.readUInt32LE(at + 16);
    let packed = dir.readUInt32LE(at + 20);
    let size = dir.readUInt32LE(at + 24);
    const nameLength = dir.readUInt16LE(at + 28);
    const extraLength = dir.readUInt16LE(at + 30);
    const commentLength = dir.readUInt16LE(at + 32);
    let offset = dir.readUInt32LE(at + 42);
    const name = dir.toString('utf8', at + 46, at + 46 + nameLength);
    const extraEnd = Math.min(dir.length, at + 46 + nameLength + extraLength);
    for (let e = at + 46 + nameLength; e + 4 <= extraEnd; e += 4 + dir.readUInt16LE(e + 2)) {
      if (dir.readUInt16LE(e) !== 1) continue;
      let p = e + 4;
      const next = () => {
        const v = p + 8 <= extraEnd ? Number(dir.readBigUInt64LE(p)) : 0;
        p += 8;
        return v;
      };
      if (size === 0xffffffff) size = next();
      if (packed === 0xffffffff) packed = next();
      if (offset === 0xffffffff) offset = next();
    }
    parts.set(name.replace(/^\//, '').toLowerCase(), { name, method, crc, packed, size, offset });
    at = extraEnd + commentLength;
  }
  return parts;
}

/**
 * A part's text, a chunk at a time (inflated as it is read, never whole); a part read to its end
 * is checked against its CRC-32, so a damaged file is refused rather than read as other texts.
 * @param {ChunkedFile} file
 * @param {ZipPart} part
 * @returns {AsyncGenerator<string>}
 */
export async function* partText(file, part) {
  const header = file.read(part.offset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw new Error(`a broken zip entry: ${part.name}`);
  const start = part.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (start + part.packed > file.length) throw new Error(`a zip entry cut short: ${part.name}`);
  const decoder = new StringDecoder('utf8');
  let crc = 0;
  if (part.method === 0) {
    for (const piece of file.pieces(start, part.packed)) {
      crc = zlib.crc32(piece, crc);
      yield decoder.write(piece);
    }
  } else if (part.method === 8) {
    const inflate = zlib.createInflateRaw({ chunkSize: 1 << 16 });
    for (const piece of file.pieces(start, part.packed)) inflate.write(piece);
    inflate.end();
    for await (const chunk of inflate) {
      crc = zlib.crc32(chunk, crc);
      yield decoder.write(chunk);
    }
  } else {
    throw new Error(`an unknown compression in ${part.name}`);
  }
  if (crc !== part.crc) throw new Error(`a damaged zip entry (its CRC differs): ${part.name}`);
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * A scanner of XML's tags and texts, fed chunk after chunk; a tag cut by a chunk's end waits for
 * the next. Names lose their prefix (x:row is row); comments, CDATA, declarations understood.
 * @param {XmlHandler} h
 * @returns {(chunk: string) => void}
 */
export function xmlScanner(h) {
  let rest = '';
  /** @param {string} s @param {number} from @returns {number} the '>' that ends the tag, past any quoted attribute value (which may hold a '>') */
  function tagEnd(s, from) {
    for (let i = from; ; ) {
      const gt = s.indexOf('>', i);
      if (gt < 0) return -1;
      let quote = -1;
      for (let k = i; k < gt; k++) {
        const c = s.charCodeAt(k);
        if (c === 34 || c === 39) {
          quote = k;
          break;
        }
      }
      if (quote < 0) return gt;
      const closing = s.indexOf(s[quote], quote + 1);
      if (closing < 0) return -1;
      i = closing + 1;
    }
  }
  // where the last name read by nameOf ends, prefix included
  let nameEnd = 0;
  /** @param {string} s @param {number} from @param {number} to @returns {string} a tag's name without its prefix */
  function nameOf(s, from, to) {
    let end = from;
    let colon = -1;
    for (; end < to; end++) {
      const c = s.charCodeAt(end);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62) break;
      if (c === 58) colon = end;
    }
    nameEnd = end;
    return s.slice(colon >= 0 ? colon + 1 : from, end);
  }
  return function write(chunk) {
    const s = rest ? rest + chunk : chunk;
    const n = s.length;
    let i = 0;
    while (i < n) {
      const lt = s.indexOf('<', i);
      if (lt < 0) {
        h.text(s, i, n);
        i = n;
        break;
      }
      if (lt > i) h.text(s, i, lt);
      i = lt;
      if (lt + 1 >= n) break;
      const c1 = s.charCodeAt(lt + 1);
      if (c1 === 33) {
        // <!
        if (s.startsWith('<![CDATA[', lt)) {
          const e = s.indexOf(']]>', lt + 9);
          if (e < 0) break;
          h.cdata(s.slice(lt + 9, e));
          i = e + 3;
          continue;
        }
        if (s.startsWith('<!--', lt)) {
          const e = s.indexOf('-->', lt + 4);
          if (e < 0) break;
          i = e + 3;
          continue;
        }
        if (n - lt < 9) break;
        const e = s.indexOf('>', lt);
        if (e < 0) break;
        i = e + 1;
        continue;
      }
      const gt = tagEnd(s, lt + 1);
      if (gt < 0) break;
      if (c1 === 63) {
        // <?xml ...?>
        i = gt + 1;
        continue;
      }
      if (c1 === 47) h.close(nameOf(s, lt + 2, gt));
      else {
        const name = nameOf(s, lt + 1, gt);
        const empty = s.charCodeAt(gt - 1) === 47;
        h.open(name, s, nameEnd, empty ? gt - 1 : gt);
        if (empty) h.close(name);
      }
      i = gt + 1;
    }
    rest = i < n ? s.slice(i) : '';
    if (rest.length > MAX_TEXT) throw new Error(`a tag longer than ${MAX_TEXT} characters`);
  };
}

/**
 * A tag's attributes by their names without prefix, decoded.
 * @param {string} s
 * @param {number} from after the tag's name
 * @param {number} to before its end
 * @returns {Record<string, string>}
 */
export function attributes(s, from, to) {
  /** @type {Record<string, string>} */
  const out = {};
  let i = from;
  for (;;) {
    const eq = s.indexOf('=', i);
    if (eq < 0 || eq >= to) return out;
    let q = eq + 1;
    while (q < to && s.charCodeAt(q) !== 34 && s.charCodeAt(q) !== 39) q++;
    if (q >= to) return out;
    const close = s.indexOf(s[q], q + 1);
    if (close < 0 || close > to) return out;
    const name = s.slice(i, eq).trim();
    const colon = name.lastIndexOf(':');
    out[colon >= 0 ? name.slice(colon + 1) : name] = decode(s.slice(q + 1, close));
    i = close + 1;
  }
}

/** @type {Record<string, string>} */
const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/**
 * XML's entities and character references decoded.
 * @param {string} t
 */
export function decode(t) {
  if (t.indexOf('&') < 0) return t;
  return t.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (_m, e) => {
    if (e[0] !== '#') return ENTITIES[e];
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/**
 * OOXML's escapes of characters XML cannot carry decoded (_x000D_ a carriage return; _x005F_ the underscore).
 * @param {string} t
 */
export function unescapeText(t) {
  if (t.indexOf('_x') < 0) return t;
  return t.replace(/_x([0-9a-fA-F]{4})_/g, (_m, hex) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * A part scanned until its handler is done, and read to its end all the same (its CRC checked).
 * @param {ChunkedFile} file
 * @param {ZipPart} part
 * @param {XmlHandler} h
 */
async function scanPart(file, part, h) {
  const write = xmlScanner(h);
  for await (const text of partText(file, part)) if (!h.done) write(text);
}

/** @returns {XmlHandler} a handler of the opening tags alone */
const opening = (/** @type {XmlHandler['open']} */ open) => ({ open, close() {}, text() {}, cdata() {} });

/**
 * A path inside the zip.
 * @param {string} dir a folder ending in / or ''
 * @param {string} target relative to dir, or absolute
 */
function resolvePath(dir, target) {
  /** @type {string[]} */
  const resolved = [];
  for (const seg of (target.startsWith('/') ? target : dir + target).split('/')) {
    if (seg === '..') resolved.pop();
    else if (seg !== '.' && seg !== '') resolved.push(seg);
  }
  return resolved.join('/');
}

/**
 * The relations of a part: their Id to the path and type of the part they name.
 * @param {ChunkedFile} file
 * @param {ZipParts} parts
 * @param {string} name the part's path ('' for the package's own)
 * @returns {Promise<Map<string, { path: string; type: string }>>}
 */
async function relationsOf(file, parts, name) {
  const dir = name.slice(0, name.lastIndexOf('/') + 1);
  /** @type {Map<string, { path: string; type: string }>} */
  const rels = new Map();
  const part = parts.get(`${dir}_rels/${name.slice(dir.length)}.rels`.toLowerCase());
  if (part)
    await scanPart(
      file,
      part,
      opening((tag, s, from, to) => {
        if (tag !== 'Relationship') return;
        const a = attributes(s, from, to);
        if (a.Id && a.Target) rels.set(a.Id, { path: resolvePath(dir, a.Target), type: a.Type || '' });
      }),
    );
  return rels;
}

/**
 * The workbook's first visible sheet, whether its dates count from 1904, and its shared strings and
 * styles parts (by the package's relations, or where Excel puts them).
 * @param {ChunkedFile} file
 * @param {ZipParts} parts
 * @returns {Promise<{ sheet: ZipPart; date1904: boolean; strings: ZipPart | undefined; styles: ZipPart | undefined }>}
 */
async function workbookOf(file, parts) {
  const part = (/** @type {string} */ name) => parts.get(name.toLowerCase());
  // the workbook the package names (xl/workbook.xml as Excel saves it)
  const office = [...(await relationsOf(file, parts, '')).values()].find((r) => r.type.endsWith('/officeDocument'));
  const bookName = office && part(office.path) ? office.path : 'xl/workbook.xml';
  const book = part(bookName);
  if (!book) throw new Error('not a spreadsheet (no workbook)');
  const dir = bookName.slice(0, bookName.lastIndexOf('/') + 1);
  /** @type {Record<string, string>[]} */
  const sheets = [];
  let date1904 = false;
  await scanPart(
    file,
    book,
    opening((name, s, from, to) => {
      if (name === 'workbookPr') {
        const a = attributes(s, from, to);
        date1904 = a.date1904 === '1' || a.date1904 === 'true';
      } else if (name === 'sheet') sheets.push(attributes(s, from, to));
    }),
  );
  const rels = await relationsOf(file, parts, bookName);
  const related = (/** @type {string} */ type, /** @type {string} */ fallback) => {
    for (const r of rels.values()) if (r.type.endsWith(type) && part(r.path)) return part(r.path);
    return part(dir + fallback);
  };
  const visible = sheets.filter((x) => !x.state || x.state === 'visible');
  /** @type {ZipPart | undefined} */
  let sheet;
  for (const x of visible.length ? visible : sheets) {
    const rel = rels.get(x.id);
    sheet = rel ? part(rel.path) : undefined;
    if (sheet) break;
  }
  // a workbook without relations: its first worksheet part
  if (!sheet)
    for (const [name, p] of parts)
      if (name.startsWith(dir.toLowerCase()) && /^worksheets\/[^/]+\.xml$/.test(name.slice(dir.length))) {
        sheet = p;
        break;
      }
  if (!sheet) throw new Error('no worksheet');
  return {
    sheet,
    date1904,
    strings: related('/sharedStrings', 'sharedStrings.xml'),
    styles: related('/styles', 'styles.xml'),
  };
}

// exceljs's test of a number format for a date: a day, month, year or time letter outside [] and ""
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);
/** @param {string} code */
function isDateFormat(code) {
  return /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/**
 * For each cell style (the s of a cell) whether it shows a date.
 * @param {ChunkedFile} file
 * @param {ZipPart | undefined} part the styles
 * @returns {Promise<boolean[]>}
 */
async function dateStylesOf(file, part) {
  /** @type {boolean[]} */
  const dates = [];
  if (!part) return dates;
  /** @type {Map<number, string>} */
  const custom = new Map();
  let inXfs = false;
  /** @type {XmlHandler} */
  const h = {
    text() {},
    cdata() {},
    open(name, s, from, to) {
      if (name === 'numFmt') {
        const a = attributes(s, from, to);
        custom.set(Number(a.numFmtId), a.formatCode ?? '');
      } else if (name === 'cellXfs') inXfs = true;
      else if (name === 'xf' && inXfs) {
        const id = Number(attributes(s, from, to).numFmtId ?? 0);
        const code = custom.get(id);
        dates.push(id > 0 && (code !== undefined ? isDateFormat(code) : BUILT_IN_DATES.has(id)));
      }
    },
    close(name) {
      if (name === 'cellXfs') {
        inXfs = false;
        h.done = true;
      }
    },
  };
  await scanPart(file, part, h);
  return dates;
}

/**
 * A text collected from the texts of its <t> elements (rich text runs too), not of a phonetic
 * guide (<rPh>) or its properties: the shared strings' <si>, an inline string's <is>.
 */
class TextCollector {
  taking = false;
  /** the current <t>'s text, not yet decoded */
  text = '';
  /** the texts of the <t>s closed so far, decoded */
  value = '';
  inPhonetic = false;
  start() {
    this.value = '';
    this.inPhonetic = false;
    this.taking = false;
  }
  /** @param {string} name */
  open(name) {
    if (name === 't' && !this.inPhonetic) {
      this.taking = true;
      this.text = '';
    } else if (name === 'rPh') this.inPhonetic = true;
  }
  /** @param {string} name */
  close(name) {
    if (name === 't' && this.taking) {
      this.value += decode(this.text);
      this.taking = false;
    } else if (name === 'rPh') this.inPhonetic = false;
  }
  /** @param {string} s @param {number} from @param {number} to */
  add(s, from, to) {
    if (!this.taking) return;
    this.text += s.slice(from, to);
    if (this.text.length > MAX_TEXT) throw new Error(`a text longer than ${MAX_TEXT} characters`);
  }
}

/**
 * The shared strings part's handler: each <si>'s text into `store`, in order.
 * @param {TextStore} store
 * @returns {XmlHandler}
 */
export function stringsHandler(store) {
  const t = new TextCollector();
  let inItem = false;
  return {
    open(name) {
      if (name === 'si') {
        inItem = true;
        t.start();
      } else if (inItem) t.open(name);
    },
    close(name) {
      if (name === 'si') {
        inItem = false;
        store.pushText(unescapeText(t.value));
      } else if (inItem) t.close(name);
    },
    text(s, from, to) {
      if (inItem) t.add(s, from, to);
    },
    cdata(text) {
      if (inItem && t.taking) t.text += text;
    },
  };
}

/** @param {string} ref a cell's reference (B12) @returns {number} its column from 1, or 0 */
function columnOf(ref) {
  let col = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i) & ~32; // upper case
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return col;
}

/** @param {number} serial a day as a number @param {boolean} date1904 @returns {string} its ISO day, or '' */
function dayOf(serial, date1904) {
  const ms = Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86400000);
  return Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString().slice(0, 10) : '';
}

/**
 * The sheet part's handler: its rows of cell texts, as exceljs's reader gave them, to `emit`.
 * @param {Book} book
 * @param {(row: SheetRow) => void} emit
 * @returns {XmlHandler}
 */
export function sheetHandler(book, emit) {
  const inline = new TextCollector();
  let inData = false;
  /** @type {(string | undefined)[] | null} */
  let cells = null;
  let rowNumber = 0;
  let column = 0;
  let type = '';
  let style = 0;
  let formula = false;
  /** @type {string | null} */
  let value = null;
  let inValue = false;
  let inInline = false;
  let hadInline = false;
  let rows = 0;
  /** @param {string} v */
  function number(v) {
    const n = parseFloat(v);
    if (Number.isNaN(n)) return '';
    return style && book.dates[style] ? dayOf(n, book.date1904) : String(n);
  }
  /** @returns {string | undefined} the cell's text, or undefined for a cell with neither value nor formula (left out, as exceljs did) */
  function cellText() {
    if (hadInline) return unescapeText(inline.value).trim();
    if (formula) {
      if (value === null || type === 'e') return '';
      if (type === 'str') return unescapeText(decode(value)).trim();
      if (type === 'b') return parseInt(value, 10) !== 0 ? 'true' : 'false';
      return number(value);
    }
    if (value === null) return undefined;
    switch (type) {
      case 's':
        return book.shared.text(parseInt(value, 10)).trim();
      case 'str':
      case 'inlineStr':
        return unescapeText(decode(value)).trim();
      case 'e':
        return '';
      case 'b':
        return parseInt(value, 10) !== 0 ? 'true' : 'false';
      case 'd':
        return decode(value).trim().slice(0, 10);
      default:
        return number(value);
    }
  }
  /** @type {XmlHandler} */
  const h = {
    done: false,
    open(name, s, from, to) {
      if (!inData) {
        if (name === 'sheetData') inData = true;
        return;
      }
      if (name === 'row') {
        const r = parseInt(attributes(s, from, to).r, 10);
        rowNumber = r > 0 ? r : rowNumber + 1;
        if (++rows > MAX_ROWS || rowNumber > MAX_ROWS) throw new Error(`more than ${MAX_ROWS} rows`);
        cells = [];
        column = 0;
      } else if (cells === null) {
        return;
      } else if (name === 'c') {
        const a = attributes(s, from, to);
        const col = a.r ? columnOf(a.r) : 0;
        column = col > 0 ? col : column + 1;
        if (column > MAX_COLUMNS) throw new Error(`more than ${MAX_COLUMNS} columns`);
        type = a.t || '';
        style = a.s ? parseInt(a.s, 10) || 0 : 0;
        formula = false;
        value = null;
        inInline = false;
        hadInline = false;
        inline.start();
      } else if (name === 'v') {
        inValue = true;
        value = '';
      } else if (name === 'f') {
        formula = true;
      } else if (name === 'is') {
        inInline = true;
        hadInline = true;
      } else if (inInline) {
        inline.open(name);
      }
    },
    close(name) {
      if (!inData) return;
      if (name === 'v') inValue = false;
      else if (name === 'is') inInline = false;
      else if (name === 'c') {
        if (cells === null) return;
        inInline = false;
        const text = cellText();
        if (text !== undefined) cells[column - 1] = text;
        type = '';
        value = null;
        inline.start();
      } else if (name === 'row') {
        if (cells === null) return;
        // a hole (a cell not in the file) is ''
        emit([rowNumber, Array.from(cells, (c) => (c === undefined ? '' : c))]);
        cells = null;
      } else if (name === 'sheetData') {
        inData = false;
        h.done = true;
      } else if (inInline) inline.close(name);
    },
    text(s, from, to) {
      if (inValue) {
        value = (value ?? '') + s.slice(from, to);
        if (value.length > MAX_TEXT) throw new Error(`a value longer than ${MAX_TEXT} characters`);
      } else if (inInline) inline.add(s, from, to);
    },
    cdata(text) {
      if (inValue) value += text;
      else if (inInline && inline.taking) inline.text += text;
    },
  };
  return h;
}

/**
 * Reads the first sheet of the .xlsx `file`: each row to `emit`, in the sheet's order; after each
 * chunk of the sheet (64 kB of XML, some 300 rows) it waits for `paced`, so that rows are read no
 * faster than they are taken. A file that is no readable .xlsx throws.
 * @param {ChunkedFile} file
 * @param {(row: SheetRow) => void} emit
 * @param {() => Promise<unknown>} [paced]
 */
export async function readSheet(file, emit, paced) {
  const parts = zipEntries(file);
  const found = await workbookOf(file, parts);
  const shared = new TextStore(MAX_STRINGS_BYTES, 'shared strings');
  /** @type {Book} */
  const book = { date1904: found.date1904, dates: await dateStylesOf(file, found.styles), shared };
  if (found.strings) {
    // room for the texts of the part's size of XML (they take fewer bytes than their XML)
    shared.reserve(found.strings.size);
    await scanPart(file, found.strings, stringsHandler(shared));
  }
  const h = sheetHandler(book, emit);
  const write = xmlScanner(h);
  for await (const text of partText(file, found.sheet)) {
    // past </sheetData> the rest is only read for its CRC
    if (h.done) continue;
    write(text);
    if (paced) await paced();
  }
}

/**
 * Scans a sheet of its own (`rows` rows as Excel writes them, made as text) so that V8 compiles the
 * scanner's hot paths before a real file meets them (accreditation-import.ts WARM_ROWS).
 * @param {number} rows
 * @returns {number} the rows it read
 */
export function warmUp(rows) {
  let sst = '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';
  let sheet = '<worksheet><sheetData>';
  let n = 0;
  for (let r = 1; r <= rows; r++) {
    const texts = [`Name${r}`, `Surname${r % 97}`, `p${r}@example.com`, `Company &amp; ${r % 50}`];
    sheet += `<row r="${r}" spans="1:6">`;
    texts.forEach((text, c) => {
      sheet += `<c r="${String.fromCharCode(65 + c)}${r}" t="s"><v>${n++}</v></c>`;
      sst += `<si><t>${text}</t></si>`;
    });
    sheet += `<c r="E${r}" s="1"><v>${45000 + r}</v></c><c r="F${r}" t="inlineStr"><is><t>x</t></is></c></row>`;
  }
  sst += '</sst>';
  sheet += '</sheetData></worksheet>';
  let count = 0;
  const shared = new TextStore();
  const book = { date1904: false, dates: [false, true], shared };
  /** @type {[string, XmlHandler][]} */
  const scans = [
    [sst, stringsHandler(shared)],
    [sheet, sheetHandler(book, () => count++)],
  ];
  for (const [text, h] of scans) {
    const write = xmlScanner(h);
    for (let i = 0; i < text.length; i += 1 << 16) write(text.slice(i, i + (1 << 16)));
  }
  return count;
}
