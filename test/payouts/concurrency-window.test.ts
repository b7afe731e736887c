import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency } from '../../src/payouts/index';

/**
 * The window of the latest 64 latencies as it was first written (an array pushed, shifted and spread
 * into Math.min on every answer): the ring that replaced it must decide exactly as it did.
 */
class Reference {
  limit: number;
  slowStart = true;
  fastest: number[] = [];
  lastCut = -Infinity;
  constructor(
    readonly max: number,
    initial: number,
    readonly now: () => number,
  ) {
    this.limit = Math.min(initial, max);
  }
  get shown(): number {
    return Math.max(1, Math.min(this.max, Math.floor(this.limit)));
  }
  answered(started: number): void {
    const latency = this.now() - started;
    this.fastest.push(latency);
    if (this.fastest.length > 64) this.fastest.shift();
    const floor = Math.min(...this.fastest);
    if (this.fastest.length >= 8 && latency > Math.max(floor * 4, floor + 250)) {
      if (this.cut()) this.limit = Math.max(1, this.limit * 0.9);
      this.slowStart = false;
      return;
    }
    this.limit = Math.min(this.max, this.slowStart ? this.limit + 1 : this.limit + 1 / Math.max(1, this.limit));
  }
  /** A throttle paces (./concurrency-pacing.test.ts): the concurrency only leaves slow start. */
  throttled(_ms: number): void {
    this.slowStart = false;
  }
  failed(): void {
    if (this.cut()) this.limit = Math.max(1, this.limit * 0.75);
    this.slowStart = false;
  }
  cut(): boolean {
    const at = this.now();
    const rtt = Math.max(50, this.fastest.length ? Math.min(...this.fastest) : 50);
    if (at - this.lastCut < rtt) return false;
    this.lastCut = at;
    return true;
  }
}

type Step =
  { kind: 'answer'; latency: number } | { kind: 'base'; ms: number } | { kind: 'throttle'; ms: number } | { kind: 'fail' } | { kind: 'wait'; ms: number };

describe('AdaptiveConcurrency: the latency window', () => {
  it('decides as the array it replaced did, over any sequence of answers, throttles and failures', () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      // An answer's latency is the service's current pace plus jitter; the pace changes now and then, so
      // the fastest answer leaves the window as often as it stays.
      { weight: 60, arbitrary: fc.record({ kind: fc.constant('answer' as const), latency: fc.integer({ min: 0, max: 30 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('base' as const), ms: fc.integer({ min: 1, max: 2_000 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('throttle' as const), ms: fc.integer({ min: 0, max: 2_000 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 500 }) }) },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 50_000 }),
        fc.array(step, { minLength: 150, maxLength: 600 }),
        (max, initial, steps) => {
          let now = 1_000;
          let base = 20;
          const clock = () => now;
          const ours = new AdaptiveConcurrency({ max, initial, now: clock });
          const ref = new Reference(max, initial, clock);
          for (const s of steps) {
            if (s.kind === 'base') {
              base = s.ms;
            } else if (s.kind === 'answer') {
              // The request started `latency` ago: both see the same clock.
              const latency = base + s.latency;
              now += latency;
              ours.answered(now - latency);
              ref.answered(now - latency);
            } else if (s.kind === 'throttle') {
              ours.throttled(s.ms);
              ref.throttled(s.ms);
            } else if (s.kind === 'fail') {
              ours.failed();
              ref.failed();
            } else {
              now += s.ms;
            }
            expect(ours.limit).toBe(ref.shown);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('forgets a fast answer once 64 later ones have come: the floor rises, and slow answers stop counting as slow', () => {
    let now = 0;
    const c = new AdaptiveConcurrency({ max: 1_000, initial: 10, now: () => now });
    const answer = (latency: number) => {
      now += latency;
      c.answered(now - latency);
    };
    answer(1); // one very fast answer: the floor, 1 ms (slow past max(4 ms, 251 ms))
    for (let i = 0; i < 62; i++) answer(200);
    const before = c.limit;
    answer(300); // the 64th answer, past 251 ms: a cut (the 1 ms answer is still in the window)
    expect(c.limit).toBeLessThan(before);
    // The 65th: the 1 ms answer leaves, the floor is 200 ms, and 300 ms is under max(800, 450).
    const after = c.limit;
    answer(300);
    expect(c.limit).toBe(after); // not cut
    for (let i = 0; i < 100; i++) answer(300); // and it grows again (by 1/limit per answer, past slow start)
    expect(c.limit).toBeGreaterThan(after);
  });
});
