import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { useMswServer } from '../helpers/msw';
import { Crossborder } from '../../src/client';
import { APITimeoutError, APIUserAbortError, ConfigurationError, QuoteExpiredError, ValidationError, WebhookVerificationError } from '../../src/core/errors';
import { isExpired } from '../../src/resources/quotes';
import { generateWebhookKeyPair, signWebhook } from '../../src/webhooks/sign';
import { rejected, testCrossborder as client } from '../helpers/client';
import { requestExample, responseExample } from '../helpers/document';

const BASE = 'https://api.test.invalid';
const API = `${BASE}/2025-10-13`;
const mswServer = useMswServer();

describe('quotes', () => {
  const quote = responseExample('createQuote', '200');
  it('isExpired compares expiresAt with now', () => {
    expect(isExpired({ expiresAt: '2000-01-01T00:00:00Z' })).toBe(true);
    expect(isExpired({ expiresAt: new Date(Date.now() + 60_000).toISOString() })).toBe(false);
  });

  it('execute refuses an expired quote object locally, sending nothing', async () => {
    let sent = 0;
    mswServer.use(http.post(`${API}/quotes/:id/execute`, () => (sent++, HttpResponse.json({}))));
    const { cb } = client();
    const err = await rejected(cb.quotes.execute({ ...quote, expiresAt: '2000-01-01T00:00:00Z' }));
    expect(err).toBeInstanceOf(QuoteExpiredError);
    expect(err.quoteId).toBe(quote.id);
    expect(sent).toBe(0);
  });

  it('createAndExecute carries one Idempotency-Key per step, derived from the caller key', async () => {
    const keys: string[] = [];
    mswServer.use(
      http.post(
        `${API}/quotes`,
        ({ request }) => (
          keys.push(request.headers.get('idempotency-key')!),
          HttpResponse.json({ ...quote, status: 'PENDING', expiresAt: new Date(Date.now() + 60_000).toISOString() })
        ),
      ),
      http.post(
        `${API}/quotes/:id/execute`,
        ({ request }) => (keys.push(request.headers.get('idempotency-key')!), HttpResponse.json({ ...quote, status: 'PROCESSING' })),
      ),
    );
    const { cb } = client();
    const done = await cb.quotes.createAndExecute(requestExample('createQuote'), { idempotencyKey: 'order-42' });
    expect(done.status).toBe('PROCESSING');
    expect(keys).toEqual(['order-42:create', 'order-42:execute']);
    const again = await cb.quotes.createAndExecute(requestExample('createQuote'));
    expect(again.status).toBe('PROCESSING');
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}:create$/);
    expect(keys[3]).toBe(keys[2]!.replace(':create', ':execute'));
  });
});

describe('transactions.waitFor', () => {
  const tx = responseExample('getTransaction', '200', 'outgoing');
  it('polls with backoff until a terminal status', async () => {
    const statuses = ['PENDING', 'PROCESSING', 'PROCESSING', 'COMPLETED'];
    mswServer.use(http.get(`${API}/transactions/:id`, () => HttpResponse.json({ ...tx, status: statuses.shift() })));
    const { cb, sleeps } = client();
    const done = await cb.transactions.waitFor(tx.id);
    expect(done.status).toBe('COMPLETED');
    expect(sleeps).toEqual([1000, 1500, 2250]);
  });

  it('stops at a status of `until`', async () => {
    mswServer.use(http.get(`${API}/transactions/:id`, () => HttpResponse.json({ ...tx, status: 'PROCESSING' })));
    const { cb, sleeps } = client();
    await expect(cb.transactions.waitFor(tx.id, { until: ['PROCESSING'] })).resolves.toMatchObject({ status: 'PROCESSING' });
    expect(sleeps).toEqual([]);
  });

  it('times out with APITimeoutError, bounded by the timeout', async () => {
    let polls = 0;
    mswServer.use(http.get(`${API}/transactions/:id`, () => (polls++, HttpResponse.json({ ...tx, status: 'PROCESSING' }))));
    const { cb, sleeps } = client();
    const err = await rejected(cb.transactions.waitFor(tx.id, { timeout: 5_000 }));
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(err.message).toMatch(/still PROCESSING after 5000 ms/);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(5_000);
    expect(polls).toBe(sleeps.length + 1);
  });

  it('refuses a timeout or poll interval that would poll forever or flood the service, before any poll', async () => {
    let polls = 0;
    mswServer.use(http.get(`${API}/transactions/:id`, () => (polls++, HttpResponse.json({ ...tx, status: 'PROCESSING' }))));
    const { cb } = client();
    for (const [options, field] of [
      [{ timeout: Number.NaN }, 'options.timeout'],
      [{ timeout: -1 }, 'options.timeout'],
      [{ timeout: Number.POSITIVE_INFINITY }, 'options.timeout'],
      [{ pollInterval: 0 }, 'options.pollInterval'],
      [{ pollInterval: -5 }, 'options.pollInterval'],
      [{ pollInterval: 99 }, 'options.pollInterval'],
      [{ pollInterval: Number.NaN }, 'options.pollInterval'],
      [{ pollInterval: 2 ** 31, timeout: 2 ** 40 }, 'options.pollInterval'], // a timer would fire after 1 ms
      [{ until: [] }, 'options.until'],
    ] as const) {
      const err = await rejected(cb.transactions.waitFor(tx.id, options));
      expect(err, JSON.stringify(options)).toBeInstanceOf(ValidationError);
      expect(err.field).toBe(field);
    }
    expect(polls).toBe(0);
    // null options are no options: a promise, never a synchronous TypeError.
    const statuses = ['COMPLETED'];
    mswServer.use(http.get(`${API}/transactions/:id`, () => HttpResponse.json({ ...tx, status: statuses.shift() ?? 'COMPLETED' })));
    await expect(cb.transactions.waitFor(tx.id, null)).resolves.toMatchObject({ status: 'COMPLETED' });
  });

  it('an abort stops the wait', async () => {
    mswServer.use(http.get(`${API}/transactions/:id`, () => HttpResponse.json({ ...tx, status: 'PROCESSING' })));
    const controller = new AbortController();
    const { cb } = client({
      sleep: async () => {
        controller.abort();
        throw new Error('aborted');
      },
    });
    await expect(cb.transactions.waitFor(tx.id, { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
  });
});

describe('local refusals', () => {
  it('sandbox methods refuse in production before sending', async () => {
    const { cb } = client({ environment: 'production' });
    await expect(cb.sandbox.fundInternalAccount('InternalAccount:1', { amount: 1 })).rejects.toBeInstanceOf(ConfigurationError);
    await expect(cb.sandbox.receiveUmaPayment(requestExample('sandboxReceiveUmaPayment'))).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('PASSKEY verify needs the challenge requestId', async () => {
    const { cb } = client();
    const err = await rejected(cb.auth.credentials.verify('AuthMethod:1', requestExample('verifyCredential', 'passkey')));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.field).toBe('options.requestId');
  });

  it('params beyond the documented limits are refused with the field named', async () => {
    const { cb } = client();
    const quote = { ...requestExample('createQuote'), lockedCurrencyAmount: 9_000_000_000_000_001 };
    expect((await rejected(cb.quotes.create(quote))).field).toBe('lockedCurrencyAmount');
    expect((await rejected(cb.sandbox.fundInternalAccount('InternalAccount:1', { amount: 100_000_000_001 }))).field).toBe('amount');
    expect((await rejected(cb.customers.list({ limit: 101 }))).field).toBe('limit');
    expect((await rejected(cb.customers.retrieve(''))).field).toBe('customerId');
    expect((await rejected(cb.customers.list({ createdAfter: new Date('nope') }))).field).toBe('createdAfter');
  });
});

describe('webhooks', () => {
  it('unwrap verifies with the client key and returns the typed event; unknown types do not throw', async () => {
    const keys = await generateWebhookKeyPair();
    const { cb } = client({ webhookPublicKey: keys.publicKeyPem });
    const data = responseExample('getTransaction', '200', 'incoming');
    const body = JSON.stringify({ id: 'Webhook:1', type: 'INCOMING_PAYMENT.PENDING', timestamp: new Date().toISOString(), data });
    const event = await cb.webhooks.unwrap(body, { 'x-service-signature': await signWebhook(body, keys.privateKeyPem) });
    expect(event.type).toBe('INCOMING_PAYMENT.PENDING');
    if (event.type === 'INCOMING_PAYMENT.PENDING' && !('unknown' in event)) expect(event.data.id).toBe(data.id);
    const future = JSON.stringify({ id: 'Webhook:2', type: 'SOMETHING.NEW', timestamp: new Date().toISOString(), data: { x: 1 } });
    await expect(cb.webhooks.unwrap(future, { 'X-Service-Signature': await signWebhook(future, keys.privateKeyPem) })).resolves.toMatchObject({
      unknown: true,
      type: 'SOMETHING.NEW',
    });
  });

  it('a known type whose data breaks the schema is delivered with event.issues; a bad signature is invalid_signature', async () => {
    const keys = await generateWebhookKeyPair();
    const { cb } = client({ webhookPublicKey: keys.publicKeyHex });
    const body = JSON.stringify({ id: 'Webhook:3', type: 'INCOMING_PAYMENT.COMPLETED', timestamp: new Date().toISOString(), data: { id: 42 } });
    const sig = await signWebhook(body, keys.privateKeyPem);
    const event = await cb.webhooks.unwrap(body, { 'x-service-signature': sig });
    expect(event.type).toBe('INCOMING_PAYMENT.COMPLETED');
    expect(event.data).toEqual({ id: 42 });
    expect(event.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['data.id', 'data.status']));
    const tampered = await rejected(cb.webhooks.unwrap(body.replace('42', '43'), { 'x-service-signature': sig }));
    expect(tampered.reason).toBe('invalid_signature');
    await expect(cb.webhooks.verify(body, { 'x-service-signature': sig })).resolves.toBeUndefined();
  });
});
