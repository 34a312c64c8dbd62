/** ECI designator some scanners put before the data (GS1/AIM: `\000001`, ECI 000001). */
const ECI_PREFIX = '\\000001';

/**
 * D18: a scanned code is trimmed of spaces, CR and LF (keyboard-wedge scanners end with Enter) and
 * the ECI prefix `\000001` is stripped. No case folding: codes are case-sensitive.
 */
export function normalizeCode(raw: string): string {
  let code = String(raw ?? '').replace(/^[ \r\n]+|[ \r\n]+$/g, '');
  while (code.startsWith(ECI_PREFIX)) code = code.slice(ECI_PREFIX.length).replace(/^[ \r\n]+/, '');
  return code;
}

/** A printed badge code: the accreditation's `bc` and the badge version it was printed with. */
export interface BadgeCode {
  bc: string;
  /** 0: the first badge (printed as the plain bc) */
  version: number;
}

/** `{bc}-{version}` with a version of 1–999,999,999 written without leading zeros. */
const VERSIONED = /^([A-Za-z0-9]{1,32})-([1-9][0-9]{0,8})$/;

/**
 * The badge a (normalised) code names (docs/access-control.md "Badge versions"): a reprint that
 * retires the old badge prints `{bc}-{version}`; a bc is 1–32 letters and digits, so the `-`
 * separates unambiguously. Anything else is the plain bc of version 0 (an unknown code stays
 * unknown: the caller looks `bc` up as before).
 */
export function parseBadgeCode(code: string): BadgeCode {
  const m = VERSIONED.exec(code);
  return m ? { bc: m[1], version: Number(m[2]) } : { bc: code, version: 0 };
}

/** The code a badge of this version carries: the plain bc for version 0 (badges printed before any replacement). */
export function formatBadgeCode(bc: string, version: number | null | undefined): string {
  return version && version > 0 ? `${bc}-${version}` : bc;
}
