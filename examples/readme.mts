import { Crossborder } from 'crossborder-sdk';

const cb = new Crossborder({ environment: 'sandbox' }); // credentials from CROSSBORDER_TOKEN_ID, CROSSBORDER_CLIENT_SECRET

const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
const [account] = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
await cb.sandbox.fundInternalAccount(account!.id, { amount: 100_000 }); // $1,000.00: amounts are integer cents
const payee = await cb.externalAccounts.create({
  customerId: customer.id,
  currency: 'GBP',
  accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '31926819' },
});
const quote = await cb.quotes.create({
  source: { sourceType: 'ACCOUNT', accountId: account!.id },
  destination: { destinationType: 'ACCOUNT', accountId: payee.id },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10_000, // $100.00, fees included
}); // one Idempotency-Key per call, the same on every retry
await cb.quotes.execute(quote);
for await (const tx of cb.transactions.list({ customerId: customer.id })) console.log(tx.id, tx.status, tx.receivedAmount?.amount);
