/**
 * docs/payouts.md, "Looking a payout up", from the packed tarball: the guide's findPayout() finds the
 * transaction of a reference by its payee, the time and its description. The guide used to send users
 * to `cb.transactions.list({ reference })`, which filters by the service's reconciliation reference and
 * finds nothing for a batch's reference (asserted below, so the guide never says it again by mistake).
 */
import { Crossborder } from 'crossborder-sdk';
import { createPayoutBatch, MemoryJournal } from 'crossborder-sdk/payouts';
import { createSandbox } from 'crossborder-sdk/sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { findPayout } from '../../examples/guides/payouts/lookup';
import { read } from './markdown';
import { fundedCustomer } from './support';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('docs/payouts.md: looking a payout up', () => {
  it('findPayout() finds the payout by payee, time and description; transactions.list({ reference }) does not', { timeout: 30_000 }, async () => {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.close());
    const cb = new Crossborder({ tokenId: 'test', clientSecret: 'test', environment: 'sandbox', baseUrl: 'http://sandbox.test', fetch: sandbox.fetch });
    const { account, payee } = await fundedCustomer(cb, { amount: 10_000_000 });
    const runStartedAt = new Date(Date.now() - 1_000).toISOString();
    const journal = new MemoryJournal();
    const instructions = ['inv-1042', 'inv-1043'].map((reference, i) => ({ reference, source: { accountId: account.id }, destination: { accountId: payee.id }, amount: 100 + i, description: reference }));
    const summary = await createPayoutBatch({ client: cb, batchId: 'lookup', journal, pollIntervalMs: 50 }).run(instructions);
    expect(summary.counts.completed).toBe(2);

    const found = await findPayout(cb, journal, 'inv-1043', runStartedAt);
    expect(found?.id).toBe((await journal.get('inv-1043'))?.transactionId);
    expect(found?.description).toBe('inv-1043');
    expect(await findPayout(cb, journal, 'inv-9999', runStartedAt)).toBeUndefined();

    // What the guide said before: the service's reference filter knows nothing of the batch's references.
    expect((await cb.transactions.list({ reference: 'inv-1043' })).data).toEqual([]);
    expect(read('docs/payouts.md')).not.toContain('transactions.list({ reference })');
  });
});
