import type { Crossborder } from 'crossborder-sdk';
import type { PayoutJournal } from 'crossborder-sdk/payouts';

/**
 * The transaction of a reference that needs attention, if its payout moved. The service never sees a
 * batch's references (the `reference` filter of `transactions.list` is its own reconciliation reference,
 * `CB-FA7AB2`): the payout is found by its payee, the time and its description (put the reference there).
 */
export async function findPayout(cb: Crossborder, journal: PayoutJournal, reference: string, runStartedAt: string) {
  const record = await journal.get(reference);
  if (!record) return undefined;
  const destination = record.instruction.destination;
  const payee = 'accountId' in destination ? destination.accountId : destination.umaAddress;
  for await (const tx of cb.transactions.list({ receiverAccountIdentifier: payee, type: 'OUTGOING', startDate: runStartedAt })) {
    if (tx.description === (record.instruction.description ?? reference)) return tx; // it moved: do not pay it again
  }
  return undefined; // not found: if its outcome was unknown, the service may still answer; look again before paying it anew
}
