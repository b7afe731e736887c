import type { APIPromise } from '../core/api-promise';
import type { SignedRequestOptions } from '../core/options';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type {
  IncomingTransaction,
  InternalAccount,
  SandboxFundParams,
  SandboxSendParams,
  SandboxUmaReceiveParams,
  TestWebhookResult,
  Transaction,
} from '../types';

/** Sandbox-only simulations. Refused locally (nothing sent) when the client's environment is `production`. */
export class Sandbox extends APIResource {
  /**
   * Simulates an incoming UMA payment to a customer.
   * @example
   * ```ts
   * const incoming = await cb.sandbox.receiveUmaPayment({
   *   senderUmaAddress: '$bob@sandbox.example',
   *   receivingCurrencyCode: 'USD',
   *   receivingCurrencyAmount: 4_200, // $42.00
   *   customerId,
   * });
   * console.log(incoming.id, incoming.status);
   * ```
   */
  receiveUmaPayment(params: SandboxUmaReceiveParams, options?: SignedRequestOptions): APIPromise<IncomingTransaction> {
    return this._client.call(op.sandboxReceiveUmaPayment, { body: params }, options);
  }

  /**
   * Simulates funds arriving in an internal account (at most 100000000000 smallest units).
   * @example
   * ```ts
   * // $1,000.00 into a USD account (amounts are in the smallest unit):
   * const account = await cb.sandbox.fundInternalAccount(accountId, {
   *   amount: 100_000,
   * });
   * console.log(formatAmount(account.balance)); // '1,000.00'
   * ```
   */
  fundInternalAccount(accountId: string, params: SandboxFundParams, options?: SignedRequestOptions): APIPromise<InternalAccount> {
    return this._client.call(op.sandboxFundInternalAccount, { path: { accountId }, body: params }, options);
  }

  /**
   * Simulates the funds of a quote arriving as its `paymentInstructions` say (production's sandbox send):
   * a just-in-time (REALTIME_FUNDING) quote they cover is executed. `currencyAmount` defaults to the quote's
   * `totalSendingAmount`. Resolves with the quote's transaction.
   * @example
   * ```ts
   * const quote = await cb.quotes.create({
   *   source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId },
   *   destination: { destinationType: 'ACCOUNT', accountId: externalAccountId },
   *   lockedCurrencySide: 'SENDING',
   *   lockedCurrencyAmount: 10_000,
   * });
   * const transaction = await cb.sandbox.send({ quoteId: quote.id, currencyCode: 'USD' });
   * console.log(transaction.status); // 'PROCESSING': the funds executed the quote
   * ```
   */
  send(params: SandboxSendParams, options?: SignedRequestOptions): APIPromise<Transaction> {
    return this._client.call(op.sandboxSend, { body: params }, options);
  }

  /**
   * Sends a `TEST` webhook to the configured `webhookEndpoint` and resolves with what it answered
   * (`response_status`, `response_body`); a failed delivery is a 400.
   * @example
   * ```ts
   * const { response_status } = await cb.sandbox.sendTestWebhook();
   * console.log(response_status); // 200 when your endpoint accepted it
   * ```
   */
  sendTestWebhook(options?: SignedRequestOptions): APIPromise<TestWebhookResult> {
    return this._client.call(op.sendTestWebhook, {}, options);
  }
}
