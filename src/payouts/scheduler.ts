/**
 * The scheduler of a payout run: it owns the request slots, the pacing (it drives an
 * {@link AdaptiveConcurrency}), the timers (retries, polls, the webhook fallback, a pause), the work
 * queue and the run's abort signal. It runs what a driver hands it and decides nothing about a payout:
 * which event a payout takes, and what follows, is the state machine's (./machine), read by the driver
 * (./runner).
 *
 * One pass ({@link PayoutScheduler.wake}) grants free request slots to the work waiting for one, in
 * order; starts queued work up to twice the request limit (work writes the journal around its requests,
 * which hold no slot); reads the input a little ahead of the limit; and resolves the run once nothing is
 * left. Everything that can change what a pass would do (a request ending, a timer firing, a task
 * ending, the abort) calls it.
 * @module
 */
import { APIConnectionError, APIError, APITimeoutError, APIUserAbortError, AuthenticationError, PermissionDeniedError, RateLimitError } from '../core/errors';
import type { AdaptiveConcurrency } from './concurrency';

/** Work the scheduler runs: a step of one payout, up to its next wait. */
export type SchedulerTask = () => Promise<void>;

/** What a request in a slot came to: its answer, or its error and the backoff its retry waits (ms). */
export type SlotResult<T> = { ok: true; value: T } | { ok: false; error: unknown; backoffMs: number };

/** Options of {@link PayoutScheduler}. */
export interface PayoutSchedulerOptions {
  /** The concurrency limit, the pace and the pause the requests keep to. */
  limiter: AdaptiveConcurrency;
  /** Delay (ms) of {@link PayoutScheduler.fallback}: one for all, so that entries fall due in the order they were added. */
  fallbackMs: number;
  /** Called at the end of every pass (progress). */
  onPass?: (() => void) | undefined;
  /**
   * How the per-key waits of {@link PayoutScheduler.later} (a payout's retry or poll) are waited: resolves
   * after `ms`. Default `setTimeout`. A wait cancelled (or a run stopped) before it resolves drops its task.
   */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

/** A per-key wait: cancelled, its task never queued. */
interface Wait {
  cancel(): void;
}

/** Where the input is read from: `next()` reads and admits one item, and resolves true once the input has ended. */
export interface SchedulerInput {
  next(): Promise<boolean>;
}

/** The schedule of a payout run. See the module documentation. */
export class PayoutScheduler {
  readonly limiter: AdaptiveConcurrency;
  readonly #fallbackMs: number;
  readonly #onPass: (() => void) | undefined;
  /** Work ready to start (FIFO). */
  readonly #ready: SchedulerTask[] = [];
  /**
   * Work waiting for a request slot (FIFO). A slot is held only while a request is in flight: the
   * journal writes around it do not count against the service's concurrency.
   */
  readonly #waiting: ((granted: boolean) => void)[] = [];
  /** One timer per key (a payout's retry or poll). */
  readonly #timers = new Map<string, Wait>();
  readonly #sleep: ((ms: number) => Promise<void>) | undefined;
  /**
   * When (`Date.now()`) each key's fallback task falls due, and the task. One delay for all, so the order
   * they were added in is the order they fall due: one timer, for the first, rather than one per key.
   */
  readonly #fallback = new Map<string, { due: number; task: SchedulerTask }>();
  #fallbackTimer: ReturnType<typeof setTimeout> | undefined;
  #pauseTimer: ReturnType<typeof setTimeout> | undefined;
  #stop = new AbortController();
  #unlink: () => void = () => {};
  /** The pass; a no-op outside {@link run}. */
  #pass: () => void = () => {};
  /** Tasks under way (their promises are not kept: one count, two shared handlers). */
  #active = 0;
  #fatal: unknown;
  #inputDone = false;
  #pulling: Promise<void> | undefined;

  constructor(options: PayoutSchedulerOptions) {
    this.limiter = options.limiter;
    this.#fallbackMs = options.fallbackMs;
    this.#onPass = options.onPass;
    if (options.sleep !== undefined && typeof options.sleep !== 'function') throw new TypeError('sleep: expected a function (ms) => Promise<void>');
    this.#sleep = options.sleep;
  }

  /** The run's signal: every request carries it; aborted when the run stops (the caller's abort, or a fatal error). */
  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  /** True once the run stopped: nothing new starts. */
  get stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  /** The first error that stopped the run (a task's, or the input's), if any. */
  get fatal(): unknown {
    return this.#fatal;
  }

  /** True once the input has ended. */
  get inputDone(): boolean {
    return this.#inputDone;
  }

  /** Starts a run: a fresh stop signal, aborted with `signal` (the caller's). Call {@link run}, then {@link end}. */
  start(signal?: AbortSignal): void {
    const stop = new AbortController();
    this.#stop = stop;
    this.#fatal = undefined;
    this.#inputDone = false;
    this.#active = 0;
    const onAbort = () => stop.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#unlink = () => signal?.removeEventListener('abort', onAbort);
  }

  /** Queues `task` to start at the next pass (no pass of its own: the caller is under way, or wakes the scheduler). */
  schedule(task: SchedulerTask): void {
    this.#ready.push(task);
  }

  /** Queues `task` after `ms` under `key` (one wait per key, by the `sleep` option, else a timer), then runs a pass. */
  later(key: string, ms: number, task: SchedulerTask): void {
    let wait: Wait;
    const due = () => {
      if (this.#timers.get(key) === wait) this.#timers.delete(key);
      this.#ready.push(task);
      this.#pass();
    };
    const sleep = this.#sleep;
    if (sleep === undefined) {
      const timer = setTimeout(due, ms);
      wait = { cancel: () => clearTimeout(timer) };
    } else {
      let live = true;
      wait = { cancel: () => (live = false) };
      Promise.resolve()
        .then(() => sleep(ms))
        .then(
          () => {
            if (live) due();
          },
          (error: unknown) => {
            // A wait that cannot be waited stops the run (as a task that throws does).
            if (!live) return;
            if (this.#timers.get(key) === wait) this.#timers.delete(key);
            this.#fatal ??= error;
            this.#pass();
          },
        );
    }
    this.#timers.set(key, wait);
  }

  /** Queues `task` under `key` once the fallback delay has passed (unless {@link cancel}led first). */
  fallback(key: string, task: SchedulerTask): void {
    this.#fallback.delete(key); // (never there: kept in due order all the same)
    this.#fallback.set(key, { due: Date.now() + this.#fallbackMs, task });
    this.#armFallback();
  }

  /** Clears `key`'s timer and fallback, if any. */
  cancel(key: string): void {
    this.#timers.get(key)?.cancel();
    this.#timers.delete(key);
    this.#fallback.delete(key);
  }

  /** Runs a pass now (something changed: a webhook's work queued, say). */
  wake(): void {
    this.#pass();
  }

  /**
   * Runs `send` in a request slot: waits for one (in order; none once the run stopped: then the error is
   * an {@link APIUserAbortError}), tells the limiter how the request went, and frees the slot. An error
   * comes with the backoff its retry waits, for `attempt` (the limiter heard it already: a 429 or 503
   * paces the run by its `Retry-After`, else by that backoff).
   */
  async request<T>(attempt: number, send: () => PromiseLike<T>): Promise<SlotResult<T>> {
    let granted = this.#slot();
    if (granted !== true) granted = await granted;
    if (!granted) return { ok: false, error: new APIUserAbortError('The payout batch was stopped.', { outcomeUnknown: false }), backoffMs: 0 };
    const limiter = this.limiter;
    const started = performance.now();
    try {
      const value = await send();
      limiter.answered(started);
      return { ok: true, value };
    } catch (error) {
      if (error instanceof APIError && !(error instanceof RateLimitError) && error.status < 500) limiter.answered(started);
      return { ok: false, error, backoffMs: this.#heard(error, attempt) };
    } finally {
      limiter.end();
      this.#pass();
    }
  }

  /**
   * Runs until done: starts the work queued (and what it queues), reads `input` ahead of the limit, and
   * resolves once the input has ended and no work, timer or fallback is left; once the run stopped (an
   * abort, or a task or the input threw: {@link fatal}), as soon as the work under way has ended.
   */
  run(input: SchedulerInput): Promise<void> {
    return new Promise<void>((resolve) => {
      const taskDone = () => {
        this.#active--;
        this.#pass();
      };
      const taskFailed = (error: unknown) => {
        this.#fatal ??= error;
        taskDone();
      };
      // One item read and admitted per pull (two shared handlers: no async frame or closure per item).
      const pulled = (ended: boolean) => {
        if (ended) this.#inputDone = true;
        this.#pulling = undefined;
        this.#pass();
      };
      const pullFailed = (error: unknown) => {
        this.#fatal ??= error;
        this.#pulling = undefined;
        this.#pass();
      };
      const pull = () => {
        let next: Promise<boolean>;
        try {
          next = Promise.resolve(input.next());
        } catch (error) {
          next = Promise.reject(error);
        }
        this.#pulling = next.then(pulled, pullFailed);
      };
      const stop = this.#stop;
      const limiter = this.limiter;
      const finished = () =>
        this.#fatal !== undefined || stop.signal.aborted
          ? this.#active === 0 && this.#pulling === undefined
          : this.#inputDone &&
            this.#pulling === undefined &&
            this.#ready.length === 0 &&
            this.#active === 0 &&
            this.#timers.size === 0 &&
            this.#fallback.size === 0;
      this.#pass = () => {
        if (this.#fatal !== undefined && !stop.signal.aborted) stop.abort(this.#fatal);
        if (stop.signal.aborted) {
          for (const wait of this.#timers.values()) wait.cancel();
          this.#timers.clear();
          this.#clearFallback();
          this.#ready.length = 0;
          for (const grant of this.#waiting.splice(0)) grant(false);
        }
        // A pause (a 429's Retry-After) has its timer before anything is granted or started: checked
        // once, here. Checked after the work below, a pause that ended meanwhile (the timer may fire with
        // a sliver of it left, and starting work takes time) armed nothing, and what waited for a slot
        // waited for whatever else woke the run: with webhooks, the 5-minute fallback.
        const wait = limiter.waitMs();
        if (wait > 0 && !this.#pauseTimer && !stop.signal.aborted) {
          this.#pauseTimer = setTimeout(() => {
            this.#pauseTimer = undefined;
            this.#pass();
          }, wait);
        }
        // Request slots first, to the work that waits for one, in order.
        while (!stop.signal.aborted && this.#waiting.length > 0 && limiter.canStart()) {
          limiter.begin();
          this.#waiting.shift()!(true);
        }
        // Work under way (in a request, or writing the journal around one): twice the request limit.
        while (!stop.signal.aborted && this.#active < limiter.limit * 2) {
          const task = this.#ready.shift();
          if (task) {
            this.#active++;
            task().then(taskDone, taskFailed);
            continue;
          }
          // Read ahead of the limit a little, never the whole input (100,000 rows stream).
          if (!this.#inputDone && this.#pulling === undefined && this.#active + this.#ready.length < limiter.max * 3) pull();
          break;
        }
        this.#onPass?.();
        if (finished()) {
          if (this.#pauseTimer) clearTimeout(this.#pauseTimer);
          this.#pauseTimer = undefined;
          resolve();
        }
      };
      stop.signal.addEventListener('abort', () => this.#pass(), { once: true });
      this.#pass();
    });
  }

  /** Ends a run (also one that never got to {@link run}): unlinks the caller's signal, clears the fallback; passes do nothing after it. */
  end(): void {
    this.#unlink();
    this.#unlink = () => {};
    this.#clearFallback();
    this.#pass = () => {};
  }

  /** A request slot: true at once when one is free and nobody waits, else when a pass grants one (false: the run stopped). */
  #slot(): boolean | Promise<boolean> {
    if (this.#stop.signal.aborted) return false;
    if (this.#waiting.length === 0 && this.limiter.canStart()) {
      this.limiter.begin();
      return true;
    }
    // Nothing in flight will end to run a pass (a pause, say): one is run now, and arms the pause's timer.
    if (this.limiter.inFlight === 0) queueMicrotask(() => this.#pass());
    return new Promise<boolean>((resolve) => this.#waiting.push(resolve));
  }

  /**
   * Tells the limiter what a failed request says about the service's load, and returns the backoff of
   * its retry (0 when the run stops on it: an abort, refused credentials). A 429 (not the daily volume
   * limit, which is no load) or a 503 paces the run by its `Retry-After`, else by the backoff; a timeout
   * or another 5xx lowers the concurrency; a cut connection says nothing about load.
   */
  #heard(error: unknown, attempt: number): number {
    if (error instanceof APIUserAbortError || this.#stop.signal.aborted) return 0;
    if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return 0;
    const backoff = Math.min(30_000, 250 * 2 ** Math.min(attempt, 7)) * (0.75 + Math.random() * 0.25);
    if (error instanceof RateLimitError) {
      if (!error.dailyVolumeLimitExceeded) this.limiter.throttled(error.retryAfter ?? backoff);
      return backoff;
    }
    const unknownOutcome = error instanceof APIConnectionError || (error instanceof APIError && (error.status >= 500 || error.status === 408));
    if (unknownOutcome) {
      if (error instanceof APIError && error.status === 503) this.limiter.throttled(error.retryAfter ?? backoff);
      else if (error instanceof APITimeoutError || error instanceof APIError) this.limiter.failed();
    }
    return backoff;
  }

  #armFallback(): void {
    if (this.#fallbackTimer !== undefined || this.#fallback.size === 0) return;
    const due = this.#fallback.values().next().value!.due;
    this.#fallbackTimer = setTimeout(() => this.#fallbackDue(), Math.max(0, due - Date.now()));
  }

  #fallbackDue(): void {
    this.#fallbackTimer = undefined;
    const now = Date.now();
    for (const [key, { due, task }] of this.#fallback) {
      if (due > now) break;
      this.#fallback.delete(key);
      this.#ready.push(task);
    }
    this.#armFallback();
    this.#pass();
  }

  #clearFallback(): void {
    this.#fallback.clear();
    if (this.#fallbackTimer !== undefined) clearTimeout(this.#fallbackTimer);
    this.#fallbackTimer = undefined;
  }
}
