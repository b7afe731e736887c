import { WebhookVerificationError, type Crossborder, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk';
import { handleOnce } from './handle-once.js';

// Next.js (app/api/webhooks/route.ts): export const POST = createWebhookHandler(new Crossborder(), onEvent);
export function createWebhookHandler(cb: Crossborder, onEvent: (event: WebhookEvent | UnknownEvent) => Promise<void>) {
  return async (request: Request): Promise<Response> => {
    try {
      // Pass the Request itself: the SDK reads the exact bytes from a clone.
      const event = await cb.webhooks.unwrap(request);
      await handleOnce(event, onEvent);
      return new Response(null, { status: 200 });
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) return new Response(null, { status: 500 }); // ours: the service retries
      console.warn(`webhook refused (${err.reason}): ${err.message}`); // which check failed, e.g. invalid_signature
      return new Response(null, { status: 400 });
    }
  };
}
