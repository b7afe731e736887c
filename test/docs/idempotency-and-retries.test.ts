import { APIUserAbortError, Crossborder, ValidationError } from 'crossborder-sdk';
import { describe, expect, it } from 'vitest';
import { retrieveWithin } from '../../examples/guides/idempotency-and-retries/deadlines';
import { registerPayee } from '../../examples/guides/idempotency-and-retries/look-before-create';
import { executePayout, type Payout } from '../../examples/guides/idempotency-and-retries/reconcile';
import { payInvoice } from '../../examples/guides/idempotency-and-retries/your-key';
import { fundedCustomer, losingFetch, sandboxClient } from './support';

describe('docs/idempotency-and-retries.md', () => {
  it('your key: paying the same invoice twice pays once', async () => {
    const { sandbox, cb } = sandboxClient();
    const { account, payee } = await fundedCustomer(cb, { amount: 50_000 });
    const params = {
      source: { sourceType: 'ACCOUNT' as const, accountId: account.id },
      destination: { destinationType: 'ACCOUNT' as const, accountId: payee.id },
      lockedCurrencySide: 'SENDING' as const,
      lockedCurrencyAmount: 20_000,
    };
    const first = await payInvoice(cb, 'INV-42', params);
    const again = await payInvoice(cb, 'INV-42', params); // a retry, a restarted worker…
    expect(again.id).toBe(first.id);
    expect(sandbox.state.snapshot().quotes).toHaveLength(1);
    expect(sandbox.state.balance(account.id)).toBe(30_000);
    await expect(payInvoice(cb, 'INV-42', { ...params, lockedCurrencyAmount: 1 })).rejects.toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    // An operation that does not honour the header refuses a key rather than ignoring it.
    await expect(cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'X' }, { idempotencyKey: 'k' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await sandbox.close();
  });

  it('an unknown outcome: marked, then reconciled with the same key, executed once', async () => {
    const { sandbox, cb } = sandboxClient();
    const { account, payee } = await fundedCustomer(cb, { amount: 50_000 });
    const quote = await cb.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: account.id },
      destination: { destinationType: 'ACCOUNT', accountId: payee.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 20_000,
    });
    let executes = 0;
    // Every answer to an execute is lost on the way back, the SDK's retries included.
    const flaky = new Crossborder({
      tokenId: 't',
      clientSecret: 't',
      environment: 'sandbox',
      sleep: async () => {},
      fetch: losingFetch(sandbox.fetch, (url) => url.endsWith('/execute') && ++executes > 0),
    });
    const payout: Payout = { quoteId: quote.id, idempotencyKey: `payout-1:${quote.id}`, status: 'created' };
    const marked = await executePayout(flaky, payout);
    expect(marked.status).toBe('unknown');
    expect(executes).toBe(3); // the first attempt and two retries, all with the same key
    expect(sandbox.state.balance(account.id)).toBe(30_000); // it did execute, once

    const reconciled = await executePayout(cb, marked); // the network is back
    expect(reconciled.status).toBe('executed');
    expect(sandbox.state.balance(account.id)).toBe(30_000);
    expect(sandbox.state.snapshot().transactions.filter((t) => t.status !== 'PENDING')).toHaveLength(1);
    await sandbox.close();
  });

  it('look before create: an external account that did arrive is found, not duplicated', async () => {
    const { sandbox, cb } = sandboxClient();
    const { customer } = await fundedCustomer(cb);
    const lossy = new Crossborder({
      tokenId: 't',
      clientSecret: 't',
      environment: 'sandbox',
      fetch: losingFetch(sandbox.fetch, (url, init) => init.method === 'POST' && url.endsWith('/external-accounts')),
    });
    const params = {
      customerId: customer.id,
      currency: 'GBP',
      platformAccountId: 'payee-7',
      accountInfo: { accountType: 'GBP_ACCOUNT' as const, accountNumber: '12345678' },
    };
    const payee = await registerPayee(lossy, params);
    expect(payee.platformAccountId).toBe('payee-7');
    const ours = sandbox.state.snapshot().externalAccounts.filter((a) => a.platformAccountId === 'payee-7');
    expect(ours.map((a) => a.id)).toEqual([payee.id]);
    await sandbox.close();
  });

  it('deadlines: the whole call ends at the deadline, as an abort', async () => {
    const { sandbox, cb } = sandboxClient();
    const { account, payee } = await fundedCustomer(cb);
    const quote = await cb.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: account.id },
      destination: { destinationType: 'ACCOUNT', accountId: payee.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect((await retrieveWithin(cb, quote.transactionId, 10_000)).id).toBe(quote.transactionId);

    // A service that never answers (the request waits until its signal aborts it).
    const hanging = new Crossborder({
      tokenId: 't',
      clientSecret: 't',
      fetch: (_url, init) => new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true })),
    });
    const started = Date.now();
    const error = await retrieveWithin(hanging, quote.transactionId, 200).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).outcomeUnknown).toBe(false); // a read
    expect(Date.now() - started).toBeLessThan(1_500);
    await sandbox.close();
  });
});
