/**
 * The types of a payout batch: what it calls (a client), what it is given (its options) and what it is.
 * Shared by the batch driver (./runner) and the per-payout driver (./driver), which both read them.
 * @module
 */
import type { APIUserAbortError } from '../core/errors';
import type { Quote, QuoteCreateParams, ReceiverLookup, Transaction } from '../types';
import type { PayoutJournal } from './journal';
import type { PayoutTransactionListParams, PayoutTransactionPage } from './lookup';
import type { PayoutInstruction, PayoutProgress, PayoutRejectedInput, PayoutSummary } from './types';

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
  /**
   * A `Crossborder` client's OpenTelemetry recorder (`cb.telemetry`, a `WorkTelemetry`): the batch's spans go through
   * it. Anything else here (a wrapper's own `telemetry`) is left alone, and the batch records no spans.
   */
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
  /**
   * The OpenTelemetry recorder for the batch's spans, a `WorkTelemetry` (an object with `work`). Default: the
   * client's own (`cb.telemetry`). A value that is not one records no spans.
   */
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
  /**
   * How a payout's waits are waited: the delay before a retry of one of its requests, and between polls
   * of its transaction (resolves after `ms`). Injectable for tests, or a clock of your own. Default
   * `setTimeout`. A wait the run no longer needs (the payout settled by a webhook, the run stopped) drops
   * its task when it resolves; one that rejects stops the run with its error. The pace the service's 429s
   * set, a `Retry-After` pause and the webhook fallback are timers of the run, not waits of a payout.
   */
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
