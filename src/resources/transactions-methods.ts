/**
 * What `cb.transactions` does beyond one call of an operation (src/generated/resources.ts gives
 * {@link Transactions} a method for each): `waitFor` polls until a status.
 * @module
 */
import type { CrossborderCore } from '../core/client';
import { APITimeoutError, APIUserAbortError, ValidationError, type ValidationIssue } from '../core/errors';
import type { RequestOptions } from '../core/options';
import { MAX_TIMEOUT_MS } from '../core/settings';
import * as op from '../generated/operations';
import type { Transaction, TransactionStatus } from '../types';

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
export async function waitFor(client: CrossborderCore, transactionId: string, options?: WaitForOptions | null): Promise<Transaction> {
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
    const transaction = await client.call(op.getTransaction, { path: { transactionId } }, request);
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
      await client.sleep(pause, request.signal);
    } catch (error) {
      throw new APIUserAbortError(`waitFor(${transactionId}) was aborted by the caller`, { outcomeUnknown: false, cause: error });
    }
    waited += pause;
    delay = Math.min(delay * 1.5, 10_000);
  }
}
