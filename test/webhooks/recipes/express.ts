import express from 'express';
import { unwrapWebhook, WebhookVerificationError, type WebhookEnvelope } from '../../../src/webhooks/index';
import { handleOnce } from './handle-once';

export function createWebhookApp(publicKey: string, onEvent: (event: WebhookEnvelope) => Promise<void>) {
  const app = express();
  // express.raw keeps the body as a Buffer; express.json would re-serialize it and break the signature.
  app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
    try {
      const event = await unwrapWebhook(req.body, req.headers, { publicKey });
      await handleOnce(event, onEvent);
      res.sendStatus(200);
    } catch (err) {
      res.sendStatus(err instanceof WebhookVerificationError ? 400 : 500);
    }
  });
  return app;
}
