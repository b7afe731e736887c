/**
 * What a failed request of a payout means: a retry (by which event of the state machine, ./machine),
 * a final state with its reason, or the end of the run. The per-payout driver (./driver) acts on it.
 * @module
 */
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  PermissionDeniedError,
  RateLimitError,
  ScaRequiredError,
  ValidationError,
} from '../core/errors';
import { errorOf } from './instruction';
import type { PayoutError, PayoutRecord } from './types';

/** What to do after a failed request. */
export type Verdict =
  | { kind: 'retry'; event: 'lost' | 'throttled' | 'conflict'; delayMs: number }
  | { kind: 'final'; state: 'failed' | 'needs_attention'; error: PayoutError }
  | { kind: 'fatal'; error: unknown };

/**
 * What a failed request means for `record` (the scheduler has told the limiter what it says about load,
 * and gives the backoff of a retry): `stopped`, the run stopped (every failure is then the stop's);
 * `maxUnknownMs`, how long its outcome may stay unknown. Notes on `record` when its outcome became unknown.
 */
export function classify(record: PayoutRecord, error: unknown, backoff: number, run: { stopped: boolean; maxUnknownMs: number }): Verdict {
  const { maxUnknownMs } = run;
  if (error instanceof APIUserAbortError || run.stopped) return { kind: 'fatal', error };
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return { kind: 'fatal', error };
  if (error instanceof RateLimitError) {
    if (error.dailyVolumeLimitExceeded) return { kind: 'final', state: 'needs_attention', error: errorOf(error) };
    return { kind: 'retry', event: 'throttled', delayMs: 0 }; // the pace the 429 set delays it
  }
  if (error instanceof ValidationError) return { kind: 'final', state: 'failed', error: errorOf(error) };
  // Strong Customer Authentication (EU customers): the payment waits for the customer's proof (a held quote), or for
  // their SCA login (409 SCA_SESSION_REQUIRED). Only a person can give either: never guessed, never retried blind.
  if (error instanceof ScaRequiredError) {
    return {
      kind: 'final',
      state: 'needs_attention',
      error: { code: 'SCA_REQUIRED', message: error.message, ...(error.requestId ? { requestId: error.requestId } : {}) },
    };
  }
  if (error instanceof APIError && error.code === 'SCA_SESSION_REQUIRED') {
    return { kind: 'final', state: 'needs_attention', error: { ...errorOf(error), code: 'SCA_REQUIRED', message: `SCA_SESSION_REQUIRED: ${error.message}` } };
  }
  const unknownOutcome = error instanceof APIConnectionError || (error instanceof APIError && (error.status >= 500 || error.status === 408));
  if (unknownOutcome) {
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
    return { kind: 'retry', event: 'lost', delayMs: backoff };
  }
  if (error instanceof APIError) {
    // A body that changed under the same key, or a 409 that is no fault of the payout's own: a person decides.
    if (error.code === 'IDEMPOTENCY_KEY_REUSED') return { kind: 'final', state: 'needs_attention', error: errorOf(error) };
    if (error.status === 409 && error.code !== 'QUOTE_EXPIRED' && error.code !== 'INVALID_STATE_TRANSITION') {
      return { kind: 'retry', event: 'conflict', delayMs: backoff }; // a conflict with a request in flight: it resolves
    }
    return { kind: 'final', state: 'failed', error: errorOf(error) };
  }
  return { kind: 'fatal', error };
}
