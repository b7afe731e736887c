import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/options';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { ExternalAccountLookupParams, ReceiverLookup, ReceiverLookupParams } from '../types';

/** Receiver lookups: what a receiver accepts, and the `lookupId` a quote to them needs. */
export class Receiver extends APIResource {
  /**
   * Looks up an UMA address (e.g. `$alice@bank.example`; encoded in the path by the SDK).
   * @example
   * ```ts
   * const umaAddress = '$alice@bank.example';
   * const receiver = await cb.receiver.lookupUma(umaAddress, { customerId });
   * console.log(receiver.supportedCurrencies.map((s) => s.currency.code));
   *
   * // The lookup's id goes into the quote to that address:
   * const quote = await cb.quotes.create({
   *   lookupId: receiver.lookupId,
   *   source: { sourceType: 'ACCOUNT', accountId },
   *   destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency: 'EUR' },
   *   lockedCurrencySide: 'SENDING',
   *   lockedCurrencyAmount: 5_000,
   *   // The fields receiver.requiredPayerDataFields asks for:
   *   senderCustomerInfo: { FULL_NAME: 'Ada Lovelace' },
   * });
   * ```
   */
  lookupUma(receiverUmaAddress: string, params?: ReceiverLookupParams, options?: RequestOptions): APIPromise<ReceiverLookup> {
    return this._client.call(op.lookupUmaReceiver, { path: { receiverUmaAddress }, query: params }, options);
  }

  /**
   * Looks up an external account as a receiver.
   * @example
   * ```ts
   * const receiver = await cb.receiver.lookupExternalAccount(externalAccountId, {
   *   customerId,
   * });
   * for (const { currency, min, max } of receiver.supportedCurrencies) {
   *   console.log(currency.code, min, max);
   * }
   * ```
   */
  lookupExternalAccount(accountId: string, params?: ExternalAccountLookupParams, options?: RequestOptions): APIPromise<ReceiverLookup> {
    return this._client.call(op.lookupExternalAccountReceiver, { path: { accountId }, query: params }, options);
  }
}
