/**
 * Adaptive concurrency: how many requests a batch keeps in flight. It starts small, doubles while
 * answers come back fast (slow start), then grows by one per round trip; it halves on a 429 or 503
 * and waits out the `Retry-After` (every request waits, not only the one refused), shrinks when
 * answers slow down (latency past `latencyFactor` × the fastest seen), and never exceeds `max`.
 * @module
 */

/** How many of the latest answers the fastest latency is taken from. */
const WINDOW = 64;

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

/** The concurrency limit and the pause of a batch. */
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

  /** Clock time (ms) until which no request starts; 0 when not paused. */
  get pausedUntil(): number {
    return this.#pausedUntil > this.#now() ? this.#pausedUntil : 0;
  }

  /** Milliseconds until a request may start for the pause (0: now, given a free slot). */
  waitMs(): number {
    if (this.#pausedUntil === 0) return 0;
    const wait = this.#pausedUntil - this.#now();
    if (wait > 0) return wait;
    this.#pausedUntil = 0; // over: no clock read until the next pause
    return 0;
  }

  /** True when a request may start now. */
  canStart(): boolean {
    return this.#inFlight < this.limit && this.waitMs() === 0;
  }

  /** A request starts (it holds a slot until {@link end}; the runner holds none for its journal writes). */
  begin(): void {
    this.#inFlight++;
  }

  /** A request ended. */
  end(): void {
    this.#inFlight--;
  }

  /** A request answered (any answer but a throttle); `started` is its start on the same clock as `now`. */
  answered(started: number): void {
    const latency = this.#now() - started;
    const floor = this.#record(latency);
    if (this.#seen >= 8 && latency > Math.max(floor * this.#factor, floor + 250)) {
      // Slower than the service answers when it is not loaded: back off a little (once per round trip).
      if (this.#cut(latency)) this.#limit = Math.max(1, this.#limit * 0.9);
      this.#slowStart = false;
      return;
    }
    this.#limit = Math.min(this.max, this.#slowStart ? this.#limit + 1 : this.#limit + 1 / Math.max(1, this.#limit));
  }

  /** A 429 or 503: halve (once per round of refusals) and pause everything for `retryAfterMs`. */
  throttled(retryAfterMs: number): void {
    const at = this.#now();
    if (at >= this.#pausedUntil) {
      this.#limit = Math.max(1, this.#limit / 2);
      this.#slowStart = false;
    }
    this.#pausedUntil = Math.max(this.#pausedUntil, at + retryAfterMs);
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
