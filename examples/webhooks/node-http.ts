import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { WebhookVerificationError, type Crossborder, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk';
import { handleOnce } from './handle-once.js';

// cb = new Crossborder(): the service's key comes from CROSSBORDER_WEBHOOK_PUBLIC_KEY (or { webhookPublicKey }).
export function createWebhookServer(cb: Crossborder, onEvent: (event: WebhookEvent | UnknownEvent) => Promise<void>) {
  async function receive(req: IncomingMessage, res: ServerResponse) {
    try {
      // Collect the raw bytes: the signature covers exactly these.
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const event = await cb.webhooks.unwrap(Buffer.concat(chunks), req.headers);
      await handleOnce(event, onEvent);
      res.writeHead(200).end();
    } catch (err) {
      // 400: failed verification, logged with the check that failed (a stale key says invalid_signature);
      // 500: our own failure, or a delivery cut off mid-body (the service retries any non-2xx).
      if (!(err instanceof WebhookVerificationError)) return void res.writeHead(500).end();
      console.warn(`webhook refused (${err.reason}): ${err.message}`);
      res.writeHead(400).end();
    }
  }
  // Node does not wait for an async handler: every failure is answered inside receive(), none is left unhandled.
  return createServer((req, res) => void receive(req, res));
}
