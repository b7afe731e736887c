import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { useMswServer } from '../helpers/msw';
import * as z from 'zod/mini';
import { CrossborderCore, normalizeBaseUrl } from '../../src/core/client';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  CrossborderError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
} from '../../src/core/errors';
import { op, rejected, SECRET, testClient } from '../helpers/client';

const BASE = 'https://api.test.invalid/2025-10-13';
const mswServer = useMswServer();
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('configuration', () => {
  it('missing credentials: the first API call fails with a clear error (nothing sent); the constructor does not ask', async () => {
    vi.stubEnv('CROSSBORDER_TOKEN_ID', '');
    vi.stubEnv('CROSSBORDER_CLIENT_SECRET', '');
    let sent = 0;
    const fetch = async () => (sent++, new Response('{}'));
    const noToken = new CrossborderCore({ clientSecret: 'x', fetch });
    const noSecret = new CrossborderCore({ tokenId: 'x', fetch });
    const get = op({ method: 'GET', path: '/things' });
    expect(await rejected(noToken.call(get))).toEqual(new ConfigurationError('Missing tokenId: pass { tokenId } or set CROSSBORDER_TOKEN_ID'));
    expect(await rejected(noSecret.call(get))).toEqual(new ConfigurationError('Missing clientSecret: pass { clientSecret } or set CROSSBORDER_CLIENT_SECRET'));
    expect(await rejected(noSecret.call(get))).toBeInstanceOf(ConfigurationError);
    expect(sent).toBe(0);
    // Given but unusable is still refused at once.
    expect(() => new CrossborderCore({ tokenId: 'a:b', clientSecret: 'x' })).toThrow(/must not contain ":"/);
    expect(() => new CrossborderCore({ tokenId: 5 as never, clientSecret: 'x' })).toThrow(/must be strings/);
  });

  it('reads defaults from the environment', () => {
    vi.stubEnv('CROSSBORDER_TOKEN_ID', 'tok_env');
    vi.stubEnv('CROSSBORDER_CLIENT_SECRET', 'sec_env');
    vi.stubEnv('CROSSBORDER_BASE_URL', 'http://127.0.0.1:4010/');
    vi.stubEnv('CROSSBORDER_WEBHOOK_PUBLIC_KEY', 'abcd');
    const c = new CrossborderCore();
    expect(c.baseUrl).toBe('http://127.0.0.1:4010/2025-10-13');
    expect(c.webhookPublicKey).toBe('abcd');
  });

  it('adds the version segment once', () => {
    expect(normalizeBaseUrl('https://x.example')).toBe('https://x.example/2025-10-13');
    expect(normalizeBaseUrl('https://x.example/')).toBe('https://x.example/2025-10-13');
    expect(normalizeBaseUrl('https://x.example/2025-10-13/')).toBe('https://x.example/2025-10-13');
    expect(normalizeBaseUrl('https://x.example/api/2025-10-13')).toBe('https://x.example/api/2025-10-13');
    expect(() => normalizeBaseUrl('ftp://nope')).toThrow(ConfigurationError);
  });

  it('refuses bad numbers', () => {
    expect(() => testClient({ maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => testClient({ timeout: 0 })).toThrow(/timeout/);
    expect(() => testClient({ environment: 'staging' as never })).toThrow(/environment/);
  });

  it('sends HTTP Basic auth from tokenId:clientSecret', async () => {
    let auth: string | null = null;
    mswServer.use(http.get(`${BASE}/x`, ({ request }) => ((auth = request.headers.get('authorization')), HttpResponse.json({}))));
    const { client } = testClient();
    await client.call(op({ method: 'GET', path: '/x' }));
    expect(auth).toBe(`Basic ${Buffer.from(`tok_test:${SECRET}`).toString('base64')}`);
  });

  it('merges headers by name whatever their case: the SDK-owned ones win, a later source replaces an earlier one', async () => {
    const seen: Record<string, string>[] = [];
    const { client } = testClient({
      defaultHeaders: { 'X-Trace': 'from-defaults', 'X-Team': 'payments', 'content-type': 'text/plain' },
      fetch: async (_url, init) => {
        seen.push(init.headers as Record<string, string>);
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      },
    });
    await client.call(
      op({ method: 'POST', path: '/x', idempotent: true }),
      { body: { a: 1 } },
      {
        headers: { 'x-trace': 'from-call', AUTHORIZATION: 'Basic stolen' },
        idempotencyKey: 'key-1',
      },
    );
    expect(seen).toHaveLength(1);
    const sent = seen[0]!;
    // One entry per header: a plain object with lower-case names, so nothing is sent twice.
    expect(Object.keys(sent).every((name) => name === name.toLowerCase())).toBe(true);
    expect(sent['x-trace']).toBe('from-call');
    expect(sent['x-team']).toBe('payments');
    expect(sent['content-type']).toBe('text/plain');
    expect(sent.authorization).toBe(`Basic ${Buffer.from(`tok_test:${SECRET}`).toString('base64')}`);
    expect(sent['idempotency-key']).toBe('key-1');
    expect(sent.accept).toBe('application/json');
  });

  it('sandbox-only operations refuse locally in production, sending nothing', async () => {
    const { client } = testClient({ environment: 'production' });
    const err = await rejected(client.call(op({ method: 'POST', path: '/sandbox/x', sandboxOnly: true }), { body: {} }));
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(err.message).toMatch(/sandbox-only/);
  });

  it('the secret never shows in inspect, JSON or errors', async () => {
    mswServer.use(http.get(`${BASE}/x`, () => HttpResponse.json({ status: 401, code: 'UNAUTHORIZED', message: 'no' }, { status: 401 })));
    const { client } = testClient();
    const basic = Buffer.from(`tok_test:${SECRET}`).toString('base64');
    const err = await rejected(client.call(op({ method: 'GET', path: '/x' })));
    for (const text of [
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      inspect(err, { depth: 10 }),
      JSON.stringify(err),
      String(err.stack),
    ]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(basic);
    }
  });
});

describe('errors', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [429, RateLimitError],
    [418, APIError],
  ])('status %i maps to %o with the parsed body', async (status, cls) => {
    mswServer.use(
      http.get(`${BASE}/x`, () =>
        HttpResponse.json(
          { status, code: 'SOME_CODE', message: 'explained', details: { field: 'amount' } },
          { status, headers: { 'x-request-id': 'req_123', 'retry-after': '2' } },
        ),
      ),
    );
    const { client } = testClient({ maxRetries: 0 });
    const err = await rejected(client.call(op({ method: 'GET', path: '/x' })));
    expect(err).toBeInstanceOf(cls);
    expect(err).toBeInstanceOf(CrossborderError);
    expect(err).toMatchObject({ status, code: 'SOME_CODE', details: { field: 'amount' }, requestId: 'req_123', operation: 'GET /x' });
    expect(err.message).toContain('explained');
    expect(err.message).toContain('req_123');
    expect(err.headers['x-request-id']).toBe('req_123');
    if (err instanceof RateLimitError) expect(err.retryAfter).toBe(2000);
  });

  it('a non-JSON error body still gives a typed error', async () => {
    mswServer.use(http.get(`${BASE}/x`, () => new HttpResponse('Not here', { status: 404, statusText: 'Not Found' })));
    const { client } = testClient();
    const err = await rejected(client.call(op({ method: 'GET', path: '/x' })));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.code).toBe('UNKNOWN');
    expect(err.message).toContain('Not here');
  });
});

describe('validation', () => {
  const createThing = op({
    method: 'POST',
    path: '/things/{id}',
    bodyRequired: true,
    params: {
      path: z.object({ id: z.string().check(z.regex(/^Thing:.+$/)) }),
      body: z.object({ amount: z.int().check(z.gte(1), z.lte(100)), kind: z.enum(['A', 'B']), nested: z.optional(z.object({ at: z.iso.datetime() })) }),
    },
  });

  it('refuses bad params before sending, naming the field and the rule', async () => {
    let sent = 0;
    mswServer.use(http.post(`${BASE}/things/:id`, () => (sent++, HttpResponse.json({}))));
    const { client } = testClient();
    const err = await rejected(client.call(createThing, { path: { id: 'Thing:1' }, body: { amount: 101, kind: 'C', nested: { at: 'yesterday' } } }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues).toEqual([
      { path: 'amount', rule: 'too_big', message: 'must be at most 100' },
      { path: 'kind', rule: 'invalid_value', message: 'must be one of "A", "B"' },
      { path: 'nested.at', rule: 'invalid_format', message: 'must be a valid datetime' },
    ]);
    expect(err.message).toBe('Invalid params: amount: must be at most 100 (+2 more)');
    const idErr = await rejected(client.call(createThing, { path: { id: '../config' }, body: { amount: 1, kind: 'A' } }));
    expect(idErr.field).toBe('id');
    const fracErr = await rejected(client.call(createThing, { path: { id: 'Thing:1' }, body: { amount: 1.5, kind: 'A' } }));
    expect(fracErr.issues[0]).toMatchObject({ path: 'amount', rule: 'invalid_type' });
    await expect(client.call(createThing, { path: { id: 'Thing:1' } })).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toBe(0);
  });

  it('an idempotencyKey on an operation that does not honour it is refused, not silently dropped', async () => {
    const { client } = testClient();
    const err = await rejected(client.call(op({ method: 'POST', path: '/customers' }), { body: {} }, { idempotencyKey: 'k' }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.field).toBe('options.idempotencyKey');
  });

  it('passes extra response fields through untouched', async () => {
    mswServer.use(http.get(`${BASE}/x`, () => HttpResponse.json({ id: 1, addedLater: { deep: true } })));
    const { client } = testClient();
    await expect(client.call(op({ method: 'GET', path: '/x' }))).resolves.toEqual({ id: 1, addedLater: { deep: true } });
  });
});

describe('validation inside unions', () => {
  it('names the nested field of the variant the discriminator chose; an unknown variant is checked for the shared fields and sent', async () => {
    const { Crossborder } = await import('../../src/client');
    const sent: unknown[] = [];
    const cb = new Crossborder({
      tokenId: 't',
      clientSecret: 's',
      baseUrl: 'https://api.test.invalid',
      fetch: async (_url, init) => {
        sent.push(JSON.parse(String(init.body)));
        return new Response(JSON.stringify({ id: 'X:1' }), { status: 201, headers: { 'content-type': 'application/json' } });
      },
    });
    const nested = await rejected(
      cb.externalAccounts.create({
        currency: 'USD',
        accountInfo: { accountType: 'USD_ACCOUNT', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 5 as never } },
      }),
    );
    expect(nested.issues).toEqual([{ path: 'accountInfo.beneficiary.fullName', rule: 'invalid_type', message: 'expected string' }]);
    // A known variant keeps its own checks.
    const known = await rejected(cb.externalAccounts.create({ currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: 5 as never } }));
    expect(known.issues).toEqual([{ path: 'accountInfo.accountNumber', rule: 'invalid_type', message: 'expected string' }]);
    // An account type the SDK does not know yet (the service has dozens) is sent as given.
    const mxn = { currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabe: '002010077777777771' } };
    await cb.externalAccounts.create(mxn);
    // So is a beneficiary type the spec lists as merely seen (an open set), or none at all.
    const business = { currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Acme Ltd' } } };
    await cb.externalAccounts.create(business);
    expect(sent).toEqual([mxn, business]);
    // An unknown credential type is checked for the fields every type shares.
    const missing = await rejected(cb.auth.credentials.create({ type: 'WEBAUTHN_NEXT' } as never));
    expect(missing.field).toBe('accountId');
    expect(sent).toHaveLength(2);
  });
});

// Survivors of the mutation run of client.ts (issue 22) in the money and secret paths.
describe('client.ts: the money and secret decisions, pinned', () => {
  const reset = () => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });

  it('a call without a key sends no Idempotency-Key header at all; a call with one sends exactly it', async () => {
    const sent: Record<string, string>[] = [];
    const { client } = testClient({
      fetch: async (_url, init) => {
        sent.push(init.headers as Record<string, string>);
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      },
    });
    await client.call(op({ method: 'POST', path: '/plain' }), { body: { a: 1 } });
    await client.call(op({ method: 'POST', path: '/keyed', idempotent: true }), { body: { a: 1 } }, { idempotencyKey: 'key-7' });
    expect(Object.keys(sent[0]!).filter((k) => k.toLowerCase() === 'idempotency-key')).toEqual([]);
    expect(sent[1]!['idempotency-key']).toBe('key-7');
    expect(sent[0]!['content-type']).toBe('application/json');
    expect(sent[0]!.authorization).toMatch(/^Basic /);
  });

  it('a connection reset (the request may have arrived): a plain POST is sent once, a keyed POST and a GET are repeated', async () => {
    for (const [name, operation, options, attempts] of [
      ['plain POST', op({ method: 'POST', path: '/plain' }), {}, 1],
      ['keyed POST', op({ method: 'POST', path: '/keyed', idempotent: true }), { idempotencyKey: 'key-8' }, 3],
      ['GET', op({ method: 'GET', path: '/read' }), {}, 3],
    ] as const) {
      let calls = 0;
      const { client } = testClient({
        maxRetries: 2,
        fetch: async () => {
          calls++;
          throw reset();
        },
      });
      const err = await rejected(client.call(operation, operation.method === 'GET' ? {} : { body: { a: 1 } }, options));
      expect(calls, name).toBe(attempts);
      expect(err.outcomeUnknown, name).toBe(operation.method !== 'GET');
    }
  });

  it('util.inspect and JSON.stringify of a client show its settings, never its credentials', () => {
    const { client } = testClient({ baseUrl: 'https://api.test.invalid', timeout: 1234, maxRetries: 1 });
    expect(inspect(client)).toBe(`Crossborder { environment: '${client.environment}', baseUrl: '${client.baseUrl}' }`);
    expect(inspect(client, { showHidden: true, depth: 5 })).not.toContain(SECRET);
    expect(JSON.parse(JSON.stringify(client))).toEqual({ environment: client.environment, baseUrl: client.baseUrl, maxRetries: 1, timeout: 1234 });
  });
});
