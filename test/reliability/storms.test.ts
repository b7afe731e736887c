/**
 * Storms: bursts of 5xx and 429 between the SDK and the sandbox. Attempts are counted at the proxy
 * (never more than `maxRetries + 1`), the waits the SDK asks for are recorded (backoff with jitter,
 * or exactly `Retry-After`), one `Retry-After: 1` gap is measured with a real sleep, the total time
 * of a storm is bounded, and an abort in the middle of one is never retried.
 *
 * Then the fault proxy itself (each fault does what it says, seen with a plain fetch), and every
 * method of the client through every fault: a value or a `CrossborderError`, attempts bounded, and
 * a write that is not safe to repeat is sent once once it may have arrived.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/client';
import { APIConnectionError, APITimeoutError, APIUserAbortError, CrossborderError, InternalServerError, RateLimitError } from '../../src/core/errors';
import { operations } from '../../src/generated/operations';
import type { ClientOptions } from '../../src/core/options';
import { MAX_RETRY_AFTER_MS } from '../../src/core/retry';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SandboxServer } from '../../src/sandbox/sandbox';
import { rejected, testCrossborder } from '../helpers/client';
import { IDS, METHODS, validInput, type Input, type Op } from './methods';
import { header, script, seeded, startFaultProxy, type Fault, type FaultProxy, type Plan, type ProxyRecord } from './proxy';
import { command, count, report, SEED } from './support';
import fc from 'fast-check';

let sandbox: Sandbox;
let server: SandboxServer;
let proxy: FaultProxy;
let customerId: string;
let usd: string;
let eur: string;
let calls = 0;
let failures = 0;

beforeAll(async () => {
  sandbox = createSandbox({ seed: SEED });
  server = await sandbox.listen();
  proxy = await startFaultProxy(server.url);
  const setup = new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', baseUrl: server.url });
  const c = await setup.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Storm Chaser', region: 'US', currencies: ['USD', 'EUR'] });
  customerId = c.id;
  const accounts = (await setup.internalAccounts.list({ customerId })).data;
  usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
  eur = accounts.find((a) => a.balance.currency.code === 'EUR')!.id;
});

afterAll(async () => {
  report({
    scenario: 'Storms: 5xx / 429 bursts, Retry-After, timeouts, aborts',
    unit: 'calls',
    cases: calls,
    failures,
    command: command('storms.test.ts'),
    notes: `${proxy?.records.filter((r) => header(r, 'authorization') === `Basic ${btoa('tok_storm:sk_storm')}`).length ?? 0} attempts seen by the proxy`,
  });
  await proxy?.close();
  await sandbox?.close();
});

/** A client through the proxy; `sleeps` records every wait it asks for (no real waiting unless `realSleep`). */
function client(options: ClientOptions & { realSleep?: boolean } = {}) {
  const { realSleep, ...rest } = options;
  return testCrossborder({ tokenId: 'tok_storm', clientSecret: 'sk_storm', baseUrl: proxy.url, ...(realSleep ? { sleep: undefined } : {}), ...rest });
}

let markers = 0;
const marker = (name: string) => `${name}-${++markers}-end`;
const attemptsOf = (m: string): ProxyRecord[] => proxy.records.filter((r) => r.url.includes(encodeURIComponent(m)) || r.body.includes(`"${m}"`));

/** Counts one logical call in the scenario total; a thrown assertion counts as a failure. */
async function scenario(run: () => Promise<void>): Promise<void> {
  calls++;
  try {
    await run();
  } catch (error) {
    failures++;
    throw error;
  }
}

const always =
  (fault: Fault): Plan =>
  () =>
    fault;
const status = (code: number, retryAfter?: string): Fault => ({ kind: 'status', status: code, retryAfter });

describe('bounded attempts', () => {
  const statuses = [500, 502, 503, 504];
  const retries = [0, 1, 2, 3, 5];
  it.each(statuses.flatMap((s) => retries.map((r) => [s, r] as const)))(
    'GET during a %i burst with maxRetries %i: maxRetries + 1 attempts, jittered backoff',
    async (code, maxRetries) => {
      await scenario(async () => {
        proxy.setPlan(always(status(code)));
        const { cb, sleeps } = client({ maxRetries });
        const m = marker('get');
        const err = await rejected(cb.customers.list({ platformCustomerId: m }));
        expect(err).toBeInstanceOf(InternalServerError);
        expect(err.status).toBe(code);
        expect(attemptsOf(m)).toHaveLength(maxRetries + 1);
        expect(sleeps).toHaveLength(maxRetries);
        sleeps.forEach((ms, retry) => {
          const base = Math.min(8_000, 500 * 2 ** retry);
          expect(ms).toBeGreaterThanOrEqual(base * 0.75);
          expect(ms).toBeLessThanOrEqual(base);
        });
      });
    },
  );

  it.each([500, 502, 504, 503])('a non-idempotent create during a %i burst without Retry-After is sent once', async (code) => {
    await scenario(async () => {
      proxy.setPlan(always(status(code)));
      const { cb, sleeps } = client({ maxRetries: 5 });
      const m = marker('create');
      const err = await rejected(cb.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: m, region: 'US' }));
      expect(err).toBeInstanceOf(InternalServerError);
      expect(attemptsOf(m)).toHaveLength(1);
      expect(sleeps).toEqual([]);
    });
  });

  it.each([
    [503, '0'],
    [503, '2'],
    [429, '0'],
    [429, '3'],
  ] as const)(
    'a non-idempotent create during a %i burst with Retry-After: %s is sent once (a gateway may answer after the service acted)',
    async (code, after) => {
      await scenario(async () => {
        proxy.setPlan(always(status(code, after)));
        const { cb, sleeps } = client({ maxRetries: 3 });
        const m = marker('create-ra');
        const err = await rejected(cb.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: m, region: 'US' }));
        expect(err).toBeInstanceOf(code === 429 ? RateLimitError : InternalServerError);
        expect(attemptsOf(m)).toHaveLength(1);
        expect(sleeps).toEqual([]);
        expect(err.retryAfter).toBe(Number(after) * 1000);
        expect(err.outcomeUnknown).toBe(code === 503);
        expect(sandbox.state.snapshot().customers.filter((c) => c.platformCustomerId === m)).toEqual([]);
      });
    },
  );

  it('an idempotent quote through a mixed storm (500, 502, 503, 429 + Retry-After, 504, then through): one quote, one key', async () => {
    await scenario(async () => {
      proxy.setPlan(script([status(500), status(502), status(503), status(429, '1'), status(504)]));
      const { cb, sleeps } = client({ maxRetries: 5 });
      const description = marker('storm-quote');
      const { data, idempotencyKey } = await cb.quotes
        .create({
          source: { sourceType: 'ACCOUNT', accountId: usd },
          destination: { destinationType: 'ACCOUNT', accountId: eur },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 5_000,
          description,
        })
        .withResponse();
      const seen = attemptsOf(description);
      expect(seen).toHaveLength(6);
      expect(new Set(seen.map((r) => r.headers['idempotency-key']))).toEqual(new Set([idempotencyKey]));
      expect(sleeps[3]).toBe(1000); // Retry-After wins over backoff
      expect(
        sandbox.state
          .snapshot()
          .transactions.filter((t) => t.description === description)
          .map((t) => t.id),
      ).toEqual([data.transactionId]);
    });
  });

  it(`a concurrent burst: ${count(100, 1000)} GETs while the first requests all get 503/429: no call exceeds maxRetries + 1 attempts`, async () => {
    const n = count(100, 1000);
    const stormFor = n * 1.5;
    let seen = 0;
    const storm = seeded(SEED, [
      [0.5, { kind: 'status', status: 503 }],
      [0.3, { kind: 'status', status: 429, retryAfter: '0' }],
      [0.2, { kind: 'status', status: 502 }],
    ]);
    proxy.setPlan((req) => (seen++ < stormFor ? storm(req) : { kind: 'pass' }));
    const { cb } = client({ maxRetries: 3 });
    const ms = Array.from({ length: n }, () => marker('burst'));
    const results = await Promise.allSettled(ms.map((m) => cb.customers.list({ platformCustomerId: m })));
    calls += n;
    const over = ms.filter((m) => attemptsOf(m).length > 4);
    const untyped = results.filter((r) => r.status === 'rejected' && !(r.reason instanceof InternalServerError || r.reason instanceof RateLimitError));
    failures += over.length + untyped.length;
    expect(over).toEqual([]);
    expect(untyped).toEqual([]);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    expect(proxy.records.filter((r) => ms.some((m) => r.url.includes(m))).length).toBeLessThanOrEqual(4 * n);
  });
});

describe('Retry-After respected', () => {
  it('Retry-After: 1 on a 429 — the measured gap between attempts is at least 1000 ms (real sleep)', async () => {
    await scenario(async () => {
      proxy.setPlan(script([status(429, '1')]));
      const { cb } = client({ maxRetries: 2, realSleep: true });
      const m = marker('measured');
      const started = performance.now();
      await cb.customers.list({ platformCustomerId: m });
      const elapsed = performance.now() - started;
      const seen = attemptsOf(m);
      expect(seen).toHaveLength(2);
      const gap = seen[1]!.receivedAt - seen[0]!.finishedAt!;
      expect(gap).toBeGreaterThanOrEqual(1000);
      expect(elapsed).toBeLessThan(1000 + 2000); // and not much more than asked (slack for a loaded machine)
    });
  });

  it('Retry-After as an HTTP date on a 503: the wait asked for is the time until that date', async () => {
    await scenario(async () => {
      const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3000);
      proxy.setPlan(script([status(503, at.toUTCString())]));
      const { cb, sleeps } = client({ maxRetries: 1 });
      const before = Date.now();
      await cb.customers.list({ platformCustomerId: marker('date') });
      expect(sleeps).toHaveLength(1);
      expect(sleeps[0]).toBeGreaterThan(at.getTime() - before - 1000);
      expect(sleeps[0]).toBeLessThanOrEqual(at.getTime() - before);
    });
  });

  it('an HTTP date in the past means retry now; a Retry-After beyond the cap is not waited for', async () => {
    await scenario(async () => {
      proxy.setPlan(script([status(429, new Date(Date.now() - 60_000).toUTCString())]));
      const { cb, sleeps } = client({ maxRetries: 1 });
      await cb.customers.list({ platformCustomerId: marker('past') });
      expect(sleeps).toEqual([0]);
    });
    await scenario(async () => {
      proxy.setPlan(always(status(429, String(MAX_RETRY_AFTER_MS / 1000 + 60))));
      const { cb, sleeps } = client({ maxRetries: 3 });
      const m = marker('cap');
      const err = await rejected(cb.customers.list({ platformCustomerId: m }));
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err.retryAfter).toBe(MAX_RETRY_AFTER_MS + 60_000);
      expect(sleeps).toEqual([]);
      expect(attemptsOf(m)).toHaveLength(1);
    });
  });
});

describe('total time bounded', () => {
  it('a GET through a 500 storm with the real backoff (maxRetries 1) waits 375–500 ms, no more', async () => {
    await scenario(async () => {
      proxy.setPlan(always(status(500)));
      const { cb } = client({ maxRetries: 1, realSleep: true });
      const m = marker('timed');
      const started = performance.now();
      await expect(cb.customers.list({ platformCustomerId: m })).rejects.toBeInstanceOf(InternalServerError);
      const elapsed = performance.now() - started;
      const seen = attemptsOf(m);
      expect(seen).toHaveLength(2);
      expect(seen[1]!.receivedAt - seen[0]!.finishedAt!).toBeGreaterThanOrEqual(375);
      expect(elapsed).toBeLessThan(500 + 1500); // the wait at most, plus slack for a loaded machine
    });
  });

  it('answers delayed past the timeout: a GET is tried maxRetries + 1 times, each cut at the timeout', async () => {
    await scenario(async () => {
      proxy.setPlan(always({ kind: 'delay', ms: 1_500 }));
      const { cb } = client({ maxRetries: 2, timeout: 150 });
      const m = marker('slow-get');
      const started = performance.now();
      const err = await rejected(cb.customers.list({ platformCustomerId: m }));
      const elapsed = performance.now() - started;
      expect(err).toBeInstanceOf(APITimeoutError);
      expect(err.outcomeUnknown).toBe(false);
      expect(attemptsOf(m)).toHaveLength(3);
      expect(elapsed).toBeGreaterThanOrEqual(3 * 150 - 10);
      expect(elapsed).toBeLessThan(3 * 150 + 1500); // far below the 3 × 1.5 s the answers were held
    });
  });

  it('a non-idempotent create delayed past the timeout is sent once and says the outcome is unknown', async () => {
    await scenario(async () => {
      proxy.setPlan(always({ kind: 'delay', ms: 1_500 }));
      const { cb } = client({ maxRetries: 3, timeout: 150 });
      const m = marker('slow-create');
      const err = await rejected(cb.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: m, region: 'US' }));
      expect(err).toBeInstanceOf(APITimeoutError);
      expect(err.outcomeUnknown).toBe(true);
      expect(attemptsOf(m)).toHaveLength(1);
    });
  });
});

describe('aborts are never retried', () => {
  const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('abort while waiting out the backoff of a 500 storm: one attempt, APIUserAbortError, nothing after', async () => {
    await scenario(async () => {
      proxy.setPlan(always(status(500)));
      const { cb } = client({ maxRetries: 5, realSleep: true });
      const m = marker('abort-sleep');
      const controller = new AbortController();
      const call = rejected(cb.customers.list({ platformCustomerId: m }, { signal: controller.signal }));
      while (attemptsOf(m).length === 0) await later(5);
      await later(50);
      controller.abort();
      const err = await call;
      expect(err).toBeInstanceOf(APIUserAbortError);
      await later(600); // past the longest first backoff (500 ms): a retry would have come by now
      expect(attemptsOf(m)).toHaveLength(1);
    });
  });

  it('abort while waiting out a Retry-After of a 429 storm on a quote: APIUserAbortError carrying the key', async () => {
    await scenario(async () => {
      proxy.setPlan(always(status(429, '30')));
      // A wait that only ends by abort: if the SDK went on after the abort, the retry would come at once.
      const waited: number[] = [];
      const { cb } = client({
        maxRetries: 3,
        sleep: (ms, signal) =>
          new Promise<void>((_resolve, reject) => {
            waited.push(ms);
            signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          }),
      });
      const description = marker('abort-quote');
      const controller = new AbortController();
      const call = rejected(
        cb.quotes.create(
          {
            source: { sourceType: 'ACCOUNT', accountId: usd },
            destination: { destinationType: 'ACCOUNT', accountId: eur },
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: 5_000,
            description,
          },
          { signal: controller.signal },
        ),
      );
      while (attemptsOf(description).length === 0) await later(5);
      await later(50);
      controller.abort();
      const err = await call;
      expect(err).toBeInstanceOf(APIUserAbortError);
      expect(err.idempotencyKey).toBe(attemptsOf(description)[0]!.headers['idempotency-key']);
      expect(waited).toEqual([30_000]);
      await later(100); // the wait was cut by the abort: a retry would have come at once

      expect(attemptsOf(description)).toHaveLength(1);
    });
  });

  it('abort while a create is in flight: APIUserAbortError saying the outcome is unknown, never resent', async () => {
    await scenario(async () => {
      proxy.setPlan(always({ kind: 'delay', ms: 1_000 }));
      const { cb } = client({ maxRetries: 3 });
      const m = marker('abort-flight');
      const controller = new AbortController();
      const call = rejected(cb.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: m, region: 'US' }, { signal: controller.signal }));
      while (attemptsOf(m).length === 0) await later(5);
      controller.abort();
      const err = await call;
      expect(err).toBeInstanceOf(APIUserAbortError);
      expect(err).not.toBeInstanceOf(APIConnectionError);
      expect(err.outcomeUnknown).toBe(true);
      await later(100); // the sleep is instant here: a retry would have come at once
      expect(attemptsOf(m)).toHaveLength(1);
    });
  });

  it('abort from inside the retry wait (injected sleep) and a signal aborted before the call: no further request', async () => {
    await scenario(async () => {
      proxy.setPlan(always(status(503)));
      const controller = new AbortController();
      const m = marker('abort-injected');
      const cb = new Crossborder({
        tokenId: 'tok',
        clientSecret: 'sk',
        environment: 'sandbox',
        baseUrl: proxy.url,
        maxRetries: 5,
        sleep: async (_ms, signal) => {
          controller.abort(new Error('caller gave up'));
          if (signal?.aborted) throw signal.reason;
        },
      });
      const err = await rejected(cb.customers.list({ platformCustomerId: m }, { signal: controller.signal }));
      expect(err).toBeInstanceOf(APIUserAbortError);
      expect(attemptsOf(m)).toHaveLength(1);
      const m2 = marker('pre-aborted');
      const err2 = await rejected(cb.customers.list({ platformCustomerId: m2 }, { signal: AbortSignal.abort() }));
      expect(err2).toBeInstanceOf(APIUserAbortError);
      expect(err2.outcomeUnknown).toBe(false);
      await later(100);
      expect(attemptsOf(m2)).toHaveLength(0);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The fault proxy, and every method through every fault.

const AUTH = `Basic ${btoa('tok:sk')}`;

const createCustomer = (platformCustomerId: string) =>
  fetch(`${proxy.url}/2025-10-13/customers`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId, region: 'US' }),
  });
const held = (platformCustomerId: string) => sandbox.state.snapshot().customers.filter((c) => c.platformCustomerId === platformCustomerId).length;

describe('the fault proxy', () => {
  it('pass relays the upstream answer; reset-after loses it after the sandbox acted; reset-before never forwards', async () => {
    proxy.setPlan(script([{ kind: 'pass' }, { kind: 'reset-after' }, { kind: 'reset-before' }]));
    const ok = await createCustomer('p-pass');
    expect(ok.status).toBe(200);
    expect((await ok.json()).platformCustomerId).toBe('p-pass');
    await expect(createCustomer('p-lost')).rejects.toThrow();
    await proxy.idle();
    expect(held('p-lost')).toBe(1);
    await expect(createCustomer('p-never')).rejects.toThrow();
    expect(held('p-never')).toBe(0);
    const [pass, lost, never] = proxy.records.slice(-3);
    expect([pass!.outcome, lost!.outcome, never!.outcome]).toEqual(['answered', 'reset', 'reset']);
    expect([pass!.upstream.length, lost!.upstream.length, never!.upstream.length]).toEqual([1, 1, 0]);
  });

  it('delay holds the answer; status answers without forwarding, with Retry-After in seconds or as a date', async () => {
    const date = new Date(Date.now() + 5_000).toUTCString();
    proxy.setPlan(
      script([
        { kind: 'delay', ms: 300 },
        { kind: 'status', status: 429, retryAfter: '1' },
        { kind: 'status', status: 503, retryAfter: date },
        { kind: 'status', status: 502 },
      ]),
    );
    const started = performance.now();
    expect((await createCustomer('p-slow')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const limited = await createCustomer('p-429');
    expect([limited.status, limited.headers.get('retry-after'), (await limited.json()).code]).toEqual([429, '1', 'RATE_LIMITED']);
    const busy = await createCustomer('p-503');
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([503, date]);
    const gateway = await createCustomer('p-502');
    expect([gateway.status, gateway.headers.get('retry-after')]).toEqual([502, null]);
    expect(held('p-429') + held('p-503') + held('p-502')).toBe(0);
  });

  it('truncate sends the full content-length and part of the body; html answers a page; duplicate delivers twice', async () => {
    proxy.setPlan(script([{ kind: 'truncate', keep: 10 }, { kind: 'html', status: 200 }, { kind: 'html', status: 502, forward: true }, { kind: 'duplicate' }]));
    const cut = await createCustomer('p-cut');
    expect(cut.status).toBe(200);
    expect(Number(cut.headers.get('content-length'))).toBeGreaterThan(10);
    await expect(cut.text()).rejects.toThrow();
    expect(held('p-cut')).toBe(1);
    const portal = await createCustomer('p-html');
    expect([portal.status, portal.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await portal.text()).toMatch(/^<!DOCTYPE html>/);
    expect(held('p-html')).toBe(0);
    expect((await createCustomer('p-html-fwd')).status).toBe(502);
    expect(held('p-html-fwd')).toBe(1);
    const twice = await createCustomer('p-dup');
    expect(twice.status).toBe(200);
    expect(held('p-dup')).toBe(2); // a non-idempotent create delivered twice by the network acts twice: only keys protect money
    expect(proxy.records.at(-1)!.upstream).toHaveLength(2);
  });

  it('close() ends open connections and pending delays', async () => {
    const p2 = await startFaultProxy(server.url, () => ({ kind: 'delay', ms: 60_000 }));
    const pending = fetch(`${p2.url}/2025-10-13/config`, { headers: { authorization: AUTH } }).then(
      () => 'answered',
      () => 'cut',
    );
    while (p2.records.length === 0 || p2.records[0]!.upstream.length === 0) await new Promise((r) => setTimeout(r, 5));
    const started = performance.now();
    await p2.close();
    expect(await pending).toBe('cut');
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

const FAULTS: Fault[] = [
  { kind: 'pass' },
  { kind: 'reset-after' },
  { kind: 'reset-before' },
  { kind: 'delay', ms: 2_000 },
  { kind: 'status', status: 500 },
  { kind: 'status', status: 503, retryAfter: '0' },
  { kind: 'status', status: 429, retryAfter: new Date(Date.now() - 1000).toUTCString() },
  { kind: 'truncate' },
  { kind: 'html', status: 200, forward: true },
  { kind: 'html', status: 502 },
  { kind: 'duplicate' },
];
/** Faults after which the request may have been acted on, and no answer says otherwise. */
const MAY_HAVE_ARRIVED = new Set(['reset-after', 'reset-before', 'delay', 'truncate']);

/** One valid input per operation, drawn with the seed. */
const FIXED = Object.fromEntries(IDS.map((id) => [id, fc.sample(validInput(id), { numRuns: 1, seed: SEED + 7 })[0]!])) as Record<(typeof IDS)[number], Input>;

describe('every method through every proxy fault', () => {
  it(`${IDS.length} methods × ${FAULTS.length} faults: a value or a CrossborderError, attempts bounded, unsafe writes sent once`, async () => {
    const problems: string[] = [];
    let calls = 0;
    const maxRetries = 1;
    // Every method under every fault at once: the X-Case header picks the fault and tells the requests apart.
    proxy.setPlan((req) => FAULTS[Number(header(req, 'x-case')!.split(':')[0])]!);
    const all = await Promise.all(
      FAULTS.map(async (fault, f) => {
        // Only the delay fault is meant to time out; elsewhere the timeout is generous so a loaded machine cannot fake one.
        const timeout = fault.kind === 'delay' ? 300 : 10_000;
        const results = await Promise.all(
          IDS.map(async (id) => {
            const cb = new Crossborder({
              tokenId: 'tok',
              clientSecret: 'sk',
              environment: 'sandbox',
              baseUrl: proxy.url,
              maxRetries,
              timeout,
              sleep: async () => {},
            });
            const input: Input = { ...FIXED[id], options: { ...FIXED[id].options, headers: { 'X-Case': `${f}:${id}` } } };
            try {
              await METHODS[id](cb, input);
              return { id, input, error: undefined as unknown };
            } catch (error) {
              return { id, input, error };
            }
          }),
        );
        return { f, fault, results };
      }),
    );
    for (const { f, fault, results } of all) {
      for (const { id, input, error } of results) {
        const op = operations[id];
        calls++;
        if (error !== undefined && !(error instanceof CrossborderError)) problems.push(`${id} / ${fault.kind}: ${String(error)}`);
        const attempts = proxy.records.filter((r) => header(r, 'x-case') === `${f}:${id}`);
        const legs = op.signed && !input.options.signature ? 2 : 1;
        if (attempts.length === 0 && !(error instanceof APITimeoutError)) problems.push(`${id} / ${fault.kind}: nothing was sent (${String(error)})`);
        if (attempts.length > (maxRetries + 1) * legs) problems.push(`${id} / ${fault.kind}: ${attempts.length} attempts`);
        const safe = op.method === 'GET' || op.idempotent;
        if (!safe && (MAY_HAVE_ARRIVED.has(fault.kind) || (fault.kind === 'html' && fault.forward))) {
          if (attempts.length > 1) problems.push(`${id} / ${fault.kind}: an unsafe write was sent ${attempts.length} times`);
          if (!(error instanceof APIConnectionError) || !error.outcomeUnknown)
            problems.push(`${id} / ${fault.kind}: ${String(error)} does not say the outcome is unknown`);
        }
        // A timeout before anything went out (a first call also loads its checks) has no key on the wire to carry.
        if (op.idempotent && error && attempts.length > 0) {
          const keys = new Set(attempts.map((r) => header(r, 'idempotency-key')));
          if (keys.size !== 1 || (error as { idempotencyKey?: string }).idempotencyKey !== [...keys][0])
            problems.push(`${id} / ${fault.kind}: key not carried`);
        }
      }
    }
    report({
      scenario: 'Every method × every proxy fault → value or CrossborderError; unsafe writes sent once',
      unit: 'calls',
      cases: calls,
      failures: problems.length,
      command: command('storms.test.ts', 'every proxy fault'),
      notes: `${proxy.records.filter((r) => header(r, 'x-case') !== undefined).length} requests through the proxy`,
    });
    expect(problems).toEqual([]);
  }, 120_000);
});
