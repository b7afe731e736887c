/**
 * The sandbox's notion of "now". Everything time-dependent (quote expiry, settlement, challenge
 * and session lifetimes, OTP rate limits, OAUTH `iat` checks, approval timeouts) reads it, so a
 * test can move time forward instead of waiting.
 * @module
 */

/** The last instant a `Date` can hold (+275760-09-13): the clock never moves past it. */
export const MAX_CLOCK_MS = 8.64e15;

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
  if (!(now + ms <= MAX_CLOCK_MS)) throw new RangeError(`advancing ${ms} ms would take the clock past ${new Date(MAX_CLOCK_MS).toISOString()}, the last valid date`);
}

/** Milliseconds since the epoch of a Date, ISO string or number; throws on an unreadable value. */
export function toMillis(date: Date | string | number): number {
  const ms = date instanceof Date ? date.getTime() : typeof date === 'number' ? date : Date.parse(date);
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_CLOCK_MS) throw new RangeError(`not a valid date: ${String(date)}`);
  return ms;
}

/** ISO 8601 UTC string of a clock time. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
