/**
 * A call's options as readCallOptions reads them (call-options.ts): every refusal with its field, rule
 * and message as the user reads them in the ValidationError, and what a valid option changes. Then the
 * signed-retry bookkeeping (signed-retry.ts) at its bounds: expiry at the exact millisecond, the
 * 1,000-entry memories, a signer's answer. Written against the survivors of the mutation run (issue 22).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isEmpty, readCallOptions, userIdempotencyKey, withoutKey, type CallOptions } from '../../src/core/call-options';
import { inspect } from 'node:util';
import { ConfigurationError, SignatureChallengeError, type ValidationIssue } from '../../src/core/errors';
import { SignedRetry } from '../../src/core/signed-retry';
import { closestName, editDistance } from '../../src/core/suggest';
import { APIPromise } from '../../src/core/api-promise';
import { Crossborder, CrossborderCore, type ClientOptions } from '../../src/index';
import { generateWebhookKeyPair, signWebhook } from '../../src/webhooks/index';
import { op, rejected, testClient } from '../helpers/client';

const DEFAULTS = { maxRetries: 2, timeout: 60_000 };
const read = (options: CallOptions, honoursKey = true, write = true) => {
  const issues: ValidationIssue[] = [];
  const settings = readCallOptions(options, 'POST /quotes', honoursKey, write, DEFAULTS, issues);
  return { settings, issues };
};

afterEach(() => {
  vi.useRealTimers();
});

describe('readCallOptions', () => {
  it('valid options: the key, retries, timeout and headers they set; defaults otherwise', () => {
    expect(read({}).settings).toEqual({ userKey: undefined, maxRetries: 2, timeout: 60_000, headers: undefined });
    expect(read({ idempotencyKey: 'k', maxRetries: 0, timeout: 5, headers: { 'X-A': '1' } })).toEqual({
      settings: { userKey: 'k', maxRetries: 0, timeout: 5, headers: { 'X-A': '1' } },
      issues: [],
    });
    expect(read({ headers: { 'Idempotency-Key': 'h', 'X-A': '1' } }).settings).toEqual({
      userKey: 'h',
      maxRetries: 2,
      timeout: 60_000,
      headers: { 'X-A': '1' },
    });
    expect(read({ idempotencyKey: 'k'.repeat(255) }).issues).toEqual([]);
    expect(read({ signature: 's', requestId: 'r' }).issues).toEqual([]);
    expect(read({ signer: async () => 's' }).issues).toEqual([]);
  });

  it('each refusal names its field, rule and message', () => {
    expect(read({ idempotencyKey: 'k' }, false).issues).toEqual([
      { path: 'options.idempotencyKey', rule: 'unsupported', message: 'POST /quotes does not honour Idempotency-Key' },
    ]);
    for (const bad of ['', 'k'.repeat(256), 5]) {
      expect(read({ idempotencyKey: bad as string }).issues, String(bad)).toEqual([
        { path: 'options.idempotencyKey', rule: 'invalid_format', message: 'must be a non-empty string of at most 255 characters' },
      ]);
    }
    expect(read({ signature: 's' }).issues).toEqual([
      { path: 'options.requestId', rule: 'required', message: 'signature and requestId go together (the second leg of a signed call)' },
    ]);
    expect(read({ requestId: 'r' }).issues).toEqual([
      { path: 'options.signature', rule: 'required', message: 'signature and requestId go together (the second leg of a signed call)' },
    ]);
    const readIssue = { path: 'options.signer', rule: 'unsupported', message: 'POST /quotes is a read: reads are never signed' };
    expect(read({ signer: async () => 's' }, true, false).issues).toEqual([readIssue]);
    expect(read({ signature: 's', requestId: 'r' }, true, false).issues).toEqual([readIssue]);
    expect(read({ signer: 'x' as never }).issues).toEqual([
      { path: 'options.signer', rule: 'invalid_type', message: 'expected a function (challenge) => Promise<string>' },
    ]);
    expect(read({ maxRetries: -1 }).issues).toEqual([{ path: 'options.maxRetries', rule: 'invalid_value', message: 'must be a whole number ≥ 0, got -1' }]);
    expect(read({ timeout: 0 }).issues).toEqual([
      { path: 'options.timeout', rule: 'invalid_value', message: 'must be a positive number of milliseconds up to 2147483647 (about 24.8 days), got 0' },
    ]);
  });

  it('Idempotency-Key among the headers: one key, never smuggled, never given twice differently', () => {
    const key = (options: CallOptions, honours = true) => {
      const issues: ValidationIssue[] = [];
      return { key: userIdempotencyKey(options, 'POST /x', honours, issues), issues };
    };
    expect(key({ headers: { 'X-A': '1' }, idempotencyKey: 'o' })).toEqual({ key: 'o', issues: [] });
    expect(key({ headers: { 'idempotency-key': 'h', 'IDEMPOTENCY-KEY': 'h' } })).toEqual({ key: 'h', issues: [] });
    expect(key({ headers: { 'idempotency-key': 'h', 'Idempotency-Key': 'g' } })).toEqual({
      key: 'h',
      issues: [
        { path: 'options.headers.Idempotency-Key', rule: 'conflict', message: 'Idempotency-Key is given twice with different values: give the key once' },
      ],
    });
    expect(key({ headers: { 'Idempotency-Key': 'h' } }, false)).toEqual({
      key: 'h',
      issues: [
        { path: 'options.headers.Idempotency-Key', rule: 'unsupported', message: 'POST /x does not honour Idempotency-Key (the service would ignore it)' },
      ],
    });
    expect(key({ headers: { 'Idempotency-Key': 'h' }, idempotencyKey: 'o' })).toEqual({
      key: 'o',
      issues: [{ path: 'options.headers.Idempotency-Key', rule: 'conflict', message: 'differs from options.idempotencyKey: give the key once' }],
    });
    expect(key({ headers: { 'Idempotency-Key': 'same' }, idempotencyKey: 'same' })).toEqual({ key: 'same', issues: [] });
  });

  it('withoutKey drops only the key, whatever its case; isEmpty sees any own key', () => {
    const headers = { 'X-A': '1' };
    expect(withoutKey(headers)).toBe(headers);
    expect(withoutKey({ 'X-A': '1', 'IDEMPOTENCY-key': 'k', b: '2' })).toEqual({ 'X-A': '1', b: '2' });
    expect(withoutKey(null)).toBeUndefined();
    expect(withoutKey(undefined)).toBeUndefined();
    expect([isEmpty({}), isEmpty({ a: undefined }), isEmpty(Object.create({ inherited: 1 }) as object)]).toEqual([true, false, false]);
  });

  it('through a client: maxRetries and timeout of the call replace the client defaults', async () => {
    let n = 0;
    const busy = async () => (n++, Response.json({ code: 'X' }, { status: 503 }));
    const { client, sleeps } = testClient({ fetch: busy, maxRetries: 2 });
    await rejected(client.call(op({ method: 'GET', path: '/x' }), {}, { maxRetries: 1 }));
    expect(n).toBe(2);
    expect(sleeps).toHaveLength(1);
    const slow = async (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const err = await rejected(testClient({ fetch: slow, timeout: 60_000 }).client.call(op({ method: 'GET', path: '/x' }), {}, { timeout: 15, maxRetries: 0 }));
    expect(err.message).toBe('GET /x timed out after 15 ms');
  });
});

describe('SignedRetry', () => {
  const T = Date.parse('2030-01-01T00:00:00.000Z');
  const at = (ms: number) => new Date(ms).toISOString();

  it('a challenge is expired at its exact expiresAt, valid a millisecond before; an unreadable one is expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T });
    const signed = new SignedRetry();
    const signer = async () => 'sig';
    await expect(signed.sign(signer, { requestId: 'a', expiresAt: at(T + 1), payloadToSign: 'p' }, 'POST /x')).resolves.toBe('sig');
    await expect(signed.sign(signer, { requestId: 'b', expiresAt: at(T), payloadToSign: 'p' }, 'POST /x')).rejects.toThrow(
      `The challenge b for POST /x expired at ${at(T)}; start again from the unsigned call`,
    );
    await expect(signed.sign(signer, { requestId: 'c', expiresAt: 'soon', payloadToSign: 'p' }, 'POST /x')).rejects.toThrow(SignatureChallengeError);
    // Remembered (relay mode): its second leg is refused once expired, accepted before.
    signed.remember({ requestId: 'd', expiresAt: at(T), payloadToSign: 'p' });
    signed.remember({ requestId: 'e', expiresAt: at(T + 1), payloadToSign: 'p' });
    expect(() => signed.claim('d', 'POST /x')).toThrow(/^The challenge d for POST \/x expired at /);
    expect(() => signed.claim('e', 'POST /x')).not.toThrow();
    expect(() => signed.claim('e', 'POST /x')).toThrow('requestId e was already used (it is single use); start again from the unsigned call to POST /x');
    expect([signed.expiry('e'), signed.expiry('unknown')]).toEqual([T + 1, undefined]);
  });

  it("a signer's answer: refused when empty or not a string, or not sendable as a header (beyond Latin-1, a control character)", async () => {
    const challenge = { requestId: 'r', expiresAt: at(Date.now() + 60_000), payloadToSign: 'p' };
    for (const [answer, message] of [
      ['', 'The signer returned no signature for POST /x'],
      [null, 'The signer returned no signature for POST /x'],
      ['sig€', 'The signer returned a signature that cannot be sent as a header for POST /x'],
      ['sig\x7f', 'The signer returned a signature that cannot be sent as a header for POST /x'],
      ['\x00sig', 'The signer returned a signature that cannot be sent as a header for POST /x'],
    ] as const) {
      await expect(
        new SignedRetry().sign(async () => answer as string, challenge, 'POST /x'),
        String(answer),
      ).rejects.toThrow(message);
    }
    await expect(new SignedRetry().sign(async () => ' ~\xa0ÿ', challenge, 'POST /x')).resolves.toBe(' ~\xa0ÿ');
  });

  it('remembers the last 1,000 challenges and requestIds: the 1,001st pushes out the oldest', () => {
    const signed = new SignedRetry();
    const far = at(Date.now() + 60_000);
    for (let i = 0; i < 1_000; i++) signed.remember({ requestId: `c${i}`, expiresAt: far, payloadToSign: 'p' });
    expect(signed.expiry('c0')).toBe(Date.parse(far));
    signed.remember({ requestId: 'c1000', expiresAt: far, payloadToSign: 'p' });
    expect([signed.expiry('c0'), signed.expiry('c1')]).toEqual([undefined, Date.parse(far)]);

    for (let i = 0; i < 1_000; i++) signed.claim(`u${i}`, 'POST /x');
    expect(() => signed.claim('u0', 'POST /x')).toThrow(/already used/);
    signed.claim('u1000', 'POST /x');
    expect(() => signed.claim('u0', 'POST /x')).not.toThrow(); // forgotten: the service refuses a reused one anyway
    expect(() => signed.claim('u2', 'POST /x')).toThrow(/already used/);
  });
});

describe("the client's own options", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('an unknown option is a ConfigurationError naming the one it may mean, on Crossborder and CrossborderCore alike', () => {
    const cases: [string, string][] = [
      ['baseURL', 'Unknown client option baseURL. Did you mean baseUrl?'], // openai-node's spelling
      ['base_url', 'Unknown client option base_url. Did you mean baseUrl?'],
      ['timout', 'Unknown client option timout. Did you mean timeout?'],
      ['maxRetry', 'Unknown client option maxRetry. Did you mean maxRetries?'],
      ['secret', 'Unknown client option secret. Did you mean clientSecret?'],
      ['TokenID', 'Unknown client option TokenID. Did you mean tokenId?'],
      ['headers', 'Unknown client option headers. Did you mean defaultHeaders?'],
    ];
    for (const [name, message] of cases) {
      // Through a variable: TypeScript's excess-property check would not catch it.
      const options = { tokenId: 't', clientSecret: 's', [name]: 'http://127.0.0.1:4010' } as ClientOptions;
      expect(() => new Crossborder(options), name).toThrow(new ConfigurationError(message));
      expect(() => new CrossborderCore(options), name).toThrow(new ConfigurationError(message));
    }
    // Nothing close: the options are listed.
    expect(() => new Crossborder({ zzz: 1 } as ClientOptions)).toThrow(
      new ConfigurationError(
        'Unknown client option zzz; the client options are tokenId, clientSecret, agentToken, baseUrl, environment, fetch, maxRetries, timeout, logger, logLevel, ' +
          'webhookPublicKey, validateResponses, onValidationIssue, dangerouslyAllowBrowser, defaultHeaders, sleep, tracerProvider, meterProvider, telemetry, hooks, unsafeRawBodies',
      ),
    );
    // Every documented option is accepted.
    expect(
      () =>
        new Crossborder({
          tokenId: 't',
          clientSecret: 's',
          baseUrl: 'http://127.0.0.1:4010',
          environment: 'sandbox',
          maxRetries: 1,
          timeout: 5,
          logLevel: 'off',
          validateResponses: false,
          dangerouslyAllowBrowser: false,
          defaultHeaders: {},
          telemetry: false,
        }),
    ).not.toThrow();
  });

  it('a misspelt telemetry option is refused the same way', () => {
    expect(() => new Crossborder({ tokenId: 't', clientSecret: 's', telemetry: { propagateContex: true } as never })).toThrow(
      new ConfigurationError('Unknown telemetry option propagateContex. Did you mean propagateContext?'),
    );
  });

  it('the suggestion: case-insensitive edit distance, bounded by the length; else a name that contains the other', () => {
    expect(editDistance('baseURL', 'baseUrl')).toBe(0);
    expect(editDistance('timout', 'timeout')).toBe(1);
    expect(editDistance('tiemout', 'timeout')).toBe(2); // a swap is two edits
    expect(closestName('tiemout', ['timeout', 'tokenId'])).toBe('timeout');
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    const known = ['baseUrl', 'timeout', 'tokenId', 'clientSecret'];
    expect(closestName('tokenid', known)).toBe('tokenId');
    expect(closestName('token', known)).toBe('tokenId');
    expect(closestName('xyz', known)).toBeUndefined();
    expect(closestName('fetcher', ['fetch', 'sleep'])).toBe('fetch');
    expect(closestName('ab', ['abc'])).toBe('abc'); // one edit
    expect(closestName('qq', ['abcdef'])).toBeUndefined();
  });

  it('credentials are asked for by the first API call: a client without them unwraps a webhook, and keeps the secret out of inspect/JSON', async () => {
    vi.stubEnv('CROSSBORDER_TOKEN_ID', '');
    vi.stubEnv('CROSSBORDER_CLIENT_SECRET', '');
    const keys = await generateWebhookKeyPair();
    let sent = 0;
    const cb = new Crossborder({ webhookPublicKey: keys.publicKeyPem, fetch: async () => (sent++, new Response('{}')) });
    const body = JSON.stringify({ id: 'Webhook:w1', type: 'TEST', timestamp: new Date().toISOString(), data: {} });
    const event = await cb.webhooks.unwrap(body, { 'x-service-signature': await signWebhook(body, keys.privateKeyPem) });
    expect([event.id, event.type]).toEqual(['Webhook:w1', 'TEST']);
    const error = await cb.customers.list().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toEqual(new ConfigurationError('Missing tokenId: pass { tokenId } or set CROSSBORDER_TOKEN_ID'));
    expect(sent).toBe(0);
    // Half the credentials: the secret given is still never shown, and still refused at the call.
    const half = new Crossborder({ clientSecret: 'sk_half_SECRET_31', fetch: async () => (sent++, new Response('{}')) });
    expect(inspect(half, { depth: 5, showHidden: true }) + JSON.stringify(half)).not.toContain('sk_half_SECRET_31');
    await expect(half.config.retrieve()).rejects.toThrow('Missing tokenId');
    expect(sent).toBe(0);
  });
});

describe("agentToken: an agent's credential in place of the platform's", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const AGENT = 'gat_0123456789abcdef';
  const REFUSAL = new ConfigurationError('Give either tokenId and clientSecret or agentToken: they must be strings, agentToken without spaces');
  /** A client's Authorization header on one call, and what inspect and JSON show of the client. */
  const sent = async (options: ClientOptions) => {
    const seen: (string | null)[] = [];
    const fetch = async (_input: RequestInfo | URL, init?: RequestInit) => (
      seen.push(new Headers(init?.headers).get('authorization')),
      Response.json({ id: 'Agent:1' })
    );
    const core = new CrossborderCore({ baseUrl: 'https://api.test.invalid', fetch, maxRetries: 0, ...options });
    await core.call(op({ method: 'GET', path: '/agents/me' }));
    expect(seen).toHaveLength(1);
    return { authorization: seen[0], shown: inspect(core, { depth: 5, showHidden: true }) + JSON.stringify(core) };
  };
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  it('beside tokenId or clientSecret (given in the options), refused naming agentToken', () => {
    for (const platform of [{ tokenId: 't' }, { clientSecret: 's' }, { tokenId: 't', clientSecret: 's' }]) {
      expect(() => new CrossborderCore({ agentToken: AGENT, ...platform }), JSON.stringify(platform)).toThrow(REFUSAL);
      expect(() => new Crossborder({ agentToken: AGENT, ...platform }), JSON.stringify(platform)).toThrow(REFUSAL);
    }
  });

  it("'', a space, a line break, a character beyond ASCII or not a string: refused naming agentToken", () => {
    for (const bad of ['', ' ', 'gat 0123', ' gat_0123', 'gat_0123 ', 'gat_0123\n', 'gat_0123\t', 'gät_0123']) {
      expect(() => new CrossborderCore({ agentToken: bad }), JSON.stringify(bad)).toThrow(REFUSAL);
    }
    for (const bad of [{}, 12345, true, ['gat_0123']]) {
      expect(() => new CrossborderCore({ agentToken: bad as unknown as string }), String(bad)).toThrow(REFUSAL);
    }
    // From the environment, the same refusal.
    vi.stubEnv('CROSSBORDER_AGENT_TOKEN', 'gat 0123');
    expect(() => new CrossborderCore({})).toThrow(REFUSAL);
  });

  it('an agent client sends Authorization: Bearer <agentToken>, needs no platform credential, and never shows the token', async () => {
    vi.stubEnv('CROSSBORDER_TOKEN_ID', '');
    vi.stubEnv('CROSSBORDER_CLIENT_SECRET', '');
    vi.stubEnv('CROSSBORDER_AGENT_TOKEN', '');
    const { authorization, shown } = await sent({ agentToken: AGENT });
    expect(authorization).toBe(`Bearer ${AGENT}`);
    expect(shown).not.toContain(AGENT);
    // Any visible ASCII is a token's: base64's + / =, and a colon (no HTTP Basic to join here).
    expect((await sent({ agentToken: 'a+b/c=:~!' })).authorization).toBe('Bearer a+b/c=:~!');
    // The platform's client, for comparison.
    expect((await sent({ tokenId: 'tok_1', clientSecret: 'sk_1' })).authorization).toBe(basic('tok_1', 'sk_1'));
  });

  it("CROSSBORDER_AGENT_TOKEN is used only when the options give no platform credential (then over the platform's variables)", async () => {
    vi.stubEnv('CROSSBORDER_AGENT_TOKEN', AGENT);
    vi.stubEnv('CROSSBORDER_TOKEN_ID', 'tok_env');
    vi.stubEnv('CROSSBORDER_CLIENT_SECRET', 'sk_env');
    expect((await sent({})).authorization).toBe(`Bearer ${AGENT}`);
    expect((await sent({ tokenId: 'tok_opt', clientSecret: 'sk_opt' })).authorization).toBe(basic('tok_opt', 'sk_opt'));
    // One platform credential in the options: the platform's client, the other half from its variable.
    expect((await sent({ tokenId: 'tok_opt' })).authorization).toBe(basic('tok_opt', 'sk_env'));
    expect((await sent({ clientSecret: 'sk_opt' })).authorization).toBe(basic('tok_env', 'sk_opt'));
    // The option itself wins over the variable.
    expect((await sent({ agentToken: 'gat_option' })).authorization).toBe('Bearer gat_option');
  });
});

describe('APIPromise', () => {
  const answer = { data: { id: 'Customer:1' }, response: new Response('{}'), idempotencyKey: undefined, requestId: 'req-1' };

  it('is a native Promise: await, then, catch and finally give the data; withResponse() the whole answer; derived promises are plain', async () => {
    const p = new APIPromise(Promise.resolve(answer));
    expect(p).toBeInstanceOf(Promise);
    expect(Object.prototype.toString.call(p)).toBe('[object APIPromise]');
    expect(await p).toEqual({ id: 'Customer:1' });
    expect(await p.then((d) => d.id)).toBe('Customer:1');
    expect(await p.withResponse()).toBe(answer);
    const derived = p.then((d) => d);
    expect(derived.constructor).toBe(Promise);
    expect(await new APIPromise(Promise.resolve(answer)).finally(() => undefined)).toEqual({ id: 'Customer:1' });
    const failure = new Error('boom');
    expect(await new APIPromise(Promise.reject(failure)).catch((e: unknown) => e)).toBe(failure);
    expect(await Promise.all([new APIPromise(Promise.resolve(answer))])).toEqual([{ id: 'Customer:1' }]);
  });

  it('a rejected call read only through withResponse() leaves no unhandled rejection behind', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failure = new Error('refused');
      const p = new APIPromise(Promise.reject(failure));
      expect(await p.withResponse().catch((e: unknown) => e)).toBe(failure);
      await new Promise((resolve) => setTimeout(resolve, 20)); // Node reports unhandled rejections after the microtasks
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
