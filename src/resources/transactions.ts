import type { APIPromise } from '../core/api-promise';
import { APITimeoutError, APIUserAbortError, ValidationError, type ValidationIssue } from '../core/errors';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import { MAX_TIMEOUT_MS } from '../core/settings';
import * as op from '../generated/operations';
import type {
  IncomingTransaction,
  ReceiptDeliveryConfirmParams,
  Transaction,
  TransactionApproveParams,
  TransactionCancelParams,
  TransactionListParams,
  TransactionRejectParams,
  TransactionStatus,
} from '../types';

/** The shortest pause `waitFor` takes between polls: a smaller `pollInterval` is refused, not honoured. */
export const MIN_POLL_INTERVAL_MS = 100;

/** Statuses a transaction does not leave. */
export const TERMINAL_STATUSES: readonly TransactionStatus[] = ['COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'];

/** Options of {@link Transactions.waitFor}. */
export interface WaitForOptions extends RequestOptions {
  /** Statuses to wait for (default: the terminal ones). */
  until?: readonly TransactionStatus[] | undefined;
  /** Give up after this many ms (default 120 000) with an {@link APITimeoutError}. */
  timeout?: number | undefined;
  /** First pause between polls in ms (default 1 000, at least 100); grows ×1.5 up to 10 000. */
  pollInterval?: number | undefined;
}

/** Transactions: incoming and outgoing payments. */
export class Transactions extends APIResource {
  /**
   * Lists transactions with any of the spec's filters, production's `accountIdentifier` (either end of the
   * transaction) and `sortOrder`; `for await` walks every page. Each carries `direction` (CREDIT, DEBIT)
   * where the service answers it.
   * @example
   * ```ts
   * const transactions = cb.transactions.list({
   *   customerId,
   *   type: 'OUTGOING',
   *   status: 'COMPLETED',
   *   startDate: new Date('2025-01-01'),
   *   sortOrder: 'asc',
   * });
   * for await (const transaction of transactions) {
   *   console.log(transaction.id, transaction.settledAt);
   * }
   * ```
   */
  list(params?: TransactionListParams, options?: ListOptions): PagePromise<Transaction> {
    return this._client.list(op.listTransactions, { query: params }, options);
  }

  /**
   * Fetches a transaction by id (`Transaction:…`).
   * @example
   * ```ts
   * const transaction = await cb.transactions.retrieve(transactionId);
   * if (transaction.status === 'FAILED') {
   *   console.log(transaction.failureReason); // e.g. 'QUOTE_EXPIRED'
   * }
   * ```
   */
  retrieve(transactionId: string, options?: RequestOptions): APIPromise<Transaction> {
    return this._client.call(op.getTransaction, { path: { transactionId } }, options);
  }

  /**
   * Rejects an incoming payment held for approval. `reason` is for your own records.
   * @example
   * ```ts
   * const rejected = await cb.transactions.reject(transactionId, {
   *   reason: 'sanctions screening match', // for your own records
   * });
   * console.log(rejected.status); // 'REJECTED': the sender is refunded
   * ```
   */
  reject(transactionId: string, params?: TransactionRejectParams, options?: SignedRequestOptions): APIPromise<IncomingTransaction> {
    return this._client.call(op.rejectTransaction, { path: { transactionId }, body: params ?? {} }, options);
  }

  /**
   * Approves an incoming payment held for approval, optionally with receiver information.
   * @example
   * ```ts
   * // The sender asked for the receiver's name (INCOMING_PAYMENT.PENDING):
   * const approved = await cb.transactions.approve(transactionId, {
   *   receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' },
   * });
   * ```
   */
  approve(transactionId: string, params?: TransactionApproveParams, options?: SignedRequestOptions): APIPromise<IncomingTransaction> {
    return this._client.call(op.approveTransaction, { path: { transactionId }, body: params ?? {} }, options);
  }

  /**
   * Records that you delivered the transaction's receipt to your customer (only where you must send one).
   * `receiptDeliveryConfirmedAt` defaults to the service's current time; calling again updates it.
   * @example
   * ```ts
   * const confirmed = await cb.transactions.confirm(transactionId, {
   *   receiptDeliveryConfirmedAt: '2025-08-15T14:31:00Z',
   * });
   * console.log(confirmed.receiptDeliveryConfirmedAt);
   * ```
   */
  confirm(transactionId: string, params?: ReceiptDeliveryConfirmParams, options?: SignedRequestOptions): APIPromise<Transaction> {
    return this._client.call(op.confirmReceiptDelivery, { path: { transactionId }, body: params ?? {} }, options);
  }

  /**
   * Asks to cancel a bank transfer (ACH push or pull, wire) that has not settled: money stays or comes back.
   * A transaction that cannot be cancelled is refused with 400, one already settled with 409.
   * @example
   * ```ts
   * const cancelled = await cb.transactions.cancel(transactionId, {
   *   reason: 'REQUESTED_AFTER_HOURS', // for your own records
   * });
   * console.log(cancelled.status);
   * ```
   */
  cancel(transactionId: string, params?: TransactionCancelParams, options?: SignedRequestOptions): APIPromise<Transaction> {
    return this._client.call(op.cancelTransaction, { path: { transactionId }, body: params ?? {} }, options);
  }

  /**
   * Polls a transaction with backoff until its status is one of `until` (default: a terminal status)
   * and resolves with it. Throws {@link APITimeoutError} after `timeout` ms, {@link APIUserAbortError}
   * when `signal` aborts.
   * @example
   * ```ts
   * // Until a terminal status (COMPLETED, FAILED, …), for at most a minute:
   * const settled = await cb.transactions.waitFor(transactionId, {
   *   timeout: 60_000,
   * });
   * console.log(settled.status);
   *
   * // Or until it is on its way:
   * await cb.transactions.waitFor(transactionId, {
   *   until: ['PROCESSING', ...TERMINAL_STATUSES],
   * });
   * ```
   */
  async waitFor(transactionId: string, options?: WaitForOptions | null): Promise<Transaction> {
    const { until = TERMINAL_STATUSES, timeout = 120_000, pollInterval = 1_000, ...request } = options ?? {};
    const issues: ValidationIssue[] = [];
    if (typeof timeout !== 'number' || !(timeout > 0) || !Number.isFinite(timeout)) {
      issues.push({ path: 'options.timeout', rule: 'invalid_value', message: `must be a positive number of milliseconds, got ${String(timeout)}` });
    }
    if (typeof pollInterval !== 'number' || !Number.isFinite(pollInterval) || pollInterval < MIN_POLL_INTERVAL_MS) {
      issues.push({
        path: 'options.pollInterval',
        rule: 'too_small',
        message: `must be a number of milliseconds ≥ ${MIN_POLL_INTERVAL_MS}, got ${String(pollInterval)}`,
      });
    } else if (pollInterval > MAX_TIMEOUT_MS) {
      // A timer cannot hold more: it would fire after 1 ms and poll at once.
      issues.push({ path: 'options.pollInterval', rule: 'too_big', message: `must be at most ${MAX_TIMEOUT_MS} ms, got ${String(pollInterval)}` });
    }
    if (!Array.isArray(until) || until.length === 0)
      issues.push({ path: 'options.until', rule: 'invalid_value', message: 'must be a non-empty list of statuses' });
    if (issues.length) throw new ValidationError(issues, 'options');
    const started = Date.now();
    let waited = 0;
    let delay = pollInterval;
    for (;;) {
      const transaction = await this.retrieve(transactionId, request);
      if (until.includes(transaction.status)) return transaction;
      const elapsed = Math.max(waited, Date.now() - started);
      if (elapsed >= timeout) {
        throw new APITimeoutError(`${transactionId} is still ${transaction.status} after ${timeout} ms`, {
          outcomeUnknown: false,
          operation: 'waitFor',
        });
      }
      const pause = Math.min(delay, timeout - elapsed);
      try {
        await this._client.sleep(pause, request.signal);
      } catch (error) {
        throw new APIUserAbortError(`waitFor(${transactionId}) was aborted by the caller`, { outcomeUnknown: false, cause: error });
      }
      waited += pause;
      delay = Math.min(delay * 1.5, 10_000);
    }
  }
}
