// @ts-nocheck
import { Hono } from 'hono';
import { WebhookVerificationError, type Crossborder, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk';
import { handleOnce } from './handle-once';

export function createWebhookApp(cb: Crossborder, onEvent: (event: WebhookEvent | UnknownEvent) => Promise<void>) {
  const app = new Hono();
  app.post('/webhooks', async (c) => {
    try {
      // c.req.raw is the Fetch Request; do not call c.req.json() first, the raw bytes are what is signed.
      const event = await cb.webhooks.unwrap(c.req.raw);
      await handleOnce(event, onEvent);
      return c.body(null, 200);
    } catch (err) {
      return c.body(null, err instanceof WebhookVerificationError ? 400 : 500);
    }
  });
  return app;
}
