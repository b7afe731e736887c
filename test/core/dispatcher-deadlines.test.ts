/**
 * The whole-attempt deadline of the dispatcher path (src/core/dispatcher.ts): driven with fake timers and
 * a recording stand-in for the process's undici dispatcher, so each request's fate is seen exactly.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEADLINE_CODE, timeoutDispatcher } from '../../src/core/dispatcher';

const SLOT = Symbol.for('undici.globalDispatcher.1');
const slots = globalThis as unknown as Record<symbol, unknown>;
let saved: unknown;

/** What undici's fetch handler looks like to the dispatcher, recording what happened to it. */
function handler() {
  const seen = { connected: false, completed: false, errored: false, aborted: undefined as unknown };
  const h = {
    seen,
    onConnect(abort: (reason?: unknown) => void) {
      seen.connected = true;
      h.abort = abort;
    },
    abort: undefined as ((reason?: unknown) => void) | undefined,
    onComplete() {
      seen.completed = true;
    },
    onError() {
      seen.errored = true;
    },
  };
  return h;
}
type H = ReturnType<typeof handler>;

beforeEach(() => {
  vi.useFakeTimers();
  saved = slots[SLOT];
  // The process's dispatcher: connects at once; the request stays in flight until the test ends it.
  slots[SLOT] = {
    dispatch(_options: unknown, h: H) {
      h.onConnect((reason) => {
        h.seen.aborted = reason;
        h.onError();
      });
      return true;
    },
  };
});
afterEach(() => {
  slots[SLOT] = saved;
  vi.useRealTimers();
});

describe('the dispatcher deadline', () => {
  it('100 requests in flight: each is aborted at its deadline, never before; the finished ones never, and they leave no timer', () => {
    const ms = 10_000;
    const d = timeoutDispatcher(ms);
    const early = Array.from({ length: 50 }, handler);
    for (const h of early) d.dispatch({}, h);
    vi.advanceTimersByTime(3_000);
    const late = Array.from({ length: 50 }, handler);
    for (const h of late) d.dispatch({}, h);
    expect(vi.getTimerCount()).toBe(100);
    // Half of the early ones complete: they are never aborted, and their deadlines are gone.
    for (const h of early.slice(0, 25)) h.onComplete();
    expect(vi.getTimerCount()).toBe(75);
    vi.advanceTimersByTime(ms - 3_000 - 1);
    expect(early.every((h) => h.seen.aborted === undefined)).toBe(true);
    vi.advanceTimersByTime(1);
    for (const h of early.slice(25)) expect((h.seen.aborted as { code?: string })?.code).toBe(DEADLINE_CODE);
    expect(early.slice(0, 25).every((h) => h.seen.aborted === undefined && !h.seen.errored)).toBe(true);
    expect(late.every((h) => h.seen.aborted === undefined)).toBe(true);
    vi.advanceTimersByTime(3_000);
    expect(late.every((h) => (h.seen.aborted as { code?: string })?.code === DEADLINE_CODE)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a request whose dispatch throws leaves no deadline behind', () => {
    slots[SLOT] = {
      dispatch() {
        throw new Error('refused');
      },
    };
    const d = timeoutDispatcher(10_000);
    expect(() => d.dispatch({}, handler())).toThrow('refused');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('what proves a fetch', () => {
  it('only a handler whose requests it can stop (fetch’s own, with onConnect) proves the fetch that dispatched it', () => {
    let proofs = 0;
    const d = timeoutDispatcher(10_000, () => proofs++);
    // Another shape (no onConnect): neither the deadline nor a caller's abort could reach its request.
    slots[SLOT] = { dispatch: () => true };
    d.dispatch({}, { onComplete() {}, onError() {} });
    expect(proofs).toBe(0);
    d.dispatch({}, handler());
    expect(proofs).toBe(1);
  });
});
