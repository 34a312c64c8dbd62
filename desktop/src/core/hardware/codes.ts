/**
 * Turning a scanner's byte stream into codes: split at the line terminator, strip the configured
 * prefix and suffix. Pure; the serial reader feeds it chunks as they arrive.
 */

/** Named terminators, `0x…` hex bytes (e.g. `0x03` for ETX), or any other string taken literally. */
export type Terminator = 'CR' | 'LF' | 'CRLF' | (string & {});

export interface CodeFraming {
  terminator?: Terminator;
  prefix?: string;
  suffix?: string;
  /** Bytes without a terminator beyond this are dropped (line noise, a wrong baud rate). */
  maxLength?: number;
}

const NAMED: Record<string, string> = { CR: '\r', LF: '\n', CRLF: '\r\n', TAB: '\t', ETX: '\x03' };

export function terminatorBytes(terminator: Terminator = 'CR'): Buffer {
  const named = NAMED[terminator.toUpperCase()];
  if (named) return Buffer.from(named, 'latin1');
  if (/^0x([0-9a-f]{2})+$/i.test(terminator)) return Buffer.from(terminator.slice(2), 'hex');
  if (!terminator) throw new Error('The line terminator must not be empty');
  return Buffer.from(terminator, 'utf8');
}

/** Prefix and suffix off, stray CR/LF/NUL at the edges off (a CR terminator followed by LF). */
export function cleanCode(raw: string, framing: Pick<CodeFraming, 'prefix' | 'suffix'> = {}): string {
  let code = raw.replace(/^[\r\n\0]+|[\r\n\0]+$/g, '');
  if (framing.prefix && code.startsWith(framing.prefix)) code = code.slice(framing.prefix.length);
  if (framing.suffix && code.endsWith(framing.suffix)) code = code.slice(0, -framing.suffix.length);
  return code;
}

/** Collects chunks and returns the complete codes each chunk finishes. */
export class CodeAssembler {
  readonly #terminator: Buffer;
  readonly #maxLength: number;
  #buffer = Buffer.alloc(0);

  constructor(private readonly framing: CodeFraming = {}) {
    this.#terminator = terminatorBytes(framing.terminator);
    this.#maxLength = framing.maxLength ?? 4096;
  }

  push(chunk: Buffer | Uint8Array | string): string[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    this.#buffer = Buffer.concat([this.#buffer, bytes]);
    const codes: string[] = [];
    for (let at = this.#buffer.indexOf(this.#terminator); at >= 0; at = this.#buffer.indexOf(this.#terminator)) {
      const code = cleanCode(this.#buffer.subarray(0, at).toString('utf8'), this.framing);
      this.#buffer = this.#buffer.subarray(at + this.#terminator.length);
      if (code) codes.push(code);
    }
    if (this.#buffer.length > this.#maxLength) this.#buffer = Buffer.alloc(0);
    return codes;
  }

  /** Forget a partial code (the device went away mid-scan). */
  reset() {
    this.#buffer = Buffer.alloc(0);
  }
}
