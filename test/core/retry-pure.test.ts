/**
 * retry.ts's pieces the pipeline tests reach only through a test client's recorded sleep: the real
 * sleep (abortable, leaving no listener behind), the depth bound of the error-code walk, and the exact
 * hint a caller reads when a write's outcome is unknown. Written against the survivors of the mutation
 * run (issue 22).
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { backoffDelay, defaultSleep, isPermanentRefusal, networkErrorCode, parseRetryAfter, unknownOutcomeHint } from '../../src/core/retry';

describe('defaultSleep', () => {
  it('waits the time asked, with or without a signal, and leaves no abort listener behind', async () => {
    let t = performance.now();
    await defaultSleep(30);
    expect(performance.now() - t).toBeGreaterThanOrEqual(25);
    const controller = new AbortController();
    t = performance.now();
    await defaultSleep(30, controller.signal);
    expect(performance.now() - t).toBeGreaterThanOrEqual(25);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the reason of a signal aborted before or during the wait, at once, and leaves no listener', async () => {
    const before = new AbortController();
    before.abort(new Error('stopped before'));
    await expect(defaultSleep(2_000, before.signal)).rejects.toThrow('stopped before');
    expect(getEventListeners(before.signal, 'abort')).toHaveLength(0);

    const during = new AbortController();
    const t = performance.now();
    const waiting = defaultSleep(2_000, during.signal);
    setTimeout(() => during.abort(new Error('stopped during')), 10);
    await expect(waiting).rejects.toThrow('stopped during');
    expect(performance.now() - t).toBeLessThan(1_000);
    expect(getEventListeners(during.signal, 'abort')).toHaveLength(0);
  });
});

describe('the error-code walk and the retry arithmetic, at their bounds', () => {
  it('a code five causes deep is found, six deep is not; an aggregate takes the first inner error with a code', () => {
    const nested = (depth: number): unknown => {
      let e: object = { code: 'ECONNREFUSED' };
      for (let i = 0; i < depth; i++) e = { cause: e };
      return e;
    };
    expect(networkErrorCode(nested(5))).toBe('ECONNREFUSED');
    expect(networkErrorCode(nested(6))).toBeUndefined();
    expect(networkErrorCode({ code: 42, cause: { code: 'EPIPE' } })).toBe('EPIPE');
    expect(networkErrorCode({ errors: [{}, { code: 'EAI_AGAIN' }, { code: 'ECONNREFUSED' }], cause: { code: 'EPIPE' } })).toBe('EAI_AGAIN');
    expect(networkErrorCode({ errors: [{}], cause: { code: 'EPIPE' } })).toBe('EPIPE');
    expect(networkErrorCode({ errors: 'x', cause: { code: 'EPIPE' } })).toBe('EPIPE');
    expect(networkErrorCode('ECONNREFUSED')).toBeUndefined();
    // Aggregates count toward the depth bound too.
    let aggregate: object = { code: 'ECONNREFUSED' };
    for (let i = 0; i < 6; i++) aggregate = { errors: [aggregate] };
    expect(networkErrorCode(aggregate)).toBeUndefined();
    expect(networkErrorCode({ errors: [{ errors: [{ code: 'ENOTFOUND' }] }] })).toBe('ENOTFOUND');
  });

  it('Retry-After with several decimals', () => {
    expect(parseRetryAfter('1.25', 0)).toBe(1250);
    expect(parseRetryAfter('0.001', 0)).toBe(1);
  });

  it('backoff: 500 ms doubled per retry up to 8 s, shortened by up to a quarter', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((r) => backoffDelay(r, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect([0, 1, 4].map((r) => backoffDelay(r, () => 1))).toEqual([375, 750, 6000]);
    expect(backoffDelay(0, () => 0.5)).toBe(438); // 437.5 rounded
  });

  it('a permanent refusal: the three conflicts on a 409, the daily limit on a 429, nothing else', () => {
    expect(isPermanentRefusal(409, 'QUOTE_EXPIRED')).toBe(true);
    expect(isPermanentRefusal(429, 'DAILY_VOLUME_LIMIT_EXCEEDED')).toBe(true);
    expect(isPermanentRefusal(429, 'QUOTE_EXPIRED')).toBe(false);
    expect(isPermanentRefusal(409, 'DAILY_VOLUME_LIMIT_EXCEEDED')).toBe(false);
    expect(isPermanentRefusal(503, 'QUOTE_EXPIRED')).toBe(false);
    expect(isPermanentRefusal(429, undefined)).toBe(false);
  });

  it('the hint of an unknown outcome names the key to retry with, or says to look the resource up', () => {
    expect(unknownOutcomeHint('key-1')).toBe("; the outcome is unknown: retry with idempotencyKey 'key-1'");
    expect(unknownOutcomeHint(undefined)).toBe('; the outcome is unknown: look the resource up before creating it again');
    expect(unknownOutcomeHint('')).toBe('; the outcome is unknown: look the resource up before creating it again');
  });
});
