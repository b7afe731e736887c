/**
 * The webhook recipes of docs/webhooks.md (examples/webhooks/*, importing `crossborder-sdk` by name),
 * each over HTTP on 127.0.0.1: deliveries signed like the service signs them (both header forms), and
 * real deliveries from the local sandbox's webhook sender.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Crossborder, type IncomingTransaction, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk';
import { createSandbox, generateWebhookKeyPair, signWebhook, type WebhookKeyPair } from 'crossborder-sdk/sandbox';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApprovalHandler, type Decision } from '../../examples/webhooks/approval';
import { createWebhookApp as createExpressApp } from '../../examples/webhooks/express';
import { createWebhookApp as createFastifyApp } from '../../examples/webhooks/fastify';
import { createWebhookHandler } from '../../examples/webhooks/fetch';
import { createWebhookApp as createHonoApp } from '../../examples/webhooks/hono';
import { createWebhookServer } from '../../examples/webhooks/node-http';
import { createReceiver } from '../../examples/webhooks/receiver';
import { onEvent as loggingOnEvent } from '../../examples/webhooks/on-event';
import { eventBody, testKeys } from './helpers';

type Event = WebhookEvent | UnknownEvent;
type OnEvent = (event: Event) => Promise<void>;
type Recipe = { name: string; start: (cb: Crossborder, onEvent: OnEvent) => Promise<Server> };

const listening = (server: Server) =>
  server.listening ? Promise.resolve(server) : new Promise<Server>((resolve, reject) => server.once('listening', () => resolve(server)).once('error', reject));

const recipes: Recipe[] = [
  { name: 'node http', start: async (cb, onEvent) => listening(createWebhookServer(cb, onEvent).listen(0, '127.0.0.1')) },
  { name: 'express', start: async (cb, onEvent) => listening(createExpressApp(cb, onEvent).listen(0, '127.0.0.1')) },
  {
    name: 'fastify',
    start: async (cb, onEvent) => {
      const app = createFastifyApp(cb, onEvent);
      await app.listen({ port: 0, host: '127.0.0.1' });
      return app.server;
    },
  },
  {
    name: 'fetch handler (Next.js route)',
    start: async (cb, onEvent) => listening(serve({ fetch: createWebhookHandler(cb, onEvent), port: 0, hostname: '127.0.0.1' }) as Server),
  },
  { name: 'hono', start: async (cb, onEvent) => listening(serve({ fetch: createHonoApp(cb, onEvent).fetch, port: 0, hostname: '127.0.0.1' }) as Server) },
  // crossborder-sdk/webhooks: the client's key only, no client in the receiver.
  {
    name: 'receiver without the client (crossborder-sdk/webhooks)',
    start: async (cb, onEvent) => listening(serve({ fetch: createReceiver(cb.webhookPublicKey!, onEvent), port: 0, hostname: '127.0.0.1' }) as Server),
  },
];

const servers: Server[] = [];
let keys: WebhookKeyPair;
beforeAll(async () => {
  keys = await testKeys();
});
afterAll(async () => {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
});

function urlOf(server: Server): string {
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

async function post(url: string, body: string, signature?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['x-service-signature'] = signature;
  // Bounded: a hung handler fails the test instead of stalling the run.
  return fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(5000) });
}

const withoutIssues = ({ issues: _, ...event }: Event & { issues?: unknown }) => event;

describe.each(recipes)('recipe: $name', ({ start }) => {
  const seen: Event[] = [];
  let failNext = false;
  let url: string;
  beforeAll(async () => {
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', webhookPublicKey: (await testKeys()).publicKeyPem });
    url = urlOf(
      await start(cb, async (event) => {
        if (failNext) {
          failNext = false;
          throw new Error('database down');
        }
        seen.push(event);
      }),
    );
  });

  it('answers 200 to a signed delivery (versioned and bare header) and hands the typed event to the handler', async () => {
    for (const format of ['versioned', 'bare'] as const) {
      const body = eventBody({ type: 'INCOMING_PAYMENT.COMPLETED' });
      const res = await post(url, body, await signWebhook(body, keys.privateKeyPem, { format }));
      expect(res.status).toBe(200);
      expect(withoutIssues(seen.at(-1)!)).toEqual(JSON.parse(body));
    }
  });

  it('acknowledges a redelivery without handling it twice', async () => {
    const body = eventBody();
    const signature = await signWebhook(body, keys.privateKeyPem);
    const before = seen.length;
    expect((await post(url, body, signature)).status).toBe(200);
    expect((await post(url, body, signature)).status).toBe(200);
    expect(seen.length).toBe(before + 1);
  });

  it('answers 400 to a tampered or unsigned delivery, and does not handle it', async () => {
    const body = eventBody();
    const signature = await signWebhook(body, keys.privateKeyPem);
    const tampered = body.replace('"COMPLETED"', '"COMPLETEE"');
    expect(tampered).not.toBe(body);
    const before = seen.length;
    expect((await post(url, tampered, signature)).status).toBe(400);
    expect((await post(url, body)).status).toBe(400);
    expect(seen.length).toBe(before);
  });

  it('logs why it refused a delivery: err.reason (a stale key: invalid_signature; no header: missing_header)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const body = eventBody();
      const staleKey = await generateWebhookKeyPair();
      expect((await post(url, body, await signWebhook(body, staleKey.privateKeyPem))).status).toBe(400);
      expect((await post(url, body)).status).toBe(400);
      const lines = warn.mock.calls.map((args) => args.join(' '));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^webhook refused \(invalid_signature\): /);
      expect(lines[1]).toMatch(/^webhook refused \(missing_header\): /);
    } finally {
      warn.mockRestore();
    }
  });

  it('answers 500 when the handler fails, and handles the retry', async () => {
    const body = eventBody();
    const signature = await signWebhook(body, keys.privateKeyPem);
    failNext = true;
    expect((await post(url, body, signature)).status).toBe(500);
    expect((await post(url, body, signature)).status).toBe(200);
    expect(seen.at(-1)?.id).toBe(JSON.parse(body).id);
  });
});

describe.each(recipes.map((recipe, i) => ({ ...recipe, seed: 100 + i })))('recipe: $name, with deliveries from the local sandbox', ({ start, seed }) => {
  it('handles each event the sandbox sends exactly once, and the sandbox sees 200', async () => {
    // A seed of its own: event ids differ from the other recipes' (the recipes share one dedupe store).
    const sandbox = createSandbox({ seed });
    try {
      const seen: Event[] = [];
      const cb = new Crossborder({
        tokenId: 't',
        clientSecret: 's',
        environment: 'sandbox',
        fetch: sandbox.fetch,
        webhookPublicKey: sandbox.webhookPublicKey.pem,
      });
      const url = urlOf(await start(cb, async (event) => void seen.push(event)));
      await cb.config.update({ webhookEndpoint: url });
      const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', currencies: ['USD'], fullName: 'Ada Lovelace' });
      await cb.sandbox.receiveUmaPayment({
        senderUmaAddress: '$sender@sandbox.example',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 1_000,
        customerId: customer.id,
      });
      await sandbox.webhooks.flush();
      const deliveries = sandbox.webhooks.deliveries;
      expect(deliveries.length).toBeGreaterThan(0);
      expect(deliveries.every((d) => d.attempts.at(-1)?.status === 200)).toBe(true);
      expect(seen.map((e) => e.type).sort()).toEqual(deliveries.map((d) => d.type).sort());
      expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    } finally {
      await sandbox.close();
    }
  });
});

describe('recipe: payment approval', () => {
  let url: string;
  beforeAll(async () => {
    const decide = async (tx: IncomingTransaction): Promise<Decision> => {
      if (tx.description === 'needs name') return { approve: false, missingFields: ['FULL_NAME'] };
      if (tx.description === 'blocked') return { approve: false, reason: 'sanctions match' };
      return { approve: true, receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } };
    };
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', webhookPublicKey: (await testKeys()).publicKeyPem });
    url = urlOf(await listening(serve({ fetch: createApprovalHandler(cb, decide), port: 0, hostname: '127.0.0.1' }) as Server));
  });

  async function deliver(description: string, type = 'INCOMING_PAYMENT.PENDING') {
    const body = eventBody({ type, data: { id: 'Transaction:9', status: 'PENDING', description } });
    const res = await post(url, body, await signWebhook(body, keys.privateKeyPem));
    const text = await res.text();
    return { status: res.status, contentType: res.headers.get('content-type'), body: text ? JSON.parse(text) : undefined };
  }

  it('approves with 200 and the receiver info, even when the payment data lacks fields the document lists', async () => {
    expect(await deliver('ok')).toEqual({
      status: 200,
      contentType: 'application/json',
      body: { receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } },
    });
  });

  it('rejects with 403 and an error body', async () => {
    expect(await deliver('blocked')).toMatchObject({
      status: 403,
      body: { status: 403, code: 'PAYMENT_REJECTED', message: 'sanctions match' },
    });
  });

  it('asks for counterparty fields with 422', async () => {
    expect(await deliver('needs name')).toMatchObject({
      status: 422,
      body: { code: 'COUNTERPARTY_INFO_REQUIRED', details: { requiredCounterpartyFields: ['FULL_NAME'] } },
    });
  });

  it('acknowledges other event types with 200 and refuses forged deliveries with 400, logging the reason', async () => {
    expect((await deliver('ok', 'INCOMING_PAYMENT.COMPLETED')).status).toBe(200);
    const body = eventBody({ type: 'INCOMING_PAYMENT.PENDING', data: { description: 'ok' } });
    const other = await signWebhook(eventBody(), keys.privateKeyPem);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect((await post(url, body, other)).status).toBe(400);
      expect(warn.mock.calls.map((args) => args.join(' '))).toEqual([expect.stringMatching(/^webhook refused \(invalid_signature\): /)]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('docs/webhooks.md "Handle each type" (examples/webhooks/on-event.ts)', () => {
  async function handled(type: string, data: Record<string, unknown>): Promise<string[]> {
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', webhookPublicKey: keys.publicKeyPem });
    const body = eventBody({ type, data });
    const event = await cb.webhooks.unwrap(body, { 'x-service-signature': await signWebhook(body, keys.privateKeyPem) });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await loggingOnEvent(event);
      return log.mock.calls.map((args) => args.join(' '));
    } finally {
      log.mockRestore();
    }
  }

  it('reads the narrowed data of a known type', async () => {
    expect(await handled('OUTGOING_PAYMENT.COMPLETED', { id: 'Transaction:1', status: 'COMPLETED' })).toEqual(['payout Transaction:1 COMPLETED']);
    expect(await handled('INCOMING_PAYMENT.COMPLETED', { id: 'Transaction:2', receivedAmount: { amount: 1000, currency: { code: 'USD' } } })).toEqual([
      'received Transaction:2: 1000',
    ]);
  });

  it('reaches an event of a type the SDK does not know, with its type as sent', async () => {
    expect(await handled('PAYOUT.SCHEDULED', { id: 'Payout:1' })).toEqual(['event type this SDK does not know yet: PAYOUT.SCHEDULED']);
  });
});
