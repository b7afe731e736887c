/**
 * docs/payouts.md, "Looking a payout up", from the packed tarball: the guide's lookUpPayout() (the
 * exported findPayout) finds a batch's payout from its batch id and reference alone, by the marker the
 * runner put in the description, with or without a description of the user's own, and says `not_found`
 * for a reference never paid. The guide used to send users to `cb.transactions.list({ reference })`,
 * which filters by the service's reconciliation reference and finds nothing for a batch's reference
 * (asserted below, so the guide never says it again by mistake), and then to a description match the
 * runner never sent.
 */
import { Crossborder } from 'crossborder-sdk';
import { createPayoutBatch, MemoryJournal, payoutMarker } from 'crossborder-sdk/payouts';
import { createSandbox } from 'crossborder-sdk/sandbox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lookUpPayout } from '../../examples/guides/payouts/lookup';
import { read } from './markdown';
import { fundedCustomer } from './support';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('docs/payouts.md: looking a payout up', () => {
  it('lookUpPayout() finds each payout by its batch and reference; transactions.list({ reference }) does not', { timeout: 30_000 }, async () => {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.close());
    const cb = new Crossborder({ tokenId: 'test', clientSecret: 'test', environment: 'sandbox', baseUrl: 'http://sandbox.test', fetch: sandbox.fetch });
    const { account, payee } = await fundedCustomer(cb, { amount: 10_000_000 });
    const journal = new MemoryJournal();
    const instructions = [
      { reference: 'inv-1042', source: { accountId: account.id }, destination: { accountId: payee.id }, amount: 100, description: 'November invoice' },
      { reference: 'inv-1043', source: { accountId: account.id }, destination: { accountId: payee.id }, amount: 101 }, // no description of its own
    ];
    const summary = await createPayoutBatch({ client: cb, batchId: 'lookup', journal, pollIntervalMs: 50 }).run(instructions);
    expect(summary.counts.completed).toBe(2);
    vi.spyOn(console, 'log').mockImplementation(() => undefined);

    const first = await lookUpPayout(cb, journal, 'lookup', 'inv-1042');
    expect(first.outcome === 'found' && first.transaction.id).toBe((await journal.get('inv-1042'))?.transactionId);
    expect(first.outcome === 'found' && first.transaction.description).toBe(`November invoice ${payoutMarker('lookup', 'inv-1042')}`);
    const second = await lookUpPayout(cb, journal, 'lookup', 'inv-1043');
    expect(second.outcome === 'found' && second.transaction.id).toBe((await journal.get('inv-1043'))?.transactionId);
    expect(await lookUpPayout(cb, journal, 'lookup', 'inv-9999')).toMatchObject({ outcome: 'not_found' });
    expect(await lookUpPayout(cb, journal, 'another-batch', 'inv-1042')).toMatchObject({ outcome: 'not_found' });

    // What the guide said before: the service's reference filter knows nothing of the batch's references.
    expect((await cb.transactions.list({ reference: 'inv-1043' })).data).toEqual([]);
    expect(read('docs/payouts.md')).not.toContain('transactions.list({ reference })');
  });
});
