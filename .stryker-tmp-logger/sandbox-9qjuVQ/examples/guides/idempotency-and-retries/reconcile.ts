// @ts-nocheck
import { APIConnectionError, APIUserAbortError, type Crossborder } from 'crossborder-sdk';

/** Your payout record. Save it, key included, before the first call. */
export interface Payout {
  quoteId: string;
  idempotencyKey: string;
  status: 'created' | 'unknown' | 'executed';
}

/**
 * Executes the payout's quote. When the outcome is unknown (the request left, no answer came back
 * even after the SDK's retries), mark it so; a reconciliation job calls this again later with the
 * same key, and the service answers with the first execution instead of executing twice.
 */
export async function executePayout(cb: Crossborder, payout: Payout): Promise<Payout> {
  try {
    await cb.quotes.execute(payout.quoteId, { idempotencyKey: payout.idempotencyKey });
    return { ...payout, status: 'executed' };
  } catch (err) {
    const unknown = (err instanceof APIConnectionError || err instanceof APIUserAbortError) && err.outcomeUnknown;
    if (unknown) return { ...payout, status: 'unknown' };
    throw err; // a definite answer (e.g. QUOTE_EXPIRED): nothing was executed
  }
}
