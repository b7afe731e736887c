import { ConflictError, Crossborder } from 'crossborder-sdk';
import { createClock, createSandbox } from 'crossborder-sdk/sandbox';
import { expect, it } from 'vitest';

it('expires a quote and settles a payment on a frozen clock', async () => {
  // Frozen at the real now: time moves only when told. (A clock set in the past makes the SDK's own
  // expiry check refuse every quote object, since it compares expiresAt with your machine's time.)
  const clock = createClock(undefined, { frozen: true });
  const sandbox = createSandbox({ clock });
  const cb = new Crossborder({ tokenId: 'test', clientSecret: 'test', environment: 'sandbox', fetch: sandbox.fetch });
  const customer = await cb.customers.create({
    customerType: 'INDIVIDUAL',
    region: 'US',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
  });
  const {
    data: [account],
  } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
  await cb.sandbox.fundInternalAccount(account!.id, { amount: 50_000 });
  const payee = await cb.externalAccounts.create({
    customerId: customer.id,
    currency: 'GBP',
    accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '31926819' },
  });
  const params = {
    source: { sourceType: 'ACCOUNT' as const, accountId: account!.id },
    destination: { destinationType: 'ACCOUNT' as const, accountId: payee.id },
    lockedCurrencySide: 'SENDING' as const,
    lockedCurrencyAmount: 10_000,
  };

  const stale = await cb.quotes.create(params);
  expect(Date.parse(stale.expiresAt) - clock.now()).toBe(5 * 60_000);
  sandbox.clock.advance(5 * 60_000); // advance() also runs what fell due: the quote expires
  await expect(cb.quotes.execute(stale.id)).rejects.toMatchObject({ constructor: ConflictError, code: 'QUOTE_EXPIRED' });

  const fresh = await cb.quotes.createAndExecute(params);
  expect((await cb.transactions.retrieve(fresh.transactionId)).status).toBe('PROCESSING');
  sandbox.clock.advance(2_000); // settlement takes 2 s of sandbox time
  expect((await cb.transactions.retrieve(fresh.transactionId)).status).toBe('COMPLETED');
  await sandbox.close();
});
