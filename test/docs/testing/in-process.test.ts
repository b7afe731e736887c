import { Crossborder } from 'crossborder-sdk';
import { createSandbox, type Sandbox } from 'crossborder-sdk/sandbox';
import { afterEach, beforeEach, expect, it } from 'vitest';

let sandbox: Sandbox;
let cb: Crossborder;

beforeEach(() => {
  sandbox = createSandbox(); // fresh, empty state for every test
  cb = new Crossborder({
    tokenId: 'test',
    clientSecret: 'test',
    environment: 'sandbox',
    fetch: sandbox.fetch, // in-process: no sockets, no network
    sleep: async (ms) => sandbox.clock.advance(ms), // the SDK's waits (retries, waitFor) move sandbox time instead
  });
});
afterEach(() => sandbox.close());

it('pays out and settles, with no real waiting', async () => {
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
  const payee = await cb.externalAccounts.create({
    customerId: customer.id,
    currency: 'GBP',
    accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '31926819' },
  });

  const quote = await cb.quotes.createAndExecute({
    source: { sourceType: 'ACCOUNT', accountId: account!.id },
    destination: { destinationType: 'ACCOUNT', accountId: payee.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  });
  const payment = await cb.transactions.waitFor(quote.transactionId); // polls on sandbox time

  expect(payment.status).toBe('COMPLETED');
  expect(sandbox.state.balance(account!.id)).toBe(0); // read the emulator's state directly
});
