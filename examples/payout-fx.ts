/**
 * A payout with FX, on the built-in local sandbox: a US customer pays a UK supplier's invoice of
 * exactly £500.00 from a USD balance.
 *
 *   npx tsx examples/payout-fx.ts
 *
 * A customer and its USD account, funding (sandbox only), the GBP payee, a quote locked on the
 * receiving side, execution under your own idempotency keys, waiting for settlement, and
 * reconciliation by listing the customer's completed payments.
 */
import { Crossborder, formatAmount, toMinorUnits } from 'crossborder-sdk';
import { createSandbox } from 'crossborder-sdk/sandbox';

export async function main(print: (line: string) => void = console.log): Promise<void> {
  const sandbox = createSandbox();
  const cb = new Crossborder({ tokenId: 'demo', clientSecret: 'demo', environment: 'sandbox', fetch: sandbox.fetch });
  try {
    // 1. The paying customer; its USD account is opened with it.
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
    if (!account) throw new Error('the sandbox opened no USD account');

    // 2. Sandbox only: $2,000.00 arrives. toMinorUnits turns what people type into integer cents.
    const usd = account.balance.currency;
    await cb.sandbox.fundInternalAccount(account.id, { amount: toMinorUnits('2000.00', usd) });
    print(`customer  ${customer.id}  funded ${formatAmount({ amount: toMinorUnits('2000.00', usd), currency: usd }, { code: true })}`);

    // 3. The supplier's UK bank account.
    const payee = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'GBP',
      accountInfo: {
        accountType: 'GBP_ACCOUNT',
        accountNumber: '31926819',
        routingNumber: '601613',
        bankName: 'Example Bank UK',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Charles Babbage' },
      },
    });
    print(`payee     ${payee.id}  ${payee.currency} ${payee.status}`);

    // 4. The invoice is in pounds, so lock the RECEIVING side: the supplier gets exactly £500.00 and
    //    the fees are added on the sending side. Your own payout id makes the idempotency keys, so a
    //    retry after a crash returns the same quote instead of making a second one.
    const payoutId = 'payout-2025-0042';
    const quote = await cb.quotes.create(
      {
        source: { sourceType: 'ACCOUNT', accountId: account.id },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'RECEIVING',
        lockedCurrencyAmount: toMinorUnits('500.00', { code: 'GBP', decimals: 2 }),
        description: 'Invoice 2025-0042',
      },
      { idempotencyKey: `${payoutId}:quote` },
    );
    const sending = (amount: number) => formatAmount({ amount, currency: quote.sendingCurrency }, { code: true });
    const receiving = (amount: number) => formatAmount({ amount, currency: quote.receivingCurrency }, { code: true });
    print(
      `quote     ${quote.id}  pay ${sending(quote.totalSendingAmount)} (fees ${sending(quote.feesIncluded)})` +
        ` → ${receiving(quote.totalReceivingAmount)}; 1 ${quote.receivingCurrency.code} = ${quote.exchangeRate} ${quote.sendingCurrency.code}`,
    );

    // 5. Execute before expiresAt; an expired quote object is refused locally (QuoteExpiredError).
    const executed = await cb.quotes.execute(quote, { idempotencyKey: `${payoutId}:execute` });
    print(`executed  ${executed.id}  ${executed.status}`);

    // 6. Wait for settlement. Sandbox only: move its clock past the 2 s settlement instead of waiting.
    sandbox.clock.advance(5_000);
    const payment = await cb.transactions.waitFor(executed.transactionId, { timeout: 60_000 });
    if (payment.status !== 'COMPLETED') throw new Error(`payment ${payment.id} ended ${payment.status} (${payment.failureReason})`);
    print(`payment   ${payment.id}  ${payment.status}  reference ${payment.reconciliationInstructions?.reference}`);

    // 7. Reconcile: walk the customer's completed outgoing payments and match them to the payout.
    let matched = 0;
    for await (const tx of cb.transactions.list({ customerId: customer.id, type: 'OUTGOING', status: 'COMPLETED' })) {
      if (tx.id === executed.transactionId && tx.receivedAmount?.amount === quote.totalReceivingAmount) matched++;
    }
    const after = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
    const balance = after.data[0]!.balance;
    print(`reconcile ${matched} payment matched  balance ${formatAmount(balance, { code: true })}`);
  } finally {
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
