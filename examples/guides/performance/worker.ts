import { CrossborderCore, Customers, Webhooks, WebhookVerificationError, type ClientOptions } from 'crossborder-sdk';

/** A Fetch handler (a Cloudflare or Vercel worker, Deno, Bun) that lists customers and takes webhooks. */
export function customerWorker(options: ClientOptions) {
  // The pipeline, and only the two resources this worker calls: the bundle holds nothing else.
  const core = new CrossborderCore(options);
  const customers = new Customers(core);
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
      for await (const customer of customers.list({ limit: 20 })) ids.push(customer.id);
      return Response.json(ids);
    },
  };
}
