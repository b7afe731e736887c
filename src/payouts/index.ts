/**
 * `crossborder-sdk/payouts`: payout batches that survive anything. Exactly one payout per reference
 * (deterministic Idempotency-Keys, outcome-unknown answers replayed with the same key), a journal that
 * lets a run continue after a crash, adaptive concurrency under 429s, final states from webhooks or
 * polling, and a report. One machine with a {@link FileJournal}; many with {@link RedisJournal} or
 * BullMQ ({@link enqueuePayouts}, {@link payoutProcessor}). See docs/payouts.md.
 *
 * ```ts
 * import { Crossborder } from 'crossborder-sdk';
 * import { createPayoutBatch, FileJournal } from 'crossborder-sdk/payouts';
 *
 * const batch = createPayoutBatch({ client: new Crossborder(), batchId: 'payroll-2026-11', journal: new FileJournal('payroll.journal') });
 * const summary = await batch.run(instructions); // resumes where a previous run stopped
 * ```
 * @module crossborder-sdk/payouts
 */
export { createPayoutBatch, quoteBody, instructionProblem, rejectedKey, REJECTED_KEY_PREFIX, MAX_AMOUNT } from './runner';
export {
  findPayout,
  payoutMarker,
  markedDescription,
  userDescription,
  type FindPayoutOptions,
  type FindPayoutResult,
  type PayoutLookupClient,
  type PayoutTransactionListParams,
  type PayoutTransactionPage,
} from './lookup';
export {
  PAYOUT_TRANSITIONS,
  PAYOUT_EVENTS,
  transition,
  legalMove,
  checkMove,
  stateDiagram,
  type PayoutEvent,
  type PayoutEffect,
  type PayoutMove,
} from './machine';
export type { PayoutBatch, PayoutBatchOptions, PayoutCallOptions, PayoutClient, PayoutWebhookEvent } from './runner';
export { AdaptiveConcurrency, type AdaptiveConcurrencyOptions } from './concurrency';
export { payoutKey, instructionFingerprint, instructionFingerprintV2, sameInstruction, type PayoutStep } from './keys';
export { MemoryJournal, PayoutJournalError, type PayoutJournal } from './journal';
export { FileJournal, journalRecords, readJournalFile, type FileJournalOptions } from './file-journal';
export { reportRow, reportRows, reportCsv, reportCsvLines, summarize } from './report';
export { PAYOUT_STATES, FINAL_STATES } from './types';
export type {
  PayoutCounts,
  PayoutDestination,
  PayoutError,
  PayoutInstruction,
  PayoutProgress,
  PayoutQuoteSummary,
  PayoutRecord,
  PayoutRejectedInput,
  PayoutReportRow,
  PayoutSource,
  PayoutState,
  PayoutSummary,
} from './types';
export { RedisJournal, type RedisJournalClient, type RedisJournalOptions } from './redis-journal';
export {
  enqueuePayouts,
  payoutJobId,
  payoutProcessor,
  startPayoutWorker,
  type PayoutJobData,
  type PayoutJobLike,
  type PayoutJobResult,
  type PayoutProcessorOptions,
  type PayoutQueueLike,
  type PayoutWorkerOptions,
} from './bullmq';
