import { dedupe, MemoryDedupeStore, unwrap, WebhookVerificationError, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk/webhooks';

// One store per process; with several instances use a shared store (RedisDedupeStore: one atomic claim per id).
const store = new MemoryDedupeStore();

// A Cloudflare or Vercel worker, Deno or Bun that only receives webhooks: the service's public key, no client.
// export default { fetch: (request, env) => createReceiver(env.CROSSBORDER_WEBHOOK_PUBLIC_KEY, onEvent)(request) };
export function createReceiver(publicKey: string, onEvent: (event: WebhookEvent | UnknownEvent) => Promise<void>) {
  return async (request: Request): Promise<Response> => {
    let event: WebhookEvent | UnknownEvent;
    try {
      // Pass the Request itself: its headers are read from it, its exact bytes from a clone.
      event = await unwrap(request, undefined, { publicKey });
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) return new Response(null, { status: 500 }); // ours: the service retries
      console.warn(`webhook refused (${err.reason}): ${err.message}`); // which check failed, e.g. invalid_signature
      return new Response(null, { status: 400 });
    }
    const { duplicate, stale } = await dedupe(event, store);
    if (duplicate || stale) return new Response(null, { status: 200 }); // handled before, or a replay over 24 h old
    try {
      await onEvent(event);
    } catch {
      store.delete(event.id); // forget it, so the service's retry runs it again
      return new Response(null, { status: 500 });
    }
    return new Response(null, { status: 200 });
  };
}
