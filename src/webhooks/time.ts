/**
 * Event timestamps and age limits, apart from verification: `dedupe` needs these and nothing else,
 * so the main entry carries them without the verification code (loaded on first `unwrap`).
 * @module
 */
/** How far ahead of our clock an event timestamp may be before it is refused (clock skew allowance). */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;

// The ranges (month, day up to 31, hour, minute, second, offset) in the pattern; the month's length below.
const ISO_DATE_TIME = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/**
 * Parses an RFC 3339 / ISO 8601 date-time with offset, checking the calendar (no 30 February,
 * no hour 24), which `Date.parse` alone lets through.
 * @returns epoch milliseconds, or `undefined` when the text is not such a date-time.
 */
export function parseIsoDateTime(text: unknown): number | undefined {
  const m = typeof text === 'string' ? ISO_DATE_TIME.exec(text) : null;
  // Day 0 of the next month is the last day of this one.
  if (!m || +m[3]! > new Date(Date.UTC(+m[1]!, +m[2]!, 0)).getUTCDate()) return undefined;
  const ms = Date.parse((text as string).toUpperCase());
  return Number.isNaN(ms) ? undefined : ms;
}

/** Validates a caller's age limit once, so a typo (negative, NaN) is not read as "everything is stale". */
export function checkMaxAge(maxAge: number): void {
  if (typeof maxAge !== 'number' || Number.isNaN(maxAge) || maxAge < 0) {
    throw new RangeError(`maxAge must be a number of milliseconds ≥ 0, got ${String(maxAge)}`);
  }
}
