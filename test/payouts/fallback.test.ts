/**
 * With webhooks on, a payout whose final status no webhook brings is polled anyway, `webhookFallbackMs`
 * after it reached processing (one timer for the whole batch, the payouts falling due in the order they
 * got there); one a webhook settled is never polled.
 */
import { describe, expect, it } from 'vitest';
import { createPayoutBatch, MemoryJournal, userDescription, type PayoutClient } from '../../src/payouts/index';

const instruction = (reference: string) => ({
  reference,
  source: { accountId: 'InternalAccount:a' },
  destination: { accountId: 'ExternalAccount:b' },
  amount: 100,
});

describe('the webhook fallback', () => {
  it('polls each payout no webhook settled, webhookFallbackMs after it reached processing, in order; never one a webhook settled', async () => {
    const FALLBACK = 150;
    const processingAt = new Map<string, number>();
    const polledAt = new Map<string, number>();
    let q = 0;
    const client: PayoutClient = {
      quotes: {
        create: async (body) => {
          // Spread over time: the payouts reach processing 40 ms apart, in order.
          await new Promise((r) => setTimeout(r, 40 * q));
          q++;
          const id = `Transaction:${userDescription((body as { description?: string }).description)}`; // the user's description, before the runner's marker
          processingAt.set(id, Date.now());
          return { id: `Quote:${q}`, status: 'PROCESSING', transactionId: id, totalSendingAmount: 100, totalReceivingAmount: 100 } as never;
        },
        execute: async () => ({}) as never,
      },
      transactions: {
        retrieve: async (id) => {
          polledAt.set(id, Date.now());
          return { id, status: 'COMPLETED' } as never;
        },
      },
      receiver: { lookupUma: async () => ({}) as never },
    };
    const batch = createPayoutBatch({
      client,
      batchId: 'fallback',
      journal: new MemoryJournal(),
      webhooks: true,
      webhookFallbackMs: FALLBACK,
      maxConcurrency: 1,
      initialConcurrency: 1,
    });
    const list = ['a', 'b', 'c', 'd'].map((r) => ({ ...instruction(r), description: r }));
    const running = batch.run(list);
    // `b` is settled by its webhook as soon as it is processing.
    for (let i = 0; i < 200 && !processingAt.has('Transaction:b'); i++) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 5));
    expect(batch.onWebhookEvent({ type: 'OUTGOING_PAYMENT.COMPLETED', data: { id: 'Transaction:b', status: 'COMPLETED' } })).toBe(true);
    const summary = await running;
    expect(summary.counts.completed).toBe(4);
    expect([...polledAt.keys()]).toEqual(['Transaction:a', 'Transaction:c', 'Transaction:d']);
    for (const [id, at] of polledAt) {
      const waited = at - processingAt.get(id)!;
      expect(waited).toBeGreaterThanOrEqual(FALLBACK - 2); // (timers may fire a millisecond early)
      expect(waited).toBeLessThan(FALLBACK + 1_000);
    }
  });
});
