/**
 * HID scanner reports → codes. Pure functions, tested with recorded reports.
 *
 * Keyboard emulation (most USB scanners out of the box): 8-byte boot keyboard reports
 * `[modifiers, reserved, key1 … key6]`, one report with the key down and one with it up (all zero);
 * a key counts when it appears in a report and was not down in the previous one. US layout usage
 * ids (HID Usage Tables, page 0x07), shift from either shift bit; Enter ends the code.
 *
 * POS scanner (HID Point of Sale usage page 0x8C, "USB HID POS" mode): each input report is
 * `[reportId] [length] [data …]`; the data's first `length` bytes are the code (a CR/LF/NUL at the
 * end is dropped). Reports whose length is 0 carry nothing.
 */

const LOWER: Record<number, string> = {};
const UPPER: Record<number, string> = {};
for (let i = 0; i < 26; i++) {
  LOWER[0x04 + i] = String.fromCharCode(0x61 + i);
  UPPER[0x04 + i] = String.fromCharCode(0x41 + i);
}
'1234567890'.split('').forEach((c, i) => {
  LOWER[0x1e + i] = c;
});
'!@#$%^&*()'.split('').forEach((c, i) => {
  UPPER[0x1e + i] = c;
});
const PAIRS: [number, string, string][] = [
  [0x2c, ' ', ' '],
  [0x2d, '-', '_'],
  [0x2e, '=', '+'],
  [0x2f, '[', '{'],
  [0x30, ']', '}'],
  [0x31, '\\', '|'],
  [0x32, '#', '~'],
  [0x33, ';', ':'],
  [0x34, "'", '"'],
  [0x35, '`', '~'],
  [0x36, ',', '<'],
  [0x37, '.', '>'],
  [0x38, '/', '?'],
  [0x2b, '\t', '\t'],
  // keypad: the same character with or without shift
  [0x54, '/', '/'],
  [0x55, '*', '*'],
  [0x56, '-', '-'],
  [0x57, '+', '+'],
  [0x62, '0', '0'],
  [0x63, '.', '.'],
];
for (const [usage, plain, shifted] of PAIRS) {
  LOWER[usage] = plain;
  UPPER[usage] = shifted;
}
for (let i = 0; i < 9; i++) {
  LOWER[0x59 + i] = String(i + 1);
  UPPER[0x59 + i] = String(i + 1);
}

const ENTER = new Set([0x28, 0x58]);
const SHIFT = 0x02 | 0x20;
/** Error codes a keyboard reports in every key slot when too many keys are down. */
const ROLLOVER = new Set([0x01, 0x02, 0x03]);

/** One character for a usage id, or undefined for keys that make none (arrows, F-keys, …). */
export function usageToChar(usage: number, shift: boolean): string | undefined {
  return (shift ? UPPER : LOWER)[usage];
}

/**
 * Decodes a stream of boot keyboard reports. Keeps the keys down in the previous report and the
 * characters of the code being typed.
 */
export class KeyboardReportDecoder {
  #down = new Set<number>();
  #text = '';

  /** Feeds one report; returns the codes it finished (Enter), usually none or one. */
  push(report: Uint8Array): string[] {
    // With a report id the boot report is 9 bytes: drop the id.
    const bytes = report.length === 9 ? report.subarray(1) : report;
    if (bytes.length < 3) return [];
    const shift = (bytes[0] & SHIFT) !== 0;
    const keys = Array.from(bytes.subarray(2)).filter((usage) => usage !== 0);
    if (keys.some((usage) => ROLLOVER.has(usage))) return [];
    const codes: string[] = [];
    for (const usage of keys) {
      if (this.#down.has(usage)) continue;
      if (ENTER.has(usage)) {
        if (this.#text) codes.push(this.#text);
        this.#text = '';
        continue;
      }
      const char = usageToChar(usage, shift);
      if (char !== undefined) this.#text += char;
    }
    this.#down = new Set(keys);
    // A code never grows without bound when a scanner is set to send no Enter.
    if (this.#text.length > 4096) this.#text = '';
    return codes;
  }

  reset() {
    this.#down.clear();
    this.#text = '';
  }
}

/** Decodes all reports at once (for recorded sessions). */
export function decodeKeyboardReports(reports: Iterable<Uint8Array>): string[] {
  const decoder = new KeyboardReportDecoder();
  const codes: string[] = [];
  for (const report of reports) codes.push(...decoder.push(report));
  return codes;
}

export interface PosReportOptions {
  /** Whether the report starts with a report id byte (node-hid passes it when the device uses ids). */
  hasReportId?: boolean;
}

/** One POS-scanner input report → its code, or null when it holds none. */
export function parsePosReport(report: Uint8Array, options: PosReportOptions = {}): string | null {
  const offset = options.hasReportId === false ? 0 : 1;
  if (report.length <= offset) return null;
  const length = report[offset];
  const data = report.subarray(offset + 1, offset + 1 + length);
  if (!length || data.length < length) return null;
  const code = Buffer.from(data)
    .toString('utf8')
    .replace(/[\r\n\0]+$/, '');
  return code || null;
}
