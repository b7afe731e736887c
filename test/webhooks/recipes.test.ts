import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook, type WebhookEnvelope, type WebhookKeyPair } from '../../src/webhooks/index';
import { createApprovalHandler, type Decision } from './recipes/approval';
import { createWebhookApp as createExpressApp } from './recipes/express';
import { createWebhookHandler } from './recipes/fetch';
import { createWebhookApp as createHonoApp } from './recipes/hono';
import { createWebhookServer } from './recipes/node-http';
import { eventBody, testKeys } from './helpers';

type OnEvent = (event: WebhookEnvelope) => Promise<void>;
type Recipe = { name: string; start: (publicKey: string, onEvent: OnEvent) => Server };

const recipes: Recipe[] = [
  { name: 'node http', start: (key, onEvent) => createWebhookServer(key, onEvent).listen(0, '127.0.0.1') },
  { name: 'express', start: (key, onEvent) => createExpressApp(key, onEvent).listen(0, '127.0.0.1') },
  {
    name: 'fetch handler',
    start: (key, onEvent) =>
      serve({ fetch: createWebhookHandler(key, onEvent), port: 0, hostname: '127.0.0.1' }) as Server,
  },
  {
    name: 'hono',
    start: (key, onEvent) => serve({ fetch: createHonoApp(key, onEvent).fetch, port: 0, hostname: '127.0.0.1' }) as Server,
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

async function listen(server: Server): Promise<string> {
  servers.push(server);
  if (!server.listening) await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

async function post(url: string, body: string, signature?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['x-service-signature'] = signature;
  // Bounded: a hung handler fails the test instead of stalling the run.
  return fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(5000) });
}

describe.each(recipes)('recipe: $name', ({ start }) => {
  const seen: WebhookEnvelope[] = [];
  let failNext = false;
  let url: string;
  beforeAll(async () => {
    url = await listen(
      start((await testKeys()).publicKeyPem, async (event) => {
        if (failNext) {
          failNext = false;
          throw new Error('database down');
        }
        seen.push(event);
      }),
    );
  });

  it('answers 200 to a signed delivery and hands the typed event to the handler', async () => {
    const body = eventBody({ type: 'INCOMING_PAYMENT.COMPLETED' });
    const res = await post(url, body, await signWebhook(body, keys.privateKeyPem));
    expect(res.status).toBe(200);
    expect(seen.at(-1)).toEqual(JSON.parse(body));
    expect(seen.at(-1)?.type).toBe('INCOMING_PAYMENT.COMPLETED');
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

  it('answers 500 when the handler fails, and handles the retry', async () => {
    const body = eventBody();
    const signature = await signWebhook(body, keys.privateKeyPem);
    failNext = true;
    expect((await post(url, body, signature)).status).toBe(500);
    expect((await post(url, body, signature)).status).toBe(200);
    expect(seen.at(-1)?.id).toBe(JSON.parse(body).id);
  });
});

describe('recipe: payment approval', () => {
  let url: string;
  beforeAll(async () => {
    const decide = async (tx: Record<string, unknown>): Promise<Decision> => {
      if (tx.description === 'needs name') return { approve: false, missingFields: ['FULL_NAME'] };
      if (tx.description === 'blocked') return { approve: false, reason: 'sanctions match' };
      return { approve: true, receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } };
    };
    const handler = createApprovalHandler((await testKeys()).publicKeyPem, decide);
    url = await listen(serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }) as Server);
  });

  async function deliver(description: string, type = 'INCOMING_PAYMENT.PENDING') {
    const body = eventBody({ type, data: { id: 'Transaction:9', status: 'PENDING', description } });
    const res = await post(url, body, await signWebhook(body, keys.privateKeyPem));
    const text = await res.text();
    return { status: res.status, contentType: res.headers.get('content-type'), body: text ? JSON.parse(text) : undefined };
  }

  it('approves with 200 and the receiver info', async () => {
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

  it('acknowledges other event types with 200 and refuses forged deliveries with 400', async () => {
    expect((await deliver('ok', 'INCOMING_PAYMENT.COMPLETED')).status).toBe(200);
    const body = eventBody({ type: 'INCOMING_PAYMENT.PENDING', data: { description: 'ok' } });
    const other = await signWebhook(eventBody(), keys.privateKeyPem);
    expect((await post(url, body, other)).status).toBe(400);
  });
});
