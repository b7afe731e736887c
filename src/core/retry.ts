/**
 * When to repeat an attempt, and how long to wait first. Pure functions: the transport asks
 * {@link retryDecision} after every attempt (an answer or a failure), tests check it without a network.
 * @module
 */

/** Waits `ms`, or rejects early when `signal` aborts. Injectable so tests need no fake timers. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** First backoff step, before jitter. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** Backoff never grows beyond this. */
export const MAX_RETRY_DELAY_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the error surfaces with `retryAfter` instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … capped at 8 s, each shortened by up to 25 %. */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_DELAY_MS, INITIAL_RETRY_DELAY_MS * 2 ** retry);
  return Math.round(base * (1 - 0.25 * random()));
}

/**
 * `Retry-After` in milliseconds: delta-seconds or an HTTP date. Undefined when absent or unreadable.
 * A date in the past gives 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date has a weekday and a month name; a bare number that is not delta-seconds (-1) is no date.
  if (!/[A-Za-z]/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Statuses worth another attempt, if the request is safe to repeat. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** 409 codes that another attempt cannot fix: repeating would only delay the error. */
const PERMANENT_CONFLICTS = new Set(['QUOTE_EXPIRED', 'IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION']);

export function isPermanentConflict(code: unknown): boolean {
  return typeof code === 'string' && PERMANENT_CONFLICTS.has(code);
}

/**
 * True when an answer that is otherwise worth another attempt is final: a permanent 409 conflict, or a
 * 429 `DAILY_VOLUME_LIMIT_EXCEEDED` (a daily volume limit, not a rate limit: no wait of seconds lifts it).
 */
export function isPermanentRefusal(status: number, code: unknown): boolean {
  return (status === 409 && isPermanentConflict(code)) || (status === 429 && code === 'DAILY_VOLUME_LIMIT_EXCEEDED');
}

/** Network error codes that prove the request never left this machine (nothing to double). */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  // undici refuses these arguments before it writes a byte.
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
]);

/** Walks `cause` chains and aggregate errors for a Node/undici error code. */
export function networkErrorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || error === null || typeof error !== 'object') return undefined;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') return e.code;
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const code = networkErrorCode(inner, depth + 1);
      if (code) return code;
    }
  }
  return networkErrorCode(e.cause, depth + 1);
}

/** True when the error proves the request was never sent (connection refused, DNS failure). */
export function surelyNotSent(error: unknown): boolean {
  const code = networkErrorCode(error);
  return code !== undefined && NEVER_SENT.has(code);
}

/** What to tell a caller whose write may have taken effect: how to reconcile it. */
export function unknownOutcomeHint(idempotencyKey: string | undefined): string {
  return idempotencyKey
    ? `; the outcome is unknown: retry with idempotencyKey '${idempotencyKey}'`
    : '; the outcome is unknown: look the resource up before creating it again';
}

/** What one attempt ended with, as the retry decision needs it. */
export type AttemptEnd =
  /** The service (or a gateway) answered. `code` is the parsed body's `code`, when it has one. */
  | { status: number; retryAfter: string | null | undefined; code: unknown }
  /** No answer: the attempt failed (timeout, reset, refused). `mayHaveArrived`: nothing proves it never left. */
  | { failed: true; mayHaveArrived: boolean };

/** Everything {@link retryDecision} decides from. */
export interface RetryInput {
  /** Retries already made: 0 after the first attempt. */
  retry: number;
  maxRetries: number;
  /**
   * Repeating a request that may have arrived cannot act twice (the plan decides: a read, or a write
   * with an Idempotency-Key, never a signed leg). An unsafe request is repeated only when it surely never left.
   */
  safe: boolean;
  /** A signed leg's challenge expiry (epoch ms): no attempt starts at or after it. */
  notAfter: number | undefined;
  now: () => number;
  random: () => number;
}

/** Another attempt, after `delay` ms; `retryAfter` is the answer's `Retry-After` in ms when it set the delay. */
export interface RetryDecision {
  delay: number;
  retryAfter: number | undefined;
}

/**
 * The one retry decision, for answers and failures alike: another attempt after `delay` ms, or
 * `undefined` to stop (the answer is final, or the failure is thrown).
 *
 * - A failure is repeated when the request is safe to repeat or surely never left, with backoff.
 * - An answer is repeated when its status is worth it (408, 409, 429, 5xx), the request is safe, its
 *   `Retry-After` (which then sets the delay) is at most {@link MAX_RETRY_AFTER_MS}, and its code is not a
 *   permanent refusal.
 * - Never beyond `maxRetries`, and never when the next attempt would start at or after `notAfter`.
 */
export function retryDecision(end: AttemptEnd, input: RetryInput): RetryDecision | undefined {
  const { retry, maxRetries, safe, notAfter } = input;
  if (retry >= maxRetries) return undefined;
  let delay: number;
  let retryAfter: number | undefined;
  if ('failed' in end) {
    if (!safe && end.mayHaveArrived) return undefined;
    delay = backoffDelay(retry, input.random);
  } else {
    if (!safe || !isRetryableStatus(end.status) || isPermanentRefusal(end.status, end.code)) return undefined;
    retryAfter = parseRetryAfter(end.retryAfter, input.now());
    if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return undefined;
    delay = retryAfter ?? backoffDelay(retry, input.random);
  }
  if (notAfter !== undefined && input.now() + delay >= notAfter) return undefined;
  return { delay, retryAfter };
}
