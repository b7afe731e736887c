import type { APIPromise } from '../core/api-promise';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import { operations as op } from '../generated/operations';
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
  /** Reads the platform configuration. */
  retrieve(options?: RequestOptions): APIPromise<PlatformConfig> {
    return this._client.call(op.getConfig, {}, options);
  }

  /** Updates the platform configuration. */
  update(params: PlatformConfigUpdateParams, options?: SignedRequestOptions): APIPromise<PlatformConfig> {
    return this._client.call(op.updateConfig, { body: params }, options);
  }
}

/** Receiver lookups: what a receiver accepts, and the `lookupId` a quote to them needs. */
export class Receiver extends APIResource {
  /** Looks up an UMA address (e.g. `$alice@bank.example`; encoded in the path by the SDK). */
  lookupUma(receiverUmaAddress: string, params?: ReceiverLookupParams, options?: RequestOptions): APIPromise<ReceiverLookup> {
    return this._client.call(op.lookupUmaReceiver, { path: { receiverUmaAddress }, query: params }, options);
  }

  /** Looks up an external account as a receiver. */
  lookupExternalAccount(accountId: string, params?: ExternalAccountLookupParams, options?: RequestOptions): APIPromise<ReceiverLookup> {
    return this._client.call(op.lookupExternalAccountReceiver, { path: { accountId }, query: params }, options);
  }
}

/** UMA invitations. */
export class Invitations extends APIResource {
  /** Creates an invitation. After `INVITATION.CLAIMED`, the platform must send `amountToSend` itself. */
  create(params: InvitationCreateParams, options?: SignedRequestOptions): APIPromise<Invitation> {
    return this._client.call(op.createInvitation, { body: params }, options);
  }
}

/** KYC/KYB verifications. */
export class Verifications extends APIResource {
  /** Lists verifications, filtered by `customerId` or `verificationStatus`. */
  list(params?: VerificationListParams, options?: ListOptions): PagePromise<Verification> {
    return this._client.list(op.listVerifications, { query: params }, options);
  }
}

/** UMA providers. */
export class UmaProviders extends APIResource {
  /** Lists UMA providers, filtered by country, currency and allow-list status. */
  list(params?: UmaProviderListParams, options?: ListOptions): PagePromise<UmaProvider> {
    return this._client.list(op.listUmaProviders, { query: params }, options);
  }
}

/** Sandbox-only simulations. Refused locally (nothing sent) when the client's environment is `production`. */
export class Sandbox extends APIResource {
  /** Simulates an incoming UMA payment to a customer. */
  receiveUmaPayment(params: SandboxUmaReceiveParams, options?: SignedRequestOptions): APIPromise<IncomingTransaction> {
    return this._client.call(op.sandboxReceiveUmaPayment, { body: params }, options);
  }

  /** Simulates funds arriving in an internal account (at most 100000000000 smallest units). */
  fundInternalAccount(accountId: string, params: SandboxFundParams, options?: SignedRequestOptions): APIPromise<InternalAccount> {
    return this._client.call(op.sandboxFundInternalAccount, { path: { accountId }, body: params }, options);
  }
}
