/**
 * CrossborderCore's own decisions, each pinned by what a user sees: the exact headers of a call, the
 * refusals before sending (and their messages), request()'s operation, the plan cache, the signed
 * branches, and the drift reports of validateResponses. Written against the survivors of the mutation
 * run of client.ts (issue 22); a scripted fetch stands for the service.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CrossborderCore } from '../../src/core/client';
import { ConfigurationError, SignatureChallengeError, SignatureRequiredError, ValidationError } from '../../src/core/errors';
import type { OperationChecks } from '../../src/core/validation';
import { requestChecks } from '../../src/core/parts';
import { request } from '../../src/functions';
import { op, rejected, SECRET, testClient, testClient as testClientOf } from '../helpers/client';

const AUTH = `Basic ${Buffer.from(`tok_test:${SECRET}`).toString('base64')}`;
const UA = expect.stringMatching(/^crossborder-sdk\/\d+\.\d+\.\d+ node\/\d/);
const BASE = 'https://api.test.invalid/2025-10-13';

interface Sent {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that records each request and answers from `answer` (JSON 200 `{}` by default). */
function scripted(answer: (n: number, sent: Sent) => Response = () => Response.json({})) {
  const sent: Sent[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const s = { url, method: init.method, headers: { ...(init.headers as Record<string, string>) }, body: init.body };
    sent.push(s);
    return answer(sent.length, s);
  };
  return { sent, fetch };
}

const challenge = (requestId: string, inMs = 60_000) =>
  Response.json({ payloadToSign: 'p', requestId, expiresAt: new Date(Date.now() + inMs).toISOString() }, { status: 202 });

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('the headers of a call', () => {
  it('without options: exactly auth and accept, plus content-type with a body, plus the default headers lower-cased', async () => {
    const { sent, fetch } = scripted();
    const { client } = testClient({ fetch });
    await client.call(op({ method: 'GET', path: '/r' }));
    await client.call(op({ method: 'POST', path: '/w' }), { body: { a: 1 } });
    await client.call(op({ method: 'POST', path: '/w' }));
    expect(sent.map((s) => s.headers)).toEqual([
      { 'user-agent': UA, authorization: AUTH, accept: 'application/json' },
      { 'content-type': 'application/json', 'user-agent': UA, authorization: AUTH, accept: 'application/json' },
      { 'user-agent': UA, authorization: AUTH, accept: 'application/json' },
    ]);
    expect(sent.map((s) => s.body)).toEqual([undefined, '{"a":1}', undefined]);
    const withDefaults = scripted();
    const c2 = testClient({ fetch: withDefaults.fetch, defaultHeaders: { 'X-Team': 'pay' } }).client;
    await c2.call(op({ method: 'GET', path: '/r' }));
    expect(withDefaults.sent[0]!.headers).toEqual({ 'user-agent': UA, 'x-team': 'pay', authorization: AUTH, accept: 'application/json' });
  });

  it('with headers of the call or of the operation: merged lower-cased, the SDK-owned ones last; content-type only with a body', async () => {
    const { sent, fetch } = scripted();
    const { client } = testClient({ fetch, defaultHeaders: { 'X-Team': 'pay' } });
    await client.call(op({ method: 'GET', path: '/r' }), {}, { headers: { 'X-Call': '1', Accept: 'text/html' } });
    await client.call(op({ method: 'POST', path: '/w' }), { body: {}, header: { 'Request-Id': 'r-7' } });
    expect(sent.map((s) => s.headers)).toEqual([
      { 'user-agent': UA, 'x-team': 'pay', 'x-call': '1', authorization: AUTH, accept: 'application/json' },
      { 'content-type': 'application/json', 'user-agent': UA, 'x-team': 'pay', 'request-id': 'r-7', authorization: AUTH, accept: 'application/json' },
    ]);
  });

  it('an operation header that cannot be sent is refused naming it, with or without options; nothing is sent', async () => {
    const { sent, fetch } = scripted();
    const { client } = testClient({ fetch });
    const err = await rejected(client.call(op({ method: 'POST', path: '/w' }), { body: {}, header: { 'Request-Id': 'r\n1' } }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues).toEqual([{ path: 'options.Request-Id', rule: 'invalid_header', message: 'must be a string of Latin-1 characters without line breaks' }]);
    expect(sent).toHaveLength(0);
  });

  it('an idempotent operation gets a fresh UUID per call unless the caller gives the key; others get none', async () => {
    const { sent, fetch } = scripted();
    const { client } = testClient({ fetch });
    const keyed = op({ method: 'POST', path: '/k', idempotent: true });
    const a = await client.call(keyed, { body: {} }).withResponse();
    const b = await client.call(keyed, { body: {} }).withResponse();
    const mine = await client.call(keyed, { body: {} }, { idempotencyKey: 'mine' }).withResponse();
    const plain = await client.call(op({ method: 'POST', path: '/p' }), { body: {} }, { timeout: 5_000 }).withResponse();
    expect(a.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.idempotencyKey).not.toBe(a.idempotencyKey);
    expect(mine.idempotencyKey).toBe('mine');
    expect(plain.idempotencyKey).toBeUndefined();
    expect(sent.map((s) => s.headers['idempotency-key'])).toEqual([a.idempotencyKey, b.idempotencyKey, 'mine', undefined]);
  });
});

describe('refused before sending', () => {
  it('a sandbox-only operation in production, with the exact message; any other operation in production, and a sandbox-only one elsewhere, are sent', async () => {
    const { sent, fetch } = scripted();
    const prod = testClient({ fetch, environment: 'production' }).client;
    const err = await rejected(prod.call(op({ method: 'POST', path: '/sandbox/x', id: 'fundSandbox', sandboxOnly: true }), { body: {} }));
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(err.message).toBe("fundSandbox is sandbox-only and this client's environment is 'production'; nothing was sent");
    await prod.call(op({ method: 'POST', path: '/live' }), { body: {} });
    await testClient({ fetch, environment: 'sandbox' }).client.call(op({ method: 'POST', path: '/sandbox/x', sandboxOnly: true }), { body: {} });
    expect(sent.map((s) => s.url)).toEqual([`${BASE}/live`, `${BASE}/sandbox/x`]);
  });

  it('a body JSON cannot carry is a ValidationError naming why', async () => {
    const { sent, fetch } = scripted();
    const { client } = testClient({ fetch });
    const err = await rejected(client.call(op({ method: 'POST', path: '/w' }), { body: { amount: 10n } }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues).toEqual([{ path: '', rule: 'not_json', message: 'cannot be sent as JSON (Do not know how to serialize a BigInt)' }]);
    const thrower = {
      toJSON: () => {
        throw 'not an Error';
      },
    };
    expect((await rejected(client.call(op({ method: 'POST', path: '/w' }), { body: thrower }))).issues[0].message).toBe(
      'cannot be sent as JSON (not an Error)',
    );
    expect(sent).toHaveLength(0);
  });

  it('path and query values the wire refuses, without options: a ValidationError naming the parameter', async () => {
    const { sent, fetch } = scripted();
    const { client } = testClient({ fetch });
    const path = await rejected(client.call(op({ method: 'GET', path: '/c/{id}' }), { path: { id: '..' } }));
    expect(path.issues).toEqual([{ path: 'id', rule: 'invalid_segment', message: 'must be a non-empty string other than "." or ".."' }]);
    const query = await rejected(client.call(op({ method: 'GET', path: '/c' }), { query: { q: 'a\ud800' } }));
    expect(query.issues).toEqual([{ path: 'q', rule: 'invalid_string', message: 'contains an unpaired surrogate' }]);
    await client.call(op({ method: 'GET', path: '/c' }), { query: null });
    await client.call(op({ method: 'GET', path: '/c' }), { query: { at: new Date(Date.UTC(2026, 0, 2)), none: undefined } });
    expect(sent.map((s) => s.url)).toEqual([`${BASE}/c`, `${BASE}/c?at=2026-01-02T00%3A00%3A00.000Z`]);
  });

  it('the telemetry options without the recorder: a ConfigurationError naming the fix; telemetry: false is accepted', () => {
    const base = { tokenId: 't', clientSecret: 's' };
    const message = 'tracerProvider, meterProvider and telemetry need the recorder: new CrossborderCore(options, { telemetry: openTelemetry })';
    for (const extra of [{ tracerProvider: {} }, { meterProvider: {} }, { telemetry: true }, { telemetry: {} }] as object[]) {
      expect(() => new CrossborderCore({ ...base, ...extra }), JSON.stringify(extra)).toThrow(message);
    }
    expect(new CrossborderCore({ ...base, telemetry: false }).baseUrl).toMatch(/2025-10-13$/);
    vi.stubEnv('CROSSBORDER_TOKEN_ID', 'tok_env');
    vi.stubEnv('CROSSBORDER_CLIENT_SECRET', 'sec_env');
    expect(new CrossborderCore(null, null).maxRetries).toBe(2);
  });
});

describe('request(core, …): any operation by method and path', () => {
  it('fills the path, sends a key only when given (option or header), and treats any 202 on it as a challenge', async () => {
    const { sent, fetch } = scripted((n) => (n === 4 ? Response.json({}, { status: 202 }) : Response.json({ ok: n })));
    const { client } = testClient({ fetch });
    expect(await request(client, 'POST', '/things/{id}', { path: { id: 'a b' }, body: { x: 1 } })).toEqual({ ok: 1 });
    expect(await request(client, 'POST', '/things', { body: {} }, { idempotencyKey: 'k-1' })).toEqual({ ok: 2 });
    expect(await request(client, 'POST', '/things', { body: {} }, { headers: { 'Idempotency-Key': 'k-2' } })).toEqual({ ok: 3 });
    const malformed = await rejected(request(client, 'POST', '/things', null, null));
    expect(malformed.name).toBe('ResponseValidationError');
    expect(sent.map((s) => [s.url, s.headers['idempotency-key']])).toEqual([
      [`${BASE}/things/a%20b`, undefined],
      [`${BASE}/things`, 'k-1'],
      [`${BASE}/things`, 'k-2'],
      [`${BASE}/things`, undefined],
    ]);
  });
});

describe('the plan cache', () => {
  // Each operation's checks counted by a requestChecks part whose loader counts, by operation id.
  const loads = new Map<string, number>();
  const part = { ...requestChecks, load: (id: string) => async (): Promise<OperationChecks> => (loads.set(id, (loads.get(id) ?? 0) + 1), {}) };
  const counted = (method: 'GET' | 'POST', path: string) => {
    const operation = op({ method, path, checked: true });
    return {
      loads: {
        get n() {
          return loads.get(operation.id) ?? 0;
        },
      },
      operation,
    };
  };

  it("keeps one plan per operation (its checks load once), and no more than 256 plans: the 257th operation's is made per call", async () => {
    const { fetch } = scripted();
    const { client } = testClient({ fetch }, { requestChecks: part });
    const first = counted('GET', '/first');
    await client.call(first.operation);
    await client.call(first.operation);
    expect(first.loads.n).toBe(1);
    for (let i = 1; i < 256; i++) await client.call(op({ method: 'GET', path: `/o${i}` }));
    const last = counted('GET', '/last');
    await client.call(last.operation);
    await client.call(last.operation);
    expect(last.loads.n).toBe(2);
    await client.call(first.operation);
    expect(first.loads.n).toBe(1);
  });
});

describe('the signed branches', () => {
  it('a 202 challenge on a read is its result; on a write it is a SignatureRequiredError naming the operation and the key', async () => {
    const { fetch } = scripted(() => challenge('r-1'));
    const { client } = testClient({ fetch });
    expect(await client.call(op({ method: 'GET', path: '/read', signed: true }))).toMatchObject({ requestId: 'r-1' });
    const err = await rejected(client.call(op({ method: 'POST', path: '/write', idempotent: true }), { body: {} }, { idempotencyKey: 'k-9' }));
    expect(err).toBeInstanceOf(SignatureRequiredError);
    expect(err).toMatchObject({ idempotencyKey: 'k-9', challenge: { requestId: 'r-1', payloadToSign: 'p' } });
    expect(err.message).toMatch(/^POST \/write needs a wallet signature: sign challenge.payloadToSign before /);
    const plain = scripted(() => Response.json({ id: 'X:1' }, { status: 202 }));
    expect(await testClient({ fetch: plain.fetch }).client.call(op({ method: 'POST', path: '/write' }), { body: {} })).toEqual({ id: 'X:1' });
  });

  it('a second challenge after the signed leg, relayed: handed out, then checked for expiry; a used requestId is refused', async () => {
    const { sent, fetch } = scripted((n) => challenge(`r-${n}`, n === 2 ? 30 : 60_000));
    const { client } = testClient({ fetch });
    const signed = op({ method: 'POST', path: '/auth/credentials', signed: true });
    const first = await rejected(client.call(signed, { body: {} }));
    expect(first.challenge.requestId).toBe('r-1');
    const err = await rejected(client.call(signed, { body: {} }, { signature: 'sig', requestId: 'r-1' }));
    expect(err).toBeInstanceOf(SignatureRequiredError);
    expect(err.challenge.requestId).toBe('r-2');
    const relayed = await rejected(client.call(signed, { body: {} }, { signature: 'sig', requestId: 'r-1' }));
    expect(relayed.message).toMatch(/requestId r-1 was already used/);
    await new Promise((r) => setTimeout(r, 60));
    const expired = await rejected(client.call(signed, { body: {} }, { signature: 'sig', requestId: 'r-2' }));
    expect(expired.message).toMatch(/^The challenge r-2 for POST \/auth\/credentials expired at /);
    expect(sent.map((s) => s.headers['request-id'] ?? null)).toEqual([null, 'r-1']);
  });
});

describe('validateResponses: drift reported, the call still resolves', () => {
  // Hand-built rows with the ids of the customer operations: the responseChecks part loads their response checks by id, as for the generated rows.
  const getCustomer = op({ method: 'GET', path: '/customers/{customerId}', id: 'getCustomer', response: 'Customer' });
  const deleteCustomer = op({ method: 'DELETE', path: '/customers/{customerId}', id: 'deleteCustomer', response: 'Customer' });
  const createCustomer = op({ method: 'POST', path: '/customers', id: 'createCustomer', response: 'Customer' });
  const path = { customerId: 'Customer:1' };
  // No parameter checks: what is checked here is the answers.
  const unchecked = { requestChecks: { ...requestChecks, load: () => undefined } };
  const testClient = (options: Parameters<typeof testClientOf>[0]) => testClientOf(options, unchecked);

  it('to the hook, with operation, status, requestId and issues; not for a 202 or 204, not without validateResponses, not for an undocumented answer', async () => {
    const answers = [
      Response.json({ id: 'Customer:1' }, { headers: { 'x-request-id': 'req-5' } }),
      new Response(null, { status: 204 }),
      Response.json({ id: 'Customer:1' }, { status: 202 }),
      Response.json({ id: 'Customer:1' }),
    ];
    const { fetch } = scripted((n) => answers[n - 1]!);
    const reports: unknown[] = [];
    const { client } = testClient({ fetch, validateResponses: true, onValidationIssue: (r) => void reports.push(r) });
    expect(await client.call(getCustomer, { path })).toEqual({ id: 'Customer:1' });
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ operation: 'GET /customers/{customerId}', status: 200, requestId: 'req-5' });
    expect((reports[0] as { issues: { path: string }[] }).issues.length).toBeGreaterThan(0);
    await client.call(deleteCustomer, { path });
    await client.call(createCustomer, { body: {} });
    await client.call(op({ method: 'GET', path: '/customers/{customerId}', id: 'getCustomer' }), { path });
    expect(reports).toHaveLength(1);

    const off = scripted(() => Response.json({ id: 'Customer:1' }));
    const quiet: unknown[] = [];
    await testClient({ fetch: off.fetch, onValidationIssue: (r) => void quiet.push(r) }).client.call(getCustomer, { path });
    expect(quiet).toEqual([]);
  });

  it('a hook that throws leaves the call a success; without a hook nor a warn logger, one console warning with the first issue', async () => {
    const { fetch } = scripted(() => Response.json({ id: 'Customer:1' }));
    const throwing = testClient({
      fetch,
      validateResponses: true,
      onValidationIssue: () => {
        throw new Error('hook down');
      },
    }).client;
    await expect(throwing.call(getCustomer, { path })).resolves.toEqual({ id: 'Customer:1' });

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client } = testClient({ fetch, validateResponses: true, logLevel: 'off' });
    await client.call(getCustomer, { path });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(
      /^\[crossborder-sdk\] GET \/customers\/\{customerId\} answered 200 with a body that differs from the document: [A-Za-z]\w*: \S/,
    );
    warn.mockImplementation(() => {
      throw new Error('no console');
    });
    await expect(client.call(getCustomer, { path })).resolves.toEqual({ id: 'Customer:1' });
  });
});
