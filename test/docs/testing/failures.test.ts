import { Crossborder } from 'crossborder-sdk';
import { createSandbox, MAGIC } from 'crossborder-sdk/sandbox';
import { expect, it } from 'vitest';

// One test per failure reason: a payee whose account number is the magic value.
it.each(Object.entries(MAGIC.failures))('a payment to account %s fails with %s', async (accountNumber, reason) => {
  const sandbox = createSandbox();
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
  await cb.sandbox.fundInternalAccount(account!.id, { amount: 10_000 });
  const payee = await cb.externalAccounts.create({ customerId: customer.id, currency: 'GBP', accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber } });

  const quote = await cb.quotes.createAndExecute({
    source: { sourceType: 'ACCOUNT', accountId: account!.id },
    destination: { destinationType: 'ACCOUNT', accountId: payee.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  });
  sandbox.clock.advance(5_000);
  const payment = await cb.transactions.retrieve(quote.transactionId);

  expect(payment).toMatchObject({ status: 'FAILED', failureReason: reason });
  expect(sandbox.state.balance(account!.id)).toBe(10_000); // the debited funds came back
  await sandbox.close();
});
