/**
 * The attempt loop (`send`) driven directly with a scripted fetch: the exact init of each attempt, the
 * exact error, delay, log line and trace call of each ending, and nothing left behind (timers, listeners).
 * Written against the mutants the mutation run left alive in transport.ts (issue 22); no sockets.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScrub } from '../../src/core/answers';
import { APIConnectionError, APITimeoutError, APIUserAbortError } from '../../src/core/errors';
import { AttemptDispatcher } from '../../src/core/dispatcher';
import { Log, type Logger } from '../../src/core/logger';
import { OperationPlan, type Operation } from '../../src/core/plan';
import { send, type Outgoing, type TransportConfig } from '../../src/core/transport';
import { op } from '../helpers/client';

const SECRET = 'sk_live_TRANSPORT_77';
const plan = (method: Operation['method'], path = '/x') => new OperationPlan(op({ method, path }), 'https://api.test.invalid', () => '');

type Step = Response | Error | ((init: RequestInit) => Promise<Response>);
/** A fetch that answers each attempt with the next step (the last one repeated), recording url and init. */
function script(...steps: Step[]) {
  const calls: { url: string; init: RequestInit & { dispatcher?: unknown } }[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step(init);
    return step.clone();
  };
  return { fetch, calls };
}

function setup(fetch: TransportConfig['fetch'], level: 'off' | 'info' | 'debug' = 'off', sleep?: TransportConfig['sleep']) {
  const lines: [string, string, unknown][] = [];
  const logger: Logger = {
    debug: (m: string, d?: unknown) => void lines.push(['debug', m, d]),
    info: (m: string, d?: unknown) => void lines.push(['info', m, d]),
    warn: (m: string, d?: unknown) => void lines.push(['warn', m, d]),
    error: (m: string, d?: unknown) => void lines.push(['error', m, d]),
  };
  const sleeps: [number, AbortSignal | undefined][] = [];
  const config: TransportConfig = {
    fetch,
    sleep:
      sleep ??
      (async (ms, signal) => {
        sleeps.push([ms, signal]);
      }),
    log: new Log(logger, level),
    random: () => 0,
    scrub: createScrub([SECRET]),
  };
  return { config, lines, sleeps };
}

const out = (over: Partial<Outgoing> = {}): Outgoing => ({
  url: 'https://api.test.invalid/x?q=1',
  headers: { authorization: `Basic ${SECRET}`, 'content-type': 'application/json' },
  body: undefined,
  idempotencyKey: undefined,
  maxRetries: 2,
  timeout: 5_000,
  signal: undefined,
  safe: true,
  notAfter: undefined,
  trace: undefined,
  ...over,
});
const jsonAnswer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const coded = (message: string, code: string, causeMessage = code) =>
  Object.assign(new TypeError(message), { cause: Object.assign(new Error(causeMessage), { code }) });
const traceOf = () => {
  const events: unknown[][] = [];
  let tally: { attempts: number } | undefined;
  const trace = {
    leg: (t: { attempts: number }, headers: Record<string, string>) => {
      tally = t;
      events.push(['leg', headers]);
    },
    retry: (...args: unknown[]) => void events.push(['retry', ...args]),
  };
  return { trace: trace as unknown as Outgoing['trace'], events, attempts: () => tally?.attempts };
};

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('send: what each attempt carries', () => {
  it("the user's fetch gets the URL and a plain init: method, the same headers and body, manual redirects, our signal, no dispatcher", async () => {
    const { fetch, calls } = script(jsonAnswer(200, { id: 'T:1' }));
    const headers = { 'content-type': 'application/json', 'idempotency-key': 'k1' };
    const { config } = setup(fetch);
    const result = await send(config, plan('POST', '/things'), out({ headers, body: '{"a":1}', timeout: 10_000, idempotencyKey: 'k1' }));
    expect(calls).toHaveLength(1);
    const { url, init } = calls[0]!;
    expect(url).toBe('https://api.test.invalid/x?q=1');
    expect(Object.keys(init).sort()).toEqual(['body', 'headers', 'method', 'redirect', 'signal']);
    expect(init).toMatchObject({ method: 'POST', body: '{"a":1}', redirect: 'manual' });
    expect(init.headers).toBe(headers);
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(init.signal!.aborted).toBe(false);
    expect(result).toEqual({ response: expect.any(Response), text: '{"id":"T:1"}', data: { id: 'T:1' }, notJson: undefined, attempts: 1 });
    expect(result.response.status).toBe(200);
  });

  it('the global fetch is looked up per attempt; on Node it is probed with a dispatcher, then given only a dispatcher of the attempt’s own, which the caller’s signal aborts', async () => {
    const seen: { fetch: string; init: RequestInit & { dispatcher?: { dispatch: (o: object, h: object) => boolean } } }[] = [];
    const probing = async (_url: string, init: RequestInit & { dispatcher?: { dispatch: (o: object, h: object) => boolean } }) => {
      seen.push({ fetch: 'first', init });
      // Dispatching through the probe proves this fetch uses it (the process dispatcher may be missing: ignored).
      try {
        init.dispatcher?.dispatch({}, { onConnect() {} });
      } catch {
        // no undici dispatcher in this process yet
      }
      return jsonAnswer(503, {});
    };
    vi.stubGlobal('fetch', probing);
    const caller = new AbortController();
    const { config, sleeps } = setup(undefined, 'off', async (ms, signal) => {
      sleeps.push([ms, signal]);
    });
    const second = await send(config, plan('GET'), out({ maxRetries: 1, timeout: 10_000, signal: caller.signal }));
    expect(second.response.status).toBe(503);
    expect(seen).toHaveLength(2);
    const [probe, proven] = seen;
    expect(typeof probe!.init.dispatcher?.dispatch).toBe('function');
    expect(probe!.init.signal).not.toBe(caller.signal); // the first attempt keeps our timer's signal
    expect(probe!.init.redirect).toBe('manual');
    expect(Object.keys(proven!.init).sort()).toEqual(['body', 'dispatcher', 'headers', 'method', 'redirect']);
    // No signal at all (fetch would keep a listener, a WeakRef and a finalizer entry per request): the attempt's
    // own dispatcher, which the caller's signal aborts through the SDK's one listener on it, taken off when the
    // attempt ended.
    expect(proven!.init.dispatcher).toBeInstanceOf(AttemptDispatcher);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    expect(proven!.init).toMatchObject({ method: 'GET', redirect: 'manual' });
    expect(sleeps).toEqual([[500, caller.signal]]);
    // Under the dispatcher threshold: the timer and signal alone.
    const fresh = script(jsonAnswer(200, {}));
    vi.stubGlobal('fetch', fresh.fetch);
    await send(setup(undefined).config, plan('GET'), out({ timeout: 9_999 }));
    expect(fresh.calls[0]!.init.dispatcher).toBeUndefined();
  });

  it('the trace is told of the leg (its headers) and of each retry; its tally ends at the attempts made', async () => {
    const { fetch } = script(jsonAnswer(503, {}, { 'retry-after': '2' }), coded('fetch failed', 'ECONNRESET', 'socket hang up'), jsonAnswer(200, {}));
    const t = traceOf();
    const headers = { accept: 'application/json' };
    const { config, sleeps } = setup(fetch);
    const result = await send(config, plan('GET'), out({ headers, trace: t.trace }));
    expect(result.attempts).toBe(3);
    expect(t.attempts()).toBe(3);
    expect(t.events[0]).toEqual(['leg', headers]);
    expect(t.events[1]).toEqual(['retry', 1, 2000, 503, 2000]);
    expect(t.events[2]!.slice(0, 5)).toEqual(['retry', 2, 1000, undefined, undefined]);
    expect(t.events[2]![5]).toBeInstanceOf(APIConnectionError);
    expect((t.events[2]![5] as Error).message).toBe('GET /x failed: fetch failed (ECONNRESET: socket hang up)');
    expect(sleeps.map(([ms]) => ms)).toEqual([2000, 1000]);
  });
});

describe('send: how each attempt ends', () => {
  it('a timeout: APITimeoutError naming the limit; unknown outcome on a write, with its key', async () => {
    const hang = (init: RequestInit) =>
      new Promise<Response>((_r, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const post = await send(setup(script(hang).fetch).config, plan('POST'), out({ timeout: 15, maxRetries: 0, idempotencyKey: 'k9', safe: true })).catch(
      (e) => e,
    );
    expect(post).toBeInstanceOf(APITimeoutError);
    expect(post.message).toBe('POST /x timed out after 15 ms');
    expect(post).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'k9', operation: 'POST /x' });
    expect(post.cause).toBeInstanceOf(DOMException);
    const get = await send(setup(script(hang).fetch).config, plan('GET'), out({ timeout: 15, maxRetries: 0 })).catch((e) => e);
    expect(get).toMatchObject({ name: 'APITimeoutError', outcomeUnknown: false });
    // undici's own timeout (the dispatcher path) is a timeout too, even on a connection error's code.
    const undici = await send(
      setup(script(coded('fetch failed', 'UND_ERR_HEADERS_TIMEOUT')).fetch).config,
      plan('POST'),
      out({ maxRetries: 0, safe: false }),
    ).catch((e) => e);
    expect(undici).toBeInstanceOf(APITimeoutError);
    expect(undici).toMatchObject({ message: 'POST /x timed out after 5000 ms', outcomeUnknown: true });
  });

  it('a connection failure: its description, whether it may have arrived, and the hint to reconcile', async () => {
    const reset = await send(
      setup(script(coded('fetch failed', 'ECONNRESET', 'other side closed')).fetch).config,
      plan('POST'),
      out({ safe: false, idempotencyKey: undefined }),
    ).catch((e) => e);
    expect(reset.constructor).toBe(APIConnectionError);
    expect(reset.message).toBe(
      'POST /x failed: fetch failed (ECONNRESET: other side closed); the outcome is unknown: look the resource up before creating it again',
    );
    expect(reset).toMatchObject({ outcomeUnknown: true, operation: 'POST /x', idempotencyKey: undefined });
    // Refused: it never left, so a write is repeated, and the last failure says its outcome is known.
    const refused = script(coded('fetch failed', 'ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'));
    const r = setup(refused.fetch);
    const last = await send(r.config, plan('POST'), out({ safe: false })).catch((e) => e);
    expect(refused.calls).toHaveLength(3);
    expect(last.message).toBe('POST /x failed: fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1)');
    expect(last.outcomeUnknown).toBe(false);
    expect(r.sleeps.map(([ms]) => ms)).toEqual([500, 1000]);
    // Other shapes of failure.
    const text = await send(
      setup(script(Object.assign(new Error('plain'), { cause: new Error('inner') })).fetch).config,
      plan('GET'),
      out({ maxRetries: 0 }),
    ).catch((e) => e);
    expect(text.message).toBe('GET /x failed: plain (inner)');
    const noCause = await send(setup(script(new Error('plain')).fetch).config, plan('GET'), out({ maxRetries: 0 })).catch((e) => e);
    expect(noCause.message).toBe('GET /x failed: plain');
    const bare = await send(setup(script(Object.assign(new Error('bare'), { cause: 'not an error' })).fetch).config, plan('GET'), out({ maxRetries: 0 })).catch(
      (e) => e,
    );
    expect(bare.message).toBe('GET /x failed: bare');
    const thrown = await send(setup(async () => Promise.reject('a string')).config, plan('PUT'), out({ maxRetries: 0, idempotencyKey: 'k2' })).catch((e) => e);
    expect(thrown.message).toBe("PUT /x failed: a string; the outcome is unknown: retry with idempotencyKey 'k2'");
    expect(thrown.cause).toBe('a string');
  });

  it('a body cut after the headers arrived: it may have arrived, even if its error looks like a refusal', async () => {
    const cut = () => {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.error(coded('terminated', 'ECONNREFUSED'));
        },
      });
      return Promise.resolve(new Response(body, { status: 200 }));
    };
    const s = script(cut);
    const e = await send(setup(s.fetch).config, plan('POST'), out({ safe: false })).catch((x) => x);
    expect(s.calls).toHaveLength(1);
    expect(e).toBeInstanceOf(APIConnectionError);
    expect(e.outcomeUnknown).toBe(true);
  });

  it('answers: retried by status, Retry-After and code; a null body read as no code; the last one returned', async () => {
    const nulls = script(new Response('null', { status: 503 }), jsonAnswer(200, { ok: true }));
    const n = setup(nulls.fetch);
    expect((await send(n.config, plan('GET'), out())).data).toEqual({ ok: true });
    expect(n.sleeps.map(([ms]) => ms)).toEqual([500]);
    const expired = script(jsonAnswer(409, { code: 'QUOTE_EXPIRED' }), jsonAnswer(200, {}));
    const last = await send(setup(expired.fetch).config, plan('POST'), out({ idempotencyKey: 'k' }));
    expect(expired.calls).toHaveLength(1);
    expect(last).toMatchObject({ data: { code: 'QUOTE_EXPIRED' }, attempts: 1 });
    // A signed leg's expiry: no attempt would start at or after it, so the 503 is the answer; an HTTP-date Retry-After read against the clock.
    const expiring = script(jsonAnswer(503, {}), jsonAnswer(200, {}));
    expect(await send(setup(expiring.fetch).config, plan('POST'), out({ safe: true, notAfter: Date.now() + 400 }))).toMatchObject({ attempts: 1 });
    const dated = script(jsonAnswer(503, {}, { 'retry-after': new Date(Date.now() + 30_000).toUTCString() }), jsonAnswer(200, {}));
    const dd = setup(dated.fetch);
    await send(dd.config, plan('GET'), out());
    expect(dd.sleeps[0]![0]).toBeGreaterThan(28_000);
    expect(dd.sleeps[0]![0]).toBeLessThanOrEqual(30_000);
    const html = script(new Response('<html>down</html>', { status: 502 }));
    const h = await send(setup(html.fetch).config, plan('GET'), out({ maxRetries: 1 }));
    expect(h).toMatchObject({ text: '<html>down</html>', data: '<html>down</html>', notJson: undefined, attempts: 2 });
  });

  it('the caller’s abort: before the first attempt, during one, and during the wait; never retried', async () => {
    const before = new AbortController();
    before.abort(new Error('stop'));
    const s = script(jsonAnswer(200, {}));
    const t = traceOf();
    const early = await send(setup(s.fetch).config, plan('POST'), out({ signal: before.signal, idempotencyKey: 'k3', trace: t.trace })).catch((e) => e);
    expect(s.calls).toHaveLength(0);
    expect(t.attempts()).toBe(0); // the trace reads 0 attempts, not nothing
    expect(early).toBeInstanceOf(APIUserAbortError);
    expect(early.message).toBe('POST /x was aborted by the caller');
    expect(early).toMatchObject({ outcomeUnknown: false, idempotencyKey: 'k3', operation: 'POST /x' });
    expect(early.cause).toBe(before.signal.reason);

    const during = new AbortController();
    const reason = new Error('changed my mind');
    let fetchSignal: AbortSignal | undefined;
    const hang = (init: RequestInit) => {
      fetchSignal = init.signal!;
      queueMicrotask(() => during.abort(reason));
      return new Promise<Response>((_r, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    };
    const d = setup(script(hang).fetch);
    const mid = await send(d.config, plan('GET'), out({ signal: during.signal, timeout: 60_000 })).catch((e) => e);
    expect(fetchSignal!.aborted).toBe(true);
    expect(d.sleeps).toEqual([]); // not taken for a failure to retry
    expect(mid).toBeInstanceOf(APIUserAbortError);
    expect(mid.message).toBe('GET /x was aborted by the caller');
    expect(mid.cause).toBe(reason);
    expect(mid.outcomeUnknown).toBe(false);
    const midWrite = new AbortController();
    const hangWrite = (init: RequestInit) => {
      queueMicrotask(() => midWrite.abort(reason));
      return new Promise<Response>((_r, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    };
    expect(await send(setup(script(hangWrite).fetch).config, plan('POST'), out({ signal: midWrite.signal, timeout: 60_000 })).catch((e) => e)).toMatchObject({
      name: 'APIUserAbortError',
      outcomeUnknown: true,
    });

    // The wait rejects: the abort, its cause the wait's reason; a write may have arrived already.
    const waitReason = new Error('wait aborted');
    const w = setup(script(jsonAnswer(503, {})).fetch, 'off', async () => {
      throw waitReason;
    });
    const inWait = await send(w.config, plan('PATCH'), out({ idempotencyKey: 'k4' })).catch((e) => e);
    expect(inWait).toBeInstanceOf(APIUserAbortError);
    expect(inWait).toMatchObject({ message: 'PATCH /x was aborted by the caller', outcomeUnknown: true, idempotencyKey: 'k4', operation: 'PATCH /x' });
    expect(inWait.cause).toBe(waitReason);
    // The wait ends but the signal fired meanwhile: stopped before the next attempt.
    const late = new AbortController();
    const l = script(jsonAnswer(503, {}));
    const stop = await send(
      setup(l.fetch, 'off', async () => {
        late.abort(new Error('late'));
      }).config,
      plan('POST'),
      out({ signal: late.signal, idempotencyKey: 'k5' }),
    ).catch((e) => e);
    expect(l.calls).toHaveLength(1);
    expect(stop).toMatchObject({ name: 'APIUserAbortError', outcomeUnknown: true, idempotencyKey: 'k5' });
  });

  it('leaves nothing behind: the timer cleared and the listener on the caller’s signal removed, answer or failure', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const caller = new AbortController();
    const ok = await send(setup(script(jsonAnswer(200, {})).fetch).config, plan('GET'), out({ signal: caller.signal }));
    expect(ok.attempts).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    const failed = await send(setup(script(coded('fetch failed', 'ECONNRESET')).fetch).config, plan('POST'), out({ signal: caller.signal, safe: false })).catch(
      (e) => e,
    );
    expect(failed).toBeInstanceOf(APIConnectionError);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});

describe('send: its log lines', () => {
  it('debug: the request (headers redacted) and the answer (scrubbed, masked), then the info line of the status', async () => {
    const { fetch } = script(jsonAnswer(201, { id: 'T:1', email: 'ada@example.com', echo: SECRET }, { 'x-request-id': `req-${SECRET}`, 'x-echo': SECRET }));
    const { config, lines } = setup(fetch, 'debug');
    const clock = [1000.4, 1042.6];
    vi.spyOn(performance, 'now').mockImplementation(() => clock.shift() ?? 5000);
    await send(config, plan('POST', '/things/{id}'), out({ body: '{"email":"ada@example.com","amount":5}' }));
    expect(lines.map(([level, message]) => [level, message])).toEqual([
      ['debug', '→ POST /things/{id}'],
      ['info', 'POST /things/{id} 201 42ms'],
      ['debug', '← 201 POST /things/{id}'],
    ]);
    expect(lines[0]![2]).toEqual({
      attempt: 1,
      headers: { authorization: '[redacted]', 'content-type': 'application/json' },
      body: { email: '[redacted]', amount: 5 },
    });
    expect(lines[1]![2]).toEqual({ method: 'POST', path: '/things/{id}', status: 201, ms: 42, requestId: 'req-[redacted]', attempt: 1 });
    expect(lines[2]![2]).toEqual({
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-[redacted]', 'x-echo': '[redacted]' },
      body: { id: 'T:1', email: '[redacted]', echo: '[redacted]' },
    });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('info: the answer line of each attempt and the retry line with its delay; nothing at debug level', async () => {
    const { fetch } = script(jsonAnswer(503, {}), coded('fetch failed', 'ECONNRESET', 'reset'), jsonAnswer(200, {}));
    const { config, lines } = setup(fetch, 'info');
    await send(config, plan('GET'), out({ maxRetries: 2 }));
    expect(lines.map(([level, message]) => [level, message.replace(/ \d+ms$/, ' Nms')])).toEqual([
      ['info', 'GET /x 503 Nms'],
      ['info', 'GET /x: status 503; retrying in 500 ms'],
      ['info', 'GET /x: GET /x failed: fetch failed (ECONNRESET: reset); retrying in 1000 ms'],
      ['info', 'GET /x 200 Nms'],
    ]);
    expect(lines[3]![2]).toMatchObject({ attempt: 3, status: 200, requestId: undefined });
    const quiet = setup(script(jsonAnswer(503, {}), jsonAnswer(200, {})).fetch, 'off');
    await send(quiet.config, plan('GET'), out());
    expect(quiet.lines).toEqual([]);
  });
});
