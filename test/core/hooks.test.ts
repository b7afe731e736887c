import { describe, expect, it } from 'vitest';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { useMswServer } from '../helpers/msw';
import { BadRequestError, ConfigurationError, HookError } from '../../src/core/errors';
import { CrossborderCore } from '../../src/core/client';
import { requestHooks } from '../../src/core/hooks';
import type { RequestHooks } from '../../src/core/hook-types';
import type { ClientOptions } from '../../src/core/options';
import { op, rejected, SECRET, testClient } from '../helpers/client';

const BASE = 'https://api.test.invalid/2025-10-13';
const mswServer = useMswServer();

const getQuote = op({ id: 'getQuote', method: 'GET', path: '/quotes/{quoteId}' });
const createCustomer = op({ id: 'createCustomer', method: 'POST', path: '/customers', idempotent: true });
const addCredential = op({ id: 'addCredential', method: 'POST', path: '/auth/credentials', signed: true });
/** The same with an Idempotency-Key: its 503 is retried. */
const addCredentialKeyed = op({ id: 'addCredentialKeyed', method: 'POST', path: '/auth/credentials', signed: true, idempotent: true });

/** Every hook, recording what it was given (in call order) under its name. */
function recorder(extra: Partial<RequestHooks> = {}) {
  const calls: { hook: string; view: any }[] = [];
  const hooks: RequestHooks = {
    beforeRequest: (view) => {
      calls.push({ hook: 'beforeRequest', view });
      return extra.beforeRequest?.(view);
    },
    afterResponse: (view) => {
      calls.push({ hook: 'afterResponse', view });
      return extra.afterResponse?.(view);
    },
    beforeRetry: (view) => {
      calls.push({ hook: 'beforeRetry', view });
      return extra.beforeRetry?.(view);
    },
    onError: (view) => {
      calls.push({ hook: 'onError', view });
      return extra.onError?.(view);
    },
  };
  return { calls, hooks };
}

function hooked(hooks: RequestHooks, options: ClientOptions = {}) {
  return testClient({ hooks, ...options }, { hooks: requestHooks });
}

/** Answers each request with the next of `statuses` (the last one repeats), recording what arrived. */
function service(method: 'get' | 'post', path: string, statuses: number[], body: (n: number) => JsonBodyType = () => ({ id: 'Quote:1' })) {
  const seen: { headers: Headers; body: string }[] = [];
  mswServer.use(
    http[method](`${BASE}${path}`, async ({ request }) => {
      seen.push({ headers: request.headers, body: await request.text() });
      const status = statuses[Math.min(seen.length - 1, statuses.length - 1)]!;
      return HttpResponse.json(status >= 400 ? { status, code: status === 400 ? 'INVALID_INPUT' : 'UNAVAILABLE', message: 'no' } : body(seen.length), {
        status,
        headers: { 'x-request-id': `req_${seen.length}` },
      });
    }),
  );
  return seen;
}

describe('request hooks: order per attempt', () => {
  it('a retried read: beforeRequest, afterResponse, beforeRetry per failed attempt, with the template, path, attempt, status and request id', async () => {
    service('get', '/quotes/:quoteId', [503, 200]);
    const { calls, hooks } = recorder();
    const { client, sleeps } = hooked(hooks);
    await expect(client.call(getQuote, { path: { quoteId: 'Quote:1' }, query: { expand: 'fees' } })).resolves.toEqual({ id: 'Quote:1' });
    expect(calls.map((c) => `${c.hook}#${c.view.attempt}`)).toEqual([
      'beforeRequest#1',
      'afterResponse#1',
      'beforeRetry#1',
      'beforeRequest#2',
      'afterResponse#2',
    ]);
    const [first, answered503, retry, , answered200] = calls.map((c) => c.view);
    expect(first).toMatchObject({
      operation: 'GET /quotes/{quoteId}',
      method: 'GET',
      urlTemplate: '/quotes/{quoteId}',
      path: '/quotes/Quote%3A1',
      idempotencyKey: undefined,
      signed: false,
    });
    expect(answered503).toMatchObject({ status: 503, requestId: 'req_1' });
    expect(retry).toMatchObject({ status: 503, requestId: 'req_1', reason: 'status 503', nextAttempt: 2, delayMs: sleeps[0] });
    expect(answered200).toMatchObject({ status: 200, requestId: 'req_2', responseBody: { id: 'Quote:1' } });
    expect(typeof answered200.durationMs).toBe('number');
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.headers)).toBe(true);
  });

  it('a retried deduplicated write: the same Idempotency-Key on every attempt, in the views and on the wire', async () => {
    const seen = service('post', '/customers', [503, 503, 201]);
    const { calls, hooks } = recorder();
    const { client } = hooked(hooks);
    await client.call(createCustomer, { body: { customerType: 'INDIVIDUAL' } });
    expect(seen).toHaveLength(3);
    const sentKeys = seen.map((s) => s.headers.get('idempotency-key'));
    expect(new Set(sentKeys).size).toBe(1);
    const befores = calls.filter((c) => c.hook === 'beforeRequest').map((c) => c.view);
    expect(befores.map((v) => v.attempt)).toEqual([1, 2, 3]);
    expect(befores.map((v) => v.idempotencyKey)).toEqual(sentKeys);
    expect(befores.map((v) => v.headers['idempotency-key'])).toEqual(sentKeys);
    expect(calls.filter((c) => c.hook === 'beforeRetry')).toHaveLength(2);
    expect(calls.filter((c) => c.hook === 'onError')).toHaveLength(0);
  });

  it('the 202 signed retry: its second leg is attempt 2, signed, with the signature redacted', async () => {
    let hits = 0;
    mswServer.use(
      http.post(`${BASE}/auth/credentials`, ({ request }) => {
        hits++;
        if (!request.headers.get('service-wallet-signature')) {
          return HttpResponse.json(
            { payloadToSign: 'Y2hhbGxlbmdl', requestId: 'chal_1', expiresAt: new Date(Date.now() + 60_000).toISOString() },
            { status: 202 },
          );
        }
        return HttpResponse.json({ id: 'AuthMethod:1' }, { status: 201 });
      }),
    );
    const { calls, hooks } = recorder();
    const { client } = hooked(hooks);
    await expect(client.call(addCredential, { body: { type: 'EMAIL_OTP' } }, { signer: async () => 'stamp-SIGNATURE-VALUE' })).resolves.toEqual({
      id: 'AuthMethod:1',
    });
    expect(hits).toBe(2);
    expect(calls.map((c) => `${c.hook}#${c.view.attempt}`)).toEqual(['beforeRequest#1', 'afterResponse#1', 'beforeRequest#2', 'afterResponse#2']);
    const second = calls[2]!.view;
    expect(second.signed).toBe(true);
    expect(second.headers['service-wallet-signature']).toBe('[redacted]');
    expect(second.headers['request-id']).toBe('chal_1');
    expect(calls[1]!.view.responseBody.payloadToSign).toBe('[redacted]');
    expect(JSON.stringify(calls)).not.toContain('stamp-SIGNATURE-VALUE');
  });
});

describe('beforeRequest headers', () => {
  it('a header it returns reaches the server, per attempt', async () => {
    const seen = service('get', '/quotes/:quoteId', [503, 200]);
    const { client } = hooked({ beforeRequest: (view) => ({ headers: { 'X-Trace-Attempt': `t-${view.attempt}`, 'User-Agent': 'mine/1' } }) });
    await client.call(getQuote, { path: { quoteId: 'Quote:1' } });
    expect(seen.map((s) => s.headers.get('x-trace-attempt'))).toEqual(['t-1', 't-2']);
    expect(seen[0]!.headers.get('user-agent')).toBe('mine/1');
    expect(seen[0]!.headers.get('authorization')).toMatch(/^Basic /);
  });

  it.each([
    ['Authorization', 'Authorization'],
    ['idempotency-key', 'Idempotency-Key'],
    ['Service-Wallet-Signature', 'Service-Wallet-Signature'],
    ['REQUEST-ID', 'Request-Id'],
  ])('refuses to set %s: a HookError naming it, nothing sent', async (given, named) => {
    const seen = service('post', '/customers', [201]);
    const { client } = hooked({ beforeRequest: () => ({ headers: { [given]: 'Basic forged' } }) });
    const error = await rejected(client.call(createCustomer, { body: { customerType: 'INDIVIDUAL' } }));
    expect(error).toBeInstanceOf(HookError);
    expect(error.hook).toBe('beforeRequest');
    expect(error.message).toContain(`may not set ${named}`);
    expect(error.outcomeUnknown).toBe(false);
    expect(seen).toHaveLength(0);
  });

  it('refuses a header value that cannot be sent, naming it', async () => {
    const seen = service('get', '/quotes/:quoteId', [200]);
    const { client } = hooked({ beforeRequest: () => ({ headers: { 'x-bad': 'line\nbreak' } }) });
    const error = await rejected(client.call(getQuote, { path: { quoteId: 'Quote:1' } }));
    expect(error).toBeInstanceOf(HookError);
    expect(error.message).toContain('headers.x-bad');
    expect(seen).toHaveLength(0);
  });
});

describe('a hook that throws', () => {
  it('beforeRequest: HookError naming it, with the thrown value as cause; the write is never sent', async () => {
    const seen = service('post', '/customers', [201]);
    const boom = new Error('no trace id');
    const { client } = hooked({
      beforeRequest: () => {
        throw boom;
      },
    });
    const error = await rejected(client.call(createCustomer, { body: { customerType: 'INDIVIDUAL' } }));
    expect(error).toBeInstanceOf(HookError);
    expect(error.message).toBe('hooks.beforeRequest threw: no trace id');
    expect(error.cause).toBe(boom);
    expect(error.operation).toBe('POST /customers');
    expect(typeof error.idempotencyKey).toBe('string');
    expect(seen).toHaveLength(0);
  });

  it('afterResponse (rejecting) on an answered write: HookError carrying the answer, outcome known, sent exactly once', async () => {
    const seen = service('post', '/customers', [201], () => ({ id: 'Customer:9', customerType: 'INDIVIDUAL' }));
    const { client } = hooked({ afterResponse: async () => Promise.reject('metrics down') });
    const error = await rejected(client.call(createCustomer, { body: { customerType: 'INDIVIDUAL' } }));
    expect(error).toBeInstanceOf(HookError);
    expect(error.message).toBe('hooks.afterResponse threw: metrics down');
    expect(error.cause).toBe('metrics down');
    expect(error).toMatchObject({ hook: 'afterResponse', status: 201, requestId: 'req_1', outcomeUnknown: false });
    expect(error.result.data).toEqual({ id: 'Customer:9', customerType: 'INDIVIDUAL' });
    expect(error.result.response.status).toBe(201);
    expect(error.idempotencyKey).toBe(seen[0]!.headers.get('idempotency-key'));
    expect(JSON.parse(JSON.stringify(error)).result).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it('afterResponse on a 503 that would be retried: no retry, the write sent once, its outcome unknown', async () => {
    const seen = service('post', '/customers', [503, 201]);
    const { client } = hooked({
      afterResponse: () => {
        throw new Error('x');
      },
    });
    const error = await rejected(client.call(createCustomer, { body: { customerType: 'INDIVIDUAL' } }));
    expect(error).toMatchObject({ hook: 'afterResponse', status: 503, outcomeUnknown: true });
    expect(seen).toHaveLength(1);
  });

  it('beforeRetry: stops the retries; the write went once', async () => {
    const seen = service('post', '/customers', [503, 201]);
    const { client } = hooked({
      beforeRetry: () => {
        throw new Error('circuit open');
      },
    });
    const error = await rejected(client.call(createCustomer, { body: { customerType: 'INDIVIDUAL' } }));
    expect(error).toBeInstanceOf(HookError);
    expect(error.message).toBe('hooks.beforeRetry threw: circuit open');
    expect(error).toMatchObject({ hook: 'beforeRetry', status: 503, requestId: 'req_1' });
    expect(seen).toHaveLength(1);
  });

  it('onError: runs once with the failure; throwing replaces it with a HookError that keeps the original', async () => {
    const seen = service('post', '/customers', [400]);
    const views: any[] = [];
    const { client } = hooked({
      onError: (view) => {
        views.push(view);
        throw new Error('alert failed');
      },
    });
    const error = await rejected(client.call(createCustomer, { body: { customerType: 'INDIVIDUAL' } }));
    expect(error).toBeInstanceOf(HookError);
    expect(error.message).toBe('hooks.onError threw: alert failed');
    expect(error.error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ hook: 'onError', status: 400, requestId: 'req_1', outcomeUnknown: false });
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({
      operation: 'POST /customers',
      status: 400,
      requestId: 'req_1',
      errorName: 'BadRequestError',
      code: 'INVALID_INPUT',
      error: undefined,
    });
    expect(seen).toHaveLength(1);
  });

  it('onError that returns: the call fails with its own error', async () => {
    service('get', '/quotes/:quoteId', [400]);
    const names: string[] = [];
    const { client } = hooked({ onError: (view) => void names.push(view.errorName) });
    await expect(client.call(getQuote, { path: { quoteId: 'Quote:1' } })).rejects.toBeInstanceOf(BadRequestError);
    expect(names).toEqual(['BadRequestError']);
  });
});

describe('redaction: planted secrets and personal data never reach a hook', () => {
  const BEARER = 'Bearer eyJhbGciOiJIUzI1NiJ9.UPSTREAM_BEARER_TOKEN';
  const SESSION_KEY = '-----BEGIN PRIVATE KEY-----SESSION_PRIVATE_KEY_MATERIAL-----END PRIVATE KEY-----';
  const PII = { email: 'ada.lovelace@example.org', birthDate: '1815-12-10', accountNumber: '000123456789', fullName: 'Ada Lovelace Byron' };
  const planted = [SECRET, 'UPSTREAM_BEARER_TOKEN', 'SESSION_PRIVATE_KEY_MATERIAL', 'OTP_SESSION_SECRET', ...Object.values(PII)];

  /** A signed write whose body, answer and challenge carry every planted value; each hook records all it is given. */
  async function run(unsafeRawBodies: boolean | undefined) {
    let hits = 0;
    mswServer.use(
      http.post(`${BASE}/auth/credentials`, async ({ request }) => {
        hits++;
        const body = await request.json();
        if (hits === 1)
          return HttpResponse.json({ status: 503, code: 'UNAVAILABLE', message: 'later' }, { status: 503, headers: { 'set-cookie': `session=${SECRET}` } });
        if (!request.headers.get('service-wallet-signature')) {
          return HttpResponse.json(
            { payloadToSign: 'OTP_SESSION_SECRET', requestId: 'chal_1', expiresAt: new Date(Date.now() + 60_000).toISOString() },
            { status: 202 },
          );
        }
        return HttpResponse.json(
          { id: 'AuthMethod:1', echo: body, encryptedSessionSigningKey: SESSION_KEY },
          { status: 201, headers: { 'x-request-id': 'req_ok' } },
        );
      }),
      http.post(`${BASE}/customers`, () => HttpResponse.json({ status: 400, code: 'INVALID_INPUT', message: 'email is taken' }, { status: 400 })),
    );
    const { calls, hooks } = recorder();
    const options: ClientOptions = {
      defaultHeaders: { 'x-upstream-auth': BEARER },
      ...(unsafeRawBodies === undefined ? {} : { unsafeRawBodies }),
      maxRetries: 1,
    };
    const { client } = hooked(hooks, options);
    const signer = async () => `sig:${SESSION_KEY}`;
    const body = { type: 'EMAIL_OTP', customer: { customerType: 'INDIVIDUAL', ...PII }, otp: 'OTP_SESSION_SECRET' };
    const result = await client.call(addCredentialKeyed, { body }, { signer });
    await rejected(client.call(createCustomer, { body: { customerType: 'INDIVIDUAL', email: PII.email } }));
    return { calls, result, hits };
  }

  it('masked by default: headers, bodies, signatures, the client secret, a bearer token, a session key, PII', async () => {
    const { calls, result, hits } = await run(undefined);
    expect(hits).toBe(3);
    expect((result as any).echo.customer.email).toBe(PII.email); // the caller gets everything; only the hooks are masked
    expect(calls.map((c) => c.hook)).toEqual([
      'beforeRequest',
      'afterResponse',
      'beforeRetry',
      'beforeRequest',
      'afterResponse',
      'beforeRequest',
      'afterResponse',
      'beforeRequest',
      'afterResponse',
      'onError',
    ]);
    const everything = JSON.stringify(calls);
    for (const secret of planted) expect(everything, secret).not.toContain(secret);
    // They saw the request, masked, not nothing.
    const first = calls[0]!.view;
    expect(first.headers.authorization).toBe('[redacted]');
    expect(first.headers['x-upstream-auth']).toBe('Bearer [redacted]');
    expect(first.body).toEqual({
      type: 'EMAIL_OTP',
      customer: { customerType: 'INDIVIDUAL', email: '[redacted]', birthDate: '[redacted]', accountNumber: '[redacted]', fullName: '[redacted]' },
      otp: '[redacted]',
    });
    expect(calls[1]!.view.responseHeaders['set-cookie']).toBe('[redacted]');
    expect(calls[6]!.view.responseBody.encryptedSessionSigningKey).toBe('[redacted]');
  });

  it('unsafeRawBodies: true gives the bodies as sent and received, still without credentials or signatures', async () => {
    const { calls } = await run(true);
    const first = calls[0]!.view;
    expect(JSON.parse(first.body)).toEqual({ type: 'EMAIL_OTP', customer: { customerType: 'INDIVIDUAL', ...PII }, otp: 'OTP_SESSION_SECRET' });
    expect(JSON.parse(calls[6]!.view.responseBody).encryptedSessionSigningKey).toBe(SESSION_KEY);
    expect(calls[9]!.view.error).toBeInstanceOf(BadRequestError);
    const headers = JSON.stringify(calls.map((c) => [c.view.headers, c.view.responseHeaders]));
    for (const secret of [SECRET, 'UPSTREAM_BEARER_TOKEN', 'SESSION_PRIVATE_KEY_MATERIAL']) expect(headers, secret).not.toContain(secret);
    expect(JSON.stringify(calls)).not.toContain(SECRET);
  });
});

describe('hooks options', () => {
  it('a misspelt hook is refused with "Did you mean"', () => {
    expect(() => hooked({ beforeRequst: () => undefined } as RequestHooks)).toThrow(/Unknown hook beforeRequst\. Did you mean beforeRequest\?/);
  });

  it('a hook that is not a function, and an unsafeRawBodies that is not a boolean, are refused naming the field', () => {
    expect(() => hooked({ onError: 'log' } as unknown as RequestHooks)).toThrow(ConfigurationError);
    expect(() => hooked({ onError: 'log' } as unknown as RequestHooks)).toThrow('hooks.onError must be a function');
    expect(() => hooked({}, { unsafeRawBodies: 'yes' as unknown as boolean })).toThrow('unsafeRawBodies must be true or false');
  });

  it('a core without the hooks part refuses the option rather than ignore it', () => {
    expect(() => new CrossborderCore({ hooks: { onError: () => undefined } })).toThrow(/need the hooks part/);
  });

  it('an empty hooks object runs the call as without hooks', async () => {
    service('get', '/quotes/:quoteId', [200]);
    const { client } = hooked({});
    await expect(client.call(getQuote, { path: { quoteId: 'Quote:1' } })).resolves.toEqual({ id: 'Quote:1' });
  });
});
