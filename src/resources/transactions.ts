import type { APIPromise } from '../core/api-promise';
import { APITimeoutError, APIUserAbortError } from '../core/errors';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import { operations as op } from '../generated/operations';
import type {
  IncomingTransaction,
  Transaction,
  TransactionApproveParams,
  TransactionListParams,
  TransactionRejectParams,
  TransactionStatus,
} from '../types';

/** Statuses a transaction does not leave. */
export const TERMINAL_STATUSES: readonly TransactionStatus[] = ['COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'];

/** Options of {@link Transactions.waitFor}. */
export interface WaitForOptions extends RequestOptions {
  /** Statuses to wait for (default: the terminal ones). */
  until?: readonly TransactionStatus[] | undefined;
  /** Give up after this many ms (default 120 000) with an {@link APITimeoutError}. */
  timeout?: number | undefined;
  /** First pause between polls in ms (default 1 000); grows ×1.5 up to 10 000. */
  pollInterval?: number | undefined;
}

/** Transactions: incoming and outgoing payments. */
export class Transactions extends APIResource {
  /** Lists transactions with any of the spec's filters and `sortOrder`; `for await` walks every page. */
  list(params?: TransactionListParams, options?: ListOptions): PagePromise<Transaction> {
    return this._client.list(op.listTransactions, { query: params }, options);
  }

  /** Fetches a transaction by id (`Transaction:…`). */
  retrieve(transactionId: string, options?: RequestOptions): APIPromise<Transaction> {
    return this._client.call(op.getTransaction, { path: { transactionId } }, options);
  }

  /** Rejects an incoming payment held for approval. `reason` is for your own records. */
  reject(transactionId: string, params?: TransactionRejectParams, options?: SignedRequestOptions): APIPromise<IncomingTransaction> {
    return this._client.call(op.rejectTransaction, { path: { transactionId }, body: params ?? {} }, options);
  }

  /** Approves an incoming payment held for approval, optionally with receiver information. */
  approve(transactionId: string, params?: TransactionApproveParams, options?: SignedRequestOptions): APIPromise<IncomingTransaction> {
    return this._client.call(op.approveTransaction, { path: { transactionId }, body: params ?? {} }, options);
  }

  /**
   * Polls a transaction with backoff until its status is one of `until` (default: a terminal status)
   * and resolves with it. Throws {@link APITimeoutError} after `timeout` ms, {@link APIUserAbortError}
   * when `signal` aborts.
   */
  async waitFor(transactionId: string, options: WaitForOptions = {}): Promise<Transaction> {
    const { until = TERMINAL_STATUSES, timeout = 120_000, pollInterval = 1_000, ...request } = options;
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
