/**
 * Adaptive concurrency and pacing: how many requests a batch keeps in flight, and how fast it starts them.
 * The concurrency starts small, doubles while answers come back fast (slow start), then grows by one per
 * round trip; it shrinks when answers slow down (latency past `latencyFactor` × the fastest seen) or fail,
 * and never exceeds `max`.
 *
 * A rate limit is paced, not collapsed. A 429 (or 503) neither halves the concurrency nor
 * pauses the whole batch: it tells the rate the service takes. Once per round of refusals the pace is set
 * from the answers it accepted over the last second (a token bucket lets through exactly its rate), a
 * little under it, and request starts are then spaced by that interval; each accepted answer tightens
 * the spacing a little, probing for more, until the next 429 measures again. Only when refusals go on
 * round after round with no answer accepted (the service takes nothing at all) does every request wait
 * out the `Retry-After`. The refused request's own retry is the runner's to delay.
 * @module
 */

/** How many of the latest answers the fastest latency is taken from. */
const WINDOW = 64;
/** Accepted answers (their times) the rate the service takes is measured over: the latest this many (the pace just before a refusal)… */
const RATE_WINDOW = 12;
/** …within this many ms. */
const RATE_SPAN = 1_000;
/** The pace set after a 429: this share of the rate measured (room for the answers' jitter). */
const MARGIN = 0.95;
/**
 * Each accepted answer shortens the interval by this share, the probe for more rate; doubled every
 * {@link PROBE_DOUBLING_MS} without a refusal, up to {@link PROBE_MOST}: close to the limit (just refused)
 * it creeps, as a refusal wastes a request; far under it (the limit rose, or the first guess was low) it
 * climbs fast, at any rate.
 */
const PROBE = 1 / 512;
const PROBE_DOUBLING_MS = 500;
const PROBE_MOST = 1 / 16;
/** Rounds of refusals in a row, with no answer accepted between them, before everything waits out the `Retry-After`. */
const REFUSED_ROUNDS_TO_PAUSE = 3;

/** Options of {@link AdaptiveConcurrency}. */
export interface AdaptiveConcurrencyOptions {
  /** The most requests in flight, ever. */
  max: number;
  /** Where it starts. Default `min(2, max)`. */
  initial?: number | undefined;
  /** Answers slower than this × the fastest recent answer count as slow. Default 4. */
  latencyFactor?: number | undefined;
  /** The clock (ms). Default `performance.now`. */
  now?: (() => number) | undefined;
}

/** The concurrency limit, the pace and the pause of a batch. */
export class AdaptiveConcurrency {
  readonly max: number;
  #limit: number;
  #slowStart = true;
  #inFlight = 0;
  #pausedUntil = 0;
  /** The latest {@link WINDOW} latencies (a ring), and their minimum, kept as they come and go. */
  readonly #recent = new Float64Array(WINDOW);
  #seen = 0;
  #floor = Infinity;
  readonly #factor: number;
  readonly #now: () => number;
  #lastCut = -Infinity;
  /** Ms between request starts; 0: not paced (no refusal yet, or the pace probed its way back to none). */
  #interval = 0;
  /** Clock time before which the next request does not start (with a pace). */
  #nextStart = 0;
  /** Until when further refusals belong to the round already answered (the requests in flight then). */
  #roundUntil = -Infinity;
  /** Rounds of refusals since the last accepted answer. */
  #refusedRounds = 0;
  /** When the latest {@link RATE_WINDOW} answers were accepted (a ring). */
  readonly #accepted = new Float64Array(RATE_WINDOW);
  #acceptedCount = 0;
  /** When the last round of refusals came (how fast the probe goes). */
  #refusedAt = 0;

  constructor(options: AdaptiveConcurrencyOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) throw new RangeError(`maxConcurrency must be a whole number >= 1, got ${String(options.max)}`);
    this.max = options.max;
    this.#limit = Math.min(options.initial ?? 2, this.max);
    this.#factor = options.latencyFactor ?? 4;
    this.#now = options.now ?? (() => performance.now());
  }

  /** The requests allowed in flight now (1 to max). */
  get limit(): number {
    return Math.max(1, Math.min(this.max, Math.floor(this.#limit)));
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Ms between request starts the service's refusals taught (0: not paced). */
  get intervalMs(): number {
    return this.#interval;
  }

  /** Clock time (ms) until which no request starts for a pause (a `Retry-After` waited out); 0 when not paused. Pacing is not a pause. */
  get pausedUntil(): number {
    return this.#pausedUntil > this.#now() ? this.#pausedUntil : 0;
  }

  /** Milliseconds until a request may start, for the pause or the pace (0: now, given a free slot). */
  waitMs(): number {
    if (this.#pausedUntil === 0 && this.#interval === 0) return 0; // no clock read unless paced or paused
    const at = this.#now();
    if (this.#pausedUntil !== 0 && this.#pausedUntil <= at) this.#pausedUntil = 0;
    const until = Math.max(this.#pausedUntil, this.#interval > 0 ? this.#nextStart : 0);
    return until > at ? until - at : 0;
  }

  /** True when a request may start now. */
  canStart(): boolean {
    return this.#inFlight < this.limit && this.waitMs() === 0;
  }

  /** A request starts (it holds a slot until {@link end}; the runner holds none for its journal writes). */
  begin(): void {
    this.#inFlight++;
    // Paced: the next start one interval after this one (a late start earns no burst: a bucket of one holds no more).
    if (this.#interval > 0) this.#nextStart = Math.max(this.#nextStart, this.#now()) + this.#interval;
  }

  /** A request ended. */
  end(): void {
    this.#inFlight--;
  }

  /** A request answered (any answer but a throttle); `started` is its start on the same clock as `now`. */
  answered(started: number): void {
    const at = this.#now();
    const latency = at - started;
    this.#accepted[this.#acceptedCount % RATE_WINDOW] = at;
    this.#acceptedCount++;
    this.#refusedRounds = 0;
    if (this.#interval > 0) {
      // Taken: ask for a little more (the next 429 measures again). A pace down to nothing is none.
      this.#interval *= 1 - Math.min(PROBE_MOST, PROBE * 2 ** Math.floor((at - this.#refusedAt) / PROBE_DOUBLING_MS));
      if (this.#interval < 0.05) this.#interval = 0;
    }
    const floor = this.#record(latency);
    if (this.#seen >= 8 && latency > Math.max(floor * this.#factor, floor + 250)) {
      // Slower than the service answers when it is not loaded: back off a little (once per round trip).
      if (this.#cut(latency)) this.#limit = Math.max(1, this.#limit * 0.9);
      this.#slowStart = false;
      return;
    }
    this.#limit = Math.min(this.max, this.#slowStart ? this.#limit + 1 : this.#limit + 1 / Math.max(1, this.#limit));
  }

  /**
   * A 429 or 503: the service takes less than it is sent. Once per round of refusals (the requests in flight
   * when it came answer in the same round), the pace is set a little under the rate it accepted over the
   * last second, or, with too few answers to measure, halved (one start per round trip at first), and
   * at most one start per `retryAfterMs`. The
   * concurrency is not cut, and nobody waits out `retryAfterMs`, unless refusals go on for
   * three rounds (`REFUSED_ROUNDS_TO_PAUSE`) with no answer accepted.
   */
  throttled(retryAfterMs: number): void {
    const at = this.#now();
    this.#slowStart = false;
    if (at < this.#roundUntil) return;
    this.#refusedAt = at;
    const measured = this.#acceptedRate(at);
    let interval: number;
    if (measured !== undefined) interval = 1 / (measured * MARGIN);
    else if (this.#interval > 0) interval = this.#interval * 2;
    // Nothing to measure yet (the first answers): the concurrency's own rate, spread out instead of in bursts.
    else interval = Number.isFinite(this.#floor) ? Math.max(1, this.#floor) / this.limit : 50;
    // Never faster than the pace that was just refused, and never slower than the service asks: one start
    // per its Retry-After at the most (a service that says "again in 100 ms" is not made to wait seconds).
    interval = Math.max(interval, this.#interval);
    this.#interval = retryAfterMs > 0 ? Math.min(interval, retryAfterMs) : interval;
    this.#nextStart = Math.max(this.#nextStart, at + this.#interval);
    // The requests in flight now were started at the old pace: their refusals are this round's.
    const roundTrip = Number.isFinite(this.#floor) ? this.#floor : 50;
    this.#roundUntil = at + Math.max(50, 2 * roundTrip, this.#interval);
    if (++this.#refusedRounds >= REFUSED_ROUNDS_TO_PAUSE) {
      // Nothing taken for rounds on end: the service is closed for now; everything waits as it asks.
      this.#pausedUntil = Math.max(this.#pausedUntil, at + retryAfterMs);
    }
  }

  /**
   * The rate (per ms) the latest accepted answers came at: over the last {@link RATE_WINDOW} of them within
   * {@link RATE_SPAN}, (count − 1) ÷ the time from the first to the last; undefined with fewer than 2. A bucket
   * lets answers through no faster than its rate, so the latest few tell it, not an average over a ramp.
   */
  #acceptedRate(at: number): number | undefined {
    const n = Math.min(this.#acceptedCount, RATE_WINDOW);
    let count = 0;
    let first = at;
    let last = at;
    for (let i = 1; i <= n; i++) {
      const t = this.#accepted[(this.#acceptedCount - i) % RATE_WINDOW]!;
      if (t <= at - RATE_SPAN) break;
      if (count === 0) last = t;
      count++;
      first = t;
    }
    if (count < 2 || last <= first) return undefined;
    return (count - 1) / (last - first);
  }

  /** A request failed without an answer (connection lost, timeout, 5xx): shrink a little. */
  failed(): void {
    if (this.#cut(0)) this.#limit = Math.max(1, this.#limit * 0.75);
    this.#slowStart = false;
  }

  /**
   * Adds a latency to the window and returns the window's minimum. Once per answer, so without an array
   * made or walked per answer: the minimum is walked for again only when the one leaving the window was it.
   */
  #record(latency: number): number {
    const slot = this.#seen % WINDOW;
    const leaving = this.#seen >= WINDOW ? this.#recent[slot]! : Infinity;
    this.#recent[slot] = latency;
    this.#seen++;
    if (latency <= this.#floor) this.#floor = latency;
    else if (leaving === this.#floor) {
      let floor = Infinity;
      const n = Math.min(this.#seen, WINDOW);
      for (let i = 0; i < n; i++) if (this.#recent[i]! < floor) floor = this.#recent[i]!;
      this.#floor = floor;
    }
    return this.#floor;
  }

  /** At most one cut per round trip (the fastest latency seen, at least 50 ms). */
  #cut(_latency: number): boolean {
    const at = this.#now();
    const rtt = Math.max(50, this.#seen > 0 ? this.#floor : 50);
    if (at - this.#lastCut < rtt) return false;
    this.#lastCut = at;
    return true;
  }
}
