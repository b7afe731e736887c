import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAGIC, createClock } from '../../src/sandbox/index';
import type { SandboxOptions } from '../../src/sandbox/sandbox';
import { accountOf, addControlPerson, balance, createCustomer, fund, setup, usdBank } from './helpers';

interface Received {
  url: string;
  signature: string;
  body: string;
  event: any;
}

/** Balance moves send INTERNAL_ACCOUNT.BALANCE_UPDATED beside the payment events; tests of the payment events leave them out. */
const BALANCE = 'INTERNAL_ACCOUNT.BALANCE_UPDATED';
const notBalance = (r: { type?: string; event?: { type: string } }) => (r.event?.type ?? r.type) !== BALANCE;

/** A webhook receiver answering from a script of statuses (the last one repeats). */
function receiver(statuses: (number | 'throw' | 'hang')[] = [200]) {
  const received: Received[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const headers = init.headers as Record<string, string>;
    const body = init.body as string;
    const event = JSON.parse(body);
    received.push({ url, signature: headers['x-service-signature']!, body, event });
    // The script answers the payment events in order; balance updates are acknowledged.
    const scripted = received.filter(notBalance).length;
    const status = event.type === BALANCE ? 200 : statuses[Math.min(scripted - 1, statuses.length - 1)]!;
    if (status === 'throw') throw new TypeError('fetch failed: connection refused');
    if (status === 'hang') {
      return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    return new Response(status === 204 ? null : JSON.stringify({ ok: status < 300 }), { status });
  };
  return { received, fetch };
}

function verifies(publicKeyPem: string, body: string, signature: string): boolean {
  // The sandbox sends the versioned header form {"v":"1","s":"<base64 DER>"} (decisions.md "Webhooks").
  const parsed = JSON.parse(signature) as { v: string; s: string };
  if (parsed.v !== '1') return false;
  return verify('sha256', Buffer.from(body), { key: createPublicKey(publicKeyPem), dsaEncoding: 'der' }, Buffer.from(parsed.s, 'base64'));
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function sandboxWith(statuses?: (number | 'throw' | 'hang')[], extra: Record<string, unknown> = {}, options: SandboxOptions = {}) {
  const hook = receiver(statuses);
  const s = setup({ webhookDelivery: { fetch: hook.fetch, initialBackoffMs: 10, maxAttempts: 4, ...extra }, ...options });
  cleanups.push(() => s.sandbox.close());
  return { ...s, hook };
}

async function configure(call: ReturnType<typeof setup>['call'], endpoint = 'https://platform.example/webhooks') {
  const res = await call('PATCH', '/config', { webhookEndpoint: endpoint });
  expect(res.body.webhookEndpoint).toBe(endpoint);
}

describe('webhook delivery', () => {
  it('sends nothing until a webhookEndpoint is configured', async () => {
    const { sandbox, call, hook } = sandboxWith();
    const c = await createCustomer(call);
    await call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sam@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
      customerId: c.id,
    });
    await sandbox.webhooks.flush();
    expect(hook.received).toHaveLength(0);
    expect(sandbox.webhooks.deliveries).toHaveLength(0);
  });

  it('signs each event with the sandbox key (verified with node:crypto) and sends the documented body', async () => {
    const { sandbox, call, hook } = sandboxWith();
    await configure(call);
    const c = await createCustomer(call);
    const tx = (
      await call('POST', '/sandbox/uma/receive', {
        senderUmaAddress: '$sam@sandbox.uma.example',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 1_500,
        customerId: c.id,
      })
    ).body;
    await sandbox.webhooks.flush();
    expect(hook.received.map((r) => r.event.type).sort()).toEqual(['INCOMING_PAYMENT.COMPLETED', BALANCE]);
    const [delivery] = hook.received.filter(notBalance);
    expect(delivery!.url).toBe('https://platform.example/webhooks');
    expect(Object.keys(delivery!.event)).toEqual(['id', 'type', 'timestamp', 'data']);
    expect(delivery!.event).toMatchObject({ type: 'INCOMING_PAYMENT.COMPLETED', data: tx });
    expect(delivery!.event.id).toMatch(/^Webhook:/);
    expect(verifies(sandbox.webhookPublicKey.pem, delivery!.body, delivery!.signature)).toBe(true);
    expect(verifies(sandbox.webhookPublicKey.pem, delivery!.body.replace('1500', '1501'), delivery!.signature)).toBe(false);
    // The hex form is the same key.
    const jwk = createPublicKey(sandbox.webhookPublicKey.pem).export({ format: 'jwk' });
    const hex = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
    expect(sandbox.webhookPublicKey.hex).toBe(hex);
    expect(sandbox.webhooks.deliveries.filter(notBalance)[0]).toMatchObject({
      type: 'INCOMING_PAYMENT.COMPLETED',
      state: 'delivered',
      attempts: [{ status: 200 }],
    });
  });

  it('retries with backoff until a 2xx, with the same id and body; gives up after maxAttempts', async () => {
    const { sandbox, call, hook } = sandboxWith([500, 503, 'throw', 200]);
    await configure(call);
    const c = await createCustomer(call);
    await call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sam@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
      customerId: c.id,
    });
    // No flush: the backoff timers deliver on their own (10, 20, 40 ms).
    const payment = () => sandbox.webhooks.deliveries.find(notBalance);
    for (let i = 0; i < 200 && payment()?.state !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(hook.received.filter(notBalance)).toHaveLength(4);
    expect(new Set(hook.received.filter(notBalance).map((r) => r.body)).size).toBe(1);
    const attempts = payment()!.attempts;
    expect(attempts.map((a) => a.status ?? 'error')).toEqual([500, 503, 'error', 200]);
    expect(attempts[2]!.error).toMatch(/connection refused/);

    const failing = sandboxWith([500]);
    await configure(failing.call);
    const d = await createCustomer(failing.call);
    await failing.call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sam@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
      customerId: d.id,
    });
    await failing.sandbox.webhooks.flush();
    expect(failing.hook.received.filter(notBalance)).toHaveLength(4);
    expect(failing.sandbox.webhooks.deliveries.filter(notBalance)[0]!.state).toBe('failed');
  });

  it('reports outgoing payments: PROCESSING, then COMPLETED or FAILED', async () => {
    const { sandbox, call, hook } = sandboxWith();
    await configure(call);
    const c = await createCustomer(call);
    const usd = await accountOf(call, c.id, 'USD');
    const good = await usdBank(call, c.id, '123456789');
    const bad = await usdBank(call, c.id, '4000000000000002'); // magic: PAY_REQUEST_FAILED
    await fund(call, usd.id, 100_000);
    const pay = (to: string) =>
      call('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: usd.id },
        destination: { destinationType: 'ACCOUNT', accountId: to },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
        immediatelyExecute: true,
      });
    const ok = (await pay(good.id)).body;
    const ko = (await pay(bad.id)).body;
    sandbox.clock.advance(2_000);
    await sandbox.webhooks.flush();
    const events = hook.received.map((r) => [r.event.type, r.event.data.id, r.event.data.status, r.event.data.failureReason]);
    expect(events.filter((e) => e[0] !== BALANCE)).toEqual([
      ['OUTGOING_PAYMENT.PROCESSING', ok.transactionId, 'PROCESSING', undefined],
      ['OUTGOING_PAYMENT.PROCESSING', ko.transactionId, 'PROCESSING', undefined],
      ['OUTGOING_PAYMENT.COMPLETED', ok.transactionId, 'COMPLETED', undefined],
      ['OUTGOING_PAYMENT.FAILED', ko.transactionId, 'FAILED', 'PAY_REQUEST_FAILED'],
    ]);
    // A payment that failed after PROCESSING carries its refund (the debit came back); one that completed has none.
    const failed = hook.received.find((r) => r.event.type === 'OUTGOING_PAYMENT.FAILED')!.event.data;
    expect(failed.refund).toEqual({
      reference: `${failed.reconciliationInstructions.reference}-REFUND`,
      initiatedAt: failed.updatedAt,
      settledAt: failed.updatedAt,
      status: 'COMPLETED',
      reason: 'TRANSACTION_FAILED',
    });
    expect(hook.received.find((r) => r.event.type === 'OUTGOING_PAYMENT.COMPLETED')!.event.data.refund).toBeUndefined();
    // Every balance move sends the whole account, as production's INTERNAL_ACCOUNT.BALANCE_UPDATED: the
    // funding, each debit before its PROCESSING, and the refund of the failed payment before its FAILED.
    expect(hook.received.map((r) => (r.event.type === BALANCE ? [r.event.data.id, r.event.data.balance.amount] : r.event.type))).toEqual([
      [usd.id, 100_000],
      [usd.id, 99_000],
      'OUTGOING_PAYMENT.PROCESSING',
      [usd.id, 98_000],
      'OUTGOING_PAYMENT.PROCESSING',
      'OUTGOING_PAYMENT.COMPLETED',
      [usd.id, 99_000],
      'OUTGOING_PAYMENT.FAILED',
    ]);
  });

  it('reports invitation claims (sandbox.claimInvitation) and KYC changes', async () => {
    const { sandbox, call, hook } = sandboxWith();
    await configure(call);
    const inviter = await createCustomer(call);
    const invitation = (await call('POST', '/invitations', { inviterUma: inviter.umaAddress, firstName: 'Grace', amountToSend: 2_000 })).body;
    expect(invitation).toMatchObject({
      status: 'PENDING',
      inviterUma: inviter.umaAddress,
      firstName: 'Grace',
      amountToSend: { amount: 2_000, currency: { code: 'USD' } },
    });
    const claimed = sandbox.claimInvitation(invitation.code, '$grace@wallet.example');
    expect(claimed).toMatchObject({ status: 'CLAIMED', inviteeUma: '$grace@wallet.example' });
    expect(() => sandbox.claimInvitation(invitation.code)).toThrow(/CLAIMED/);
    expect(() => sandbox.claimInvitation('INV-NOPE')).toThrow(/no invitation/);
    const business = (await call('POST', '/customers', { customerType: 'BUSINESS', businessInfo: { legalName: 'Acme' } })).body;
    await addControlPerson(call, business.id); // the KYB's owner errors go: a new error list (RESOLVE_ERRORS)
    await call('PATCH', `/customers/${business.id}`, {
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Acme', taxId: '1', incorporatedOn: '2020-01-01' },
      address: { line1: '1 Main', city: 'X', postalCode: '1', country: 'US' },
    });
    await call('PATCH', `/customers/${business.id}`, { customerType: 'BUSINESS', businessInfo: { legalName: 'Acme Rejected' } });
    await sandbox.webhooks.flush();
    expect(hook.received.map((r) => r.event.type)).toEqual([
      'INVITATION.CLAIMED',
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.APPROVED',
      'CUSTOMER.KYC_APPROVED',
      'VERIFICATION.REJECTED',
      'CUSTOMER.KYC_REJECTED',
    ]);
    expect(hook.received[0]!.event.data).toMatchObject({ code: invitation.code, status: 'CLAIMED', claimedAt: claimed.claimedAt });
  });

  it('delivers over real HTTP to a node:http receiver', async () => {
    const bodies: { body: string; signature: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['x-service-signature']) });
        // The first delivery fails once (whichever event it is); everything else is accepted.
        res.writeHead(bodies.length === 1 ? 500 : 200).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const s = setup({ webhookDelivery: { initialBackoffMs: 10 } });
    cleanups.push(() => s.sandbox.close());
    await configure(s.call, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
    const c = await createCustomer(s.call);
    await s.call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sam@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
      customerId: c.id,
    });
    await s.sandbox.webhooks.flush();
    // Two events (the payment and the balance it moved), the first sent twice.
    expect(bodies).toHaveLength(3);
    const again = bodies.filter((b) => b.body === bodies[0]!.body);
    expect(again).toHaveLength(2);
    expect(verifies(s.sandbox.webhookPublicKey.pem, again[1]!.body, again[1]!.signature)).toBe(true);
  });

  it("keeps each attempt's time, duration and the receiver's answer (cut to 4 KB)", async () => {
    const { sandbox, call } = sandboxWith([500, 200]);
    await configure(call);
    const c = await createCustomer(call);
    await call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sam@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
      customerId: c.id,
    });
    await sandbox.webhooks.flush();
    const [delivery] = sandbox.webhooks.deliveries.filter(notBalance);
    expect(delivery!.attempts).toEqual([
      { at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), ms: expect.any(Number), status: 500, response: '{"ok":false}' },
      { at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), ms: expect.any(Number), status: 200, response: '{"ok":true}' },
    ]);

    const long = 'é'.repeat(40_000); // 80,000 bytes: more than is read, far more than is kept
    const chatty = sandboxWith([200], { fetch: async () => new Response(long, { status: 200 }) });
    await configure(chatty.call);
    const d = await createCustomer(chatty.call);
    await chatty.call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sam@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
      customerId: d.id,
    });
    await chatty.sandbox.webhooks.flush();
    const [attempt] = chatty.sandbox.webhooks.deliveries.filter(notBalance)[0]!.attempts;
    expect({ length: attempt!.response!.length, truncated: attempt!.responseTruncated, start: attempt!.response!.slice(0, 3) }).toEqual({
      length: 4096,
      truncated: true,
      start: 'ééé',
    });
    const failing = sandboxWith(['throw'], { maxAttempts: 1 });
    await configure(failing.call);
    const e = await createCustomer(failing.call);
    await failing.call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sam@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
      customerId: e.id,
    });
    await failing.sandbox.webhooks.flush();
    expect(failing.sandbox.webhooks.deliveries.filter(notBalance)[0]!.attempts).toEqual([
      { at: expect.any(String), ms: expect.any(Number), error: 'fetch failed: connection refused' },
    ]);
  });

  it('stops pending retries on reset()', async () => {
    const { sandbox, call, hook } = sandboxWith([500], { initialBackoffMs: 60_000, maxAttempts: 8 });
    await configure(call);
    const c = await createCustomer(call);
    await call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sam@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
      customerId: c.id,
    });
    for (let i = 0; i < 100 && hook.received.filter(notBalance).length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    sandbox.reset();
    await sandbox.webhooks.flush();
    expect(hook.received.filter(notBalance)).toHaveLength(1);
    expect(sandbox.webhooks.deliveries).toHaveLength(0);
  });
});

describe('webhook event ids never repeat (receivers dedupe by them)', () => {
  const sequence = (id: string) => parseInt(id.slice('Webhook:'.length, 'Webhook:'.length + 8), 16);
  const testEvent = async (s: ReturnType<typeof sandboxWith>) => {
    await configure(s.call); // again after a reset, which forgets the endpoint
    const before = s.hook.received.length;
    const c = await createCustomer(s.call);
    await s.call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sam@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
      customerId: c.id,
    });
    await s.call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sue@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 200,
      customerId: c.id,
    });
    await s.sandbox.webhooks.flush();
    expect(s.hook.received.length).toBeGreaterThan(before);
    return { ids: s.hook.received.slice(before).map((r) => r.event.id as string), customer: c };
  };

  it('across reset(), and across a restart with the same seed', async () => {
    const a = sandboxWith();
    const first = await testEvent(a);
    a.sandbox.reset();
    const afterReset = await testEvent(a);
    const restarted = await testEvent(sandboxWith()); // a new process: same seed, same resource ids
    expect(restarted.customer.id).toBe(first.customer.id);
    const all = [...first.ids, ...afterReset.ids, ...restarted.ids];
    expect(new Set(all).size).toBe(all.length);
    for (const id of all) expect(id).toMatch(/^Webhook:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(sequence(afterReset.ids[0]!)).toBeGreaterThan(sequence(first.ids.at(-1)!)); // the sequence goes on across reset
  });

  it('a restart from an exported state continues the event sequence', async () => {
    const a = sandboxWith();
    const first = await testEvent(a);
    const state = a.sandbox.exportState();
    expect(state.lastWebhookSequence).toBe(sequence(first.ids.at(-1)!));
    const b = sandboxWith();
    b.sandbox.importState(JSON.stringify(state));
    const later = await testEvent(b);
    expect(sequence(later.ids[0]!)).toBe(sequence(first.ids.at(-1)!) + 1);
    expect(later.ids.filter((id) => first.ids.includes(id))).toEqual([]);
  });
});

describe('payment approval webhook (MAGIC.holdForApprovalAmount, webhookEndpoint set)', () => {
  async function held(statuses: (number | 'throw' | 'hang')[], extra: Record<string, unknown> = {}) {
    // Frozen clock: the 5-second approval window is measured on it, to the millisecond.
    const s = sandboxWith(statuses, extra, { clock: createClock(undefined, { frozen: true }) });
    await configure(s.call);
    const c = await createCustomer(s.call);
    const usd = await accountOf(s.call, c.id, 'USD');
    const tx = (
      await s.call('POST', '/sandbox/uma/receive', {
        senderUmaAddress: '$sam@sandbox.uma.example',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: MAGIC.holdForApprovalAmount,
        customerId: c.id,
      })
    ).body;
    expect(tx.status).toBe('PENDING');
    await s.sandbox.webhooks.flush();
    const now = (await s.call('GET', `/transactions/${tx.id}`)).body;
    return { ...s, tx, now, usd };
  }

  it('200 approves: COMPLETED and credited', async () => {
    const { call, hook, now, usd } = await held([200]);
    expect(now.status).toBe('COMPLETED');
    expect(await balance(call, usd.id)).toBe(MAGIC.holdForApprovalAmount);
    expect(hook.received.map((r) => [r.event.type, r.event.type === BALANCE ? r.event.data.balance.amount : r.event.data.status])).toEqual([
      ['INCOMING_PAYMENT.PENDING', 'PENDING'],
      [BALANCE, MAGIC.holdForApprovalAmount],
      ['INCOMING_PAYMENT.COMPLETED', 'COMPLETED'],
    ]);
  });

  it('403 rejects', async () => {
    const { call, hook, now, usd } = await held([403, 200]);
    expect(now.status).toBe('REJECTED');
    expect(await balance(call, usd.id)).toBe(0);
    expect(hook.received.map((r) => r.event.type)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']);
  });

  it('422 fails with MISSING_MANDATORY_PAYEE_DATA', async () => {
    const { now } = await held([422, 200]);
    expect(now).toMatchObject({ status: 'FAILED', failureReason: 'MISSING_MANDATORY_PAYEE_DATA' });
  });

  it('an error answer or no connection fails with PAYMENT_APPROVAL_WEBHOOK_ERROR, without retrying the approval request', async () => {
    const a = await held([500, 200]);
    expect(a.now).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' });
    expect(a.hook.received.filter((r) => r.event.type === 'INCOMING_PAYMENT.PENDING')).toHaveLength(1);
    const b = await held(['throw', 200]);
    expect(b.now).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' });
  });

  it('no answer in time fails with PAYMENT_APPROVAL_TIMED_OUT', async () => {
    const { now } = await held(['hang', 200], { timeoutMs: 30 });
    expect(now).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
  });

  it('202 defers: /approve within 5 s completes it, else it times out', async () => {
    const first = await held([202, 200]);
    expect(first.now.status).toBe('PENDING');
    const approved = await first.call('POST', `/transactions/${first.tx.id}/approve`);
    expect(approved.body.status).toBe('COMPLETED');
    expect(await balance(first.call, first.usd.id)).toBe(MAGIC.holdForApprovalAmount);

    const second = await held([202, 200]);
    second.sandbox.clock.advance(4_999);
    expect((await second.call('GET', `/transactions/${second.tx.id}`)).body.status).toBe('PENDING');
    second.sandbox.clock.advance(1);
    expect((await second.call('GET', `/transactions/${second.tx.id}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    const late = await second.call('POST', `/transactions/${second.tx.id}/approve`);
    expect(late.status).toBe(409);
    await second.sandbox.webhooks.flush();
    expect(second.hook.received.map((r) => r.event.type)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']);
  });
});

describe('listeners attached beside the endpoint, and hostile receivers (issue 32)', () => {
  const auth = { authorization: `Basic ${btoa('a:b')}`, 'content-type': 'application/json' };

  /** A receiver over HTTP on 127.0.0.1 answering `status` (or `answer` itself); the event types it got. */
  async function receiverAt(status: number, answer?: (res: import('node:http').ServerResponse) => void) {
    const types: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        types.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string }).type);
        if (answer) answer(res);
        else res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, types };
  }

  /** A sandbox served over HTTP (the listener's held connection needs one). */
  async function served() {
    const s = setup({ webhookDelivery: { initialBackoffMs: 10, maxAttempts: 3, timeoutMs: 2_000 } });
    cleanups.push(() => s.sandbox.close());
    const server = await s.sandbox.listen();
    return { ...s, base: server.url };
  }

  /** Attaches `url` over HTTP; the listener id and the abort that closes its connection. */
  async function attach(base: string, url: string, approvals: 'answer' | 'observe') {
    const held = new AbortController();
    const res = await fetch(`${base}/_sandbox/webhooks/listeners`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url, approvals }),
      signal: held.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    const listener = JSON.parse(/event: attached\ndata: (.*)\n/.exec(text)![1]!) as { id: string; url: string; approvals: string };
    cleanups.push(() => held.abort());
    return { listener, detach: () => held.abort() };
  }

  const triggerTest = async (base: string) =>
    expect((await fetch(`${base}/_sandbox/webhooks/trigger`, { method: 'POST', headers: auth, body: '{"type":"TEST"}' })).status).toBe(200);
  const listed = async (base: string) =>
    (await (await fetch(`${base}/_sandbox/webhooks/listeners`, { headers: auth })).json()) as { endpoint: string | null; data: { id: string }[] };

  async function heldPayment(call: ReturnType<typeof setup>['call']) {
    const c = await createCustomer(call);
    const tx = (
      await call('POST', '/sandbox/uma/receive', {
        senderUmaAddress: '$sam@sandbox.uma.example',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: MAGIC.holdForApprovalAmount,
        customerId: c.id,
      })
    ).body;
    expect(tx.status).toBe('PENDING');
    return tx as { id: string };
  }

  it('the configured endpoint decides an approval; a listener gets the request too and its 200 decides nothing', async () => {
    const { sandbox, call, base } = await served();
    const endpoint = await receiverAt(403);
    const listening = await receiverAt(200);
    await configure(call, endpoint.url);
    await attach(base, listening.url, 'answer');
    const tx = await heldPayment(call);
    await sandbox.webhooks.flush();
    expect((await call('GET', `/transactions/${tx.id}`)).body.status).toBe('REJECTED');
    expect(endpoint.types[0]).toBe('INCOMING_PAYMENT.PENDING');
    expect(listening.types[0]).toBe('INCOMING_PAYMENT.PENDING');
    expect((await call('GET', '/config')).body.webhookEndpoint).toBe(endpoint.url);
  });

  it('without an endpoint the first answering listener decides; an observing one never does (the payment waits for /approve)', async () => {
    const a = await served();
    const approving = await receiverAt(200);
    await attach(a.base, approving.url, 'answer');
    const approved = await heldPayment(a.call);
    await a.sandbox.webhooks.flush();
    expect((await a.call('GET', `/transactions/${approved.id}`)).body.status).toBe('COMPLETED');

    const b = await served();
    const observing = await receiverAt(200);
    await attach(b.base, observing.url, 'observe');
    const waiting = await heldPayment(b.call);
    await b.sandbox.webhooks.flush();
    expect(observing.types).toEqual(['INCOMING_PAYMENT.PENDING']); // it was asked, answered 200, decided nothing
    expect((await b.call('GET', `/transactions/${waiting.id}`)).body.status).toBe('PENDING');
    expect((await b.call('POST', `/transactions/${waiting.id}/approve`)).body.status).toBe('COMPLETED');
  });

  it('closing the held connection detaches the listener at once: it gets nothing more, the endpoint still does', async () => {
    const { sandbox, call, base } = await served();
    const endpoint = await receiverAt(200);
    const listening = await receiverAt(200);
    await configure(call, endpoint.url);
    const { listener, detach } = await attach(base, listening.url, 'answer');
    expect(await listed(base)).toEqual({
      endpoint: endpoint.url,
      data: [expect.objectContaining({ id: listener.id, url: listening.url, approvals: 'answer' })],
    });
    await createCustomer(call, { address: undefined }); // UNVERIFIED: no event yet
    detach();
    const deadline = Date.now() + 2_000;
    while ((await listed(base)).data.length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect((await listed(base)).data).toEqual([]);
    await triggerTest(base);
    await sandbox.webhooks.flush();
    expect(endpoint.types).toEqual(['TEST']);
    expect(listening.types).toEqual([]);
    expect(sandbox.webhooks.deliveries.map((d) => d.endpoint)).toEqual([endpoint.url]);
  });

  it('refuses a listener without an http(s) url, naming the field, and one asked for in-process (no connection to hold)', async () => {
    const { base, sandbox } = await served();
    const inProcess = await sandbox.fetch('http://sandbox.test/_sandbox/webhooks/listeners', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: 'http://127.0.0.1:1/x' }),
    });
    expect(inProcess.status).toBe(400);
    expect((await listed(base)).data).toEqual([]);
    for (const body of [{}, { url: 'file:///etc/passwd' }, { url: 'http://127.0.0.1:1/x', approvals: 'decide' }]) {
      const res = await fetch(`${base}/_sandbox/webhooks/listeners`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { details: { field: string } }).details.field).toBe('approvals' in body ? 'approvals' : 'url');
    }
  });

  it('an endpoint that answers without end: the answer is cut at 64 KiB and the delivery finishes', async () => {
    const { sandbox, call, base } = await served();
    const endless = await receiverAt(200, (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    await configure(call, endless.url);
    await triggerTest(base);
    await sandbox.webhooks.flush();
    const [delivery] = sandbox.webhooks.deliveries;
    expect([
      delivery!.state,
      delivery!.attempts.length,
      delivery!.attempts[0]!.status,
      delivery!.attempts[0]!.responseTruncated,
      delivery!.attempts[0]!.response!.length,
    ]).toEqual(['delivered', 1, 200, true, 4096]);
  });

  it('a 3xx is a failed attempt: the signed body never goes to the Location', async () => {
    const { sandbox, call, base } = await served();
    const elsewhere = await receiverAt(200);
    const redirecting = await receiverAt(307, (res) => res.writeHead(307, { location: elsewhere.url }).end());
    await configure(call, redirecting.url);
    await triggerTest(base);
    await sandbox.webhooks.flush();
    const [delivery] = sandbox.webhooks.deliveries;
    expect(delivery!.state).toBe('failed');
    expect(delivery!.attempts.map((a) => [a.status, a.error])).toEqual(
      Array(3).fill([307, `a redirect (307 to ${elsewhere.url}) is not followed: the delivery failed`]),
    );
    expect(elsewhere.types).toEqual([]);
  });
});

describe('readBounded (the one bounded reader of listen and the delivery)', () => {
  it('keeps at most the limit of an endless Fetch body or Node stream and cancels the rest; drains a finite one when asked', async () => {
    const { readBounded } = await import('../../src/core/read-bounded');
    const { Readable } = await import('node:stream');
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => {
        pulled++;
        c.enqueue(new Uint8Array(1000).fill(7));
      },
      cancel: () => void (cancelled = true),
    });
    const web = await readBounded(endless, 2_500);
    expect([web.bytes.length, web.cut, cancelled, pulled < 10, web.bytes[2_499]]).toEqual([2_500, true, true, true, 7]);
    const node = Readable.from(
      (function* () {
        for (;;) yield Buffer.alloc(1000, 1);
      })(),
    );
    const fromNode = await readBounded(node, 1_500);
    expect([fromNode.bytes.length, fromNode.cut, node.destroyed]).toEqual([1_500, true, true]);
    let seen = 0;
    const finite = Readable.from(
      (function* () {
        for (let i = 0; i < 5; i++) {
          seen++;
          yield Buffer.alloc(1000, 2);
        }
      })(),
    );
    const drained = await readBounded(finite, 1_500, { rest: 'drain' });
    expect([drained.bytes.length, drained.cut, seen]).toEqual([1_500, true, 5]);
    const whole = await readBounded(new Response('hello').body, 10);
    expect([new TextDecoder().decode(whole.bytes), whole.cut]).toEqual(['hello', false]);
  });
});
