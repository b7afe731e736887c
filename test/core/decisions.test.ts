/**
 * The pipeline's decisions one by one, as pure functions and with a scripted fetch: what is retried,
 * what says its outcome is unknown, what counts as a challenge or an envelope. Written against the
 * mutants the mutation run (npm run test:mutation) found alive in money, secret and signature code.
 */
import { describe, expect, it } from 'vitest';
import { parseBody, readEnvelope, toAPIError, createScrub } from '../../src/core/answers';
import { isChallenge, readChallenge } from '../../src/core/signed-retry';
import { APIError, InternalServerError } from '../../src/core/errors';
import { OperationPlan } from '../../src/core/plan';
import { isPermanentConflict, isRetryableStatus, networkErrorCode, parseRetryAfter, retryDecision, surelyNotSent, type RetryInput } from '../../src/core/retry';
import { MemoryDedupeStore } from '../../src/webhooks/dedupe';
import { op, rejected, testClient } from '../helpers/client';
import type { Operation } from '../../src/core/plan';

const noScrub = createScrub([]);
/** The plan of `METHOD /path` (what toAPIError asks whether an outcome is unknown). */
const planOf = (label: string) => {
  const [method, path] = label.split(' ') as [Operation['method'], string];
  return new OperationPlan(op({ method, path }), 'https://api.test.invalid', () => '');
};
const answer = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });
const failWith = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });

describe('retry decisions', () => {
  it('retryable statuses: 408, 409, 429 and every 5xx; nothing else', () => {
    expect([408, 409, 429, 500, 502, 503, 504, 599].map(isRetryableStatus)).toEqual(Array(8).fill(true));
    expect([200, 301, 400, 401, 403, 404, 422, 499].map(isRetryableStatus)).toEqual(Array(8).fill(false));
  });

  it('permanent conflicts are exactly the three codes', () => {
    expect(['QUOTE_EXPIRED', 'IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION'].map(isPermanentConflict)).toEqual([true, true, true]);
    expect(['CONFLICT', 'quote_expired', undefined, 42].map(isPermanentConflict)).toEqual([false, false, false, false]);
  });

  it('only a refused connection or a failed lookup proves a request never left', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])
      expect(surelyNotSent(failWith(code)), code).toBe(true);
    for (const code of ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ETIMEDOUT']) expect(surelyNotSent(failWith(code)), code).toBe(false);
    expect(surelyNotSent(new Error('no code'))).toBe(false);
    expect(surelyNotSent(null)).toBe(false);
    // Inside an AggregateError (happy eyeballs), and a few causes deep.
    expect(networkErrorCode(new AggregateError([new Error('a'), failWith('ECONNREFUSED')]))).toBe('ECONNREFUSED');
    expect(networkErrorCode({ cause: { cause: { code: 'ECONNREFUSED' } } })).toBe('ECONNREFUSED');
    let deep: object = { code: 'ECONNREFUSED' };
    for (let i = 0; i < 10; i++) deep = { cause: deep };
    expect(networkErrorCode(deep)).toBeUndefined(); // bounded depth
  });

  it('Retry-After: seconds, fractions, HTTP dates; nothing for the unreadable', () => {
    const now = Date.parse('2025-10-13T10:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 3 ', now)).toBe(3000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('Mon, 13 Oct 2025 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Mon, 13 Oct 2025 09:00:00 GMT', now)).toBe(0);
    for (const bad of ['', '  ', 'abc', '2x', 'x2', '-1', '1.', null, undefined]) expect(parseRetryAfter(bad as string, now), String(bad)).toBeUndefined();
  });
});

describe('retryDecision: one decision for answers and failures', () => {
  const T0 = Date.parse('2025-10-13T10:00:00Z');
  const input = (over: Partial<RetryInput> = {}): RetryInput => ({
    retry: 0,
    maxRetries: 2,
    safe: true,
    notAfter: undefined,
    now: () => T0,
    random: () => 0,
    ...over,
  });
  const status = (s: number, retryAfter?: string, code?: unknown) => ({ status: s, retryAfter, code });
  const failure = (mayHaveArrived: boolean) => ({ failed: true as const, mayHaveArrived });

  it('answers: a retryable status of a safe request, after backoff or Retry-After; nothing else', () => {
    expect(retryDecision(status(503), input())).toEqual({ delay: 500, retryAfter: undefined });
    expect(retryDecision(status(503), input({ retry: 1, random: () => 1 }))).toEqual({ delay: 750, retryAfter: undefined });
    expect(retryDecision(status(429, '2'), input())).toEqual({ delay: 2000, retryAfter: 2000 });
    expect(retryDecision(status(503, 'Mon, 13 Oct 2025 10:00:03 GMT'), input())).toEqual({ delay: 3000, retryAfter: 3000 });
    expect(retryDecision(status(503, 'soon'), input())).toEqual({ delay: 500, retryAfter: undefined });
    for (const s of [200, 201, 202, 204, 303, 400, 401, 404, 422]) expect(retryDecision(status(s), input()), String(s)).toBeUndefined();
    expect(retryDecision(status(503), input({ safe: false }))).toBeUndefined(); // a gateway may answer after the service acted
  });

  it('answers: a Retry-After over 60 s, a permanent refusal, the last retry, an expiring challenge stop', () => {
    expect(retryDecision(status(503, '61'), input())).toBeUndefined();
    expect(retryDecision(status(503, '60'), input())).toEqual({ delay: 60_000, retryAfter: 60_000 });
    expect(retryDecision(status(409, undefined, 'QUOTE_EXPIRED'), input())).toBeUndefined();
    expect(retryDecision(status(409, undefined, 'BUSY'), input())).toEqual({ delay: 500, retryAfter: undefined });
    expect(retryDecision(status(429, undefined, 'DAILY_VOLUME_LIMIT_EXCEEDED'), input())).toBeUndefined();
    expect(retryDecision(status(503), input({ retry: 2 }))).toBeUndefined();
    expect(retryDecision(status(503), input({ retry: 1 }))).toBeDefined();
    expect(retryDecision(status(503), input({ maxRetries: 0 }))).toBeUndefined();
    // The next attempt must start before notAfter: at it is too late.
    expect(retryDecision(status(503), input({ notAfter: T0 + 501 }))).toEqual({ delay: 500, retryAfter: undefined });
    expect(retryDecision(status(503), input({ notAfter: T0 + 500 }))).toBeUndefined();
  });

  it('failures: repeated when safe or surely never sent, with backoff, within maxRetries and notAfter', () => {
    expect(retryDecision(failure(true), input())).toEqual({ delay: 500, retryAfter: undefined });
    expect(retryDecision(failure(true), input({ safe: false }))).toBeUndefined();
    expect(retryDecision(failure(false), input({ safe: false }))).toEqual({ delay: 500, retryAfter: undefined });
    expect(retryDecision(failure(false), input({ retry: 3, maxRetries: 3 }))).toBeUndefined();
    expect(retryDecision(failure(false), input({ retry: 4, maxRetries: 9, random: () => 0 }))).toEqual({ delay: 8000, retryAfter: undefined });
    expect(retryDecision(failure(false), input({ notAfter: T0 + 500 }))).toBeUndefined();
  });
});

describe('the plan owns write, safe and outcomeUnknown', () => {
  it('write: every method but GET', () => {
    expect(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => planOf(`${m} /x`).write)).toEqual([false, true, true, true, true]);
  });

  it('safe: a read or a keyed write; a signed leg never', () => {
    expect(planOf('GET /x').safe(undefined, undefined)).toBe(true);
    expect(planOf('POST /x').safe(undefined, undefined)).toBe(false);
    expect(planOf('DELETE /x').safe(undefined, undefined)).toBe(false);
    expect(planOf('POST /x').safe('key', undefined)).toBe(true);
    expect(planOf('POST /x').safe('key', 'req-1')).toBe(false);
    expect(planOf('GET /x').safe(undefined, 'req-1')).toBe(false);
  });

  it('outcomeUnknown: a write that may have arrived; after an answer, a write answered 2xx, 303 or 5xx', () => {
    expect([planOf('POST /x').outcomeUnknown(true), planOf('POST /x').outcomeUnknown(false), planOf('GET /x').outcomeUnknown(true)]).toEqual([
      true,
      false,
      false,
    ]);
    const after = (label: string) => [200, 204, 301, 303, 307, 400, 409, 499, 500, 503].map((s) => planOf(label).outcomeUnknownAfter(s));
    expect(after('POST /x')).toEqual([true, true, false, true, false, false, false, false, true, true]);
    expect(after('GET /x')).toEqual(Array(10).fill(false));
  });

  it('url: path values encoded, a missing one kept as its placeholder, the query by openapi-fetch (empty values left out)', () => {
    const plan = new OperationPlan(op({ method: 'GET', path: '/receiver/uma/{address}' }), 'https://b.test/2025-10-13', (q) =>
      new URLSearchParams(q as Record<string, string>).toString(),
    );
    expect(plan.url({ address: '$a@b.example' }, { limit: '2' })).toBe('https://b.test/2025-10-13/receiver/uma/%24a%40b.example?limit=2');
    expect(plan.url(undefined, undefined)).toBe('https://b.test/2025-10-13/receiver/uma/{address}');
    expect(plan.url({}, {})).toBe('https://b.test/2025-10-13/receiver/uma/{address}');
    // A template the compiled serializer does not take (an exploded label) goes to openapi-fetch's.
    const label = new OperationPlan(op({ method: 'GET', path: '/x/{.ids*}' }), 'https://b.test', () => '');
    expect(label.url({ ids: ['a', 'b'] } as never, undefined)).toBe('https://b.test/x/.a.b');
  });
});

describe('answers', () => {
  it('a body is parsed once, by its status: JSON; a non-2xx text kept; a 2xx that is not JSON flagged; nothing for 204 or empty', () => {
    expect(parseBody(200, '{"id":"Quote:1"}')).toEqual({ data: { id: 'Quote:1' }, notJson: undefined });
    expect(parseBody(200, 'null')).toEqual({ data: null, notJson: undefined });
    expect(parseBody(200, '')).toEqual({ data: undefined, notJson: undefined });
    expect(parseBody(204, '{"ignored":true}')).toEqual({ data: undefined, notJson: undefined });
    expect(parseBody(502, '<html>down</html>')).toEqual({ data: '<html>down</html>', notJson: undefined });
    expect(parseBody(500, '')).toEqual({ data: '', notJson: undefined });
    const page = parseBody(200, '<html>proxy</html>');
    expect(page.data).toBeUndefined();
    expect(page.notJson).toBeInstanceOf(SyntaxError);
  });

  it('each answer body is parsed once, retried or not (the retry decision reads the code of the same parse)', async () => {
    const body = JSON.stringify({ status: 409, code: 'QUOTE_EXPIRED', message: 'expired' });
    const ok = JSON.stringify({ id: 'Quote:1' });
    const parse = JSON.parse;
    const parsed: string[] = [];
    JSON.parse = ((text: string, reviver?: never) => {
      if (text === body || text === ok) parsed.push(text);
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      const replies = [body, ok];
      const fetch = async () => {
        const next = replies.shift()!;
        return new Response(next, { status: next === ok ? 200 : 409, headers: { 'content-type': 'application/json' } });
      };
      const { client } = testClient({ fetch, maxRetries: 2 });
      const keyed = op({ method: 'POST', path: '/quotes', idempotent: true });
      expect(await rejected(client.call(keyed, { body: {} }))).toMatchObject({ status: 409, code: 'QUOTE_EXPIRED' });
      expect(await client.call(keyed, { body: {} })).toEqual({ id: 'Quote:1' });
    } finally {
      JSON.parse = parse;
    }
    expect(parsed).toEqual([body, ok]);
  });

  it('outcomeUnknown: a 5xx on a write, never on a read, never on a 4xx', () => {
    expect(toAPIError(answer(500), undefined, planOf('POST /quotes'), 'k', noScrub)).toMatchObject({ outcomeUnknown: true });
    expect(toAPIError(answer(500), undefined, planOf('POST /quotes'), 'k', noScrub)).toBeInstanceOf(InternalServerError);
    expect(toAPIError(answer(500), undefined, planOf('GET /quotes/{id}'), undefined, noScrub)).toMatchObject({ outcomeUnknown: false });
    expect(toAPIError(answer(499), undefined, planOf('POST /quotes'), 'k', noScrub)).toMatchObject({ outcomeUnknown: false });
    const teapot = toAPIError(answer(418), undefined, planOf('POST /x'), undefined, noScrub);
    expect(teapot).toBeInstanceOf(APIError);
    expect(teapot).not.toBeInstanceOf(InternalServerError);
  });

  it('every 3xx is a redirect error; 2xx and 4xx are not', () => {
    expect(toAPIError(answer(300, { location: 'https://x.example' }), undefined, planOf('GET /x'), undefined, noScrub).code).toBe('REDIRECT');
    expect(toAPIError(answer(399), undefined, planOf('GET /x'), undefined, noScrub).code).toBe('REDIRECT');
    expect(toAPIError(answer(400), undefined, planOf('GET /x'), undefined, noScrub).code).toBe('UNKNOWN');
  });

  it('the body: its message and details when JSON, a trimmed text when not', () => {
    const json = toAPIError(answer(400), { code: 'INVALID_INPUT', message: 'bad', details: { field: 'x' } }, planOf('POST /x'), undefined, noScrub);
    expect(json).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'x' } });
    expect(json.message).toBe('400 INVALID_INPUT: bad');
    const html = toAPIError(
      new Response(null, { status: 502, statusText: 'Bad Gateway' }),
      '<html><b>upstream</b>\n\n down</html>',
      planOf('GET /x'),
      undefined,
      noScrub,
    );
    expect(html.message).toBe('502 UNKNOWN: Bad Gateway: upstream down');
    expect(toAPIError(answer(404), null, planOf('GET /x'), undefined, noScrub).details).toBeUndefined();
    expect(toAPIError(answer(404), { details: null }, planOf('GET /x'), undefined, noScrub).details).toBeUndefined();
  });

  it('a challenge: flagged operations always, others when the body carries one', () => {
    expect(isChallenge({}, true)).toBe(true);
    expect(isChallenge({ payloadToSign: 'p' }, false)).toBe(true);
    expect(isChallenge({ requestId: 'r', expiresAt: 'e' }, false)).toBe(true);
    expect(isChallenge({ requestId: 'r' }, false)).toBe(false);
    expect(isChallenge({ expiresAt: 'e' }, false)).toBe(false);
    expect(isChallenge({ id: 'Quote:1' }, false)).toBe(false);
    expect(isChallenge(null, false)).toBe(false);
    expect(isChallenge('payloadToSign', false)).toBe(false);
  });

  it('readChallenge refuses each missing or unusable field, naming it', () => {
    const good = { payloadToSign: 'p', requestId: 'r-1', expiresAt: '2030-01-01T00:00:00Z', type: 'PASSKEY' };
    expect(readChallenge(good, answer(202), 'POST /x', noScrub)).toEqual(good);
    expect(readChallenge({ ...good, type: 5 }, answer(202), 'POST /x', noScrub).type).toBeUndefined();
    const fields = (data: unknown) => {
      try {
        readChallenge(data, answer(202, { 'x-request-id': 'req_1' }), 'POST /x', noScrub);
        return [];
      } catch (e) {
        expect((e as { requestId?: string }).requestId).toBe('req_1');
        return (e as { issues: { path: string }[] }).issues.map((i) => i.path);
      }
    };
    expect(fields({ ...good, payloadToSign: 1 })).toEqual(['payloadToSign']);
    expect(fields({ ...good, requestId: '' })).toEqual(['requestId']);
    expect(fields({ ...good, requestId: 'a\nb' })).toEqual(['requestId']);
    expect(fields({ ...good, requestId: 7 })).toEqual(['requestId']);
    expect(fields({ ...good, expiresAt: 'later' })).toEqual(['expiresAt']);
    expect(fields({ ...good, expiresAt: 1 })).toEqual(['expiresAt']);
    expect(fields(null)).toEqual(['payloadToSign', 'requestId', 'expiresAt']);
  });

  it('readEnvelope: only a body that cannot be a list throws; repairs are reported', () => {
    const reports: unknown[] = [];
    const read = (data: unknown, paginated = true) =>
      readEnvelope(data, answer(200, { 'x-request-id': 'req_2' }), 'GET /x', paginated, (i) => reports.push(i), noScrub);
    for (const bad of [null, 'x', 5, { data: 'nope' }, { data: null }]) expect(() => read(bad), JSON.stringify(bad)).toThrow(/unexpected body/);
    expect(read({ data: [1], hasMore: true, nextCursor: 'c' })).toMatchObject({ hasMore: true, nextCursor: 'c', totalCount: 1 });
    expect(reports).toEqual([]);
    expect(read({ data: [1], nextCursor: 'c' })).toMatchObject({ hasMore: true, nextCursor: 'c' });
    expect(read({ data: [1], nextCursor: '' })).toMatchObject({ hasMore: false, nextCursor: undefined });
    expect(read({ data: [1], hasMore: false, nextCursor: null })).toMatchObject({ hasMore: false, nextCursor: undefined });
    expect(read({ data: [1], hasMore: false, nextCursor: 5 })).toMatchObject({ nextCursor: undefined });
    expect(reports).toEqual([
      [{ path: 'hasMore', rule: 'invalid_type', message: 'expected boolean (taken as true)' }],
      [{ path: 'hasMore', rule: 'invalid_type', message: 'expected boolean (taken as false)' }],
      [{ path: 'nextCursor', rule: 'invalid_type', message: 'expected string' }],
    ]);
    expect(read({ data: [1, 2] }, false)).toMatchObject({ hasMore: false, totalCount: 2 });
    expect(reports).toHaveLength(3); // an unpaginated list needs no hasMore
  });
});

describe('the attempt loop, scripted', () => {
  const script = (...steps: (number | Error)[]) => {
    const sent: string[] = [];
    const fetch = async (_url: string, init: RequestInit) => {
      sent.push(init.method!);
      const step = steps.shift() ?? 200;
      if (step instanceof Error) throw step;
      return new Response(step === 204 ? null : JSON.stringify({ status: step, code: step === 409 ? 'IDEMPOTENCY_KEY_REUSED' : 'X', message: 'm' }), {
        status: step,
        headers: { 'content-type': 'application/json' },
      });
    };
    return { sent, fetch };
  };

  it('a connection reset after sending: a write without key is not resent and says its outcome is unknown; a read is retried', async () => {
    const write = script(failWith('ECONNRESET'));
    const { client } = testClient({ fetch: write.fetch });
    const err = await rejected(client.call(op({ method: 'POST', path: '/x' }), { body: {} }));
    expect(err).toMatchObject({ name: 'APIConnectionError', outcomeUnknown: true });
    expect(err.message).toMatch(/outcome is unknown: look the resource up/);
    expect(write.sent).toHaveLength(1);
    const read = script(failWith('ECONNRESET'));
    const c2 = testClient({ fetch: read.fetch }).client;
    await expect(c2.call(op({ method: 'GET', path: '/x' }))).resolves.toBeDefined();
    expect(read.sent).toHaveLength(2);
  });

  it('a refused connection: a write without key is resent (it never left) and, if it keeps failing, says so', async () => {
    const write = script(failWith('ECONNREFUSED'), failWith('ECONNREFUSED'), failWith('ECONNREFUSED'));
    const { client } = testClient({ fetch: write.fetch });
    const err = await rejected(client.call(op({ method: 'POST', path: '/x' }), { body: {} }));
    expect(err).toMatchObject({ name: 'APIConnectionError', outcomeUnknown: false });
    expect(err.message).not.toMatch(/outcome is unknown/);
    expect(write.sent).toHaveLength(3);
  });

  it('a timeout: unknown outcome on a write, known on a read', async () => {
    const slow = async (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const { client } = testClient({ fetch: slow, timeout: 20, maxRetries: 0 });
    expect(await rejected(client.call(op({ method: 'POST', path: '/x' }), { body: {} }))).toMatchObject({ name: 'APITimeoutError', outcomeUnknown: true });
    expect(await rejected(client.call(op({ method: 'GET', path: '/x' })))).toMatchObject({ name: 'APITimeoutError', outcomeUnknown: false });
  });

  it('a 409 IDEMPOTENCY_KEY_REUSED is not retried; another 409 on a keyed write is', async () => {
    const reused = script(409);
    await rejected(testClient({ fetch: reused.fetch }).client.call(op({ method: 'POST', path: '/q', idempotent: true }), { body: {} }));
    expect(reused.sent).toHaveLength(1);
    const other = async () => new Response(JSON.stringify({ code: 'BUSY' }), { status: 409, headers: { 'content-type': 'application/json' } });
    let n = 0;
    await rejected(
      testClient({ fetch: async () => (n++, other()), maxRetries: 2 }).client.call(op({ method: 'POST', path: '/q', idempotent: true }), { body: {} }),
    );
    expect(n).toBe(3);
  });

  it('a Retry-After over 60 s is not waited for: the error surfaces at once; 60 s is waited', async () => {
    let n = 0;
    const long = async () => (n++, new Response('{}', { status: 503, headers: { 'retry-after': '61', 'content-type': 'application/json' } }));
    const { client, sleeps } = testClient({ fetch: long });
    expect(await rejected(client.call(op({ method: 'GET', path: '/x' })))).toMatchObject({ status: 503, retryAfter: 61_000 });
    expect(n).toBe(1);
    expect(sleeps).toEqual([]);
    let m = 0;
    const sixty = async () =>
      m++ === 0
        ? new Response('{}', { status: 503, headers: { 'retry-after': '60' } })
        : new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    const c2 = testClient({ fetch: sixty });
    await c2.client.call(op({ method: 'GET', path: '/x' }));
    expect(c2.sleeps).toEqual([60_000]);
  });
});

describe('dedupe store boundaries', () => {
  it('an id is a duplicate until its expiry, new again exactly at it', () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ now: () => now });
    expect(store.add('a', 100)).toBe(true);
    now = 1_099;
    expect(store.add('a', 100)).toBe(false);
    now = 1_100;
    expect(store.add('a', 100)).toBe(true);
    expect(() => new MemoryDedupeStore({ maxEntries: 0 })).toThrow(RangeError);
    expect(new MemoryDedupeStore({ maxEntries: 1 }).add('x', 1)).toBe(true);
  });
});
