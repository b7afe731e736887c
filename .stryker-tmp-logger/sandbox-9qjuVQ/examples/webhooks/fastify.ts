// @ts-nocheck
import Fastify from 'fastify';
import { WebhookVerificationError, type Crossborder, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk';
import { handleOnce } from './handle-once';

export function createWebhookApp(cb: Crossborder, onEvent: (event: WebhookEvent | UnknownEvent) => Promise<void>) {
  const app = Fastify();
  // Fastify's default JSON parser hands over an object: re-serializing it breaks the signature.
  // Keep the raw bytes instead (a Buffer) for application/json.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.post('/webhooks', async (request, reply) => {
    try {
      const event = await cb.webhooks.unwrap(request.body as Buffer, request.headers);
      await handleOnce(event, onEvent);
      return reply.code(200).send();
    } catch (err) {
      return reply.code(err instanceof WebhookVerificationError ? 400 : 500).send();
    }
  });
  return app;
}
