import { APIConnectionError, APIError, ConflictError, CrossborderError, NotFoundError, RateLimitError, ValidationError } from 'crossborder-sdk';

/** What to do about a failed call: most specific class first, the base classes last. */
export function nextStep(err: unknown): string {
  if (err instanceof ValidationError) return `fix the call: ${err.field} ${err.issues[0]?.message}`; // nothing was sent
  if (err instanceof RateLimitError) return `slow down: retry in ${err.retryAfter ?? 1_000} ms`;
  if (err instanceof ConflictError && err.code === 'QUOTE_EXPIRED') return 'quote expired: create a new one';
  if (err instanceof NotFoundError) return `${err.code}: check the id`;
  if (err instanceof APIError) return `${err.status} ${err.code}: report request ${err.requestId}`;
  if (err instanceof APIConnectionError) {
    return err.outcomeUnknown ? `unknown outcome: retry with key ${err.idempotencyKey}` : 'not sent: safe to retry';
  }
  if (err instanceof CrossborderError) return `${err.name}: ${err.message}`;
  throw err; // not from the SDK: a bug in our own code
}
