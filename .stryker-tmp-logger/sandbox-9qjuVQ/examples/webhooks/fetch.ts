// @ts-nocheck
import { WebhookVerificationError, type Crossborder, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk';
import { handleOnce } from './handle-once';

// Next.js (app/api/webhooks/route.ts): export const POST = createWebhookHandler(new Crossborder(), onEvent);
export function createWebhookHandler(cb: Crossborder, onEvent: (event: WebhookEvent | UnknownEvent) => Promise<void>) {
  return async (request: Request): Promise<Response> => {
    try {
      // Pass the Request itself: the SDK reads the exact bytes from a clone.
      const event = await cb.webhooks.unwrap(request);
      await handleOnce(event, onEvent);
      return new Response(null, { status: 200 });
    } catch (err) {
      return new Response(null, { status: err instanceof WebhookVerificationError ? 400 : 500 });
    }
  };
}
