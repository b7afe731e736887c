import type { Crossborder } from 'crossborder-sdk';
import { findPayout, type PayoutJournal } from 'crossborder-sdk/payouts';

/**
 * Where a payout of a batch stands on the service, from its batch id and reference alone (the runner
 * put a marker of the two in the quote's description). `not_found` is the service's word that it did not
 * move; `unknown` is not: look again before paying it anew.
 */
export async function lookUpPayout(cb: Crossborder, journal: PayoutJournal, batchId: string, reference: string) {
  const record = await journal.get(reference);
  const source = record?.instruction.source;
  const found = await findPayout(cb, {
    batchId,
    reference,
    // Only the source account's outgoing transactions, since a day before its first send (when journaled).
    senderAccountIdentifier: source && 'accountId' in source ? source.accountId : undefined,
    startDate: record?.firstSentAt ? new Date(Date.parse(record.firstSentAt) - 86_400_000) : undefined,
  });
  if (found.outcome === 'found') console.log(`${reference}: ${found.transaction.id} ${found.transaction.status}`); // it moved: do not pay it again
  return found;
}
