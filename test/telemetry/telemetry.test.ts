/**
 * Issue 24: the SDK's own spans and metrics, read back from the real OpenTelemetry SDK
 * (sdk-trace-base's in-memory exporter, sdk-metrics' reader). The service is the built-in sandbox
 * where it can play the case, msw or a failing fetch where it cannot (a 503, a lost answer).
 */
import { createHash, createHmac } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import {
  ConfigurationError,
  Crossborder,
  CrossborderCore,
  Customers,
  openTelemetry,
  SignatureRequiredError,
  WebhookVerificationError,
  type APIConnectionError,
} from '../../src/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { generateWebhookKeyPair, signWebhook } from '../../src/webhooks/index';
import { generateClientKeyPair, WalletSession } from '../../src/wallet/index';
import { op, rejected, testClient } from '../helpers/client';
import { useMswServer } from '../helpers/msw';
import { otel, plain } from './helpers';

const sha16 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
/** HMAC-SHA256 as node:crypto computes it: the independent reference for the opt-in attribute. */
const hmacHex = (key: string | Uint8Array, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;
const BASE = 'https://api.test.invalid/2025-10-13';
const mswServer = useMswServer();

let o: ReturnType<typeof otel>;
let sandbox: Sandbox;
let cb: Crossborder;
beforeEach(() => {
  o = otel();
  sandbox = createSandbox();
  cb = new Crossborder({
    tokenId: 't',
    clientSecret: 's',
    environment: 'sandbox',
    fetch: sandbox.fetch,
    tracerProvider: o.tracerProvider,
    meterProvider: o.meterProvider,
  });
});
afterEach(() => sandbox.close?.());

/** A funded wallet with a credential and a session on it, and a quote paying a GBP payee from it. */
async function walletQuote(idempotencyKey?: string) {
  const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Mary Jackson' });
  const account = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!;
  await cb.sandbox.fundInternalAccount(account.id, { amount: 50_000 });
  const payee = await cb.externalAccounts.create({
    customerId: customer.id,
    currency: 'GBP',
    accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '31926819' },
  });
  const otp = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: account.id });
  const keys = await generateClientKeyPair();
  const verified = await cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: keys.publicKey });
  const session = await WalletSession.fromVerify(verified, keys, otp.id);
  const quote = await cb.quotes.create(
    {
      source: { sourceType: 'ACCOUNT', accountId: account.id },
      destination: { destinationType: 'ACCOUNT', accountId: payee.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    },
    { idempotencyKey },
  );
  return { session, quote, sessionKey: (verified as { encryptedSessionSigningKey?: string }).encryptedSessionSigningKey };
}

describe('one CLIENT span per logical call', () => {
  it('success: named METHOD + template, the HTTP client conventions, the SDK attributes, and the duration metric', async () => {
    const { data: customer, requestId } = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' }).withResponse();
    const spans = o.spans().map(plain);
    expect(spans).toHaveLength(1);
    const [span] = spans;
    expect(span!.name).toBe('POST /customers');
    expect(span!.kind).toBe(SPAN_KIND_CLIENT);
    expect(span!.parentSpanId).toBeUndefined();
    expect(span!.attributes).toEqual({
      'http.request.method': 'POST',
      'url.template': '/customers',
      'server.address': 'sandbox.crossborder.example',
      'server.port': 443,
      'http.response.status_code': 200,
      'crossborder.operation.id': 'createCustomer',
      'crossborder.operation.effect': 'write',
      'crossborder.request_id': requestId,
      'crossborder.idempotency_key.sent': false, // createCustomer takes no Idempotency-Key
    });
    expect(requestId).toMatch(/\S/);
    expect(span!.status.code).toBe(0);
    expect(span!.events).toEqual([]);
    expect(JSON.stringify(span)).not.toContain(customer.id);

    const points = await o.points('http.client.request.duration');
    expect(points).toHaveLength(1);
    expect(points[0]!.attributes).toEqual({
      'http.request.method': 'POST',
      'url.template': '/customers',
      'server.address': 'sandbox.crossborder.example',
      'server.port': 443,
      'http.response.status_code': 200,
    });
    const value = points[0]!.value as { count: number; sum: number };
    expect(value.count).toBe(1);
    expect(value.sum).toBeGreaterThan(0);
    expect(value.sum).toBeLessThan(5);
    expect(await o.points('crossborder.client.unknown_outcomes')).toEqual([]);
  });

  it('a path value never reaches the span: the template does', async () => {
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    await cb.customers.retrieve(customer.id);
    const span = plain(o.spans().at(-1)!);
    expect(span.name).toBe('GET /customers/{customerId}');
    expect(span.attributes['url.template']).toBe('/customers/{customerId}');
    expect(span.attributes['crossborder.idempotency_key.sent']).toBe(false);
    expect(span.attributes['crossborder.idempotency_key.sha256']).toBeUndefined();
    expect(JSON.stringify(span)).not.toContain(customer.id);
  });

  it("each span carries its operation's declared effect from the document's x-effect (read, write, money), none for request()", async () => {
    await cb.customers.list();
    await expect(cb.transactions.approve('Transaction:00000000-0000-0000-0000-000000000000')).rejects.toThrow();
    await cb.request('GET', '/customers');
    const effects = o.spans().map((span) => [plain(span).attributes['crossborder.operation.id'], plain(span).attributes['crossborder.operation.effect']]);
    expect(effects).toEqual([
      ['listCustomers', 'read'],
      ['approveTransaction', 'money'],
      ['GET /customers', undefined],
    ]);
  });

  it('a 503 retried: one span, a retry event per repeat with its delay and cause, resend_count 2', async () => {
    let n = 0;
    mswServer.use(
      http.get(`${BASE}/things`, () => {
        n++;
        if (n === 1) return new HttpResponse(null, { status: 503, headers: { 'retry-after': '1', 'x-request-id': 'req-a' } });
        if (n === 2) return new HttpResponse(null, { status: 503, headers: { 'x-request-id': 'req-b' } });
        return HttpResponse.json({ ok: true }, { headers: { 'x-request-id': 'req-c' } });
      }),
    );
    const { client, sleeps } = testClient({ tracerProvider: o.tracerProvider, meterProvider: o.meterProvider });
    await client.call(op({ method: 'GET', path: '/things', id: 'listThings' }));
    const spans = o.spans().map(plain);
    expect(spans).toHaveLength(1);
    expect(sleeps).toHaveLength(2);
    expect(spans[0]!.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 2, 'crossborder.request_id': 'req-c' });
    expect(spans[0]!.attributes['error.type']).toBeUndefined();
    expect(spans[0]!.events).toEqual([
      {
        name: 'crossborder.retry',
        attributes: {
          'crossborder.attempt': 1,
          'crossborder.retry.delay_ms': 1000,
          'crossborder.retry.cause': 'retry_after',
          'crossborder.retry.retry_after_ms': 1000,
          'http.response.status_code': 503,
          'error.type': '503',
        },
      },
      {
        name: 'crossborder.retry',
        attributes: {
          'crossborder.attempt': 2,
          'crossborder.retry.delay_ms': sleeps[1],
          'crossborder.retry.cause': 'status_503',
          'http.response.status_code': 503,
          'error.type': '503',
        },
      },
    ]);
    // No attribute is there without a value (an exporter would send it as an empty `{}`).
    for (const event of o.spans()[0]!.events) for (const [k, v] of Object.entries(event.attributes ?? {})) expect(v, k).not.toBeUndefined();
  });

  it('a lost answer on a write: connection reset on each attempt, outcome unknown on the span and in the counter', async () => {
    const reset = () => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    const { client } = testClient({
      tracerProvider: o.tracerProvider,
      meterProvider: o.meterProvider,
      maxRetries: 1,
      fetch: async () => {
        throw reset();
      },
    });
    const payout = op({ method: 'POST', path: '/payouts', id: 'createPayout', idempotent: true });
    const error = (await rejected(client.call(payout, { body: { amount: 1 } }, { idempotencyKey: 'payout-key-7' }))) as APIConnectionError;
    expect(error.outcomeUnknown).toBe(true);
    const [span] = o.spans().map(plain);
    expect(span!.attributes).toMatchObject({
      'error.type': 'APIConnectionError',
      'crossborder.outcome_unknown': true,
      'crossborder.idempotency_key.sent': true,
      'http.request.resend_count': 1,
    });
    expect(Object.keys(span!.attributes).filter((k) => k.startsWith('crossborder.idempotency_key'))).toEqual(['crossborder.idempotency_key.sent']);
    expect(span!.attributes['http.response.status_code']).toBeUndefined();
    expect(span!.status).toEqual({ code: STATUS_ERROR, message: 'APIConnectionError' });
    expect(span!.events).toEqual([
      {
        name: 'crossborder.retry',
        attributes: {
          'crossborder.attempt': 1,
          'crossborder.retry.delay_ms': expect.any(Number),
          'crossborder.retry.cause': 'connection_reset',
          'error.type': 'ECONNRESET',
        },
      },
    ]);
    const unknown = await o.points('crossborder.client.unknown_outcomes');
    expect(unknown).toEqual([
      {
        attributes: {
          'http.request.method': 'POST',
          'url.template': '/payouts',
          'server.address': 'api.test.invalid',
          'server.port': 443,
          'error.type': 'APIConnectionError',
        },
        value: 1,
      },
    ]);
  });

  it('a timed-out attempt retried: the retry event says timeout, as error.type and as cause', async () => {
    const { client } = testClient({
      tracerProvider: o.tracerProvider,
      maxRetries: 1,
      timeout: 20,
      fetch: (_url, init) => new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason), { once: true })),
    });
    await rejected(client.call(op({ method: 'GET', path: '/slow', id: 'slow' })));
    const [span] = o.spans().map(plain);
    expect(span!.events).toEqual([
      {
        name: 'crossborder.retry',
        attributes: {
          'crossborder.attempt': 1,
          'crossborder.retry.delay_ms': expect.any(Number),
          'crossborder.retry.cause': 'timeout',
          'error.type': 'timeout',
        },
      },
    ]);
    expect(span!.attributes['error.type']).toBe('APITimeoutError');
  });

  it('an API error carries its status as error.type and its code', async () => {
    mswServer.use(
      http.post(`${BASE}/quotes/:id/execute`, () =>
        HttpResponse.json({ status: 409, code: 'QUOTE_EXPIRED', message: 'expired' }, { status: 409, headers: { 'x-request-id': 'req-409' } }),
      ),
    );
    const { client } = testClient({ tracerProvider: o.tracerProvider });
    await rejected(client.call(op({ method: 'POST', path: '/quotes/{quoteId}/execute', id: 'executeQuote' }), { path: { quoteId: 'Quote:1' } }));
    const [span] = o.spans().map(plain);
    expect(span!.name).toBe('POST /quotes/{quoteId}/execute');
    expect(span!.attributes).toMatchObject({
      'http.response.status_code': 409,
      'error.type': '409',
      'crossborder.error.code': 'QUOTE_EXPIRED',
      'crossborder.request_id': 'req-409',
      'crossborder.outcome_unknown': false,
    });
    expect(span!.status.code).toBe(STATUS_ERROR);
  });
});

describe('the 202 signed retry', () => {
  it('with a signer: the challenge and the signed leg as events carrying the requestId, never the signature', async () => {
    const { session, quote, sessionKey } = await walletQuote();
    const seen: { requestId: string; signature: string }[] = [];
    const before = o.spans().length;
    await cb.quotes.execute(quote.id, {
      signer: async (challenge) => {
        const signature = await session.signer(challenge);
        seen.push({ requestId: challenge.requestId, signature });
        return signature;
      },
    });
    const spans = o.spans().slice(before).map(plain);
    expect(spans).toHaveLength(1);
    const [span] = spans;
    const { requestId, signature } = seen[0]!;
    expect(span!.name).toBe('POST /quotes/{quoteId}/execute');
    expect(span!.events).toEqual([
      { name: 'crossborder.signature.challenge', attributes: { 'crossborder.signature.request_id': requestId, 'crossborder.signature.type': 'EXECUTE_QUOTE' } },
      { name: 'crossborder.signature.signed_retry', attributes: { 'crossborder.signature.request_id': requestId } },
    ]);
    expect(span!.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 1, 'crossborder.signature.request_id': requestId });
    const everything = JSON.stringify(o.spans().map(plain));
    expect(everything).not.toContain(signature);
    expect(sessionKey).toMatch(/\S{16}/);
    expect(everything).not.toContain(sessionKey);
  });

  it('relay mode: the first leg ends with the 202 and its requestId (not an error); the second leg is its own span', async () => {
    const { session, quote } = await walletQuote();
    const before = o.spans().length;
    const first = (await rejected(cb.quotes.execute(quote.id, { idempotencyKey: 'relay-1' }))) as SignatureRequiredError;
    expect(first).toBeInstanceOf(SignatureRequiredError);
    const signature = await session.signer(first.challenge);
    await cb.quotes.execute(quote.id, { signature, requestId: first.challenge.requestId, idempotencyKey: 'relay-1' });
    const [leg1, leg2] = o.spans().slice(before).map(plain);
    expect(leg1!.attributes).toMatchObject({ 'http.response.status_code': 202, 'crossborder.signature.request_id': first.challenge.requestId });
    expect(leg1!.attributes['error.type']).toBeUndefined();
    expect(leg1!.status.code).toBe(0);
    expect(leg1!.events.map((e) => e.name)).toEqual(['crossborder.signature.challenge']);
    expect(leg2!.events).toEqual([
      { name: 'crossborder.signature.signed_retry', attributes: { 'crossborder.signature.request_id': first.challenge.requestId } },
    ]);
    expect(leg2!.attributes).toMatchObject({ 'http.response.status_code': 200, 'crossborder.idempotency_key.sent': true });
    expect(JSON.stringify([leg1, leg2])).not.toContain(signature);
  });
});

describe('pagination', () => {
  it('for await over 3 pages: one span per page request, numbered, each later page linked to the first', async () => {
    for (let i = 0; i < 7; i++) await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: `Person ${i}` });
    const before = o.spans().length;
    const ids: string[] = [];
    for await (const c of cb.customers.list({ limit: 3 })) ids.push(c.id);
    expect(ids).toHaveLength(7);
    const pages = o.spans().slice(before).map(plain);
    expect(pages.map((p) => [p.name, p.attributes['crossborder.page.number'], p.attributes['http.response.status_code']])).toEqual([
      ['GET /customers', 1, 200],
      ['GET /customers', 2, 200],
      ['GET /customers', 3, 200],
    ]);
    expect(pages[0]!.links).toEqual([]);
    expect(pages[1]!.links).toEqual([{ spanId: pages[0]!.spanId, attributes: {} }]);
    expect(pages[2]!.links).toEqual([{ spanId: pages[0]!.spanId, attributes: {} }]);
    // No cursor in any span: a cursor may encode what the query matched.
    expect(pages.every((p) => !JSON.stringify(p).includes('cursor='))).toBe(true);
  });

  it('two lists are two iterations: the second does not link to the first', async () => {
    await cb.customers.list({ limit: 3 });
    await cb.customers.list({ limit: 3 });
    const [a, b] = o.spans().map(plain);
    expect(a!.attributes['crossborder.page.number']).toBe(1);
    expect(b!.attributes['crossborder.page.number']).toBe(1);
    expect(b!.links).toEqual([]);
  });
});

describe('webhooks.unwrap', () => {
  it('a verified delivery: the event type and id; a refused one: the reason, status error', async () => {
    const keys = await generateWebhookKeyPair();
    const client = new Crossborder({ tokenId: 't', clientSecret: 's', webhookPublicKey: keys.publicKeyPem, tracerProvider: o.tracerProvider });
    const body = JSON.stringify({
      id: 'Webhook:w-1',
      type: 'INCOMING_PAYMENT.COMPLETED',
      timestamp: new Date().toISOString(),
      data: { id: 'Transaction:1', status: 'COMPLETED', type: 'INCOMING', amount: 'planted-webhook-field' },
    });
    const signature = await signWebhook(body, keys.privateKeyPem);
    await client.webhooks.unwrap(body, { 'x-service-signature': signature });
    const refused = await rejected(client.webhooks.unwrap(body.replace('w-1', 'w-2'), { 'x-service-signature': signature }));
    expect(refused).toBeInstanceOf(WebhookVerificationError);
    const [ok, bad] = o.spans().map(plain);
    expect(ok!.name).toBe('crossborder.webhooks.unwrap');
    expect(ok!.attributes).toEqual({
      'crossborder.webhook.verified': true,
      'crossborder.webhook.event_type': 'INCOMING_PAYMENT.COMPLETED',
      'crossborder.webhook.event_id': 'Webhook:w-1',
    });
    expect(ok!.status.code).toBe(0);
    expect(bad!.attributes).toEqual({
      'crossborder.webhook.verified': false,
      'crossborder.webhook.failure_reason': 'invalid_signature',
      'error.type': 'WebhookVerificationError',
    });
    expect(bad!.status).toEqual({ code: STATUS_ERROR, message: 'invalid_signature' });
    const everything = JSON.stringify([ok, bad]);
    expect(everything).not.toContain(signature);
    expect(everything).not.toContain('planted-webhook-field');
  });
});

describe('switches', () => {
  it('traceparent is sent only when propagateContext is on, and names the call span', async () => {
    const seen: (string | null)[] = [];
    mswServer.use(http.get(`${BASE}/things`, ({ request }) => (seen.push(request.headers.get('traceparent')), HttpResponse.json({}))));
    await testClient({ tracerProvider: o.tracerProvider }).client.call(op({ method: 'GET', path: '/things' }));
    await testClient({ tracerProvider: o.tracerProvider, telemetry: { propagateContext: true } }).client.call(op({ method: 'GET', path: '/things' }));
    const span = plain(o.spans()[1]!);
    expect(seen).toEqual([null, `00-${span.traceId}-${span.spanId}-01`]);
  });

  it('telemetry: false records nothing, even with providers given', async () => {
    const off = new Crossborder({
      tokenId: 't',
      clientSecret: 's',
      environment: 'sandbox',
      fetch: sandbox.fetch,
      tracerProvider: o.tracerProvider,
      meterProvider: o.meterProvider,
      telemetry: false,
    });
    await off.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    expect(o.spans()).toEqual([]);
    expect(await o.points('http.client.request.duration')).toEqual([]);
  });
});

describe('no secrets or personal data in any span', () => {
  it('planted client secret, signature, session key, body fields, idempotency key and path values appear nowhere', async () => {
    const SECRET = 'sk_live_PLANTED_client_secret_4242';
    const planted = new Crossborder({
      tokenId: 'tok_planted',
      clientSecret: SECRET,
      environment: 'sandbox',
      fetch: sandbox.fetch,
      tracerProvider: o.tracerProvider,
      telemetry: { propagateContext: true },
    });
    cb = planted;
    const NAME = 'Planted Person Name Zyx';
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: NAME });
    await cb.customers.retrieve(customer.id);
    const { session, quote, sessionKey } = await walletQuote('planted-idempotency-key-99');
    let signature = '';
    await cb.quotes.execute(quote.id, { signer: async (c) => (signature = await session.signer(c)) });
    const everything = JSON.stringify(o.spans().map(plain));
    expect(o.spans().length).toBeGreaterThan(8);
    expect(everything).not.toContain(sha16('planted-idempotency-key-99')); // nothing derived from the key by default
    expect(everything).not.toContain(createHash('sha256').update('planted-idempotency-key-99').digest('hex').slice(0, 8));
    const basic = Buffer.from(`tok_planted:${SECRET}`).toString('base64');
    for (const value of [SECRET, basic, signature, sessionKey!, NAME, 'planted-idempotency-key-99', customer.id, quote.id, 'Mary Jackson', '31926819']) {
      expect(value.length).toBeGreaterThan(5);
      expect(everything).not.toContain(value);
    }
  });
});

describe('the Idempotency-Key on the span', () => {
  const failing = () => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
  const payout = op({ method: 'POST', path: '/payouts', id: 'createPayout', idempotent: true });
  async function keyAttributes(telemetry: object | undefined, key: string): Promise<Record<string, unknown>> {
    const { client } = testClient({
      tracerProvider: o.tracerProvider,
      maxRetries: 0,
      telemetry,
      fetch: async () => {
        throw failing();
      },
    });
    await rejected(client.call(payout, { body: { amount: 1 } }, { idempotencyKey: key }));
    const attributes = plain(o.spans().at(-1)!).attributes;
    return Object.fromEntries(Object.entries(attributes).filter(([k]) => k.startsWith('crossborder.idempotency_key')));
  }

  it('by default: only whether one was sent, nothing derived from it (a low-entropy key could be recovered from any unkeyed digest)', async () => {
    expect(await keyAttributes(undefined, 'payout-order-483920')).toEqual({ 'crossborder.idempotency_key.sent': true });
    expect(await keyAttributes({ propagateContext: true }, 'payout-order-483920')).toEqual({ 'crossborder.idempotency_key.sent': true });
  });

  it("idempotencyKeyHmacKey: the HMAC-SHA256 of the key under the user's secret, equal to node:crypto's", async () => {
    const secret = 'trace-search-secret-7f3a';
    for (const key of ['payout-order-483920', 'k'.repeat(255), crypto.randomUUID()]) {
      expect(await keyAttributes({ idempotencyKeyHmacKey: secret }, key)).toEqual({
        'crossborder.idempotency_key.sent': true,
        'crossborder.idempotency_key.hmac_sha256': hmacHex(secret, key),
      });
    }
    const bytes = new Uint8Array(Array.from({ length: 100 }, (_, i) => (i * 37) & 255)); // longer than a block: hashed first
    expect((await keyAttributes({ idempotencyKeyHmacKey: bytes }, 'payout-order-483920'))['crossborder.idempotency_key.hmac_sha256']).toBe(
      hmacHex(bytes, 'payout-order-483920'),
    );
    expect(JSON.stringify(o.spans().map(plain))).not.toContain(secret);
    // A call that succeeds: the span ends once the HMAC is ready, and the result is the call's.
    const { client } = testClient({
      tracerProvider: o.tracerProvider,
      telemetry: { idempotencyKeyHmacKey: secret },
      fetch: async () => Response.json({ id: 'Payout:1' }),
    });
    expect(await client.call(payout, { body: { amount: 1 } }, { idempotencyKey: 'payout-order-7' })).toEqual({ id: 'Payout:1' });
    expect(plain(o.spans().at(-1)!).attributes).toMatchObject({
      'http.response.status_code': 200,
      'crossborder.idempotency_key.hmac_sha256': hmacHex(secret, 'payout-order-7'),
    });
  });

  it("recordIdempotencyKey: 'raw' records the key as sent", async () => {
    expect(await keyAttributes({ recordIdempotencyKey: 'raw' }, 'payout-order-483920')).toEqual({
      'crossborder.idempotency_key.sent': true,
      'crossborder.idempotency_key': 'payout-order-483920',
    });
  });

  it('a misspelt choice is refused, naming the option (never silently recorded otherwise)', () => {
    const make = (telemetry: unknown) => () => new Crossborder({ tokenId: 't', clientSecret: 's', telemetry } as never);
    expect(make({ recordIdempotencyKey: 'sha256' })).toThrow(new ConfigurationError(`telemetry.recordIdempotencyKey must be 'raw' or undefined, got "sha256"`));
    expect(make({ idempotencyKeyHmacKey: '' })).toThrow(/telemetry\.idempotencyKeyHmacKey must be a non-empty string or Uint8Array/);
    expect(make({ idempotencyKeyHmacKey: 42 })).toThrow(ConfigurationError);
  });
});

describe('a CrossborderCore (pay for what you import)', () => {
  it('records only when given the recorder: without openTelemetry, no span even with a provider; with it, the same span as Crossborder', async () => {
    const options = { tokenId: 't', clientSecret: 's', environment: 'sandbox' as const, fetch: sandbox.fetch };
    // A provider registered globally: Crossborder would record to it; a core without the recorder does not.
    trace.setGlobalTracerProvider(o.tracerProvider);
    try {
      await new Customers(new CrossborderCore(options)).list({ limit: 1 });
      expect(o.spans()).toHaveLength(0);
    } finally {
      trace.disable();
    }
    await new Customers(
      new CrossborderCore({ ...options, tracerProvider: o.tracerProvider, meterProvider: o.meterProvider }, { telemetry: openTelemetry }),
    ).list({ limit: 1 });
    await cb.customers.list({ limit: 1 });
    const [core, full] = o.spans().map(plain);
    expect(core!.name).toBe('GET /customers');
    expect({ ...core!.attributes, 'crossborder.request_id': undefined }).toEqual({ ...full!.attributes, 'crossborder.request_id': undefined });
  });
});

describe('a CrossborderCore refuses what it would ignore', () => {
  it('a provider or telemetry options without the recorder part is a ConfigurationError naming the fix; a resource given something else than a core too', () => {
    for (const extra of [{ tracerProvider: o.tracerProvider }, { meterProvider: o.meterProvider }, { telemetry: { propagateContext: true } }]) {
      expect(() => new CrossborderCore({ tokenId: 't', clientSecret: 's', environment: 'sandbox', ...extra })).toThrow(
        /need the recorder: new CrossborderCore\(options, \{ telemetry: openTelemetry \}\)/,
      );
    }
    expect(() => new CrossborderCore({ tokenId: 't', clientSecret: 's', environment: 'sandbox', telemetry: false, tracerProvider: undefined })).not.toThrow();
    expect(
      () => new CrossborderCore({ tokenId: 't', clientSecret: 's', environment: 'sandbox', tracerProvider: o.tracerProvider }, { telemetry: openTelemetry }),
    ).not.toThrow();
    expect(() => new Customers(cb as never)).toThrow(ConfigurationError);
    expect(() => new Customers(cb as never)).toThrow(/expected a CrossborderCore/);
  });
});
