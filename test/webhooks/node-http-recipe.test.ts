/**
 * The Node `http` recipe (examples/webhooks/node-http.ts) when a delivery is cut off mid-body: reading the request
 * fails, and that failure must be answered inside the handler. Left to the async handler Node calls and does not
 * wait for, it became an unhandled rejection, which ends a Node process by default.
 */
import { request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Crossborder } from 'crossborder-sdk';
import { signWebhook } from 'crossborder-sdk/sandbox';
import { afterEach, expect, it } from 'vitest';
import { createWebhookServer } from '../../examples/webhooks/node-http';
import { eventBody, testKeys } from './helpers';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

it('a delivery cut off mid-body leaves no unhandled rejection, and the server goes on answering', async () => {
  const keys = await testKeys();
  const cb = new Crossborder({ tokenId: 'x', clientSecret: 'x', baseUrl: 'http://127.0.0.1:9', webhookPublicKey: keys.publicKeyPem });
  const handled: unknown[] = [];
  server = createWebhookServer(cb, async (event) => void handled.push(event));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', listener);
  try {
    // The request announces 1,000 bytes, sends 10, and its connection is destroyed once the server has it.
    const arrived = new Promise<IncomingMessage>((resolve) => server!.once('request', resolve));
    const cut = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/webhooks',
      headers: { 'content-type': 'application/json', 'content-length': '1000' },
    });
    cut.on('error', () => undefined); // the socket destroyed below
    cut.write('{"id":"We');
    const req = await arrived;
    const closed = new Promise<void>((resolve) => req.once('close', () => resolve()));
    cut.destroy();
    await closed;
    // A rejection is reported after the microtasks of its turn: a few turns of the loop, bounded.
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', listener);
  }

  // Still serving: a signed delivery is handled (200), an unsigned one refused (400).
  const body = eventBody();
  const post = (headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  expect((await post({ 'x-service-signature': await signWebhook(body, keys.privateKeyPem) })).status).toBe(200);
  expect((await post({})).status).toBe(400);
  expect(handled).toHaveLength(1);
});
