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
 * @module
 */
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
} from '../core/errors';
import type { Telemetry, WorkSpan } from '../core/telemetry';
import type { Quote, QuoteCreateParams, ReceiverLookup, Transaction } from '../types';
import { AdaptiveConcurrency } from './concurrency';
import { instructionFingerprintV2, payoutKey, sameInstruction } from './keys';
import type { PayoutJournal } from './journal';
import { findPayout, markedDescription, payoutMarker, resendKey, type PayoutTransactionListParams, type PayoutTransactionPage } from './lookup';
import { journalGuard, transition, type PayoutEvent } from './machine';
import {
  FINAL_STATES,
  PAYOUT_STATES,
  type PayoutCounts,
  type PayoutError,
  type PayoutInstruction,
  type PayoutProgress,
  type PayoutRecord,
  type PayoutRejectedInput,
  type PayoutState,
  type PayoutSummary,
} from './types';

/** What the runner calls: a `Crossborder` client (or anything with these methods). */
export interface PayoutClient {
  quotes: {
    create(params: QuoteCreateParams, options?: PayoutCallOptions): PromiseLike<Quote>;
    execute(quoteId: string, options?: PayoutCallOptions): PromiseLike<Quote>;
  };
  transactions: {
    retrieve(transactionId: string, options?: PayoutCallOptions): PromiseLike<Transaction>;
    /**
     * Lists transactions (`cb.transactions.list`): the lookup of a payout past its key's window
     * ({@link findPayout}). Without it such a payout needs attention rather than a lookup.
     */
    list?(params: PayoutTransactionListParams, options?: PayoutCallOptions): PromiseLike<PayoutTransactionPage>;
  };
  receiver: { lookupUma(receiverUmaAddress: string, params?: undefined, options?: PayoutCallOptions): PromiseLike<ReceiverLookup> };
  /** A `Crossborder` client's OpenTelemetry recorder (`cb.telemetry`): the batch's spans go through it. */
  readonly telemetry?: unknown;
}

/** The call options the runner passes (a subset of the SDK's `SignedRequestOptions`). */
export interface PayoutCallOptions {
  idempotencyKey?: string | undefined;
  maxRetries?: number | undefined;
  signal?: AbortSignal | undefined;
  signer?: ((challenge: never) => Promise<string>) | undefined;
}

/** Options of {@link createPayoutBatch}. */
export interface PayoutBatchOptions {
  client: PayoutClient;
  /** The batch's identity: with each reference, what the Idempotency-Keys derive from. Same id, same keys. */
  batchId: string;
  /** Where states are kept: a `MemoryJournal` (this process only), a `FileJournal` (survives a crash), a `RedisJournal` (many workers). */
  journal: PayoutJournal;
  /** Most requests in flight (default 16). Concurrency adapts below it, never above. */
  maxConcurrency?: number | undefined;
  /** Where concurrency starts (default 2). */
  initialConcurrency?: number | undefined;
  /**
   * `immediate` (default): one request, the quote created with `immediatelyExecute`. `separate`:
   * create, then execute (sources that cannot execute immediately). REALTIME_FUNDING sources are always
   * created alone: the funds arriving execute them.
   */
  execution?: 'immediate' | 'separate' | undefined;
  /**
   * True when final statuses arrive by webhook through {@link PayoutBatch.onWebhookEvent}: the runner
   * then polls only as a fallback, after `webhookFallbackMs`. Default false: it polls.
   */
  webhooks?: boolean | undefined;
  /** With webhooks, when to start polling a payout anyway (default 300000 ms). */
  webhookFallbackMs?: number | undefined;
  /** First poll of a transaction after this many ms (default 1000), then 1.5× each time up to `maxPollIntervalMs`. */
  pollIntervalMs?: number | undefined;
  /** Longest wait between polls (default 30000 ms). */
  maxPollIntervalMs?: number | undefined;
  /**
   * How long a reference may stay with its outcome unknown (no answer to its write, replayed with the
   * same key) before it is set `needs_attention`. Default 6 hours: well inside the service's 24-hour
   * replay window of an Idempotency-Key.
   */
  maxUnknownMs?: number | undefined;
  /**
   * The service's Idempotency-Key replay window (default 24 hours). A payout whose outcome is unknown
   * and whose first send is older than `keyWindowMs − keyWindowMarginMs` is never re-sent blind: it is
   * looked up on the service ({@link findPayout}) and settled from what is found.
   */
  keyWindowMs?: number | undefined;
  /** How far inside the window a replay must stay (default 4 hours: clocks, a long run, a slow resume). */
  keyWindowMarginMs?: number | undefined;
  /**
   * Called once after the journal is read and before any request: what a resumed run found (final
   * references, rejected rows, payouts replayed with their keys, looked up past the window, waiting for a status).
   */
  onResume?: ((found: { final: number; rejected: number; replay: number; lookup: number; waiting: number }) => void) | undefined;
  /** The OpenTelemetry recorder for the batch's spans. Default: the client's own (`cb.telemetry`). */
  telemetry?: unknown;
  /** Stops the run cleanly: nothing new starts, requests in flight are aborted; states stay journaled. */
  signal?: AbortSignal | undefined;
  /** Called with progress, at most every `progressIntervalMs` (default 500), and once at the end. */
  onProgress?: ((progress: PayoutProgress) => void) | undefined;
  progressIntervalMs?: number | undefined;
  /** The total, when known before the input is read (for the ETA). */
  expectedTotal?: number | undefined;
  /** Signs a 202 challenge (a wallet-funded source): the SDK's `signer` option. */
  signer?: PayoutCallOptions['signer'];
  /** Waits (ms) between retries of one reference; injectable for tests. Default `setTimeout`. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

/** A webhook event as `cb.webhooks.unwrap` gives it, known type or not (only `type` and `data` are read). */
export interface PayoutWebhookEvent {
  type: unknown;
  data?: unknown;
}

/** A batch of payouts. */
export interface PayoutBatch {
  readonly batchId: string;
  /**
   * Runs the batch over `instructions` (read lazily, in order), and resumes what the journal holds.
   * Resolves once every reference is completed, failed or needs attention. On abort it rejects with
   * {@link APIUserAbortError} after the requests in flight have ended; the journal holds every state.
   * @throws PayoutJournalError when the journal is locked by another process or corrupt.
   * @throws AuthenticationError / PermissionDeniedError: the credentials are refused (nothing can succeed).
   */
  run(instructions: AsyncIterable<PayoutInstruction | PayoutRejectedInput> | Iterable<PayoutInstruction | PayoutRejectedInput>): Promise<PayoutSummary>;
  /**
   * Feeds a verified webhook event (from `cb.webhooks.unwrap`): an `OUTGOING_PAYMENT.*` event whose
   * transaction belongs to the batch settles its reference. Others are ignored. Returns true when it
   * was one of the batch's.
   */
  onWebhookEvent(event: PayoutWebhookEvent): boolean;
  /** The progress now. */
  progress(): PayoutProgress;
}

/** Transaction statuses that end a payout, and how. */
const FINAL_TRANSACTION: Record<string, 'completed' | 'failed'> = {
  COMPLETED: 'completed',
  FAILED: 'failed',
  REJECTED: 'failed',
  REFUNDED: 'failed',
  EXPIRED: 'failed',
};

const REQUIRED_FIELDS = ['reference', 'source', 'destination', 'amount'] as const;

/** The largest amount accepted (production's document bounds amounts below 2^53; minor units). */
export const MAX_AMOUNT = 9_000_000_000_000_000;

/** Where the journal keys of rejected inputs start: a space no payable reference can take (see instructionProblem). */
export const REJECTED_KEY_PREFIX = '\u0000rejected:';

/**
 * The journal key of a rejected input: by its line when it came from a file, else by its reference,
 * else by its place in the input. Never a payable reference's (those cannot start with the prefix).
 */
export function rejectedKey(input: { line?: number | undefined; reference?: string | undefined }, ordinal: number): string {
  if (typeof input.line === 'number' && Number.isSafeInteger(input.line)) return `${REJECTED_KEY_PREFIX}line:${input.line}`;
  if (typeof input.reference === 'string') return `${REJECTED_KEY_PREFIX}reference:${input.reference}`;
  return `${REJECTED_KEY_PREFIX}item:${ordinal}`;
}

/** The index of the first lone UTF-16 surrogate of `text`, or -1 (`String.prototype.isWellFormed` is not in Node 20). */
export function loneSurrogateAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/** Why an instruction cannot be sent at all (the fields the runner must have to build a request). */
export function instructionProblem(instruction: unknown): string | undefined {
  if (typeof instruction !== 'object' || instruction === null) return 'instruction: expected an object';
  const i = instruction as Record<string, unknown>;
  for (const field of REQUIRED_FIELDS) if (i[field] === undefined || i[field] === '') return `${field}: required`;
  if (typeof i.reference !== 'string') return 'reference: expected a string';
  const lone = loneSurrogateAt(i.reference);
  // Its keys and fingerprint hash UTF-8, where every lone surrogate is the same U+FFFD: two such references would be one payout.
  if (lone >= 0) return `reference: not well-formed Unicode (a lone UTF-16 surrogate at index ${lone})`;
  if (i.reference.startsWith(REJECTED_KEY_PREFIX)) return 'reference: may not start with U+0000 "rejected:" (the journal keeps rejected rows there)';
  if (typeof i.amount !== 'number' || !Number.isSafeInteger(i.amount)) return 'amount: expected a whole number of minor units';
  if (i.amount <= 0) return `amount: expected more than 0, got ${i.amount}`;
  if (i.amount > MAX_AMOUNT) return `amount: expected at most ${MAX_AMOUNT}, got ${i.amount}`;
  const source = i.source as Record<string, unknown>;
  if (typeof source !== 'object' || source === null || (typeof source.accountId !== 'string' && source.sourceType !== 'REALTIME_FUNDING')) {
    return 'source: expected { accountId } or { sourceType: "REALTIME_FUNDING", currency }';
  }
  // An empty id is no id (as an empty top-level field above): never sent, for the service's 404 naming nothing.
  if (source.accountId === '') return 'source.accountId: required';
  const destination = i.destination as Record<string, unknown>;
  if (typeof destination !== 'object' || destination === null || (typeof destination.accountId !== 'string' && typeof destination.umaAddress !== 'string')) {
    return 'destination: expected { accountId } or { umaAddress }';
  }
  if (destination.accountId === '') return 'destination.accountId: required';
  if (destination.umaAddress === '') return 'destination.umaAddress: required';
  if (i.lockedCurrencySide !== undefined && i.lockedCurrencySide !== 'SENDING' && i.lockedCurrencySide !== 'RECEIVING') {
    return 'lockedCurrencySide: expected SENDING or RECEIVING';
  }
  return undefined;
}

/** The body of the quote of `record` (the same bytes on every replay: built from the journaled instruction and lookup). */
export function quoteBody(record: PayoutRecord, execution: 'immediate' | 'separate'): QuoteCreateParams {
  const i = record.instruction;
  // Built field by field in a fixed order, undefined fields left out (as JSON would drop them): the same
  // bytes as every version before, with no intermediate objects.
  let source: Record<string, unknown>;
  const realtime = 'sourceType' in i.source;
  if ('sourceType' in i.source) {
    source = { sourceType: 'REALTIME_FUNDING' };
    if (i.source.currency !== undefined) source.currency = i.source.currency;
    if (i.source.customerId !== undefined) source.customerId = i.source.customerId;
    if (i.source.cryptoNetwork !== undefined) source.cryptoNetwork = i.source.cryptoNetwork;
  } else {
    source = { sourceType: 'ACCOUNT' };
    if (i.source.accountId !== undefined) source.accountId = i.source.accountId;
    if (i.source.currency !== undefined) source.currency = i.source.currency;
  }
  let destination: Record<string, unknown>;
  if ('umaAddress' in i.destination) {
    destination = { destinationType: 'UMA_ADDRESS' };
    if (i.destination.umaAddress !== undefined) destination.umaAddress = i.destination.umaAddress;
    if (i.destination.currency !== undefined) destination.currency = i.destination.currency;
  } else {
    destination = { destinationType: 'ACCOUNT' };
    if (i.destination.accountId !== undefined) destination.accountId = i.destination.accountId;
    if (i.destination.currency !== undefined) destination.currency = i.destination.currency;
    if (i.destination.paymentRail !== undefined) destination.paymentRail = i.destination.paymentRail;
  }
  const body = {
    source: source as QuoteCreateParams['source'],
    destination: destination as QuoteCreateParams['destination'],
    lockedCurrencySide: i.lockedCurrencySide ?? 'RECEIVING',
    lockedCurrencyAmount: i.amount,
  } as QuoteCreateParams & Record<string, unknown>;
  if (!realtime && execution === 'immediate') body.immediatelyExecute = true;
  if (record.lookupId !== undefined) body.lookupId = record.lookupId;
  // The marker (records journaled since it exists) lets findPayout find the payout from its batch and reference.
  if (record.marker !== undefined) body.description = markedDescription(i.description, record.marker);
  else if (i.description !== undefined) body.description = i.description;
  if (i.purposeOfPayment !== undefined) body.purposeOfPayment = i.purposeOfPayment;
  // The caller's own object: made plain JSON, as the journal would give it back on a rerun.
  if (i.senderCustomerInfo !== undefined) body.senderCustomerInfo = JSON.parse(JSON.stringify(i.senderCustomerInfo)) as QuoteCreateParams['senderCustomerInfo'];
  return body;
}

/** The error the journal keeps. */
function errorOf(error: unknown): PayoutError {
  if (error instanceof ValidationError) {
    return { code: 'VALIDATION_ERROR', message: error.message };
  }
  if (error instanceof APIError) {
    return { code: error.code, message: error.message, status: error.status, ...(error.requestId ? { requestId: error.requestId } : {}) };
  }
  if (error instanceof APIConnectionError) {
    return { code: 'NO_ANSWER', message: error.message, ...(error.status !== undefined ? { status: error.status } : {}) };
  }
  return { code: 'ERROR', message: error instanceof Error ? error.message : String(error) };
}

/** Why a reference ended failed or needs attention, in one line. */
const reasonOf = (r: PayoutRecord): string =>
  r.lastError ? `${r.lastError.code}: ${r.lastError.message}` : (r.failureReason ?? r.transactionStatus ?? 'unknown');

/**
 * The time now in ISO form, as `new Date().toISOString()` writes it (every journal write stamps its
 * record, ~3 a payout): the text up to the second is made once a second, the milliseconds from a table.
 */
let isoSecond = Number.NaN;
let isoPrefix = '';
const MILLIS = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(3, '0')}Z`);
export function isoNow(ms = Date.now()): string {
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    const text = new Date(ms).toISOString();
    // Years 0-9999 only ("YYYY-MM-DDTHH:MM:SS.mmmZ"): others (±YYYYYY) are written whole.
    if (text.length !== 24) return text;
    isoSecond = second;
    isoPrefix = text.slice(0, 20);
  }
  return isoPrefix + MILLIS[ms - second * 1000]!;
}

/** A random id per run() (journaled with the records it admits). */
const randomRunId = (): string => Math.random().toString(36).slice(2, 10) + Date.now().toString(36);

const emptyCounts = (): PayoutCounts => Object.fromEntries(PAYOUT_STATES.map((s) => [s, 0])) as PayoutCounts;

/** The OpenTelemetry recorder given, else the client's (`cb.telemetry`), when it is one. */
function telemetryOf(given: unknown, client: PayoutClient): Telemetry | undefined {
  const telemetry = (given ?? client.telemetry) as Partial<Telemetry> | undefined;
  return typeof telemetry?.work === 'function' ? (telemetry as Telemetry) : undefined;
}

/** What to do after a failed request. */
type Verdict =
  { kind: 'retry'; delayMs: number } | { kind: 'final'; state: 'failed' | 'needs_attention'; error: PayoutError } | { kind: 'fatal'; error: unknown };

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
  const { client, batchId, journal } = options;
  if (typeof batchId !== 'string' || batchId === '') throw new TypeError('batchId: expected a non-empty string');
  if (!journal) throw new TypeError('journal: expected a journal (MemoryJournal, FileJournal, RedisJournal)');
  const execution = options.execution ?? 'immediate';
  const limiter = new AdaptiveConcurrency({ max: options.maxConcurrency ?? 16, initial: options.initialConcurrency });
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
  const fallbackMs = options.webhookFallbackMs ?? 300_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  // Only what is under way is kept: references not yet final, and counters. The journal is the record
  // of the rest (100,000 references stream through in flat memory).
  const inflight = new Map<string, PayoutRecord>();
  const byTransaction = new Map<string, string>();
  /** Failed and needs-attention references, with the reason (the summary's; as many as there are). */
  const unsettled: { reference: string; state: 'failed' | 'needs_attention'; reason: string }[] = [];
  let total = 0;
  /** This run's id, journaled with each record it admits (tells a reference seen twice in one run from one an earlier run journaled). */
  let runId = '';
  /** Final statuses that arrived by webhook before the create answer named their transaction. */
  const early = new Map<string, { status: string; failureReason?: string | undefined }>();
  const counts = emptyCounts();
  /** References finished per 100 ms over the last 10 s (a ring: the throughput without a list per item). */
  const doneRing = new Float64Array(100);
  let doneSlot = 0;
  let running = false;
  let startedAt = 0;

  /**
   * Moves `record` by `event` through the state machine (./machine): the table says where it goes; a move
   * it does not allow is a bug of the runner's, and stops the run rather than being journaled.
   */
  const apply = (record: PayoutRecord, event: PayoutEvent): void => {
    const m = transition(record.state, event);
    if (m === undefined) throw new Error(`payout runner: ${event} is not a move from ${record.state} (reference ${JSON.stringify(record.reference)})`);
    if (m.next !== record.state) setState(record, m.next);
  };
  const setState = (record: PayoutRecord, state: PayoutState) => {
    if (inflight.get(record.reference) === record) counts[record.state]--;
    record.state = state;
    counts[state]++;
    if (FINAL_STATES.has(state)) {
      advanceRing(performance.now());
      doneRing[doneSlot % 100]!++;
      inflight.delete(record.reference);
      fallback.delete(record.reference);
      if (record.transactionId) byTransaction.delete(record.transactionId);
      if (state === 'failed' || state === 'needs_attention') unsettled.push({ reference: record.reference, state, reason: reasonOf(record) });
    }
  };

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
    const known = inputDone ? total : options.expectedTotal;
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

  let inputDone = false;
  let lastProgress = 0;
  const emitProgress = (force = false) => {
    if (!options.onProgress) return;
    const now = performance.now();
    if (!force && now - lastProgress < (options.progressIntervalMs ?? 500)) return;
    lastProgress = now;
    options.onProgress(progress());
  };

  // ---- spans: one for the run of the batch, one per reference worked on in it (through the client's telemetry) ----
  const telemetry = telemetryOf(options.telemetry, client);
  let batchSpan: WorkSpan | undefined;
  const itemSpans = new Map<string, Promise<WorkSpan | undefined>>();
  function spanOf(record: PayoutRecord): Promise<WorkSpan | undefined> | undefined {
    if (batchSpan === undefined || telemetry === undefined) return undefined;
    let span = itemSpans.get(record.reference);
    if (span === undefined) {
      span = telemetry.work('crossborder.payout', { 'crossborder.payout.batch_id': batchId, 'crossborder.payout.reference': record.reference }, batchSpan);
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

  // ---- the run's machinery, set up by run() ----
  let wake: () => void = () => {};
  const ready: (() => Promise<void>)[] = [];
  /**
   * Work waiting for a request slot (FIFO). A slot is held only while a request is in flight: the
   * journal writes around it do not count against the service's concurrency.
   */
  const waiting: ((granted: boolean) => void)[] = [];
  /** A request slot: true at once when one is free and nobody waits, else when `wake` grants one (false: the run stopped). */
  function slot(): boolean | Promise<boolean> {
    if (stop.signal.aborted) return false;
    if (waiting.length === 0 && limiter.canStart()) {
      limiter.begin();
      return true;
    }
    // Nothing in flight will end to call `wake` (a pause, say): it is called now, and arms the pause's timer.
    if (limiter.inFlight === 0) queueMicrotask(() => wake());
    return new Promise<boolean>((resolve) => waiting.push(resolve));
  }
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /**
   * With webhooks: when (`Date.now()`) each processing reference starts being polled anyway. One delay
   * for all, so the order they were added in is the order they fall due: one timer, for the first,
   * rather than one per payout.
   */
  const fallback = new Map<string, number>();
  let fallbackTimer: ReturnType<typeof setTimeout> | undefined;
  let stop: AbortController;

  function scheduleFallback(record: PayoutRecord): void {
    fallback.delete(record.reference); // (never there: kept in due order all the same)
    fallback.set(record.reference, Date.now() + fallbackMs);
    armFallback();
  }
  function armFallback(): void {
    if (fallbackTimer !== undefined || fallback.size === 0) return;
    const due = fallback.values().next().value as number;
    fallbackTimer = setTimeout(fallbackDue, Math.max(0, due - Date.now()));
  }
  function fallbackDue(): void {
    fallbackTimer = undefined;
    const now = Date.now();
    for (const [reference, due] of fallback) {
      if (due > now) break;
      fallback.delete(reference);
      const record = inflight.get(reference);
      if (record) ready.push(() => poll(record, Math.min(pollMax, fallbackMs * 1.5)));
    }
    armFallback();
    wake();
  }
  function clearFallback(): void {
    fallback.clear();
    if (fallbackTimer !== undefined) clearTimeout(fallbackTimer);
    fallbackTimer = undefined;
  }

  function save(record: PayoutRecord): Promise<void> {
    record.updatedAt = isoNow();
    return journal.put(record);
  }

  /** Ends `record` by `event` (the table's final move for it), with the error that says why. */
  async function finish(record: PayoutRecord, event: PayoutEvent, error?: PayoutError): Promise<void> {
    if (error) record.lastError = error;
    delete record.unknownSince;
    apply(record, event);
    await save(record);
    await endSpan(record);
    emitProgress();
  }

  /** Polls `record`'s transaction after `delay` (or its webhook settles it first). */
  function schedulePoll(record: PayoutRecord, delay: number): void {
    const timer = setTimeout(() => {
      timers.delete(record.reference);
      ready.push(() => poll(record, Math.min(pollMax, delay * 1.5)));
      wake();
    }, delay);
    timers.set(record.reference, timer);
  }

  function classify(record: PayoutRecord, error: unknown, attempt: number): Verdict {
    if (error instanceof APIUserAbortError || stop.signal.aborted) return { kind: 'fatal', error };
    if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return { kind: 'fatal', error };
    const backoff = Math.min(30_000, 250 * 2 ** Math.min(attempt, 7)) * (0.75 + Math.random() * 0.25);
    if (error instanceof RateLimitError) {
      if (error.dailyVolumeLimitExceeded) return { kind: 'final', state: 'needs_attention', error: errorOf(error) };
      limiter.throttled(error.retryAfter ?? backoff);
      return { kind: 'retry', delayMs: 0 };
    }
    if (error instanceof ValidationError) return { kind: 'final', state: 'failed', error: errorOf(error) };
    const unknownOutcome = error instanceof APIConnectionError || (error instanceof APIError && (error.status >= 500 || error.status === 408));
    if (unknownOutcome) {
      if (error instanceof APIError && error.status === 503) limiter.throttled(error.retryAfter ?? backoff);
      else if (error instanceof APITimeoutError || error instanceof APIError) limiter.failed(); // slow or failing: less at once
      // (a connection cut says nothing about load: the replay alone)
      const since = record.unknownSince ? Date.parse(record.unknownSince) : Date.now();
      record.unknownSince ??= new Date(since).toISOString();
      if (Date.now() - since > maxUnknownMs) {
        return {
          kind: 'final',
          state: 'needs_attention',
          error: {
            ...errorOf(error),
            code: 'OUTCOME_UNKNOWN',
            message: `No answer for ${Math.round((Date.now() - since) / 60000)} min: ${errorOf(error).message}`,
          },
        };
      }
      return { kind: 'retry', delayMs: backoff };
    }
    if (error instanceof APIError) {
      // A body that changed under the same key, or a 409 that is no fault of the payout's own: a person decides.
      if (error.code === 'IDEMPOTENCY_KEY_REUSED') return { kind: 'final', state: 'needs_attention', error: errorOf(error) };
      if (error.status === 409 && error.code !== 'QUOTE_EXPIRED' && error.code !== 'INVALID_STATE_TRANSITION') {
        return { kind: 'retry', delayMs: backoff }; // a conflict with a request in flight: it resolves
      }
      return { kind: 'final', state: 'failed', error: errorOf(error) };
    }
    return { kind: 'fatal', error };
  }

  const callOptions = (key?: string): PayoutCallOptions => {
    // maxRetries 0: the runner retries, so that the batch's concurrency hears every 429. The run's signal:
    // the SDK follows it with one listener, however many requests share it.
    const o: PayoutCallOptions = { maxRetries: 0, signal: stop.signal };
    if (key !== undefined) o.idempotencyKey = key;
    if (options.signer) o.signer = options.signer;
    return o;
  };

  /** One request in a slot of the limiter: the answer, or the verdict on its failure. */
  async function request<T>(
    record: PayoutRecord,
    attempt: number,
    send: () => PromiseLike<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; verdict: Verdict }> {
    const span = spanOf(record);
    const active = span && (await span);
    let granted = slot();
    if (granted !== true) granted = await granted;
    if (!granted) return { ok: false, verdict: { kind: 'fatal', error: new APIUserAbortError('The payout batch was stopped.', { outcomeUnknown: false }) } };
    const started = performance.now();
    try {
      const value = await (active ? active.run(send) : send());
      limiter.answered(started);
      return { ok: true, value };
    } catch (error) {
      if (error instanceof APIError && !(error instanceof RateLimitError) && error.status < 500) limiter.answered(started);
      return { ok: false, verdict: classify(record, error, attempt) };
    } finally {
      limiter.end();
      wake();
    }
  }

  /** Applies a verdict: a retry goes back in the queue (after its delay); the rest end the reference or the run. */
  async function onVerdict(record: PayoutRecord, verdict: Verdict, again: () => Promise<void>): Promise<void> {
    if (verdict.kind === 'fatal') throw verdict.error;
    if (verdict.kind === 'final') return finish(record, verdict.state === 'failed' ? 'refused' : 'give_up', verdict.error);
    if (record.unknownSince) await save(record); // when the outcome became unknown, for the next run too
    if (verdict.delayMs <= 0) {
      ready.push(again);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(record.reference);
      ready.push(again);
      wake();
    }, verdict.delayMs);
    timers.set(record.reference, timer);
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
      const looked = await request(record, attempt, () => client.receiver.lookupUma(address, undefined, callOptions()));
      if (!looked.ok) return onVerdict(record, looked.verdict, () => submit(record, attempt + 1));
      record.lookupId = looked.value.lookupId;
      await save(record); // the quote's body names it: journaled before the body is ever sent
    }
    apply(record, 'send');
    record.firstSentAt ??= isoNow(); // the first send under these keys: where their window starts
    record.attempts++;
    await save(record); // durable before the request that moves money leaves
    const created = await request(record, attempt, () => client.quotes.create(quoteBody(record, execution), callOptions(record.keys.create)));
    if (!created.ok) return onVerdict(record, created.verdict, () => submit(record, attempt + 1));
    let quote = created.value;
    accept(record, quote);
    const realtime = 'sourceType' in i.source;
    if (execution === 'separate' && !realtime && quote.status === 'PENDING') {
      await save(record);
      const executed = await request(record, attempt, () => client.quotes.execute(quote.id, callOptions(record.keys.execute)));
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
    apply(record, 'accepted');
    await save(record);
    emitProgress();
    return settleOrWait(record, quote.status);
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
  async function lookUp(record: PayoutRecord, attempt: number): Promise<void> {
    apply(record, 'window_passed');
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
          signal: stop.signal,
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
      apply(record, 'found');
      await save(record);
      return settleOrWait(record, t.status);
    }
    // Proven not moved: sent again under fresh keys (the old ones may be forgotten, or remembered: either way not reused).
    apply(record, 'not_found');
    record.resends = (record.resends ?? 0) + 1;
    record.keys = {
      create: resendKey(batchId, record.reference, 'create', record.resends),
      execute: resendKey(batchId, record.reference, 'execute', record.resends),
    };
    record.firstSentAt = isoNow();
    delete record.quote;
    delete record.transactionId;
    delete record.unknownSince;
    return submit(record, 0);
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
    if (options.webhooks) scheduleFallback(record);
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
        return onVerdict(record, { kind: 'retry', delayMs: nextDelay }, () => poll(record, nextDelay, attempt + 1));
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
      if (record.transactionStatus !== status) {
        record.transactionStatus = status;
        await save(record);
      }
      return otherwise();
    }
    record.transactionStatus = status;
    if (failureReason) record.failureReason = failureReason;
    const timer = timers.get(record.reference);
    if (timer) clearTimeout(timer);
    timers.delete(record.reference);
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
        ready.push(() => submit(record));
        return;
      case 'processing':
        if (record.transactionId) byTransaction.set(record.transactionId, record.reference);
        ready.push(() => settleOrWait(record, undefined).then(() => undefined));
        return;
      default:
        return;
    }
  }

  const batch: PayoutBatch = {
    batchId,
    progress,
    onWebhookEvent(event) {
      if (!event || typeof event.type !== 'string' || !event.type.startsWith('OUTGOING_PAYMENT.')) return false;
      const data = event.data as { id?: unknown; status?: unknown; failureReason?: unknown } | undefined;
      if (!data || typeof data.id !== 'string' || typeof data.status !== 'string') return false;
      const failureReason = typeof data.failureReason === 'string' ? data.failureReason : undefined;
      const reference = byTransaction.get(data.id);
      const record = reference === undefined ? undefined : inflight.get(reference);
      if (!record) {
        // Perhaps ours, before the create answer named it: kept (bounded) until then.
        if (running && FINAL_TRANSACTION[data.status] && early.size < 100_000) early.set(data.id, { status: data.status, failureReason });
        return false;
      }
      if (record.state !== 'processing') return true;
      ready.push(() => settleFrom(record, data.status as string, failureReason, () => undefined));
      wake();
      return true;
    },
    async run(instructions) {
      if (running) throw new Error('This batch is already running.');
      running = true;
      startedAt = performance.now();
      const started = Date.now();
      stop = new AbortController();
      const onAbort = () => stop.abort(options.signal?.reason);
      if (options.signal?.aborted) onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const rejected: PayoutSummary['rejected'] = [];
      let fatal: unknown;
      /** The journal opened: only then is there a batch whose progress to report (a locked journal is not one). */
      let opened = false;
      /** Tasks under way (their promises are not kept: one count, two shared handlers). */
      let active = 0;
      const taskDone = () => {
        active--;
        wake();
      };
      const taskFailed = (error: unknown) => {
        fatal ??= error;
        taskDone();
      };
      try {
        runId = randomRunId();
        batchSpan = await telemetry?.work('crossborder.payouts.batch', { 'crossborder.payout.batch_id': batchId });
        const records = await journal.open(batchId);
        opened = true;
        const guard = journalGuard(journal);
        const found = { final: 0, rejected: 0, replay: 0, lookup: 0, waiting: 0 };
        for await (const record of records) {
          // The latest of each reference: counted, and kept only when it is not final.
          guard.seen(record); // where its next move starts, for a journal that keeps no states (the file's)
          if (record.state !== 'rejected') total++;
          counts[record.state]++;
          if (FINAL_STATES.has(record.state)) {
            if (record.state === 'rejected') found.rejected++;
            else found.final++;
            if (record.state === 'failed' || record.state === 'needs_attention')
              unsettled.push({ reference: record.reference, state: record.state, reason: reasonOf(record) });
          } else {
            inflight.set(record.reference, record);
            if (record.state === 'processing') found.waiting++;
            else if (pastWindow(record)) found.lookup++;
            else found.replay++;
          }
        }
        options.onResume?.(found);
        for (const record of inflight.values()) resume(record);
        type Item = PayoutInstruction | PayoutRejectedInput;
        const iterator =
          Symbol.asyncIterator in instructions
            ? (instructions as AsyncIterable<Item>)[Symbol.asyncIterator]()
            : (instructions as Iterable<Item>)[Symbol.iterator]();
        let pulling: Promise<void> | undefined;

        /** Input items read so far (a rejected item without line or reference is keyed by its place). */
        let ordinal = 0;
        /** References read in this run whose records were final when read (their records carry an earlier run's id). */
        const finalSeen = new Set<string>();

        /** Journals a refused input as a `rejected` record under a key of its own (never a payable reference's). */
        const reject = async (input: { line?: number | undefined; reference?: string | undefined }, reason: string, instruction: unknown) => {
          const reference = input.reference ?? '';
          rejected.push({ reference, reason });
          const key = rejectedKey(input, ordinal);
          const known = await journal.get(key);
          if (known?.state === 'rejected' && known.lastError?.message === reason) return; // a resumed run: journaled already, the same reason
          const record: PayoutRecord = {
            reference: key,
            state: 'rejected',
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
          await journal.put(record);
          if (!known) counts.rejected++;
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
          ready.push(() => submit(record));
        };

        await new Promise<void>((resolve) => {
          let pauseTimer: ReturnType<typeof setTimeout> | undefined;
          const pull = () => {
            pulling = (async () => {
              try {
                const next = await iterator.next();
                if (next.done) inputDone = true;
                else await admit(next.value);
              } catch (error) {
                fatal ??= error;
              }
            })().finally(() => {
              pulling = undefined;
              wake();
            });
          };
          const finished = () =>
            fatal !== undefined || stop.signal.aborted
              ? active === 0 && pulling === undefined
              : inputDone && pulling === undefined && ready.length === 0 && active === 0 && timers.size === 0 && fallback.size === 0;
          wake = () => {
            if (fatal !== undefined && !stop.signal.aborted) stop.abort(fatal);
            if (stop.signal.aborted) {
              for (const t of timers.values()) clearTimeout(t);
              timers.clear();
              clearFallback();
              ready.length = 0;
              for (const grant of waiting.splice(0)) grant(false);
            }
            // A pause (a 429's Retry-After) has its timer before anything is granted or started: checked
            // once, here. Checked after the work below, a pause that ended meanwhile (the timer may fire with
            // a sliver of it left, and starting work takes time) armed nothing, and what waited for a slot
            // waited for whatever else woke the run: with webhooks, the 5-minute fallback.
            const wait = limiter.waitMs();
            if (wait > 0 && !pauseTimer && !stop.signal.aborted) {
              pauseTimer = setTimeout(() => {
                pauseTimer = undefined;
                wake();
              }, wait);
            }
            // Request slots first, to the work that waits for one, in order.
            while (!stop.signal.aborted && waiting.length > 0 && limiter.canStart()) {
              limiter.begin();
              waiting.shift()!(true);
            }
            // Work under way (in a request, or writing the journal around one): twice the request limit.
            while (!stop.signal.aborted && active < limiter.limit * 2) {
              const task = ready.shift();
              if (task) {
                active++;
                task().then(taskDone, taskFailed);
                continue;
              }
              // Read ahead of the limit a little, never the whole input (100,000 rows stream).
              if (!inputDone && pulling === undefined && active + ready.length < limiter.max * 3) pull();
              break;
            }
            emitProgress();
            if (finished()) {
              if (pauseTimer) clearTimeout(pauseTimer);
              resolve();
            }
          };
          stop.signal.addEventListener('abort', () => wake(), { once: true });
          wake();
        });
      } finally {
        options.signal?.removeEventListener('abort', onAbort);
        running = false;
        clearFallback();
        wake = () => {};
        if (opened) emitProgress(true);
        if (batchSpan) {
          // References a stop left under way: their spans end with the state they are in.
          await Promise.all(
            [...itemSpans.keys()]
              .map((reference) => inflight.get(reference))
              .filter((r) => r !== undefined)
              .map((r) => endSpan(r)),
          );
          batchSpan.set({
            'crossborder.payout.total': total,
            'crossborder.payout.completed': counts.completed,
            'crossborder.payout.failed': counts.failed,
            'crossborder.payout.needs_attention': counts.needs_attention,
            'crossborder.payout.rejected': rejected.length,
          });
          batchSpan.end(fatal !== undefined ? (fatal instanceof Error ? fatal.name : 'error') : options.signal?.aborted ? 'aborted' : undefined);
          batchSpan = undefined;
          itemSpans.clear();
        }
      }
      if (fatal !== undefined && !(fatal instanceof APIUserAbortError && options.signal?.aborted)) throw fatal;
      if (options.signal?.aborted) {
        throw new APIUserAbortError('The payout batch was stopped; its journal holds every state: run it again to resume.', { outcomeUnknown: false });
      }
      const failed: PayoutSummary['failed'] = [];
      const needsAttention: PayoutSummary['needsAttention'] = [];
      for (const u of unsettled) (u.state === 'failed' ? failed : needsAttention).push({ reference: u.reference, reason: u.reason });
      return { batchId, counts: { ...counts }, total, failed, needsAttention, rejected, seconds: Math.round((Date.now() - started) / 100) / 10 };
    },
  };
  return batch;
}
