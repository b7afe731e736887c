/**
 * Work due at a sandbox-clock time: quote expiry, settlement, approval timeouts, invitation expiry.
 * Due work runs lazily before every request and on `clock.advance`/`set` (so tests never wait), and a
 * real, unref'd timer also wakes up for the earliest task so a sandbox left running (the CLI) still
 * settles payments and sends their webhooks without being polled.
 * @module
 */
import type { Clock } from './clock';

interface Task {
  at: number;
  order: number;
  run: () => void;
}

/** Keeps tasks sorted by due time; runs the due ones in (time, insertion) order. */
export class Scheduler {
  readonly #clock: Clock;
  readonly #onError: (error: unknown) => void;
  #tasks: Task[] = [];
  #order = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #disposed = false;

  readonly #onRun: ((ran: number) => void) | undefined;

  /** @param onRun called after a round that ran tasks, with how many (the inspector's live refresh). */
  constructor(clock: Clock, onError: (error: unknown) => void, onRun?: (ran: number) => void) {
    this.#clock = clock;
    this.#onError = onError;
    this.#onRun = onRun;
  }

  /** Schedules `run` for sandbox time `at` (ms since epoch). */
  at(at: number, run: () => void): void {
    const task: Task = { at, order: ++this.#order, run };
    // Binary search for the insertion point keeps runDue O(1) when nothing is due (every request calls it).
    let lo = 0;
    let hi = this.#tasks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#tasks[mid]!.at <= at) lo = mid + 1;
      else hi = mid;
    }
    this.#tasks.splice(lo, 0, task);
    if (lo === 0) this.#arm();
  }

  /** Runs every task due by now, including tasks that due tasks schedule. Rethrows the first failure. */
  runDue(): void {
    let failure: unknown;
    let failed = false;
    const now = this.#clock.now();
    let ran = 0;
    while (this.#tasks.length > 0 && this.#tasks[0]!.at <= now) {
      const task = this.#tasks.shift()!;
      ran++;
      try {
        task.run();
      } catch (error) {
        if (!failed) [failed, failure] = [true, error];
      }
    }
    this.#arm();
    if (ran > 0) {
      try {
        this.#onRun?.(ran);
      } catch {
        // a listener never changes what ran
      }
    }
    if (failed) throw failure;
  }

  /** Number of tasks not run yet. */
  get pending(): number {
    return this.#tasks.length;
  }

  /** Drops every task and the wake-up timer. */
  clear(): void {
    this.#tasks = [];
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Like {@link clear}, and refuses to arm timers afterwards. */
  dispose(): void {
    this.#disposed = true;
    this.clear();
  }

  #arm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const first = this.#tasks[0];
    // A frozen clock never reaches a due time by itself: only advance/set (which run due work) move it.
    if (!first || this.#disposed || this.#clock.frozen) return;
    // At least 10 ms so a custom clock that does not move cannot make the timer spin.
    const delay = Math.min(Math.max(first.at - this.#clock.now(), 10), 2 ** 31 - 1);
    const timer = setTimeout(() => {
      this.#timer = undefined;
      try {
        this.runDue();
      } catch (error) {
        this.#onError(error);
      }
    }, delay);
    // Never keep a process (a test runner, a script) alive just for the sandbox's own bookkeeping.
    (timer as { unref?: () => void }).unref?.();
    this.#timer = timer;
  }
}
