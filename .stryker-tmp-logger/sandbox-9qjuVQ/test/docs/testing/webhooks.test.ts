// @ts-nocheck
import { Crossborder, WebhookVerificationError } from 'crossborder-sdk';
import { generateWebhookKeyPair, signWebhook } from 'crossborder-sdk/sandbox';
import { expect, it } from 'vitest';

/** The handler under test (yours lives in your app): verify, then act; 400 when verification fails. */
function webhookHandler(cb: Crossborder, handled: string[]) {
  return async (request: Request): Promise<Response> => {
    try {
      const event = await cb.webhooks.unwrap(request, request.headers);
      handled.push(event.id);
      return new Response(null, { status: 200 });
    } catch (err) {
      return new Response(null, { status: err instanceof WebhookVerificationError ? 400 : 500 });
    }
  };
}

it('accepts a delivery signed by the service and refuses a tampered one', async () => {
  const keys = await generateWebhookKeyPair(); // the test plays the service
  const cb = new Crossborder({ tokenId: 'test', clientSecret: 'test', webhookPublicKey: keys.publicKeyPem });
  const handled: string[] = [];
  const handle = webhookHandler(cb, handled);
  const body = JSON.stringify({ id: 'Webhook:1', type: 'TEST', timestamp: new Date().toISOString(), data: { message: 'hello' } });
  const deliver = async (sent: string, signature: string) =>
    (await handle(new Request('http://127.0.0.1/webhooks', { method: 'POST', body: sent, headers: { 'X-Service-Signature': signature } }))).status;

  const signature = await signWebhook(body, keys.privateKeyPem);
  expect(await deliver(body, signature)).toBe(200);
  expect(await deliver(body.replace('hello', 'hellO'), signature)).toBe(400); // one byte changed
  expect(handled).toEqual(['Webhook:1']);
});
