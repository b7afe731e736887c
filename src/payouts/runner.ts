/**
 * The batch runner: exactly one payout per reference, whatever happens to the process, the network or
 * the service. Per reference (one step at a time, each journaled before the next):
 *
 * 1. an UMA destination is looked up once (a read; its `lookupId` is journaled, so the quote's body,
 *    and therefore its replay, stays the same);
 * 2. `submitted` is journaled, then the quote is created with `immediatelyExecute` (key `create`), or
 *    created and executed (`execute` key) where the source needs it; every request carries the key
 *    derived from (batch id, reference, step), and an answer that never came is replayed with the same
 *    key until one does;
 * 3. `processing` with the quote's amounts and transaction id, then the final status from the
 *    service: webhooks fed to {@link PayoutBatch.onWebhookEvent}, else polling the transaction.
 *
 * A refusal that will not change (validation, 4xx) fails the item with its reason; the daily volume
 * limit and anything the runner cannot settle (a key reused with another body, an outcome unknown for
 * too long) make it `needs_attention`, never retried blindly. 429 and 503 slow the whole batch down
 * (see ./concurrency).
 *
 * The runner is the batch driver of the state machine (./machine): it reads the input, reports progress,
 * sums the run up and records its span; each payout is driven by the per-payout driver (./driver), which
 * turns what happens into the table's events and runs the effects each move lists, in their order. Their
 * requests, timers and waits go through a {@link PayoutScheduler} (./scheduler), which decides nothing
 * about a payout.
 * @module
 */
import { APIUserAbortError } from '../core/errors';
import type { PayoutBatch, PayoutBatchOptions } from './batch-types';
import type { WorkSpan } from '../core/telemetry';
import { batchTelemetry } from './batch-telemetry';
import { AdaptiveConcurrency } from './concurrency';
import { createPayoutDriver } from './driver';
import { reasonOf } from './instruction';
import { PayoutScheduler } from './scheduler';
import { FINAL_STATES, type PayoutInstruction, type PayoutProgress, type PayoutRejectedInput, type PayoutSummary } from './types';

export type { PayoutBatch, PayoutBatchOptions, PayoutCallOptions, PayoutClient, PayoutWebhookEvent } from './batch-types';
export { instructionProblem, isoNow, MAX_AMOUNT, quoteBody, REJECTED_KEY_PREFIX, rejectedKey } from './instruction';

/**
 * Creates a payout batch. See the module documentation, and docs/payouts.md.
 * @example
 * ```ts
 * import { Crossborder } from 'crossborder-sdk';
 * import { createPayoutBatch, FileJournal } from 'crossborder-sdk/payouts';
 *
 * const cb = new Crossborder();
 * const batch = createPayoutBatch({ client: cb, batchId: 'payroll-2026-11', journal: new FileJournal('payroll.journal') });
 * const summary = await batch.run([
 *   { reference: 'inv-1', source: { accountId }, destination: { accountId: 'ExternalAccount:…' }, amount: 12_500 },
 * ]);
 * console.log(summary.counts); // { completed: 1, failed: 0, … }
 * ```
 */
export function createPayoutBatch(options: PayoutBatchOptions): PayoutBatch {
  const { client, batchId } = options;
  const limiter = new AdaptiveConcurrency({ max: options.maxConcurrency ?? 16, initial: options.initialConcurrency });
  const fallbackMs = options.webhookFallbackMs ?? 300_000;
  /** Slots, pacing, timers and the stop: it runs what the driver hands it, and decides nothing about a payout. */
  const scheduler = new PayoutScheduler({ limiter, fallbackMs, onPass: () => emitProgress(), sleep: options.sleep });
  /** Failed and needs-attention references, with the reason (the summary's; as many as there are). */
  const unsettled: { reference: string; state: 'failed' | 'needs_attention'; reason: string }[] = [];
  /** This run's rejected inputs (the summary's). */
  let rejected: PayoutSummary['rejected'] = [];
  /** References finished per 100 ms over the last 10 s (a ring: the throughput without a list per item). */
  const doneRing = new Float64Array(100);
  let doneSlot = 0;
  let running = false;
  let startedAt = 0;

  const driver = createPayoutDriver({
    ...options,
    scheduler,
    hooks: {
      read(record) {
        if (record.state === 'failed' || record.state === 'needs_attention')
          unsettled.push({ reference: record.reference, state: record.state, reason: reasonOf(record) });
      },
      moved(record) {
        const state = record.state;
        // Payouts that ended count for the throughput; a rejected input was never one.
        if (!FINAL_STATES.has(state) || state === 'rejected') return;
        advanceRing(performance.now());
        doneRing[doneSlot % 100]!++;
        if (state === 'failed' || state === 'needs_attention') unsettled.push({ reference: record.reference, state, reason: reasonOf(record) });
      },
      rejected: (entry) => rejected.push(entry),
      progress: () => emitProgress(),
    },
  });
  const { counts } = driver;

  let ringAt = 0; // the 100 ms slot the ring's head stands for
  function advanceRing(now: number): void {
    const slot = Math.floor(now / 100);
    if (ringAt === 0) ringAt = slot;
    for (let s = ringAt + 1; s <= Math.min(slot, ringAt + 100); s++) doneRing[s % 100] = 0;
    if (slot > ringAt) ringAt = slot;
    doneSlot = ringAt;
  }

  function progress(): PayoutProgress {
    // References: rejected inputs are counted apart (counts.rejected), in neither the total nor the done.
    const done = counts.completed + counts.failed + counts.needs_attention;
    const now = performance.now();
    advanceRing(now);
    let recent = 0;
    for (let i = 0; i < 100; i++) recent += doneRing[i]!;
    const window = Math.min(10_000, Math.max(1, now - startedAt));
    const throughput = (recent * 1000) / window;
    const total = driver.total;
    const known = scheduler.inputDone ? total : options.expectedTotal;
    const wait = limiter.waitMs();
    return {
      batchId,
      counts: { ...counts },
      total,
      done,
      throughput: Math.round(throughput * 100) / 100,
      etaSeconds: known !== undefined && throughput > 0 ? Math.max(0, Math.round((known - done) / throughput)) : undefined,
      inFlight: limiter.inFlight,
      concurrency: limiter.limit,
      ...(wait > 0 ? { pausedUntil: new Date(Date.now() + wait).toISOString() } : {}),
    };
  }

  let lastProgress = 0;
  const emitProgress = (force = false) => {
    if (!options.onProgress) return;
    const now = performance.now();
    if (!force && now - lastProgress < (options.progressIntervalMs ?? 500)) return;
    lastProgress = now;
    options.onProgress(progress());
  };

  // ---- the run's span (each reference's is the driver's, under it), through the client's telemetry ----
  const telemetry = batchTelemetry(options.telemetry, client);

  const batch: PayoutBatch = {
    batchId,
    progress,
    onWebhookEvent: (event) => driver.webhook(event, running),
    async run(instructions) {
      if (running) throw new Error('This batch is already running.');
      running = true;
      startedAt = performance.now();
      const started = Date.now();
      scheduler.start(options.signal);
      rejected = [];
      let batchSpan: WorkSpan | undefined;
      try {
        batchSpan = await telemetry?.work('crossborder.payouts.batch', { 'crossborder.payout.batch_id': batchId });
        const found = await driver.open(batchSpan);
        options.onResume?.(found);
        driver.resumeAll();
        type Item = PayoutInstruction | PayoutRejectedInput;
        const async = Symbol.asyncIterator in instructions;
        const iterator = async ? (instructions as AsyncIterable<Item>)[Symbol.asyncIterator]() : (instructions as Iterable<Item>)[Symbol.iterator]();

        // The scheduler reads the input a little ahead of the work, and runs what admit() and resume() queued.
        await scheduler.run({
          next: async () => {
            // A plain iterable's item without a wait of its own (one tick less an item).
            const next = async ? await iterator.next() : (iterator as Iterator<Item>).next();
            if (next.done) return true;
            await driver.admit(next.value);
            return false;
          },
        });
      } finally {
        scheduler.end();
        running = false;
        if (driver.opened) emitProgress(true);
        if (batchSpan) {
          // References a stop left under way: their spans end with the state they are in.
          await driver.endSpans();
          batchSpan.set({
            'crossborder.payout.total': driver.total,
            'crossborder.payout.completed': counts.completed,
            'crossborder.payout.failed': counts.failed,
            'crossborder.payout.needs_attention': counts.needs_attention,
            'crossborder.payout.rejected': rejected.length,
          });
          const fatal = scheduler.fatal;
          batchSpan.end(fatal !== undefined ? (fatal instanceof Error ? fatal.name : 'error') : options.signal?.aborted ? 'aborted' : undefined);
        }
      }
      const fatal = scheduler.fatal;
      if (fatal !== undefined && !(fatal instanceof APIUserAbortError && options.signal?.aborted)) throw fatal;
      if (options.signal?.aborted) {
        throw new APIUserAbortError('The payout batch was stopped; its journal holds every state: run it again to resume.', { outcomeUnknown: false });
      }
      const failed: PayoutSummary['failed'] = [];
      const needsAttention: PayoutSummary['needsAttention'] = [];
      for (const u of unsettled) (u.state === 'failed' ? failed : needsAttention).push({ reference: u.reference, reason: u.reason });
      return { batchId, counts: { ...counts }, total: driver.total, failed, needsAttention, rejected, seconds: Math.round((Date.now() - started) / 100) / 10 };
    },
  };
  return batch;
}
