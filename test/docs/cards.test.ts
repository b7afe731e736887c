import { describe, expect, it } from 'vitest';
import { issueCard, revealFrameUrl, setFrozen } from '../../examples/guides/cards/issue';
import { coffeeWithTip, onCardEvent, type CardLedger } from '../../examples/guides/cards/transactions';
import { read } from './markdown';
import { ADA, sandboxWithWebhooks } from './support';

const guide = read('docs/cards.md');

describe('docs/cards.md', () => {
  it('issues, freezes, reveals; the coffee and its tip arrive as card transactions by webhook and move the balance', async () => {
    const { sandbox, cb, received } = await sandboxWithWebhooks();
    // A cardholder whose KYC is complete (an address besides the identity), with $100.00 in USD.
    const customer = await cb.customers.create(ADA);
    expect(customer.kycStatus).toBe('APPROVED');
    const [listed] = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
    const account = await cb.sandbox.fundInternalAccount(listed!.id, { amount: 10_000 });

    const card = await issueCard(cb, customer.id, account.id);
    expect(card).toMatchObject({ state: 'PROCESSING', maxSpendPerTransaction: 5_000, fundingSources: [account.id], currency: 'USD' });
    expect(await setFrozen(cb, card.id, true)).toBe('FROZEN');
    expect(await setFrozen(cb, card.id, false)).toBe('ACTIVE');
    const url = await revealFrameUrl(cb, card.id);
    expect(url).toMatch(/^https:\/\/.+\?t=[0-9a-f]+$/);
    expect(JSON.stringify(sandbox.exportState())).not.toContain(new URL(url).searchParams.get('t'));

    const ledger: CardLedger = new Map();
    const said: string[] = [];
    let seen = 0;
    const delivered = async () => {
      await sandbox.webhooks.flush();
      for (const r of received.slice(seen)) said.push(onCardEvent(await cb.webhooks.unwrap(r.body, r.headers), ledger));
      seen = received.length;
    };
    const settled = await coffeeWithTip(cb, card.id, ledger, delivered);
    expect(settled).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1_450 }, pullSummary: { count: 2, totalAmount: 1_450 } });
    expect(sandbox.state.balance(account.id)).toBe(10_000 - 1_450);
    expect(said.filter((s) => s !== 'ignored')).toEqual([
      `card ${card.id} is ACTIVE`,
      `card ${card.id} is FROZEN`,
      `card ${card.id} is ACTIVE`,
      'BLUE BOTTLE COFFEE SF: 1250 AUTHORIZED',
      'BLUE BOTTLE COFFEE SF: 1250 SETTLED',
    ]);

    // Frozen, the card declines: no transaction, nothing moves.
    await setFrozen(cb, card.id, true);
    expect(await coffeeWithTip(cb, card.id, ledger, delivered)).toBeUndefined();
    expect(sandbox.state.balance(account.id)).toBe(10_000 - 1_450);

    expect(guide).toContain('npx crossborder-sdk cards update Card:019542f5-b3e7-1d02-0000-000000000010 --state FROZEN');
    expect(guide).toContain('npx crossborder-sdk sandbox simulate-card-authorization');
    await sandbox.close();
  });
});
