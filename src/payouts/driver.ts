/**
 * The per-payout driver of the state machine (./machine), shared by the two drivers of a batch: the batch
 * runner (`createPayoutBatch`: input, progress, summary, the batch's span) and the BullMQ processor
 * (`payoutProcessor`: one job's reference). It admits an instruction (or journals why it is refused),
 * resumes a journaled record, and moves each payout through the table by the steps of its effects (send,
 * poll, look up, settle), each journaled before the next. Its requests, timers and waits go through the
 * {@link PayoutScheduler} it is given, which decides nothing about a payout; what the caller shows of the
 * work (progress, a summary) it hears through {@link PayoutDriverHooks}.
 * @module
 */
import type { WorkSpan } from '../core/telemetry';
import { batchTelemetry } from './batch-telemetry';
import type { Quote, QuoteCreateParams, ReceiverLookup } from '../types';
import { instructionFingerprintV2, loneSurrogateAt, payoutKey, sameInstruction } from './keys';
import { findPayout, markedDescription, payoutMarker, resendKey } from './lookup';
import { journalGuard, transition, type PayoutEffect, type PayoutEvent } from './machine';
import type { PayoutScheduler } from './scheduler';
import { emptyCounts, FINAL_TRANSACTION, isoNow, quoteBody, randomRunId, rejectedKey, instructionProblem } from './instruction';
import { classify, type Verdict } from './verdict';
import type { PayoutBatchOptions, PayoutCallOptions, PayoutWebhookEvent } from './batch-types';
import {
  FINAL_STATES,
  PAYOUT_STATES,
  type PayoutCounts,
  type PayoutError,
  type PayoutInstruction,
  type PayoutRecord,
  type PayoutRejectedInput,
  type PayoutState,
} from './types';

/** One step a driver runs: the effect `effect` of the move `event` makes from `from` (see {@link PAYOUT_STEP_TRACE}). */
export interface PayoutStep {
  reference: string;
  from: PayoutState;
  event: PayoutEvent;
  effect: PayoutEffect;
}

/**
 * The key of an option (of `createPayoutBatch`, `payoutProcessor`) that hears each step of the state
 * machine a driver runs, just before it runs it: every journal write, request and timer of a payout is
 * made by the step of the move it belongs to. Not part of the public surface: the simulation checks the
 * effects it sees against the table through it.
 */
export const PAYOUT_STEP_TRACE: unique symbol = Symbol('crossborder.payouts.stepTrace');

/** What the caller of a {@link PayoutDriver} hears of its work. */
export interface PayoutDriverHooks {
  /** A record read from the journal at open (its state counted). */
  read?(record: PayoutRecord): void;
  /** A record moved to the state it now has (its counts are updated already). */
  moved?(record: PayoutRecord): void;
  /** An input refused before anything was sent (its record journaled next). */
  rejected?(entry: { reference: string; reason: string }): void;
  /** Something a progress report would show changed. */
  progress?(): void;
}

/** The settings of a payout run the driver reads (the batch's options), with the scheduler and journal it works through. */
export type PayoutDriverOptions = Pick<
  PayoutBatchOptions,
  | 'client'
  | 'batchId'
  | 'journal'
  | 'execution'
  | 'webhooks'
  | 'webhookFallbackMs'
  | 'pollIntervalMs'
  | 'maxPollIntervalMs'
  | 'maxUnknownMs'
  | 'keyWindowMs'
  | 'keyWindowMarginMs'
  | 'signer'
> & {
  scheduler: PayoutScheduler;
  /** The recorder of each payout's span (under the run's span given to {@link PayoutDriver.open}), when it is a `WorkTelemetry`. */
  telemetry?: unknown;
  hooks?: PayoutDriverHooks | undefined;
  /** Hears each step before it runs (see {@link PAYOUT_STEP_TRACE}). */
  [PAYOUT_STEP_TRACE]?: ((step: PayoutStep) => void) | undefined;
};

/** What a resumed run found in the journal (see `onResume`). */
export interface PayoutResumeFound {
  final: number;
  rejected: number;
  replay: number;
  lookup: number;
  waiting: number;
}

/** The per-payout driver: see the module documentation. One per batch (or job); each run starts with {@link PayoutDriver.open}. */
export interface PayoutDriver {
  /** References under way (not final), by reference. */
  readonly inflight: ReadonlyMap<string, PayoutRecord>;
  /** References counted by state, journaled ones included (rejected inputs apart). */
  readonly counts: Readonly<PayoutCounts>;
  /** References of the run: journaled ones and those admitted (rejected inputs not counted). */
  readonly total: number;
  /** Whether {@link PayoutDriver.open} has opened the journal (a locked journal is not opened). */
  readonly opened: boolean;
  /**
   * Opens the journal for the run: reads each reference's latest record, counts it, keeps what is not
   * final, and says what it found. `runSpan`: the run's span, the parent of each payout's.
   */
  open(runSpan?: WorkSpan | undefined): Promise<PayoutResumeFound>;
  /** Hands every journaled record not final to the scheduler, where its state says it goes on. */
  resumeAll(): void;
  /** Admits one input: a new payout is scheduled, a journaled one left to its resume, a refused one journaled as rejected. */
  admit(item: PayoutInstruction | PayoutRejectedInput): Promise<void>;
  /** Feeds a webhook event (see `PayoutBatch.onWebhookEvent`); `early`: keep a final status of a transaction not yet named. */
  webhook(event: PayoutWebhookEvent, early: boolean): boolean;
  /** Ends the spans of references a stop left under way, with the state they are in; after it, no span starts. */
  endSpans(): Promise<void>;
}

/** Creates the per-payout driver of one run. */
export function createPayoutDriver(options: PayoutDriverOptions): PayoutDriver {
  const { client, batchId, journal, scheduler } = options;
  if (typeof batchId !== 'string' || batchId === '') throw new TypeError('batchId: expected a non-empty string');
  if (!journal) throw new TypeError('journal: expected a journal (MemoryJournal, FileJournal, RedisJournal)');
  const hooks = options.hooks ?? {};
  const trace = options[PAYOUT_STEP_TRACE];
  const execution = options.execution ?? 'immediate';
  const fallbackMs = options.webhookFallbackMs ?? 300_000;
  const pollFirst = options.pollIntervalMs ?? 1_000;
  const pollMax = options.maxPollIntervalMs ?? 30_000;
  const maxUnknownMs = options.maxUnknownMs ?? 6 * 3_600_000;
  const keyWindowMs = options.keyWindowMs ?? 24 * 3_600_000;
  const keyWindowMarginMs = options.keyWindowMarginMs ?? 4 * 3_600_000;
  for (const [name, value] of [
    ['keyWindowMs', keyWindowMs],
    ['keyWindowMarginMs', keyWindowMarginMs],
  ] as const) {
    if (typeof value !== 'number' || !(value >= 0)) throw new TypeError(`${name}: expected a number of milliseconds ≥ 0`);
  }
  /** How old a payout's first send may be for a blind replay under its keys (the window less its margin). */
  const replayableMs = keyWindowMs - keyWindowMarginMs;

  // Only what is under way is kept: references not yet final, and counters. The journal is the record
  // of the rest (100,000 references stream through in flat memory).
  const inflight = new Map<string, PayoutRecord>();
  const byTransaction = new Map<string, string>();
  let total = 0;
  /** This run's id, journaled with each record it admits (tells a reference seen twice in one run from one an earlier run journaled). */
  let runId = '';
  /** Final statuses that arrived by webhook before the create answer named their transaction. */
  const early = new Map<string, { status: string; failureReason?: string | undefined }>();
  const counts = emptyCounts();
  /** Input items read so far in the run (a rejected item without line or reference is keyed by its place). */
  let ordinal = 0;
  /** References read in this run whose records were final when read (their records carry an earlier run's id). */
  let finalSeen = new Set<string>();
  /** The journal of the run is open (a locked journal is not). */
  let opened = false;

  /**
   * Moves `record` by `event` through the state machine (./machine), then runs the move's effects in the
   * table's order, each by the step given for it: the table says where the payout goes and what follows;
   * the driver only says how. A move the table does not allow, or an effect with no step, is a bug of the
   * runner's, and stops the run rather than being journaled.
   */
  async function perform(record: PayoutRecord, event: PayoutEvent, steps: Partial<Record<PayoutEffect, () => unknown>>): Promise<void> {
    const from = record.state;
    const m = transition(from, event);
    if (m === undefined) throw new Error(`payout runner: ${event} is not a move from ${from} (reference ${JSON.stringify(record.reference)})`);
    if (m.next !== from) setState(record, m.next);
    for (const effect of m.effects) {
      const step = steps[effect];
      if (step === undefined) throw new Error(`payout runner: no step for the effect ${effect} of ${event} (reference ${JSON.stringify(record.reference)})`);
      trace?.({ reference: record.reference, from, event, effect });
      await step();
    }
  }
  const setState = (record: PayoutRecord, state: PayoutState) => {
    if (inflight.get(record.reference) === record) counts[record.state]--;
    record.state = state;
    counts[state]++;
    if (FINAL_STATES.has(state)) {
      inflight.delete(record.reference);
      scheduler.cancel(record.reference);
      if (record.transactionId) byTransaction.delete(record.transactionId);
    }
    hooks.moved?.(record);
  };

  // ---- spans: one per reference worked on in the run, under the run's (through the client's telemetry) ----
  const telemetry = batchTelemetry(options.telemetry, client);
  let runSpan: WorkSpan | undefined;
  const itemSpans = new Map<string, Promise<WorkSpan | undefined>>();
  function spanOf(record: PayoutRecord): Promise<WorkSpan | undefined> | undefined {
    if (runSpan === undefined || telemetry === undefined) return undefined;
    let span = itemSpans.get(record.reference);
    if (span === undefined) {
      span = telemetry.work('crossborder.payout', { 'crossborder.payout.batch_id': batchId, 'crossborder.payout.reference': record.reference }, runSpan);
      itemSpans.set(record.reference, span);
    }
    return span;
  }

  /** Ends the reference's span with where it stands (its final state, or the state a stopped run left it in). */
  async function endSpan(record: PayoutRecord): Promise<void> {
    const pending = spanOf(record);
    if (pending === undefined) return;
    itemSpans.delete(record.reference);
    const span = await pending;
    span?.set({
      'crossborder.payout.state': record.state,
      'crossborder.payout.attempts': record.attempts,
      'crossborder.transaction.id': record.transactionId,
      'crossborder.transaction.status': record.transactionStatus,
      'crossborder.error.code': record.lastError?.code,
    });
    span?.end(record.state === 'failed' || record.state === 'needs_attention' ? (record.lastError?.code ?? record.failureReason ?? record.state) : undefined);
  }

  function save(record: PayoutRecord): Promise<void> {
    record.updatedAt = isoNow();
    return journal.put(record);
  }

  /** Ends `record` by `event` (the table's final move for it), with the error that says why. */
  function finish(record: PayoutRecord, event: PayoutEvent, error?: PayoutError): Promise<void> {
    if (error) record.lastError = error;
    delete record.unknownSince;
    return perform(record, event, { journal: () => save(record), settle: () => settle(record) });
  }

  /** A payout's final state is journaled: its span ends (its timers went with the move), progress is told. */
  async function settle(record: PayoutRecord): Promise<void> {
    await endSpan(record);
    hooks.progress?.();
  }

  /** Polls `record`'s transaction after `delay` (or its webhook settles it first). */
  function schedulePoll(record: PayoutRecord, delay: number): void {
    scheduler.later(record.reference, delay, () => poll(record, Math.min(pollMax, delay * 1.5)));
  }

  const callOptions = (key?: string): PayoutCallOptions => {
    // maxRetries 0: the runner retries, so that the batch's concurrency hears every 429. The run's signal:
    // the SDK follows it with one listener, however many requests share it.
    const o: PayoutCallOptions = { maxRetries: 0, signal: scheduler.signal };
    if (key !== undefined) o.idempotencyKey = key;
    if (options.signer) o.signer = options.signer;
    return o;
  };

  /** One request in a slot of the scheduler (under the reference's span): the answer, or the verdict on its failure. */
  async function request<T>(
    record: PayoutRecord,
    attempt: number,
    send: () => PromiseLike<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; verdict: Verdict }> {
    const span = spanOf(record);
    const active = span && (await span);
    const result = await scheduler.request(attempt, active ? () => active.run(send) : send);
    return result.ok ? result : { ok: false, verdict: classify(record, result.error, result.backoffMs, { stopped: scheduler.stopped, maxUnknownMs }) };
  }

  /**
   * Applies a verdict: a retry is its event's move (`lost` journals when the outcome became unknown, for
   * the next run too; every retry goes back in the queue after its delay); the rest end the reference or the run.
   */
  async function onVerdict(record: PayoutRecord, verdict: Verdict, again: () => Promise<void>): Promise<void> {
    if (verdict.kind === 'fatal') throw verdict.error;
    if (verdict.kind === 'final') return finish(record, verdict.state === 'failed' ? 'refused' : 'give_up', verdict.error);
    return perform(record, verdict.event, { journal: () => save(record), retry_timer: () => later(record, verdict.delayMs, again) });
  }

  /** Runs `task` for `record` after `ms` (at once when 0: queued behind the work ready). */
  function later(record: PayoutRecord, ms: number, task: () => Promise<void>): void {
    if (ms <= 0) scheduler.schedule(task);
    else scheduler.later(record.reference, ms, task);
  }

  function accept(record: PayoutRecord, quote: Quote): void {
    record.quote = {
      quoteId: quote.id,
      sendingAmount: quote.totalSendingAmount,
      sendingCurrency: quote.sendingCurrency?.code,
      receivingAmount: quote.totalReceivingAmount,
      receivingCurrency: quote.receivingCurrency?.code,
      fees: quote.feesIncluded,
      exchangeRate: quote.exchangeRate,
    };
    record.transactionId = quote.transactionId;
    if (quote.transactionId) byTransaction.set(quote.transactionId, record.reference);
  }

  /** Sends what is left of a reference's writes (lookup, create, execute), then waits for its final status. */
  async function submit(record: PayoutRecord, attempt = 0): Promise<void> {
    if (FINAL_STATES.has(record.state)) return;
    // Its keys may be forgotten by now: a replay could pay it again. Looked up, never re-sent blind.
    if (pastWindow(record)) return lookUp(record, attempt);
    const i = record.instruction;
    if ('umaAddress' in i.destination && record.lookupId === undefined) {
      const address = i.destination.umaAddress;
      const answer: { looked?: Awaited<ReturnType<typeof request<ReceiverLookup>>> } = {};
      await perform(record, 'resolve', {
        receiver_lookup: async () => {
          answer.looked = await request(record, attempt, () => client.receiver.lookupUma(address, undefined, callOptions()));
        },
      });
      const looked = answer.looked!;
      if (!looked.ok) return onVerdict(record, looked.verdict, () => submit(record, attempt + 1));
      record.lookupId = looked.value.lookupId;
      // The quote's body names it: journaled before the body is ever sent.
      await perform(record, 'resolved', { journal: () => save(record) });
    }
    return perform(record, 'send', {
      journal: () => {
        record.firstSentAt ??= isoNow(); // the first send under these keys: where their window starts
        record.attempts++;
        return save(record); // durable before the request that moves money leaves
      },
      request: () => send(record, attempt),
    });
  }

  /** The money-moving requests of `record` (create, and execute where needed), under its journaled keys. */
  async function send(record: PayoutRecord, attempt: number): Promise<void> {
    const i = record.instruction;
    const created = await request(record, attempt, () => client.quotes.create(quoteBody(record, execution), callOptions(record.keys.create)));
    if (!created.ok) return onVerdict(record, created.verdict, () => submit(record, attempt + 1));
    let quote = created.value;
    accept(record, quote);
    const realtime = 'sourceType' in i.source;
    if (execution === 'separate' && !realtime && quote.status === 'PENDING') {
      const answer: { executed?: Awaited<ReturnType<typeof request<Quote>>> } = {};
      const id = quote.id;
      await perform(record, 'created', {
        journal: () => save(record),
        request: async () => {
          answer.executed = await request(record, attempt, () => client.quotes.execute(id, callOptions(record.keys.execute)));
        },
      });
      const executed = answer.executed!;
      if (!executed.ok) {
        const v = executed.verdict;
        // Executed before (its answer lost past the key's window): the quote moved on; read the transaction.
        if (!(v.kind === 'final' && v.error.code === 'INVALID_STATE_TRANSITION')) return onVerdict(record, v, () => submit(record, attempt + 1));
      } else {
        quote = executed.value;
        accept(record, quote);
      }
    }
    delete record.unknownSince;
    delete record.lastError;
    record.transactionStatus = quote.status;
    return perform(record, 'accepted', {
      journal: async () => {
        await save(record);
        hooks.progress?.();
      },
      wait_timer: () => settleOrWait(record, quote.status),
    });
  }

  /**
   * Whether `record`'s outcome is unknown and its first send older than the keys' window less its margin.
   * A record journaled before `firstSentAt` existed: dated by when its outcome became unknown, or its last write.
   */
  function pastWindow(record: PayoutRecord): boolean {
    if (record.state !== 'submitted' || record.attempts === 0) return false;
    const since = Date.parse(record.firstSentAt ?? record.unknownSince ?? record.updatedAt);
    return !(Date.now() - since <= replayableMs); // an unreadable date is past (never a blind replay)
  }

  /** Looks `record` up on the service (its first send past the window) and settles it from the answer. */
  function lookUp(record: PayoutRecord, attempt: number): Promise<void> {
    return perform(record, 'window_passed', { lookup: () => lookUpNow(record, attempt) });
  }

  /** The lookup of `record` on the service ({@link findPayout}), and the move its answer makes. */
  async function lookUpNow(record: PayoutRecord, attempt: number): Promise<void> {
    const list = client.transactions.list;
    if (record.marker === undefined || typeof list !== 'function') {
      return finish(record, 'lookup_unknown', {
        code: 'OUTCOME_UNKNOWN',
        message: `Sent ${record.firstSentAt ?? 'before this version'} with no answer, past the Idempotency-Key window: ${
          record.marker === undefined
            ? 'journaled before payouts carried a marker, it cannot be looked up'
            : 'the client has no transactions.list to look it up'
        }. Look it up by hand before paying it again.`,
      });
    }
    const source = record.instruction.source;
    const sent = Date.parse(record.firstSentAt ?? record.unknownSince ?? record.updatedAt);
    const found = await request(record, attempt, () =>
      findPayout(
        { transactions: { list: (params, o) => list.call(client.transactions, params, { ...o, ...callOptions() }) } },
        {
          batchId,
          reference: record.reference,
          ...('accountId' in source ? { senderAccountIdentifier: source.accountId } : {}),
          // A day before the first send: clocks differ, and an earlier run under the same keys may have sent it.
          startDate: new Date((Number.isFinite(sent) ? sent : Date.now() - 30 * 86_400_000) - 86_400_000),
          signal: scheduler.signal,
        },
      ),
    );
    if (!found.ok) return onVerdict(record, found.verdict, () => submit(record, attempt + 1));
    const answer = found.value;
    if (answer.outcome === 'unknown') {
      return finish(record, 'lookup_unknown', {
        code: 'OUTCOME_UNKNOWN',
        message: `No answer to its send within the Idempotency-Key window, and the lookup could not tell: ${answer.reason}`,
      });
    }
    if (answer.outcome === 'found') {
      if (answer.transactions.length > 1) {
        return finish(record, 'give_up', {
          code: 'PAID_MORE_THAN_ONCE',
          message: `The lookup found ${answer.transactions.length} transactions for it: ${answer.transactions.map((t) => t.id).join(', ')}.`,
        });
      }
      const t = answer.transaction;
      record.transactionId = t.id;
      byTransaction.set(t.id, record.reference);
      record.transactionStatus = t.status;
      delete record.unknownSince;
      delete record.lastError;
      return perform(record, 'found', { journal: () => save(record), wait_timer: () => settleOrWait(record, t.status) });
    }
    // Proven not moved: sent again under fresh keys (the old ones may be forgotten, or remembered: either way not reused).
    return perform(record, 'not_found', {
      fresh_keys: () => {
        record.resends = (record.resends ?? 0) + 1;
        record.keys = {
          create: resendKey(batchId, record.reference, 'create', record.resends),
          execute: resendKey(batchId, record.reference, 'execute', record.resends),
        };
        record.firstSentAt = isoNow();
        delete record.quote;
        delete record.transactionId;
        delete record.unknownSince;
      },
      // The fresh keys are durable before anything is sent under them (a crash here resumes with them, within their window).
      journal: () => save(record),
      request: () => submit(record, 0),
    });
  }

  async function settleOrWait(record: PayoutRecord, quoteStatus: string | undefined): Promise<void> {
    const seen = record.transactionId ? early.get(record.transactionId) : undefined;
    if (seen && record.transactionId) early.delete(record.transactionId);
    const status = seen?.status ?? (quoteStatus === 'COMPLETED' || quoteStatus === 'FAILED' ? quoteStatus : undefined);
    if (status && FINAL_TRANSACTION[status]) {
      record.transactionStatus = status;
      if (seen?.failureReason) record.failureReason = seen.failureReason;
      return finish(
        record,
        FINAL_TRANSACTION[status],
        status === 'COMPLETED' ? undefined : { code: record.failureReason ?? status, message: `The transaction ended ${status}.` },
      );
    }
    if (!record.transactionId) {
      return finish(record, 'give_up', {
        code: 'NO_TRANSACTION',
        message: 'The quote was accepted without a transactionId: look the payout up by its reference.',
      });
    }
    if (options.webhooks) scheduler.fallback(record.reference, () => poll(record, Math.min(pollMax, fallbackMs * 1.5)));
    else schedulePoll(record, pollFirst);
  }

  async function poll(record: PayoutRecord, nextDelay: number, attempt = 0): Promise<void> {
    if (FINAL_STATES.has(record.state)) return;
    const id = record.transactionId!;
    const read = await request(record, attempt, () => client.transactions.retrieve(id, callOptions()));
    if (!read.ok) {
      const v = read.verdict;
      if (v.kind === 'retry') return onVerdict(record, v, () => poll(record, nextDelay, attempt + 1));
      if (v.kind === 'final' && v.error.status === 404 && attempt < 5) {
        // Not visible yet (a read that lags the write): nothing new, polled again.
        return perform(record, 'unchanged', { wait_timer: () => scheduler.later(record.reference, nextDelay, () => poll(record, nextDelay, attempt + 1)) });
      }
      // A read refused for good says nothing about the payment: a person looks.
      return onVerdict(record, v.kind === 'final' ? { ...v, state: 'needs_attention' } : v, () => poll(record, nextDelay, attempt + 1));
    }
    return settleFrom(record, read.value.status, (read.value as { failureReason?: string }).failureReason, () => schedulePoll(record, nextDelay));
  }

  async function settleFrom(record: PayoutRecord, status: string, failureReason: string | undefined, otherwise: () => void): Promise<void> {
    if (FINAL_STATES.has(record.state)) return;
    const final = FINAL_TRANSACTION[status];
    if (!final) {
      if (record.transactionStatus === status) return perform(record, 'unchanged', { wait_timer: otherwise });
      record.transactionStatus = status;
      return perform(record, 'status', { journal: () => save(record), wait_timer: otherwise });
    }
    record.transactionStatus = status;
    if (failureReason) record.failureReason = failureReason;
    scheduler.cancel(record.reference);
    return finish(
      record,
      final,
      final === 'failed'
        ? { code: failureReason ?? status, message: `The transaction ended ${status}${failureReason ? ` (${failureReason})` : ''}.` }
        : undefined,
    );
  }

  /** What to do with a record at the start of a run. */
  function resume(record: PayoutRecord): void {
    switch (record.state) {
      case 'pending':
      case 'submitted':
        scheduler.schedule(() => submit(record));
        return;
      case 'processing':
        if (record.transactionId) byTransaction.set(record.transactionId, record.reference);
        scheduler.schedule(() => perform(record, 'resume', { wait_timer: () => settleOrWait(record, undefined) }));
        return;
      default:
        return;
    }
  }

  const reject = async (input: { line?: number | undefined; reference?: string | undefined }, reason: string, instruction: unknown) => {
    const reference = input.reference ?? '';
    hooks.rejected?.({ reference, reason });
    const key = rejectedKey(input, ordinal);
    const known = await journal.get(key);
    if (known?.state === 'rejected' && known.lastError?.message === reason) return; // a resumed run: journaled already, the same reason
    const record: PayoutRecord = {
      reference: key,
      state: 'pending',
      fingerprint: '',
      instruction: (typeof instruction === 'object' && instruction !== null ? instruction : {}) as PayoutInstruction,
      keys: { create: '', execute: '' },
      attempts: 0,
      lastError: { code: 'REJECTED', message: reason },
      runId,
      updatedAt: isoNow(),
      ...(input.line !== undefined ? { line: input.line } : {}),
      ...(input.reference !== undefined ? { inputReference: input.reference } : {}),
    };
    // The record it replaces (a reason that changed) is counted no more: the move counts this one.
    if (known) counts[known.state]--;
    await perform(record, 'reject', {
      journal: () => journal.put(record),
      settle: () => undefined, // never admitted: no span, timer or progress of its own
    });
  };

  const admit = async (item: PayoutInstruction | PayoutRejectedInput) => {
    ordinal++;
    const given = item as Partial<PayoutRejectedInput> | undefined;
    const line = typeof given?.line === 'number' ? given.line : undefined;
    const readReference = typeof given?.reference === 'string' ? given.reference : undefined;
    if (given !== null && typeof given === 'object' && typeof given.rejected === 'string') {
      return reject({ line, reference: readReference }, given.rejected, undefined);
    }
    const instruction = item as PayoutInstruction;
    const problem = instructionProblem(instruction);
    if (problem) return reject({ line, reference: readReference }, problem, instruction);
    const reference = instruction.reference;
    const duplicate = 'reference: seen twice in this run (references are unique in a batch); the second was not sent';
    const live = inflight.get(reference);
    const known = live ?? (await journal.get(reference));
    // Admitted in this run: its record carries this run's id (a resumed one an earlier run's, until admitted);
    // a final one is not written again, and is remembered instead.
    if (known && (known.runId === runId || (!live && finalSeen.has(reference)))) return reject({ line, reference }, duplicate, instruction);
    if (known) {
      if (live === known) known.runId = runId;
      else finalSeen.add(reference);
      if (!sameInstruction(instruction, known.fingerprint)) {
        // Never sent: the same keys with another body would be refused, or pay something else.
        return reject(
          { line, reference },
          `INSTRUCTION_CHANGED: the journal holds another instruction for this reference (state ${known.state}); the journaled one is what this batch pays. Use a new reference or batch id for a new payout.`,
          instruction,
        );
      }
      return; // journaled: resume() has it
    }
    const record: PayoutRecord = {
      reference,
      state: 'pending',
      fingerprint: instructionFingerprintV2(instruction),
      instruction,
      keys: { create: payoutKey(batchId, reference, 'create'), execute: payoutKey(batchId, reference, 'execute') },
      attempts: 0,
      runId,
      marker: payoutMarker(batchId, reference),
      updatedAt: isoNow(),
    };
    inflight.set(reference, record);
    total++;
    counts.pending++;
    scheduler.schedule(() => submit(record));
  };

  const driver: PayoutDriver = {
    inflight,
    counts,
    get total() {
      return total;
    },
    get opened() {
      return opened;
    },
    async open(span) {
      runId = randomRunId();
      ordinal = 0;
      finalSeen = new Set<string>();
      opened = false;
      runSpan = span;
      const records = await journal.open(batchId);
      opened = true;
      const guard = journalGuard(journal);
      const found: PayoutResumeFound = { final: 0, rejected: 0, replay: 0, lookup: 0, waiting: 0 };
      for await (const record of records) {
        // The latest of each reference: counted, and kept only when it is not final.
        guard.seen(record); // where its next move starts, for a journal that keeps no states (the file's)
        if (record.state !== 'rejected') total++;
        counts[record.state]++;
        if (FINAL_STATES.has(record.state)) {
          if (record.state === 'rejected') found.rejected++;
          else found.final++;
        } else {
          inflight.set(record.reference, record);
          if (record.state === 'processing') found.waiting++;
          else if (pastWindow(record)) found.lookup++;
          else found.replay++;
        }
        hooks.read?.(record);
      }
      return found;
    },
    resumeAll() {
      for (const record of inflight.values()) resume(record);
    },
    admit,
    webhook(event, keepEarly) {
      if (!event || typeof event.type !== 'string' || !event.type.startsWith('OUTGOING_PAYMENT.')) return false;
      const data = event.data as { id?: unknown; status?: unknown; failureReason?: unknown } | undefined;
      if (!data || typeof data.id !== 'string' || typeof data.status !== 'string') return false;
      const failureReason = typeof data.failureReason === 'string' ? data.failureReason : undefined;
      const reference = byTransaction.get(data.id);
      const record = reference === undefined ? undefined : inflight.get(reference);
      if (!record) {
        // Perhaps ours, before the create answer named it: kept (bounded) until then.
        if (keepEarly && FINAL_TRANSACTION[data.status] && early.size < 100_000) early.set(data.id, { status: data.status, failureReason });
        return false;
      }
      if (record.state !== 'processing') return true;
      scheduler.schedule(() => settleFrom(record, data.status as string, failureReason, () => undefined));
      scheduler.wake();
      return true;
    },
    async endSpans() {
      if (runSpan === undefined) return;
      await Promise.all(
        [...itemSpans.keys()]
          .map((reference) => inflight.get(reference))
          .filter((r) => r !== undefined)
          .map((r) => endSpan(r)),
      );
      runSpan = undefined;
      itemSpans.clear();
    },
  };
  return driver;
}
