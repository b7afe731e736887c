/**
 * The sandbox's notion of "now". Everything time-dependent (quote expiry, settlement, challenge
 * and session lifetimes, OTP rate limits, OAUTH `iat` checks, approval timeouts) reads it, so a
 * test can move time forward instead of waiting.
 * @module
 */

/**
 * The last instant the API's dates can show: `9999-12-31T23:59:59.999Z`. Past it an ISO 8601 date
 * takes six digits and a sign (`+010000-…`), which is not a `date-time`: a state holding one would
 * not load again (its records are checked against the document's schemas).
 */
export const MAX_DATE_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The first instant the API's dates can show: `0000-01-01T00:00:00.000Z`. */
export const MIN_DATE_MS = -62_167_219_200_000;
/**
 * Room kept between the clock and {@link MAX_DATE_MS} for the dates the sandbox sets ahead of it
 * (quote expiry, sessions, challenges, settlement: minutes at most): a day.
 */
export const LIFETIME_ROOM_MS = 86_400_000;
/**
 * The clock never moves past this (9999-12-30T23:59:59.999Z): every date the state holds, now
 * plus any lifetime, stays a date the state file can hold and load again.
 */
export const MAX_CLOCK_MS = MAX_DATE_MS - LIFETIME_ROOM_MS;

/** A controllable clock. Times are milliseconds since the epoch. */
export interface Clock {
  /** The current sandbox time, in ms since the epoch. */
  now(): number;
  /** Moves the clock forward by `ms` (must be ≥ 0). */
  advance(ms: number): void;
  /** Jumps the clock to `date` (forwards or backwards). */
  set(date: Date | string | number): void;
  /** True when time only moves by `advance`/`set` (no real time flows). */
  readonly frozen?: boolean;
}

/**
 * A clock that follows real time plus an offset: `advance` and `set` change the offset, so time keeps
 * flowing afterwards (the default: a sandbox left running settles payments on its own).
 * With `frozen: true` time moves only by `advance`/`set`, for tests that assert to the millisecond.
 * @param start where the clock starts; real time when omitted.
 */
export function createClock(start?: Date | string | number, options: { frozen?: boolean } = {}): Clock {
  let offset = 0;
  const frozenAt = options.frozen ? Date.now() : undefined;
  const real = () => frozenAt ?? Date.now();
  const clock: Clock = {
    frozen: frozenAt !== undefined,
    now: () => real() + offset,
    advance(ms) {
      checkAdvance(clock.now(), ms);
      offset += ms;
    },
    set(date) {
      const target = toMillis(date);
      offset = target - real();
    },
  };
  if (start !== undefined) clock.set(start);
  return clock;
}

/** Throws a RangeError unless moving `now` forward by `ms` gives a valid date. */
export function checkAdvance(now: number, ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock.advance(ms) needs a finite ms ≥ 0, got ${ms}`);
  if (!(now + ms <= MAX_CLOCK_MS))
    throw new RangeError(`advancing ${ms} ms would take the clock past ${new Date(MAX_CLOCK_MS).toISOString()}, the last date the state can hold`);
}

/** Milliseconds since the epoch of a Date, ISO string or number; throws on an unreadable value. */
export function toMillis(date: Date | string | number): number {
  const ms = date instanceof Date ? date.getTime() : typeof date === 'number' ? date : Date.parse(date);
  if (!Number.isFinite(ms) || ms < MIN_DATE_MS || ms > MAX_CLOCK_MS)
    throw new RangeError(
      `not a date the sandbox clock can hold (${new Date(MIN_DATE_MS).toISOString()} to ${new Date(MAX_CLOCK_MS).toISOString()}): ${String(date)}`,
    );
  return ms;
}

/** ISO 8601 UTC string of a clock time. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
