import Fastify from 'fastify';
import { WebhookVerificationError, type Crossborder, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk';
import { handleOnce } from './handle-once.js';

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
      if (!(err instanceof WebhookVerificationError)) return reply.code(500).send(); // ours: the service retries
      console.warn(`webhook refused (${err.reason}): ${err.message}`); // which check failed, e.g. invalid_signature
      return reply.code(400).send();
    }
  });
  return app;
}
