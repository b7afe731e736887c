// @ts-nocheck
import { ConflictError, QuoteExpiredError, isExpired, type Crossborder, type Quote, type QuoteCreateParams } from 'crossborder-sdk';

/**
 * Executes the quote the customer accepted. If it has expired, prices again and returns the new
 * quote for a fresh confirmation: never execute at a price the customer did not see.
 */
export async function executeAccepted(cb: Crossborder, accepted: Quote, params: QuoteCreateParams) {
  if (isExpired(accepted)) return { requote: await cb.quotes.create(params) };
  try {
    return { executed: await cb.quotes.execute(accepted) };
  } catch (err) {
    // Expired in between: refused by the SDK (QuoteExpiredError) or by the service (409 QUOTE_EXPIRED).
    const expired = err instanceof QuoteExpiredError || (err instanceof ConflictError && err.code === 'QUOTE_EXPIRED');
    if (!expired) throw err;
    return { requote: await cb.quotes.create(params) };
  }
}
