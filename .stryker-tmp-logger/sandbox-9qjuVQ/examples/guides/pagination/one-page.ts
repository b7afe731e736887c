// @ts-nocheck
import type { Crossborder } from 'crossborder-sdk';

/** One page for a table in your back office, and the cursor of the next one. */
export async function transactionsPage(cb: Crossborder, customerId: string, cursor?: string) {
  const page = await cb.transactions.list({ customerId, limit: 20, cursor });
  return {
    rows: page.data.map((tx) => ({ id: tx.id, type: tx.type, status: tx.status })),
    total: page.totalCount, // every match of the query, not just this page
    next: page.nextCursor, // undefined on the last page (page.hasMore is false)
  };
}
