// @ts-nocheck
import { formatAmount, toMinorUnits, type Crossborder, type InternalAccount } from 'crossborder-sdk';

/** A payout typed by a person ("250.00"), straight through: quote, execute, wait for the outcome. */
export async function payout(cb: Crossborder, from: InternalAccount, payeeId: string, amount: string, payoutId: string) {
  const quote = await cb.quotes.createAndExecute(
    {
      source: { sourceType: 'ACCOUNT', accountId: from.id },
      destination: { destinationType: 'ACCOUNT', accountId: payeeId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: toMinorUnits(amount, from.balance.currency), // "250.00" USD → 25000; "250.001" is refused
    },
    { idempotencyKey: payoutId },
  );
  const tx = await cb.transactions.waitFor(quote.transactionId, { timeout: 5 * 60_000 });
  if (tx.status !== 'COMPLETED') return `${tx.status}: ${tx.failureReason}`; // e.g. FAILED: OFFRAMP_FAILED
  return `paid ${tx.receivedAmount ? formatAmount(tx.receivedAmount, { code: true }) : ''}`;
}
