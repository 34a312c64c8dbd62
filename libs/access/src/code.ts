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
