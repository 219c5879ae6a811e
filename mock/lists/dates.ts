/**
 * ISO 8601 date handling shared by filter values and item values. Everything is computed in UTC
 * (never the process time zone) with millisecond precision (extra fraction digits are truncated).
 */

const MS_PER_DAY = 86_400_000;

/** A parsed date filter value: an exact instant, or a whole UTC calendar day `[start, end)`. */
type DateValue = { kind: 'instant'; ms: number } | { kind: 'day'; start: number; end: number };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:\d{2})?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Milliseconds since the epoch of a UTC wall-clock time; years 0..99 are taken literally. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

function validDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Parses `YYYY-MM-DD` (a real calendar date) to the start of that UTC day, or NaN. */
function parseDateOnly(text: string): number {
  const m = DATE_ONLY.exec(text);
  if (!m) return Number.NaN;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (!validDate(year, month, day)) return Number.NaN;
  return utc(year, month, day);
}

/**
 * Parses an ISO 8601 date-time `YYYY-MM-DDTHH:mm[:ss[.fraction]]` followed by `Z` or `±HH:MM` (`T` and `Z` in
 * either case; the date must exist, hours 00-23, minutes and seconds 00-59, offsets up to ±23:59).
 * When `requireZone` is false a missing zone means UTC. Returns NaN when the text is not such a date-time.
 */
function parseDateTime(text: string, requireZone: boolean): number {
  const m = DATE_TIME.exec(text);
  if (!m) return Number.NaN;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  const zone = m[8];
  if (zone === undefined && requireZone) return Number.NaN;
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return Number.NaN;
  let offset = 0;
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return Number.NaN;
    offset = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  return utc(year, month, day, hour, minute, second, ms) - offset;
}

/**
 * Parses a date filter value: `2024-01-31` (a whole UTC day) or a date-time with zone
 * (`2024-01-31T10:00:00Z`, `2024-01-31T12:00:00+02:00`). Returns undefined when neither.
 */
export function parseDateValue(text: string): DateValue | undefined {
  if (text.length === 10) {
    const start = parseDateOnly(text);
    return Number.isNaN(start) ? undefined : { kind: 'day', start, end: start + MS_PER_DAY };
  }
  const ms = parseDateTime(text, true);
  return Number.isNaN(ms) ? undefined : { kind: 'instant', ms };
}

/**
 * The instant of an item's date property, in epoch milliseconds, or NaN when it has none.
 * Strings are ISO 8601 (date-only = midnight UTC; a date-time without zone is read as UTC);
 * `Date` objects and finite numbers (epoch milliseconds) are accepted too. Anything else is NaN.
 */
export function toMillis(value: unknown): number {
  if (typeof value === 'string') {
    return value.length === 10 ? parseDateOnly(value) : parseDateTime(value, false);
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  if (value instanceof Date) return value.getTime();
  return Number.NaN;
}
