/**
 * Event timestamps and age limits, apart from verification: `dedupe` needs these and nothing else,
 * so the main entry carries them without the verification code (loaded on first `unwrap`).
 * @module
 */
// @ts-nocheck

/** How far ahead of our clock an event timestamp may be before it is refused (clock skew allowance). */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * Parses an RFC 3339 / ISO 8601 date-time with offset, checking the calendar (no 30 February,
 * no hour 24), which `Date.parse` alone lets through.
 * @returns epoch milliseconds, or `undefined` when the text is not such a date-time.
 */
export function parseIsoDateTime(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetHour = m[7] === undefined ? 0 : Number(m[7]);
  const offsetMinute = m[8] === undefined ? 0 : Number(m[8]);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHour > 23 || offsetMinute > 59) return undefined;
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? undefined : ms;
}

/** Validates a caller's age limit once, so a typo (negative, NaN) is not read as "everything is stale". */
export function checkMaxAge(maxAge: number): void {
  if (typeof maxAge !== 'number' || Number.isNaN(maxAge) || maxAge < 0) {
    throw new RangeError(`maxAge must be a number of milliseconds ≥ 0, got ${String(maxAge)}`);
  }
}
