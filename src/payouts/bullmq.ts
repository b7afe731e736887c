/**
 * Many machines on one batch, through BullMQ (a job queue on Redis): {@link enqueuePayouts} adds one job
 * per reference, its job id derived from (batch id, reference, instruction), so enqueuing a batch twice
 * adds nothing, and a corrected instruction (a row rejected, then fixed) is a new job;
 * {@link payoutProcessor} drives one job's payout with the batch runner's own per-payout driver (./driver),
 * the same Idempotency-Keys and a shared journal ({@link RedisJournal}); {@link startPayoutWorker} makes a BullMQ `Worker` of it, and is
 * the only function that loads bullmq (an optional peer dependency: install it to use it).
 *
 * A worker killed mid-payout loses nothing: BullMQ hands the stalled job to another worker, which
 * replays the same keys. A job ends (without a BullMQ retry) once its reference is completed, failed or
 * needs attention; it throws, for BullMQ to retry, only when the run could not go on (credentials
 * refused, the journal unreachable).
 * @module
 */
import { APIUserAbortError } from '../core/errors';
import type { WorkSpan } from '../core/telemetry';
import { batchTelemetry } from './batch-telemetry';
import { AdaptiveConcurrency } from './concurrency';
import { createPayoutDriver } from './driver';
import { instructionFingerprintV2, payoutKey } from './keys';
import type { PayoutJournal } from './journal';
import type { PayoutBatchOptions } from './runner';
import { PayoutScheduler } from './scheduler';
import type { PayoutInstruction, PayoutRecord, PayoutState } from './types';

/** A job's data. */
export interface PayoutJobData {
  batchId: string;
  instruction: PayoutInstruction;
}

/** What a job returns. */
export interface PayoutJobResult {
  reference: string;
  state: PayoutState;
  transactionId?: string | undefined;
  reason?: string | undefined;
}

/** The part of a BullMQ `Queue` used here. */
export interface PayoutQueueLike {
  addBulk(jobs: { name: string; data: PayoutJobData; opts?: Record<string, unknown> }[]): Promise<unknown>;
  /** BullMQ's `Queue.getJob`: a job the queue holds under `id` (then it is not added again, and not counted as enqueued). */
  getJob?(id: string): Promise<unknown>;
}

/** The part of a BullMQ `Job` used here. */
export interface PayoutJobLike {
  data: PayoutJobData;
  updateProgress?(progress: object): Promise<unknown>;
}

/**
 * The BullMQ job id of an instruction: the same for any producer, so a batch enqueued twice adds
 * nothing. It covers the instruction too: BullMQ keeps finished jobs (`removeOnComplete`), and ignores
 * a job whose id it holds, so with (batch id, reference) alone a rejected instruction, fixed and enqueued
 * again, added nothing and its reference was never paid, silently. Exactly once does not rest on the job
 * id: a changed instruction of a reference the journal holds is refused (`INSTRUCTION_CHANGED`), and the
 * Idempotency-Keys are (batch id, reference, step) alone.
 */
export function payoutJobId(batchId: string, reference: string, instruction: PayoutInstruction): string {
  // The current (second) fingerprint's hex digits: the same instructions as the first told apart, at less cost.
  return `${payoutKey(batchId, reference, 'job').replace(/^po1_/, 'po2j_')}_${instructionFingerprintV2(instruction).slice(3, 19)}`;
}

/**
 * Adds one job per instruction (read lazily, in chunks of `chunk`, default 500) to `queue`.
 * @returns `read`: instructions read; `enqueued`: jobs added. With a queue that has `getJob` (BullMQ's
 * has), a job the queue already holds (the same batch, reference and instruction) is neither added nor
 * counted; without it, `enqueued` counts the jobs handed to `addBulk` (BullMQ ignores those it holds).
 */
export async function enqueuePayouts(
  queue: PayoutQueueLike,
  batchId: string,
  instructions: AsyncIterable<PayoutInstruction> | Iterable<PayoutInstruction>,
  options: { chunk?: number; jobOptions?: Record<string, unknown> } = {},
): Promise<{ read: number; enqueued: number }> {
  const size = options.chunk ?? 500;
  let pending: { name: string; data: PayoutJobData; opts: Record<string, unknown> }[] = [];
  let read = 0;
  let enqueued = 0;
  const flush = async () => {
    let jobs = pending;
    pending = [];
    if (queue.getJob) {
      const held = await Promise.all(jobs.map((job) => queue.getJob!(job.opts.jobId as string)));
      jobs = jobs.filter((_, i) => held[i] === undefined || held[i] === null);
    }
    if (jobs.length === 0) return;
    await queue.addBulk(jobs);
    enqueued += jobs.length;
  };
  for await (const instruction of instructions as AsyncIterable<PayoutInstruction>) {
    read++;
    pending.push({
      name: 'payout',
      data: { batchId, instruction },
      // The journal holds the state: a finished job need not stay in Redis.
      opts: { removeOnComplete: 1000, removeOnFail: 5000, ...options.jobOptions, jobId: payoutJobId(batchId, instruction.reference, instruction) },
    });
    if (pending.length >= size) await flush();
  }
  if (pending.length > 0) await flush();
  return { read, enqueued };
}

/** Options of {@link payoutProcessor}: the runner's, without the batch id and the input (they come with each job). */
export type PayoutProcessorOptions = Omit<PayoutBatchOptions, 'batchId' | 'journal' | 'onProgress' | 'expectedTotal'> & {
  /** The shared journal (a {@link RedisJournal} for many workers), opened by the processor per batch. */
  journal: PayoutJournal;
};

/** The journal seen by one job: only its reference (no scan of the whole batch). */
function oneReference(journal: PayoutJournal, reference: string): PayoutJournal {
  return {
    open: async () => {
      const record = await journal.get(reference);
      return record ? [record] : [];
    },
    get: (r) => journal.get(r),
    put: (record: PayoutRecord) => journal.put(record),
    close: async () => {},
  };
}

/**
 * Drives one job's payout to an end (or a stop) through the per-payout driver, with a scheduler of its
 * own (one request at a time), over the job's view of the journal: the journaled record resumed, the
 * instruction admitted. Resolves with the reason the instruction was refused, if it was; throws what
 * stopped the run (credentials refused, the journal unreachable, an abort) for BullMQ to retry.
 */
async function runOne(options: PayoutProcessorOptions, batchId: string, journal: PayoutJournal, instruction: PayoutInstruction): Promise<string | undefined> {
  const limiter = new AdaptiveConcurrency({ max: 1, initial: options.initialConcurrency });
  const scheduler = new PayoutScheduler({ limiter, fallbackMs: options.webhookFallbackMs ?? 300_000, sleep: options.sleep });
  const rejected: string[] = [];
  const driver = createPayoutDriver({ ...options, batchId, journal, scheduler, hooks: { rejected: (entry) => rejected.push(entry.reason) } });
  const telemetry = batchTelemetry(options.telemetry, options.client);
  scheduler.start(options.signal);
  let span: WorkSpan | undefined;
  try {
    span = await telemetry?.work('crossborder.payouts.batch', { 'crossborder.payout.batch_id': batchId });
    const found = await driver.open(span);
    options.onResume?.(found);
    driver.resumeAll();
    let read = false;
    await scheduler.run({
      next: async () => {
        if (read) return true;
        read = true;
        await driver.admit(instruction);
        return false;
      },
    });
  } finally {
    scheduler.end();
    if (span) {
      await driver.endSpans();
      span.set({
        'crossborder.payout.total': driver.total,
        'crossborder.payout.completed': driver.counts.completed,
        'crossborder.payout.failed': driver.counts.failed,
        'crossborder.payout.needs_attention': driver.counts.needs_attention,
        'crossborder.payout.rejected': rejected.length,
      });
      const fatal = scheduler.fatal;
      span.end(fatal !== undefined ? (fatal instanceof Error ? fatal.name : 'error') : options.signal?.aborted ? 'aborted' : undefined);
    }
  }
  const fatal = scheduler.fatal;
  if (fatal !== undefined && !(fatal instanceof APIUserAbortError && options.signal?.aborted)) throw fatal;
  if (options.signal?.aborted) {
    throw new APIUserAbortError('The payout batch was stopped; its journal holds every state: run it again to resume.', { outcomeUnknown: false });
  }
  return rejected[0];
}

/**
 * A BullMQ processor `(job) => result` that pays the job's reference exactly once: the batch runner's
 * own per-payout driver over the same state machine, on the job's one reference, with a scheduler of its own. Jobs of several batches get one
 * journal each: `journal.batch(batchId)` when the journal has it (a {@link RedisJournal}: one hash per
 * batch), else the journal itself, which refuses a second batch.
 */
export function payoutProcessor(options: PayoutProcessorOptions): (job: PayoutJobLike) => Promise<PayoutJobResult> {
  const journals = new Map<string, Promise<PayoutJournal>>();
  const journalOf = (batchId: string): Promise<PayoutJournal> => {
    let journal = journals.get(batchId);
    if (journal === undefined) {
      const shared = options.journal as PayoutJournal & { batch?: (batchId: string) => PayoutJournal };
      const mine = typeof shared.batch === 'function' ? shared.batch(batchId) : shared;
      journal = Promise.resolve(mine.open(batchId)).then(() => mine);
      journal.catch(() => journals.delete(batchId)); // a failed open is tried again by the job's retry
      journals.set(batchId, journal);
    }
    return journal;
  };
  return async (job) => {
    const { batchId, instruction } = job.data;
    const journal = await journalOf(batchId);
    const rejected = await runOne(options, batchId, oneReference(journal, instruction.reference), instruction);
    if (rejected !== undefined) {
      // Refused before anything was sent (another instruction under a journaled reference, a bad one):
      // never the journaled payout's state or transaction, which this job did not pay.
      const result: PayoutJobResult = {
        reference: typeof instruction?.reference === 'string' ? instruction.reference : '',
        state: 'rejected',
        reason: rejected,
      };
      await job.updateProgress?.(result);
      return result;
    }
    const record = await journal.get(instruction.reference);
    const result: PayoutJobResult = {
      reference: instruction.reference,
      state: record?.state ?? 'failed',
      ...(record?.transactionId ? { transactionId: record.transactionId } : {}),
      ...(record?.lastError ? { reason: `${record.lastError.code}: ${record.lastError.message}` } : {}),
    };
    await job.updateProgress?.(result);
    return result;
  };
}

/** Options of {@link startPayoutWorker}. */
export interface PayoutWorkerOptions extends PayoutProcessorOptions {
  /** The queue's name (the producer's). */
  queueName: string;
  /** BullMQ's connection options (`{ host, port }`) or an ioredis instance. */
  connection: unknown;
  /** Jobs this worker runs at once (BullMQ's `concurrency`). Default 8. */
  concurrency?: number | undefined;
  /** More BullMQ `WorkerOptions` (`limiter`, `lockDuration`, …). */
  workerOptions?: Record<string, unknown> | undefined;
}

/** Starts a BullMQ `Worker` running {@link payoutProcessor} (loads bullmq). Close it with `await worker.close()`. */
export async function startPayoutWorker(options: PayoutWorkerOptions): Promise<{ close(): Promise<void> }> {
  let bullmq: { Worker: new (name: string, processor: (job: PayoutJobLike) => Promise<unknown>, opts: object) => { close(): Promise<void> } };
  try {
    bullmq = (await import('bullmq')) as unknown as typeof bullmq;
  } catch {
    throw new Error('startPayoutWorker needs bullmq, an optional peer dependency: npm install bullmq');
  }
  const { queueName, connection, concurrency, workerOptions, ...processor } = options;
  return new bullmq.Worker(queueName, payoutProcessor(processor), { connection, concurrency: concurrency ?? 8, ...workerOptions });
}
