import { Hono } from 'hono';
import { WebhookVerificationError, type Crossborder, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk';
import { handleOnce } from './handle-once.js';

export function createWebhookApp(cb: Crossborder, onEvent: (event: WebhookEvent | UnknownEvent) => Promise<void>) {
  const app = new Hono();
  app.post('/webhooks', async (c) => {
    try {
      // c.req.raw is the Fetch Request; do not call c.req.json() first, the raw bytes are what is signed.
      const event = await cb.webhooks.unwrap(c.req.raw);
      await handleOnce(event, onEvent);
      return c.body(null, 200);
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) return c.body(null, 500); // ours: the service retries
      console.warn(`webhook refused (${err.reason}): ${err.message}`); // which check failed, e.g. invalid_signature
      return c.body(null, 400);
    }
  });
  return app;
}
