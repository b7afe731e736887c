import type { APIPromise } from '../core/api-promise';
import type { SignedRequestOptions } from '../core/options';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { IncomingTransaction, InternalAccount, SandboxFundParams, SandboxUmaReceiveParams } from '../types';

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
}
