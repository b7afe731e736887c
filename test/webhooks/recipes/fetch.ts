import { unwrapWebhook, WebhookVerificationError, type WebhookEnvelope } from '../../../src/webhooks/index';
import { handleOnce } from './handle-once';

// Next.js (app/api/webhooks/route.ts): export const POST = createWebhookHandler(key, onEvent);
export function createWebhookHandler(publicKey: string, onEvent: (event: WebhookEnvelope) => Promise<void>) {
  return async (request: Request): Promise<Response> => {
    try {
      // Pass the Request itself: the SDK reads the exact bytes from a clone.
      const event = await unwrapWebhook(request, request.headers, { publicKey });
      await handleOnce(event, onEvent);
      return new Response(null, { status: 200 });
    } catch (err) {
      return new Response(null, { status: err instanceof WebhookVerificationError ? 400 : 500 });
    }
  };
}
