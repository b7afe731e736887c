// @ts-nocheck
import type { Crossborder, QuoteCreateParams } from 'crossborder-sdk';

/**
 * Pays an invoice at most once. The key comes from your own record, so a repeat (a retry, a
 * restarted worker, a second worker) gets the first attempt's quote back instead of paying again.
 */
export function payInvoice(cb: Crossborder, invoiceId: string, params: QuoteCreateParams) {
  // Sent as `invoice-<id>:create` and `invoice-<id>:execute`, the same on every retry.
  return cb.quotes.createAndExecute(params, { idempotencyKey: `invoice-${invoiceId}` });
}
