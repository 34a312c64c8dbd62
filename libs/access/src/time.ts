/**
 * D19: "today" and every window are read on the subject's wall clock (an IANA time zone), with
 * Intl.DateTimeFormat only (no dependency, works in Node and every browser).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * The answers of recent minutes per time zone: a gate asks for the same minute thousands of times
 * (every scan's "now", every passage's day), and Intl's formatToParts costs microseconds each time.
 * Keyed by the UTC minute: every time zone in use today is offset by whole minutes (IANA's
 * second-precision offsets are local mean times before 1900). Bounded: cleared when full.
 */
const minutes = new Map<string, Map<number, { day: string; time: string }>>();
const MINUTES_KEPT = 4096;

/** The local calendar day and wall-clock minute of an instant: { day: 'YYYY-MM-DD', time: 'HH:mm' }. */
export function localDateTime(at: number, timeZone: string): { day: string; time: string } {
  const minute = Math.floor(at / 60_000);
  let zone = minutes.get(timeZone);
  const hit = zone?.get(minute);
  if (hit) return { day: hit.day, time: hit.time };
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(at))) parts[p.type] = p.value;
  const hour = parts.hour === '24' ? '00' : parts.hour;
  const value = { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${hour}:${parts.minute}` };
  if (!zone) {
    if (minutes.size >= 64) minutes.clear();
    zone = new Map();
    minutes.set(timeZone, zone);
  }
  if (zone.size >= MINUTES_KEPT) zone.clear();
  zone.set(minute, value);
  return { day: value.day, time: value.time };
}

/** The local calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function localDay(at: number, timeZone: string): string {
  return localDateTime(at, timeZone).day;
}

/** The local wall-clock time (HH:mm, 24 h) of an instant in a time zone. */
export function localTime(at: number, timeZone: string): string {
  return localDateTime(at, timeZone).time;
}

/** Whether the time zone is one Intl knows (an unknown one throws in Intl.DateTimeFormat). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A strict YYYY-MM-DD calendar date (2026-02-30 is not one). */
export function isDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A strict HH:mm time (00:00–23:59). */
export function isTime(value: unknown): value is string {
  return typeof value === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
}
