/**
 * The per-attempt timeout on Node's own fetch rides on undici's dispatcher (headersTimeout and
 * bodyTimeout) instead of a timer and an AbortSignal per request; everything else keeps the signal.
 * Against a loopback server, with Node's real fetch behind a forwarding wrapper that records what
 * each attempt was given.
 */
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APITimeoutError, APIUserAbortError } from '../../src/core/errors';
import { AttemptDispatcher, DISPATCHER_MIN_TIMEOUT_MS, isDispatcherTimeout, timeoutDispatcher } from '../../src/core/dispatcher';
import type { ServerResponse } from 'node:http';
import { json, startLoopback } from '../helpers/loopback';
import { op, rejected, testClient } from '../helpers/client';

type Init = RequestInit & { dispatcher?: unknown };

const getList = op({ method: 'GET', path: '/things' });
const createThing = op({ method: 'POST', path: '/things' });

const nodeFetch = globalThis.fetch;
let servers: Awaited<ReturnType<typeof startLoopback>>[] = [];
const server = async (handler: Parameters<typeof startLoopback>[0]) => {
  const s = await startLoopback(handler);
  servers.push(s);
  return s;
};

/** A fresh function in front of Node's fetch, forwarding everything, recording each init. */
function forwarding() {
  const inits: Init[] = [];
  const fetch = (input: string, init: Init) => {
    inits.push(init);
    return nodeFetch(input, init);
  };
  globalThis.fetch = fetch as typeof globalThis.fetch;
  return inits;
}

beforeEach(() => {
  globalThis.fetch = nodeFetch;
});
afterEach(async () => {
  globalThis.fetch = nodeFetch;
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe('the timeout on Node’s own fetch', () => {
  it('after the first attempt shows fetch uses the dispatcher, attempts carry no AbortSignal of ours', async () => {
    const s = await server((_req, res) => json(res, 200, { ok: true }));
    const inits = forwarding();
    const { client } = testClient({ baseUrl: s.url, timeout: 60_000 });
    for (let i = 0; i < 3; i++) await expect(client.call(getList)).resolves.toEqual({ ok: true });
    expect(inits).toHaveLength(3);
    // The first attempt carries both: the signal is what enforces its timeout.
    expect(inits[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(inits[0]!.dispatcher).toBeDefined();
    for (const init of inits.slice(1)) {
      expect(init.signal).toBeUndefined();
      expect(typeof (init.dispatcher as { dispatch?: unknown }).dispatch).toBe('function');
    }
    expect(s.requests).toHaveLength(3);
  });

  it(`keeps the exact timer and signal below ${DISPATCHER_MIN_TIMEOUT_MS} ms (undici's timers tick about once a second)`, async () => {
    const s = await server((_req, res) => json(res, 200, { ok: true }));
    const inits = forwarding();
    const { client } = testClient({ baseUrl: s.url, timeout: 60_000 });
    await client.call(getList);
    await client.call(getList, {}, { timeout: DISPATCHER_MIN_TIMEOUT_MS - 1 });
    expect(inits[1]!.signal).toBeInstanceOf(AbortSignal);
    expect(inits[1]!.dispatcher).toBeUndefined();
  });

  it('a fetch that answers by itself (a test interceptor) is never handed the timeout alone', async () => {
    const inits: Init[] = [];
    const answering = async (_input: string, init: Init) => {
      inits.push(init);
      return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    globalThis.fetch = answering as typeof globalThis.fetch;
    const { client } = testClient({ baseUrl: 'http://127.0.0.1:9', timeout: 60_000 });
    for (let i = 0; i < 3; i++) await client.call(getList);
    for (const init of inits) expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it("a user's fetch keeps the signal path and is never given a dispatcher", async () => {
    const s = await server((_req, res) => json(res, 200, { ok: true }));
    const inits: Init[] = [];
    const { client } = testClient({
      baseUrl: s.url,
      timeout: 60_000,
      fetch: (input, init) => {
        inits.push(init);
        return nodeFetch(input, init);
      },
    });
    for (let i = 0; i < 3; i++) await client.call(getList);
    for (const init of inits) {
      expect(init.signal).toBeInstanceOf(AbortSignal);
      expect(init.dispatcher).toBeUndefined();
    }
  });

  it(
    'a stalled answer (no headers, or a body that stops) is an APITimeoutError near the timeout; a plain POST is sent once with an unknown outcome',
    { timeout: 40_000 },
    async () => {
      const s = await server((req, res) => {
        if (req.url.endsWith('/warm')) return json(res, 200, { ok: true });
        if (req.url.includes('body')) {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          res.write('{"data": [');
        }
        // otherwise: never answer (closed in afterEach)
      });
      forwarding();
      const timeout = DISPATCHER_MIN_TIMEOUT_MS;
      const { client } = testClient({ baseUrl: s.url, timeout, maxRetries: 2 });
      await client.call(op({ method: 'GET', path: '/warm' })); // shows fetch uses the dispatcher
      const started = performance.now();
      const [headers, body, post] = await Promise.all([
        rejected(client.call(getList, {}, { maxRetries: 0 })),
        rejected(client.call(op({ method: 'GET', path: '/body' }), {}, { maxRetries: 0 })),
        rejected(client.call(createThing, { body: { a: 1 } })),
      ]);
      const elapsed = performance.now() - started;
      for (const err of [headers, body, post]) {
        expect(err).toBeInstanceOf(APITimeoutError);
        expect(err.message).toMatch(new RegExp(`timed out after ${timeout} ms`));
      }
      expect(headers.outcomeUnknown).toBe(false);
      expect(body.outcomeUnknown).toBe(false);
      expect(post.outcomeUnknown).toBe(true);
      expect(s.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      // undici's timers are coarse: at the timeout, up to about a second later (slack for a loaded machine).
      expect(elapsed).toBeGreaterThanOrEqual(timeout - 50);
      expect(elapsed).toBeLessThan(timeout + 5_000);
    },
  );

  it('the caller’s signal still aborts, at once, stops the request at the server, and is never retried (fetch is handed no signal)', async () => {
    const closed: string[] = [];
    const s = await server((req, res) => {
      if (req.url.endsWith('/warm')) return json(res, 200, { ok: true });
      res.on('close', () => closed.push(req.url));
      return undefined;
    });
    const inits = forwarding();
    const { client } = testClient({ baseUrl: s.url, timeout: 60_000 });
    await client.call(op({ method: 'GET', path: '/warm' }));
    const controller = new AbortController();
    const started = performance.now();
    const pending = rejected(client.call(getList, {}, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const err = await pending;
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect((err as APIUserAbortError).cause).toBe(controller.signal.reason);
    expect(performance.now() - started).toBeLessThan(2_000);
    // fetch was given no signal: the attempt's own dispatcher aborted the request through undici.
    expect(inits[1]!.signal).toBeUndefined();
    expect(inits[1]!.dispatcher).toBeInstanceOf(AttemptDispatcher);
    for (let i = 0; i < 100 && closed.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatch(/\/things$/);
    expect(s.requests.filter((r) => r.url.endsWith('/things'))).toHaveLength(1);
  });

  it('the caller’s signal stops a body being read: the transfer ends at the server too', { timeout: 20_000 }, async () => {
    const closedAt: number[] = [];
    const s = await server((req, res) => (req.url.endsWith('/warm') ? json(res, 200, { ok: true }) : drip(res, 50, 200, closedAt)));
    const { client } = testClient({ baseUrl: s.url, timeout: 60_000 });
    await client.call(op({ method: 'GET', path: '/warm' }));
    const controller = new AbortController();
    const pending = rejected(client.call(getList, {}, { signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 300)); // headers in, a few bytes of the body
    const abortedAt = performance.now();
    controller.abort();
    expect(await pending).toBeInstanceOf(APIUserAbortError);
    for (let i = 0; i < 100 && closedAt.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(closedAt).toHaveLength(1);
    expect(closedAt[0]! - abortedAt).toBeLessThan(1_000); // the body would have dripped for 10 s
  });

  it('an attempt aborted before undici hands over its abort function: its fetch rejects at once, and the request stops as it connects', async () => {
    const attempt = new AttemptDispatcher(60_000);
    let resolveFetch!: (value: string) => void;
    const settled = attempt.settle(new Promise<string>((resolve) => (resolveFetch = resolve)));
    const reason = new Error('caller stopped');
    attempt.abort(reason);
    await expect(settled).rejects.toBe(reason);
    const aborts: unknown[] = [];
    attempt.connected((why) => aborts.push(why)); // undici connects later: nothing is sent
    expect(aborts).toEqual([reason]);
    resolveFetch('late answer'); // and a late answer changes nothing
    await expect(settled).rejects.toBe(reason);
    // Connected first: the abort goes to undici at once, once.
    const live = new AttemptDispatcher(60_000);
    const calls: unknown[] = [];
    live.connected((why) => calls.push(why));
    live.abort('r1');
    live.abort('r2');
    expect(calls).toEqual(['r1']);
  });

  it('a signal shared by many calls carries one listener of the SDK while any is in flight, none after (fetch would leave one per call until GC)', async () => {
    const s = await server((_req, res) => json(res, 200, { ok: true }));
    const inits = forwarding();
    const { client } = testClient({ baseUrl: s.url, timeout: 60_000 });
    await client.call(op({ method: 'GET', path: '/warm' }));
    const shared = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const calls = Array.from({ length: 50 }, () => client.call(getList, {}, { signal: shared.signal }));
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    await Promise.all(calls);
    await new Promise((r) => setTimeout(r, 10));
    process.off('warning', onWarning);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0); // the last call out took it off
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    // No attempt handed fetch a signal (each had a dispatcher of its own), and aborting the shared one aborts the calls in flight.
    expect(inits.slice(1).every((i) => i.signal === undefined)).toBe(true);
    expect(new Set(inits.slice(1).map((i) => i.dispatcher)).size).toBe(50);
    const hanging = await server(() => undefined);
    const { client: slow } = testClient({ baseUrl: hanging.url, timeout: 60_000 });
    const pending = Array.from({ length: 3 }, () => rejected(slow.call(getList, {}, { signal: shared.signal })));
    await new Promise((r) => setTimeout(r, 50));
    shared.abort(new Error('shutting down'));
    for (const err of await Promise.all(pending)) expect(err).toBeInstanceOf(APIUserAbortError);
  });
});

/**
 * A body that trickles: one byte every `everyMs` (spaces, then `{}`), so undici's bodyTimeout (time
 * between two chunks) never fires. Records when the server saw the response closed (the transfer
 * stopped, not only the caller's promise). Bounded: `bytes` writes at most.
 */
function drip(res: ServerResponse, everyMs: number, bytes: number, closed: number[]) {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes) });
  let sent = 0;
  const timer = setInterval(() => {
    sent++;
    res.write(sent === bytes - 1 ? '{' : sent === bytes ? '}' : ' ');
    if (sent >= bytes) {
      clearInterval(timer);
      res.end();
    }
  }, everyMs);
  res.on('close', () => {
    clearInterval(timer);
    closed.push(performance.now());
  });
}

describe('the timeout is a deadline for the whole attempt, body included (issue 22, defect 7)', () => {
  it('the dispatcher stops a dripping body at its timeout, and the transfer ends there too', { timeout: 20_000 }, async () => {
    const closed: number[] = [];
    const s = await server((_req, res) => drip(res, 200, 40, closed)); // 8 s of body, one byte every 200 ms
    const ms = 1_500;
    const started = performance.now();
    const err = await rejected(nodeFetch(`${s.url}/drip`, { dispatcher: timeoutDispatcher(ms) } as RequestInit).then((r) => r.text()));
    const elapsed = performance.now() - started;
    expect(isDispatcherTimeout(err)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(ms - 50);
    expect(elapsed).toBeLessThan(ms + 1_000);
    // The server saw the connection go at the deadline: nothing keeps reading after the call gave up.
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toHaveLength(1);
    expect(closed[0]! - started).toBeLessThan(ms + 1_000);
  });

  it('below the dispatcher threshold (the signal path), the same dripping body stops at the timeout', { timeout: 20_000 }, async () => {
    const closed: number[] = [];
    const s = await server((req, res) => (req.url.endsWith('/warm') ? json(res, 200, { ok: true }) : drip(res, 200, 40, closed)));
    forwarding();
    const timeout = 1_500;
    const { client } = testClient({ baseUrl: s.url, timeout, maxRetries: 0 });
    await client.call(op({ method: 'GET', path: '/warm' }));
    const started = performance.now();
    const err = await rejected(client.call(createThing, { body: { a: 1 } }));
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(err.outcomeUnknown).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(timeout - 50);
    expect(elapsed).toBeLessThan(timeout + 1_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toHaveLength(1);
  });

  it(
    `at ${DISPATCHER_MIN_TIMEOUT_MS} ms (the dispatcher path), a body dripping a byte a second fails at the timeout: APITimeoutError, a write's outcome unknown with its key`,
    { timeout: 45_000 },
    async () => {
      const closed: number[] = [];
      const s = await server((req, res) => (req.url.endsWith('/warm') ? json(res, 200, { ok: true }) : drip(res, 1_000, 30, closed)));
      const inits = forwarding();
      const timeout = DISPATCHER_MIN_TIMEOUT_MS;
      const { client } = testClient({ baseUrl: s.url, timeout, maxRetries: 0 });
      await client.call(op({ method: 'GET', path: '/warm' })); // shows fetch uses the dispatcher
      const started = performance.now();
      const [get, keyed, plain] = await Promise.all([
        rejected(client.call(getList)),
        rejected(client.call(op({ method: 'POST', path: '/keyed', idempotent: true }), { body: { a: 1 } }, { idempotencyKey: 'key-drip-1' })),
        rejected(client.call(createThing, { body: { a: 1 } })),
      ]);
      const elapsed = performance.now() - started;
      // The dripping attempts went the dispatcher way, without a signal of ours.
      for (const init of inits.slice(1)) expect(init.signal).toBeUndefined();
      for (const err of [get, keyed, plain]) {
        expect(err).toBeInstanceOf(APITimeoutError);
        expect(err.message).toMatch(new RegExp(`timed out after ${timeout} ms`));
      }
      expect(get.outcomeUnknown).toBe(false);
      expect(keyed.outcomeUnknown).toBe(true);
      expect(keyed.idempotencyKey).toBe('key-drip-1');
      expect(plain.outcomeUnknown).toBe(true);
      expect(s.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
      expect(elapsed).toBeGreaterThanOrEqual(timeout - 50);
      expect(elapsed).toBeLessThan(timeout + 1_500);
      await new Promise((r) => setTimeout(r, 100));
      expect(closed).toHaveLength(3);
      for (const t of closed) expect(t - started).toBeLessThan(timeout + 1_500);
    },
  );
});
