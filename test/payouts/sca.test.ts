/**
 * A payout of a customer of a region where SCA is required (the EU): the sandbox holds its quote for the
 * customer's authorization, and the batch ends it `needs_attention` with the reason `SCA_REQUIRED`, sent once,
 * never retried blind nor taken for completed; the other payouts of the batch go on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPayoutBatch, MemoryJournal, type PayoutInstruction } from '../../src/payouts/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { instructions, sandboxClient, setUpWorld } from './world';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('payout batches and Strong Customer Authentication', () => {
  it('a payout held for SCA ends needs_attention SCA_REQUIRED after one request; nothing moved; the rest complete', async () => {
    sandbox = createSandbox();
    const sent: string[] = [];
    const cb = sandboxClient(sandbox, async (i: RequestInfo | URL, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'POST') sent.push(String(init?.body));
      return sandbox!.fetch(i, init);
    });
    const world = await setUpWorld(cb, 2, 1_000_000);
    const eu = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      region: 'FR',
      fullName: 'Marie Curie',
      birthDate: '1990-12-10',
      currencies: ['EUR'],
    } as never);
    const euAccount = (await cb.internalAccounts.list({ customerId: eu.id, currency: 'EUR' })).data[0]!;
    await cb.sandbox.fundInternalAccount(euAccount.id, { amount: 100_000 });
    const euPayee = await cb.externalAccounts.create({
      customerId: eu.id,
      currency: 'EUR',
      accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'DEUTDEFF' },
    });
    const list: PayoutInstruction[] = [
      ...instructions(world, 3),
      { reference: 'eu-payout', source: { accountId: euAccount.id }, destination: { accountId: euPayee.id }, amount: 5_000, description: 'eu-payout' },
    ];
    const journal = new MemoryJournal();
    const summary = await createPayoutBatch({ client: cb, batchId: 'sca', journal, pollIntervalMs: 300 }).run(list);
    expect(summary.counts).toMatchObject({ completed: 3, needs_attention: 1 });
    const held = journal.records().find((r) => r.reference === 'eu-payout')!;
    expect(held).toMatchObject({ state: 'needs_attention', lastError: { code: 'SCA_REQUIRED' } });
    expect(held.lastError!.message).toContain('Strong Customer Authentication');
    expect(summary.needsAttention).toEqual([{ reference: 'eu-payout', reason: expect.stringContaining('SCA_REQUIRED') }]);
    // Never retried blind: the payout's money-moving request went out once, and no money moved.
    expect(sent.filter((b) => b.includes('eu-payout [cb-payout:')).length).toBe(1);
    expect(sandbox.state.balance(euAccount.id)).toBe(100_000);
  });
});
