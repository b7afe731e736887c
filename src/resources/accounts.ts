import type { APIPromise } from '../core/api-promise';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import { operations as op } from '../generated/operations';
import type {
  DataList,
  ExternalAccount,
  ExternalAccountCreateParams,
  ExternalAccountListParams,
  InternalAccount,
  InternalAccountExportParams,
  InternalAccountListParams,
  InternalAccountUpdateParams,
  PlatformExternalAccountCreateParams,
  PlatformExternalAccountListParams,
  WalletExport,
} from '../types';

/** Internal accounts (balances held by the service), including embedded wallets. */
export class InternalAccounts extends APIResource {
  /** Lists internal accounts, filtered by `currency` or `customerId`. */
  list(params?: InternalAccountListParams, options?: ListOptions): PagePromise<InternalAccount> {
    return this._client.list(op.listInternalAccounts, { query: params }, options);
  }

  /**
   * Turns wallet privacy on or off. A signed operation: pass `signer` (or relay the challenge and
   * call again with `{ signature, requestId }`).
   */
  update(accountId: string, params: InternalAccountUpdateParams, options?: SignedRequestOptions): APIPromise<InternalAccount> {
    return this._client.call(op.updateInternalAccount, { path: { accountId }, body: params }, options);
  }

  /**
   * Exports the wallet's credentials, sealed to `clientPublicKey`. A signed operation: pass `signer`
   * (or relay the challenge and call again with `{ signature, requestId }`).
   */
  export(accountId: string, params: InternalAccountExportParams, options?: SignedRequestOptions): APIPromise<WalletExport> {
    return this._client.call(op.exportInternalAccount, { path: { accountId }, body: params }, options);
  }
}

/** External accounts of customers (or of the platform, when `customerId` is omitted). */
export class ExternalAccounts extends APIResource {
  /**
   * Registers a bank account, wallet or other destination. Not idempotent: if the outcome is unknown,
   * list the customer's accounts before creating it again.
   */
  create(params: ExternalAccountCreateParams, options?: SignedRequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(op.createExternalAccount, { body: params }, options);
  }

  /** Lists external accounts, filtered by `currency` or `customerId`. */
  list(params?: ExternalAccountListParams, options?: ListOptions): PagePromise<ExternalAccount> {
    return this._client.list(op.listExternalAccounts, { query: params }, options);
  }
}

/** The platform's own external accounts. */
export class PlatformExternalAccounts extends APIResource {
  /** Registers an external account of the platform itself. */
  create(params: PlatformExternalAccountCreateParams, options?: SignedRequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(op.createPlatformExternalAccount, { body: params }, options);
  }

  /** Lists the platform's external accounts (not paginated: resolves to `{ data }`). */
  list(params?: PlatformExternalAccountListParams, options?: RequestOptions): APIPromise<DataList<ExternalAccount>> {
    return this._client.call(op.listPlatformExternalAccounts, { query: params }, options);
  }
}

/** Platform-level resources. */
export class Platform extends APIResource {
  /** The platform's own external accounts. */
  readonly externalAccounts = new PlatformExternalAccounts(this._client);
}
