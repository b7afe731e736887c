// @ts-nocheck
import type { Crossborder, QuoteCreateParams } from 'crossborder-sdk';

/** Creates a quote and logs the ids that support and reconciliation need. */
export async function createQuoteLogged(cb: Crossborder, params: QuoteCreateParams, log: (line: string) => void = console.log) {
  const { data: quote, requestId, idempotencyKey } = await cb.quotes.create(params).withResponse();
  log(`quote ${quote.id} request ${requestId} idempotency-key ${idempotencyKey}`);
  return quote;
}
