import { formatAmount } from 'crossborder-sdk';
import { cb, sandbox } from './client.js';

export async function firstPayment(print: (line: string) => void = console.log) {
  // 1. A customer. The service opens its USD account with it.
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
  if (!account) throw new Error('no USD account');

  // 2. Sandbox only: money arrives. Amounts are integers in the smallest unit (cents here).
  await cb.sandbox.fundInternalAccount(account.id, { amount: 100_000 }); // $1,000.00

  // 3. Where the money goes: a UK bank account of the customer's payee.
  const payee = await cb.externalAccounts.create({
    customerId: customer.id,
    currency: 'GBP',
    accountInfo: {
      accountType: 'GBP_ACCOUNT',
      accountNumber: '31926819',
      routingNumber: '601613',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Grace Hopper' },
    },
  });

  // 4. Price $250.00 in GBP and execute it. Each step sends its own Idempotency-Key: retries never pay twice.
  const quote = await cb.quotes.createAndExecute({
    source: { sourceType: 'ACCOUNT', accountId: account.id },
    destination: { destinationType: 'ACCOUNT', accountId: payee.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 25_000,
  });
  const received = formatAmount({ amount: quote.totalReceivingAmount, currency: quote.receivingCurrency }, { code: true });
  print(`${quote.id}: ${received} for $250.00, ${quote.status}`);

  // 5. Wait for settlement. Sandbox only: move its clock past the 2 s settlement instead of waiting.
  sandbox.clock.advance(5_000);
  const payment = await cb.transactions.waitFor(quote.transactionId);
  print(`${payment.id}: ${payment.status}`);

  // 6. Every transaction of the customer, across pages.
  for await (const tx of cb.transactions.list({ customerId: customer.id })) {
    print(`${tx.type} ${tx.status} ${tx.receivedAmount ? formatAmount(tx.receivedAmount, { code: true }) : ''}`);
  }
  return payment;
}
