/**
 * The payout scheduler on its own: it keeps to the limiter's slots and pace, fires its timers in order
 * (fake timers), stops starting work once the run is aborted, and decides nothing: an error comes back
 * as it was thrown, with the backoff of its retry, whatever it is.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError, RateLimitError, ValidationError } from '../../src/index';
import { AdaptiveConcurrency } from '../../src/payouts/index';
import { PayoutScheduler, type SchedulerInput } from '../../src/payouts/scheduler';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** An input of `n` items, each queuing `admit(i)` as its task. */
function inputOf(scheduler: PayoutScheduler, n: number, admit: (i: number) => () => Promise<void>): SchedulerInput {
  let i = 0;
  return {
    next: async () => {
      if (i >= n) return true;
      scheduler.schedule(admit(i++));
      return false;
    },
  };
}

const ended: SchedulerInput = { next: async () => true };

/** A promise and its resolver. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const settle = async (times = 20) => {
  for (let i = 0; i < times; i++) await Promise.resolve();
};

describe('PayoutScheduler', () => {
  it('never has more requests in flight than the limiter allows; the waiting ones start in order as slots free', async () => {
    const scheduler = new PayoutScheduler({ limiter: new AdaptiveConcurrency({ max: 2, initial: 2 }), fallbackMs: 1_000 });
    const answers = Array.from({ length: 6 }, () => deferred<string>());
    const started: number[] = [];
    let inFlight = 0;
    let peak = 0;
    scheduler.start();
    const run = scheduler.run(
      inputOf(scheduler, 6, (i) => async () => {
        const result = await scheduler.request(0, () => {
          started.push(i);
          peak = Math.max(peak, ++inFlight);
          return answers[i]!.promise.finally(() => inFlight--);
        });
        expect(result).toEqual({ ok: true, value: `answer ${i}` });
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(scheduler.limiter.inFlight).toBe(2);
    answers[1]!.resolve('answer 1');
    await settle();
    expect(started).toEqual([0, 1, 2]);
    answers[0]!.resolve('answer 0');
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const i of [2, 3, 4, 5]) {
      answers[i]!.resolve(`answer ${i}`);
      await settle();
    }
    await run;
    scheduler.end();
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(scheduler.limiter.inFlight).toBe(0);
  });

  it('keeps to the pace a 429 set: request starts spaced by the interval, on the clock', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const limiter = new AdaptiveConcurrency({ max: 8, initial: 8, now: () => Date.now() });
    const scheduler = new PayoutScheduler({ limiter, fallbackMs: 1_000 });
    // No answer accepted yet: the first 429 halves to the concurrency's own rate (50 ms between starts, as no latency is known).
    limiter.throttled(1_000);
    expect(limiter.intervalMs).toBe(50);
    const startedAt: number[] = [];
    scheduler.start();
    const t0 = Date.now();
    const run = scheduler.run(inputOf(scheduler, 4, () => () => scheduler.request(0, async () => void startedAt.push(Date.now() - t0)).then(() => undefined)));
    await vi.advanceTimersByTimeAsync(1_000);
    await run;
    scheduler.end();
    // One start per interval (each accepted answer shortens it by a 512th, the probe for more rate).
    expect(startedAt).toHaveLength(4);
    expect(startedAt[0]).toBe(50);
    for (let i = 1; i < 4; i++) {
      expect(startedAt[i]! - startedAt[i - 1]!).toBeGreaterThanOrEqual(49);
      expect(startedAt[i]! - startedAt[i - 1]!).toBeLessThanOrEqual(51);
    }
  });

  it('fires its timers in the order they fall due, the fallback ones in the order they were added; a cancelled one never', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const scheduler = new PayoutScheduler({ limiter: new AdaptiveConcurrency({ max: 4 }), fallbackMs: 1_000 });
    const fired: [string, number][] = [];
    const t0 = Date.now();
    const note = (name: string) => async () => void fired.push([name, Date.now() - t0]);
    scheduler.start();
    scheduler.later('a', 300, note('a'));
    scheduler.later('b', 100, note('b'));
    scheduler.later('c', 200, note('c'));
    scheduler.later('gone', 150, note('gone'));
    scheduler.fallback('f1', note('f1'));
    await vi.advanceTimersByTimeAsync(50);
    scheduler.fallback('f2', note('f2'));
    scheduler.fallback('f3', note('f3'));
    scheduler.cancel('gone');
    scheduler.cancel('f3');
    const run = scheduler.run(ended);
    let done = false;
    void run.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(980);
    expect(done).toBe(false); // at 1,030, f2 (due at 1,050) is left: the run waits for it
    expect(fired.map(([name]) => name)).toEqual(['b', 'c', 'a', 'f1']);
    await vi.advanceTimersByTimeAsync(100);
    await run;
    scheduler.end();
    expect(done).toBe(true);
    expect(fired).toEqual([
      ['b', 100],
      ['c', 200],
      ['a', 300],
      ['f1', 1_000],
      ['f2', 1_050],
    ]);
  });

  it('an abort stops new work: nothing more starts, a request waiting for a slot gets an abort error, timers are cleared, and the run ends once the work under way has', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const user = new AbortController();
    const scheduler = new PayoutScheduler({ limiter: new AdaptiveConcurrency({ max: 1, initial: 1 }), fallbackMs: 1_000 });
    const inFlight = deferred();
    const started: number[] = [];
    const results: unknown[] = [];
    let timerRan = false;
    scheduler.start(user.signal);
    const run = scheduler.run(
      inputOf(scheduler, 10, (i) => async () => {
        const result = await scheduler.request(0, async () => {
          started.push(i);
          await inFlight.promise;
          return i;
        });
        results.push(result.ok ? result.value : result.error);
      }),
    );
    scheduler.later('poll', 100, async () => void (timerRan = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(started).toEqual([0]);
    user.abort();
    expect(scheduler.stopped).toBe(true);
    expect(scheduler.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    // The one in flight is its own to end (its signal is the caller's to follow); the next one waited for a slot: refused.
    let done = false;
    void run.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    inFlight.resolve();
    await run;
    await vi.advanceTimersByTimeAsync(1_000);
    scheduler.end();
    expect(started).toEqual([0]);
    expect(results[0]).toBeInstanceOf(APIUserAbortError);
    expect(results.slice(1)).toEqual([0]);
    expect(timerRan).toBe(false);
  });

  it('decides nothing: an error comes back as thrown, with its retry backoff; only the limiter hears a 429', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const limiter = new AdaptiveConcurrency({ max: 4, initial: 4 });
    const scheduler = new PayoutScheduler({ limiter, fallbackMs: 1_000 });
    scheduler.start();
    const invalid = new ValidationError([{ path: 'amount', message: 'expected a number', rule: 'invalid_type' }]);
    const refused = await scheduler.request(3, () => Promise.reject(invalid));
    expect(refused).toEqual({ ok: false, error: invalid, backoffMs: 1_500 }); // 250 × 2³ × 0.75
    expect(limiter.intervalMs).toBe(0);
    const throttled = new RateLimitError({ status: 429, code: 'RATE_LIMITED', message: 'slow down', retryAfter: 1_000 });
    const paced = await scheduler.request(0, () => Promise.reject(throttled));
    expect(paced).toEqual({ ok: false, error: throttled, backoffMs: 187.5 });
    expect(limiter.intervalMs).toBeGreaterThan(0);
    expect(limiter.inFlight).toBe(0);
    scheduler.end();
  });
});
