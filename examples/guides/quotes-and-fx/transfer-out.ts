import type { Crossborder } from 'crossborder-sdk';

/** From a customer's internal account to their own bank account in the same currency: no quote, no FX. */
export function withdraw(cb: Crossborder, accountId: string, bankAccountId: string, amount: number) {
  // Idempotent, like quotes: a lost answer is retried with the same Idempotency-Key, so it pays once.
  return cb.transferOut.create({ source: { accountId }, destination: { accountId: bankAccountId }, amount, remittanceInformation: 'Withdrawal' });
}

/** A bank transfer still PROCESSING can be stopped: it fails with failureReason CANCELLED and the debit comes back. */
export function stopWithdrawal(cb: Crossborder, transactionId: string) {
  return cb.transactions.cancel(transactionId, { reason: 'USER_CANCELLATION' });
}
