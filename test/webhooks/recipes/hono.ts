import { Hono } from 'hono';
import { unwrapWebhook, WebhookVerificationError, type WebhookEnvelope } from '../../../src/webhooks/index';
import { handleOnce } from './handle-once';

export function createWebhookApp(publicKey: string, onEvent: (event: WebhookEnvelope) => Promise<void>) {
  const app = new Hono();
  app.post('/webhooks', async (c) => {
    try {
      // c.req.raw is the Fetch Request; do not call c.req.json() first, the raw bytes are what is signed.
      const event = await unwrapWebhook(c.req.raw, c.req.raw.headers, { publicKey });
      await handleOnce(event, onEvent);
      return c.body(null, 200);
    } catch (err) {
      return c.body(null, err instanceof WebhookVerificationError ? 400 : 500);
    }
  });
  return app;
}
