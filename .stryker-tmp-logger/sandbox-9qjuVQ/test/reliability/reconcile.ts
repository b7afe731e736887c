// @ts-nocheck
import { APIConnectionError, InternalServerError, type Crossborder, type Customer, type CustomerCreateParams, type Quote } from 'crossborder-sdk';

/**
 * Executes a quote at most once, whatever the network does. Make the key before the first attempt
 * and store it with your payment record: after a crash, call this again with the same key.
 */
export async function executeOnce(cb: Crossborder, quoteId: string, idempotencyKey: string, attempts = 5): Promise<Quote> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await cb.quotes.execute(quoteId, { idempotencyKey });
    } catch (error) {
      const unknown = error instanceof APIConnectionError && error.outcomeUnknown; // answer lost, cut or timed out
      const serverError = error instanceof InternalServerError; // a 5xx that outlived the SDK's own retries
      if (!(unknown || serverError) || attempt >= attempts) throw error;
      // Same key again: the service replays its first answer if it acted, or acts now if it did not.
    }
  }
}

/**
 * Creates a customer at most once. Customer creation takes no Idempotency-Key, so the SDK never
 * resends it once it may have arrived; when the outcome is unknown, look it up by your own id first.
 */
export async function createCustomerOnce(cb: Crossborder, params: CustomerCreateParams & { platformCustomerId: string }, attempts = 5): Promise<Customer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await cb.customers.create(params);
    } catch (error) {
      const unknown = (error instanceof APIConnectionError && error.outcomeUnknown) || error instanceof InternalServerError;
      if (!unknown || attempt >= attempts) throw error;
      const { data } = await cb.customers.list({ platformCustomerId: params.platformCustomerId });
      if (data[0]) return data[0];
    }
  }
}
