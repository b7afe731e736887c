/**
 * What `cb.quotes` does beyond one call of an operation (src/generated/resources.ts gives {@link Quotes} a method
 * for each): `execute` given the quote itself refuses an expired one locally, and `createAndExecute` runs both
 * steps with keys derived from one.
 * @module
 */
import type { APIPromise } from '../core/api-promise';
import { userIdempotencyKey, withoutKey } from '../core/call-options';
import type { CrossborderCore } from '../core/client';
import { APIConnectionError, QuoteExpiredError, ValidationError, type ValidationIssue } from '../core/errors';
import { unknownOutcomeHint } from '../core/retry';
import type { SignedRequestOptions } from '../core/options';
import * as op from '../generated/operations';
import type { Quote, QuoteCreateParams } from '../types';

/** Quote statuses reached only through execution (or expiry): nothing left for createAndExecute to do. */
const EXECUTED: ReadonlySet<string> = new Set(['PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED']);

/** True when the quote's `expiresAt` has passed (it can no longer be executed). */
export function isExpired(quote: Pick<Quote, 'expiresAt'>, now: number = Date.now()): boolean {
  const expires = Date.parse(quote.expiresAt);
  return Number.isNaN(expires) || expires <= now;
}

/** `cb.quotes.execute`: the quote's id, or the quote itself (an expired one is refused before anything is sent). */
export function execute(client: CrossborderCore, quote: string | Pick<Quote, 'id' | 'expiresAt'>, options?: SignedRequestOptions): APIPromise<Quote> {
  const quoteId = typeof quote === 'string' ? quote : typeof quote?.id === 'string' ? quote.id : undefined;
  if (quoteId === undefined) {
    return client.reject<Quote>(
      new ValidationError([{ path: 'quoteId', rule: 'invalid_type', message: 'expected a quote id (Quote:…) or a quote object with its id' }]),
    );
  }
  // The local check needs a readable expiresAt; without one the service decides.
  if (typeof quote !== 'string' && !Number.isNaN(Date.parse(quote.expiresAt)) && isExpired(quote)) {
    return client.reject<Quote>(new QuoteExpiredError(quoteId, quote.expiresAt));
  }
  return client.call(op.executeQuote, { path: { quoteId } }, options);
}

/**
 * Creates a quote and executes it: the common path. Each step carries its own Idempotency-Key,
 * derived from `options.idempotencyKey` when given (`<key>:create`, `<key>:execute`), so the whole
 * call can be repeated with the same key after a crash without paying twice.
 * @example
 * ```ts
 * const quote = await cb.quotes.createAndExecute(
 *   {
 *     source: { sourceType: 'ACCOUNT', accountId },
 *     destination: { destinationType: 'ACCOUNT', accountId: externalAccountId },
 *     lockedCurrencySide: 'RECEIVING',
 *     lockedCurrencyAmount: 5_000, // the payee gets exactly £50.00
 *   },
 *   // After a crash, call again with the same key: never paid twice.
 *   { idempotencyKey: 'payout-1042' },
 * );
 * console.log(quote.status, quote.transactionId); // 'PROCESSING'
 * ```
 */
export async function createAndExecute(client: CrossborderCore, params: QuoteCreateParams, options?: SignedRequestOptions | null): Promise<Quote> {
  const issues: ValidationIssue[] = [];
  // The caller's key, given as the option or as the header, is the base of the two derived keys.
  const base = userIdempotencyKey(options ?? {}, 'POST /quotes', true, issues) ?? crypto.randomUUID();
  if (issues.length) throw new ValidationError(issues);
  // Both derived keys must be sendable before the first one goes out: never refuse the execute after the create.
  if (typeof base !== 'string' || base === '' || `${base}:execute`.length > 255) {
    throw new ValidationError([
      {
        path: 'options.idempotencyKey',
        rule: 'too_big',
        message: `must be a non-empty string of at most ${255 - ':execute'.length} characters here (the SDK appends ':create' and ':execute')`,
      },
    ]);
  }
  const opts = { ...options, headers: withoutKey(options?.headers) };
  const createKey = `${base}:create`;
  const quote = await client.call(op.createQuote, { body: params }, { ...opts, idempotencyKey: createKey });
  if (typeof quote.id !== 'string' || quote.id === '') {
    throw new APIConnectionError(`POST /quotes answered without the quote's id${unknownOutcomeHint(createKey)}`, {
      outcomeUnknown: true,
      idempotencyKey: createKey,
      operation: 'POST /quotes',
    });
  }
  // Already executed (immediatelyExecute, or a replay). A status this SDK does not know yet is left
  // to the service: executing an executed quote is refused there, never paid twice.
  if (EXECUTED.has(quote.status)) return quote;
  return execute(client, quote, { ...opts, idempotencyKey: `${base}:execute` });
}
