/**
 * The shapes of a payout batch: what the user gives (an instruction per reference), what the journal
 * keeps per reference (a record), and what the runner reports (progress, summary, report rows).
 * @module
 */

/** The source of a payout: an account, or funds that arrive just in time (REALTIME_FUNDING). */
export type PayoutSource =
  | {
      /** An internal account (`InternalAccount:…`), or an external account that supports direct pull. */
      accountId: string;
      /** The source account's currency; when given, the service refuses a mismatch. */
      currency?: string | undefined;
    }
  | {
      sourceType: 'REALTIME_FUNDING';
      /** Currency the funds arrive in. */
      currency: string;
      customerId?: string | undefined;
      cryptoNetwork?: string | undefined;
    };

/** Where a payout goes: an external account id, or an UMA address (looked up first). */
export type PayoutDestination =
  | {
      /** External account id (`ExternalAccount:…`) or internal account id. */
      accountId: string;
      /** Currency of the destination account; when given, the service refuses a mismatch. */
      currency?: string | undefined;
      paymentRail?: string | undefined;
    }
  | {
      /** An UMA address (`$name@domain`): the runner looks the receiver up once and journals its `lookupId`. */
      umaAddress: string;
      currency?: string | undefined;
    };

/** One payout of a batch. */
export interface PayoutInstruction {
  /** Unique in the batch: the payout's identity (its Idempotency-Keys derive from the batch id and it). */
  reference: string;
  source: PayoutSource;
  destination: PayoutDestination;
  /** Amount in the smallest unit of the locked side's currency (cents for USD). */
  amount: number;
  /** The side whose amount is fixed. Default `RECEIVING`: the payee gets exactly `amount`. */
  lockedCurrencySide?: 'SENDING' | 'RECEIVING' | undefined;
  description?: string | undefined;
  /** `GOODS_OR_SERVICES`, … (an open set: the service decides). */
  purposeOfPayment?: string | undefined;
  /** Payer data an UMA receiver asks for (`FULL_NAME`, …). */
  senderCustomerInfo?: Record<string, string> | undefined;
}

/**
 * Where a reference stands. `pending`: nothing sent yet. `submitted`: a request that moves money may
 * have been sent (replayed with the same keys until its answer is known). `processing`: the service
 * took it; waiting for the final status. `completed` and `failed`: the service's final word.
 * `needs_attention`: the runner stopped short of a final answer and will not guess (see its `lastError`).
 * `rejected`: the input was refused before anything was sent (its `lastError` says why: code `REJECTED`).
 * The moves between them are the table of ./machine.
 */
export type PayoutState = 'pending' | 'submitted' | 'processing' | 'completed' | 'failed' | 'needs_attention' | 'rejected';

/** All states, in order. */
export const PAYOUT_STATES: readonly PayoutState[] = ['pending', 'submitted', 'processing', 'completed', 'failed', 'needs_attention', 'rejected'];

/** States a run stops at (nothing leaves them). */
export const FINAL_STATES: ReadonlySet<PayoutState> = new Set(['completed', 'failed', 'needs_attention', 'rejected']);

/**
 * An input the reader (or the caller) refused before it became an instruction, given to `run()` in its
 * place: journaled as a `rejected` record with the reason, so `status` and `report` show it.
 */
export interface PayoutRejectedInput {
  /** Why it was refused. */
  rejected: string;
  /** Its reference, when one could be read. */
  reference?: string | undefined;
  /** Its line in the input file (1-based), when it came from one. */
  line?: number | undefined;
}

/** A problem, as the journal keeps it. */
export interface PayoutError {
  /** The service's code (`DAILY_VOLUME_LIMIT_EXCEEDED`), or the runner's (`VALIDATION_ERROR`, `OUTCOME_UNKNOWN`, …). */
  code: string;
  message: string;
  status?: number | undefined;
  requestId?: string | undefined;
}

/** What the quote said (the report's amounts). */
export interface PayoutQuoteSummary {
  quoteId: string;
  sendingAmount: number;
  /** The currency's code as the quote gave it (production's document makes a currency's fields optional). */
  sendingCurrency: string | undefined;
  receivingAmount: number;
  receivingCurrency: string | undefined;
  fees: number;
  exchangeRate: number;
}

/** What the journal keeps per reference (the last record written wins). */
export interface PayoutRecord {
  reference: string;
  state: PayoutState;
  /**
   * The instruction's fingerprint (`f2:` and a SHA-256; a record journaled before that version holds the
   * first one, 64 hex digits): a rerun with another instruction under the same reference is not sent.
   */
  fingerprint: string;
  instruction: PayoutInstruction;
  /** The Idempotency-Keys, derived from (batch id, reference, step). */
  keys: { create: string; execute: string };
  lookupId?: string | undefined;
  quote?: PayoutQuoteSummary | undefined;
  transactionId?: string | undefined;
  /** The transaction's last status seen (`COMPLETED`, `FAILED`, …). */
  transactionStatus?: string | undefined;
  failureReason?: string | undefined;
  /** Requests that could move money sent for it, over all runs. */
  attempts: number;
  lastError?: PayoutError | undefined;
  /** The run that last took it from the input (a random id per `run()`): a reference seen twice in one run is refused. */
  runId?: string | undefined;
  /** When the outcome of its last write became unknown (ISO), while it stays unknown. */
  unknownSince?: string | undefined;
  /**
   * When its first money-moving request was sent under its current keys (ISO). Past the service's
   * key-replay window (less a margin) a payout whose outcome is unknown is looked up, never re-sent.
   */
  firstSentAt?: string | undefined;
  /**
   * The marker the runner put into the quote's `description` (after the user's own, if any): what
   * {@link findPayout} matches. Absent on records journaled before it existed (their body stays as it was).
   */
  marker?: string | undefined;
  /** How many times it was sent again under fresh keys, after a lookup proved the service never moved it. */
  resends?: number | undefined;
  /** Rejected records: the input file's line (1-based), when the input came from one. */
  line?: number | undefined;
  /**
   * Rejected records: the reference as the input gave it (the record's own `reference` is its journal key,
   * in a space no payable reference can take; see `rejectedKey`).
   */
  inputReference?: string | undefined;
  updatedAt: string;
}

/** Counts by state. */
export type PayoutCounts = Record<PayoutState, number>;

/** A progress event. */
export interface PayoutProgress {
  batchId: string;
  counts: PayoutCounts;
  /** References seen so far (input read, or journal); rejected inputs are counted apart (`counts.rejected`). */
  total: number;
  /** References completed, failed or needing attention (rejected inputs are not among them). */
  done: number;
  /** Final states per second over the last seconds. */
  throughput: number;
  /** Seconds left at that pace, when the total is known (input read to its end, or `expectedTotal`). */
  etaSeconds: number | undefined;
  /** Requests in flight and the concurrency now allowed. */
  inFlight: number;
  concurrency: number;
  /** The run waits for a `Retry-After` until this time (ISO), if it does. */
  pausedUntil?: string | undefined;
}

/** One row of the report. */
export interface PayoutReportRow {
  reference: string;
  state: PayoutState;
  transactionId: string | undefined;
  transactionStatus: string | undefined;
  failureReason: string | undefined;
  sendingAmount: number | undefined;
  sendingCurrency: string | undefined;
  receivingAmount: number | undefined;
  receivingCurrency: string | undefined;
  fees: number | undefined;
  exchangeRate: number | undefined;
  attempts: number;
  errorCode: string | undefined;
  errorMessage: string | undefined;
  /** A rejected input's line in its file (JSON only; the CSV's message names it). */
  line?: number | undefined;
}

/** What `run()` resolves with. */
export interface PayoutSummary {
  batchId: string;
  counts: PayoutCounts;
  total: number;
  /** References that failed, with the reason. */
  failed: { reference: string; reason: string }[];
  /** References that need a person, with the reason. */
  needsAttention: { reference: string; reason: string }[];
  /** Input rows refused before anything was sent (a reference seen twice in one run, a row without one). */
  rejected: { reference: string; reason: string }[];
  /** Seconds the run took. */
  seconds: number;
}
