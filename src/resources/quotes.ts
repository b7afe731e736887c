import type { APIPromise } from '../core/api-promise';
import { userIdempotencyKey, withoutKey } from '../core/call-options';
import { APIConnectionError, QuoteExpiredError, ValidationError, type ValidationIssue } from '../core/errors';
import { unknownOutcomeHint } from '../core/retry';
import type { RequestOptions, SignedRequestOptions } from '../core/options';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { IncomingTransaction, Quote, QuoteCreateParams, Transaction, TransferInCreateParams, TransferOutCreateParams } from '../types';

/** Quote statuses reached only through execution (or expiry): nothing left for createAndExecute to do. */
const EXECUTED: ReadonlySet<string> = new Set(['PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED']);

/** True when the quote's `expiresAt` has passed (it can no longer be executed). */
export function isExpired(quote: Pick<Quote, 'expiresAt'>, now: number = Date.now()): boolean {
  const expires = Date.parse(quote.expiresAt);
  return Number.isNaN(expires) || expires <= now;
}

/** FX quotes: price a transfer, then execute it before `expiresAt`. */
export class Quotes extends APIResource {
  /**
   * Creates a quote. Idempotent: the SDK sends one `Idempotency-Key` per call (yours with
   * `options.idempotencyKey`) and the same key on every retry, so a retried call never makes two quotes.
   * @example
   * ```ts
   * const quote = await cb.quotes.create({
   *   source: { sourceType: 'ACCOUNT', accountId },
   *   destination: { destinationType: 'ACCOUNT', accountId: externalAccountId },
   *   lockedCurrencySide: 'SENDING',
   *   lockedCurrencyAmount: 10_000, // exactly $100.00 leaves the USD account
   *   description: 'Invoice 1042',
   * });
   * const { totalReceivingAmount, receivingCurrency, exchangeRate } = quote;
   * console.log(totalReceivingAmount, receivingCurrency.code, exchangeRate);
   * console.log('valid until', quote.expiresAt);
   * ```
   */
  create(params: QuoteCreateParams, options?: SignedRequestOptions): APIPromise<Quote> {
    return this._client.call(op.createQuote, { body: params }, options);
  }

  /**
   * Fetches a quote by id (`Quote:…`).
   * @example
   * ```ts
   * const quote = await cb.quotes.retrieve(quoteId);
   * if (isExpired(quote)) console.log('expired at', quote.expiresAt);
   * ```
   */
  retrieve(quoteId: string, options?: RequestOptions): APIPromise<Quote> {
    return this._client.call(op.getQuote, { path: { quoteId } }, options);
  }

  /**
   * Executes a quote: money moves. Idempotent like {@link create}. Given the quote object itself,
   * an expired quote is refused locally with {@link QuoteExpiredError} before anything is sent;
   * the service refuses it too (409 `QUOTE_EXPIRED`).
   * @example
   * ```ts
   * const quote = await cb.quotes.retrieve(quoteId);
   * // Given the quote itself, an expired one is refused with QuoteExpiredError:
   * const executed = await cb.quotes.execute(quote);
   * const transaction = await cb.transactions.waitFor(executed.transactionId);
   * ```
   */
  execute(quote: string | Pick<Quote, 'id' | 'expiresAt'>, options?: SignedRequestOptions): APIPromise<Quote> {
    const quoteId = typeof quote === 'string' ? quote : typeof quote?.id === 'string' ? quote.id : undefined;
    if (quoteId === undefined) {
      return this._client.reject<Quote>(
        new ValidationError([{ path: 'quoteId', rule: 'invalid_type', message: 'expected a quote id (Quote:…) or a quote object with its id' }]),
      );
    }
    // The local check needs a readable expiresAt; without one the service decides.
    if (typeof quote !== 'string' && !Number.isNaN(Date.parse(quote.expiresAt)) && isExpired(quote)) {
      return this._client.reject<Quote>(new QuoteExpiredError(quoteId, quote.expiresAt));
    }
    return this._client.call(op.executeQuote, { path: { quoteId } }, options);
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
  async createAndExecute(params: QuoteCreateParams, options?: SignedRequestOptions | null): Promise<Quote> {
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
    const quote = await this.create(params, { ...opts, idempotencyKey: createKey });
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
    return this.execute(quote, { ...opts, idempotencyKey: `${base}:execute` });
  }
}

/** Moves funds from an external account into an internal account. */
export class TransferIn extends APIResource {
  /**
   * Starts a transfer-in. Idempotent: one key per call, the same key on every retry.
   * @example
   * ```ts
   * const transaction = await cb.transferIn.create({
   *   source: { accountId: externalAccountId }, // the customer's bank account
   *   destination: { accountId }, // their internal account
   *   amount: 50_000,
   * });
   * const settled = await cb.transactions.waitFor(transaction.id);
   * ```
   */
  create(params: TransferInCreateParams, options?: SignedRequestOptions): APIPromise<IncomingTransaction> {
    return this._client.call(op.createTransferIn, { body: params }, options);
  }
}

/** Sends funds from an internal account to an external account in the same currency. */
export class TransferOut extends APIResource {
  /**
   * Starts a transfer-out: money moves. The internal account is debited at once; the answer is the outgoing
   * transaction (`PROCESSING`, then `COMPLETED`). Idempotent: one key per call, the same key on every retry.
   * @example
   * ```ts
   * const transaction = await cb.transferOut.create({
   *   source: { accountId }, // the internal account to debit
   *   destination: { accountId: externalAccountId, paymentRail: 'ACH' },
   *   amount: 12_550, // $125.50
   *   remittanceInformation: 'Invoice 1042',
   * });
   * const settled = await cb.transactions.waitFor(transaction.id);
   * ```
   */
  create(params: TransferOutCreateParams, options?: SignedRequestOptions): APIPromise<Transaction> {
    return this._client.call(op.createTransferOut, { body: params }, options);
  }
}
