import express from 'express';
import { WebhookVerificationError, type Crossborder, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk';
import { handleOnce } from './handle-once.js';

export function createWebhookApp(cb: Crossborder, onEvent: (event: WebhookEvent | UnknownEvent) => Promise<void>) {
  const app = express();
  // express.raw keeps the body as a Buffer; express.json would re-serialize it and break the signature.
  app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
    try {
      const event = await cb.webhooks.unwrap(req.body, req.headers);
      await handleOnce(event, onEvent);
      res.sendStatus(200);
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) return void res.sendStatus(500); // ours: the service retries
      console.warn(`webhook refused (${err.reason}): ${err.message}`); // which check failed, e.g. invalid_signature
      res.sendStatus(400);
    }
  });
  return app;
}
