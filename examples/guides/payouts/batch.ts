import type { Crossborder } from 'crossborder-sdk';
import { createPayoutBatch, FileJournal, type PayoutInstruction } from 'crossborder-sdk/payouts';

/** Pays each instruction exactly once. Run it again after a crash, a kill or Ctrl-C: it resumes. */
export async function payroll(cb: Crossborder, instructions: Iterable<PayoutInstruction> | AsyncIterable<PayoutInstruction>, journalPath = 'payroll.journal') {
  const journal = new FileJournal(journalPath); // append-only, fsynced: survives kill -9
  const batch = createPayoutBatch({
    client: cb,
    batchId: 'payroll-2026-11', // with each reference, what the Idempotency-Keys derive from
    journal,
    maxConcurrency: 16,
    onProgress: (p) => console.log(p.counts, p.throughput, p.etaSeconds),
  });
  try {
    const summary = await batch.run(instructions); // read lazily: a CSV of 100,000 rows streams through
    console.log(summary.counts); // { pending: 0, submitted: 0, processing: 0, completed: 2, failed: 0, needs_attention: 0, rejected: 0 }
    return summary;
  } finally {
    await journal.close(); // releases the journal's lock; the same object may open it again
  }
}

/** Two payouts: to an external account, and to an UMA address (looked up once; its lookupId is journaled). */
export function instructionsOf(accountId: string, payeeId: string, umaAddress: string): PayoutInstruction[] {
  return [
    { reference: 'inv-1042', source: { accountId }, destination: { accountId: payeeId }, amount: 125_00 },
    {
      reference: 'inv-1043',
      source: { accountId },
      destination: { umaAddress, currency: 'USD' },
      amount: 80_00,
      senderCustomerInfo: { FULL_NAME: 'Ada Lovelace' },
    },
  ];
}
