import { createServer } from 'node:http';
import { unwrapWebhook, WebhookVerificationError, type WebhookEnvelope } from '../../../src/webhooks/index';
import { handleOnce } from './handle-once';

export function createWebhookServer(publicKey: string, onEvent: (event: WebhookEnvelope) => Promise<void>) {
  return createServer(async (req, res) => {
    // Collect the raw bytes: the signature covers exactly these.
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const event = await unwrapWebhook(Buffer.concat(chunks), req.headers, { publicKey });
      await handleOnce(event, onEvent);
      res.writeHead(200).end();
    } catch (err) {
      // 400: failed verification; 500: our own failure (the service retries any non-2xx).
      res.writeHead(err instanceof WebhookVerificationError ? 400 : 500).end();
    }
  });
}
