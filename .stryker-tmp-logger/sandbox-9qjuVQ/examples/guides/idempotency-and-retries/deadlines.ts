// @ts-nocheck
import type { Crossborder } from 'crossborder-sdk';

/** A read with a limit per attempt and a deadline for the whole call, retries and waits included. */
export function retrieveWithin(cb: Crossborder, transactionId: string, deadlineMs: number) {
  return cb.transactions.retrieve(transactionId, {
    timeout: 2_000, // per attempt: APITimeoutError, retried (a read is safe to repeat)
    maxRetries: 3,
    signal: AbortSignal.timeout(deadlineMs), // the whole call: APIUserAbortError, never retried
  });
}
