import { CrossborderCore, Webhooks, WebhookVerificationError, type ClientOptions } from 'crossborder-sdk';
import { listCustomers } from 'crossborder-sdk/functions';

/** A Fetch handler (a Cloudflare or Vercel worker, Deno, Bun) that lists customers and takes webhooks. */
export function customerWorker(options: ClientOptions) {
  // The pipeline without its optional parts (no local checks, no logger, no telemetry), the one operation this
  // worker calls as a function, and the webhook resource: the bundle holds nothing else.
  const core = new CrossborderCore(options);
  const webhooks = new Webhooks(core);
  return {
    async fetch(request: Request): Promise<Response> {
      if (request.method === 'POST') {
        try {
          const event = await webhooks.unwrap(request);
          return Response.json({ received: event.type });
        } catch (error) {
          if (error instanceof WebhookVerificationError) return new Response(error.reason, { status: 400 });
          throw error;
        }
      }
      const ids: string[] = [];
      for await (const customer of listCustomers(core, { limit: 20 })) ids.push(customer.id);
      return Response.json(ids);
    },
  };
}
