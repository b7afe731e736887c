import type { APIPromise } from '../core/api-promise';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type {
  ExternalAccountLookupParams,
  Invitation,
  InvitationCreateParams,
  InternalAccount,
  PlatformConfig,
  PlatformConfigUpdateParams,
  ReceiverLookup,
  ReceiverLookupParams,
  IncomingTransaction,
  SandboxFundParams,
  SandboxUmaReceiveParams,
  UmaProvider,
  UmaProviderListParams,
  Verification,
  VerificationListParams,
} from '../types';

/** The platform configuration: UMA domain, webhook endpoint, supported currencies. */
export class Config extends APIResource {
  /**
   * Reads the platform configuration.
   * @example
   * ```ts
   * const config = await cb.config.retrieve();
   * console.log(config.umaDomain, config.webhookEndpoint);
   * for (const currency of config.supportedCurrencies) {
   *   console.log(currency.currencyCode, currency.minAmount, currency.maxAmount);
   * }
   * ```
   */
  retrieve(options?: RequestOptions): APIPromise<PlatformConfig> {
    return this._client.call(op.getConfig, {}, options);
  }

  /**
   * Updates the platform configuration.
   * @example
   * ```ts
   * const config = await cb.config.update({
   *   webhookEndpoint: 'https://platform.example/webhooks',
   * });
   * ```
   */
  update(params: PlatformConfigUpdateParams, options?: SignedRequestOptions): APIPromise<PlatformConfig> {
    return this._client.call(op.updateConfig, { body: params }, options);
  }
}

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

/** UMA invitations. */
export class Invitations extends APIResource {
  /**
   * Creates an invitation. After `INVITATION.CLAIMED`, the platform must send `amountToSend` itself.
   * @example
   * ```ts
   * const invitation = await cb.invitations.create({
   *   inviterUma: '$ada@platform.example',
   *   firstName: 'Grace',
   *   amountToSend: 2_500, // shown to Grace; you send it once she claims
   * });
   * console.log(invitation.url, invitation.status); // 'PENDING' until claimed
   * ```
   */
  create(params: InvitationCreateParams, options?: SignedRequestOptions): APIPromise<Invitation> {
    return this._client.call(op.createInvitation, { body: params }, options);
  }
}

/** KYC/KYB verifications. */
export class Verifications extends APIResource {
  /**
   * Lists verifications, filtered by `customerId` or `verificationStatus`.
   * @example
   * ```ts
   * const verifications = cb.verifications.list({
   *   customerId,
   *   verificationStatus: 'RESOLVE_ERRORS',
   * });
   * for await (const verification of verifications) {
   *   for (const error of verification.errors ?? []) {
   *     console.log(error.field, error.reason); // what the customer must fix
   *   }
   * }
   * ```
   */
  list(params?: VerificationListParams, options?: ListOptions): PagePromise<Verification> {
    return this._client.list(op.listVerifications, { query: params }, options);
  }
}

/** UMA providers. */
export class UmaProviders extends APIResource {
  /**
   * Lists UMA providers, filtered by country, currency and allow-list status.
   * @example
   * ```ts
   * const providers = cb.umaProviders.list({
   *   countryCode: 'MX',
   *   currencyCode: 'MXN',
   * });
   * for await (const provider of providers) {
   *   console.log(provider.name, provider.domain);
   * }
   * ```
   */
  list(params?: UmaProviderListParams, options?: ListOptions): PagePromise<UmaProvider> {
    return this._client.list(op.listUmaProviders, { query: params }, options);
  }
}

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
