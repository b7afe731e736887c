import type { APIPromise } from '../core/api-promise';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type {
  ExternalAccount,
  ExternalAccountCreateParams,
  ExternalAccountListParams,
  InternalAccount,
  InternalAccountExportParams,
  InternalAccountListParams,
  InternalAccountUpdateParams,
  PlatformExternalAccountCreateParams,
  PlatformExternalAccountListParams,
  PlatformInternalAccountList,
  PlatformInternalAccountListParams,
  WalletExport,
} from '../types';

/** Internal accounts (balances held by the service), including embedded wallets. */
export class InternalAccounts extends APIResource {
  /**
   * Lists internal accounts, filtered by `currency`, `customerId` or `type` (production's
   * INTERNAL_FIAT, INTERNAL_CRYPTO, EMBEDDED_WALLET, RULE_BASED). Items carry `type`, `status` and
   * `totalBalance` where the service answers them.
   * @example
   * ```ts
   * const { data: [usd] } = await cb.internalAccounts.list({
   *   customerId,
   *   currency: 'USD',
   * });
   * if (usd) console.log(usd.id, formatAmount(usd.balance)); // … '1,000.00'
   * ```
   */
  list(params?: InternalAccountListParams, options?: ListOptions): PagePromise<InternalAccount> {
    return this._client.list(op.listInternalAccounts, { query: params }, options);
  }

  /**
   * Turns wallet privacy on or off. A signed operation: pass `signer` (or relay the challenge and
   * call again with `{ signature, requestId }`).
   * @example
   * ```ts
   * // A signed operation: `signer` relays the challenge to the user's device.
   * const wallet = await cb.internalAccounts.update(
   *   walletId,
   *   { privateEnabled: true },
   *   { signer },
   * );
   * console.log(wallet.privateEnabled); // true
   * ```
   */
  update(accountId: string, params: InternalAccountUpdateParams, options?: SignedRequestOptions): APIPromise<InternalAccount> {
    return this._client.call(op.updateInternalAccount, { path: { accountId }, body: params }, options);
  }

  /**
   * Exports the wallet's credentials, sealed to `clientPublicKey`. A signed operation: pass `signer`
   * (or relay the challenge and call again with `{ signature, requestId }`).
   * @example
   * ```ts
   * // Sealed to the device's key (crossborder-sdk/wallet): only it can open it.
   * const { encryptedWalletCredentials } = await cb.internalAccounts.export(
   *   walletId,
   *   { clientPublicKey },
   *   { signer },
   * );
   * ```
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
   * @example
   * ```ts
   * const payee = await cb.externalAccounts.create({
   *   customerId,
   *   currency: 'GBP',
   *   accountInfo: {
   *     accountType: 'GBP_ACCOUNT',
   *     accountNumber: '31926819',
   *     routingNumber: '601613',
   *   },
   * });
   * console.log(payee.id, payee.status); // 'ExternalAccount:…' 'ACTIVE'
   * ```
   */
  create(params: ExternalAccountCreateParams, options?: SignedRequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(op.createExternalAccount, { body: params }, options);
  }

  /**
   * Lists external accounts, filtered by `currency` or `customerId`.
   * @example
   * ```ts
   * const accounts = cb.externalAccounts.list({ customerId, currency: 'GBP' });
   * for await (const account of accounts) {
   *   console.log(account.id, account.status, account.accountInfo.accountType);
   * }
   * ```
   */
  list(params?: ExternalAccountListParams, options?: ListOptions): PagePromise<ExternalAccount> {
    return this._client.list(op.listExternalAccounts, { query: params }, options);
  }
}

/** The platform's own external accounts. */
export class PlatformExternalAccounts extends APIResource {
  /**
   * Registers an external account of the platform itself.
   * @example
   * ```ts
   * const account = await cb.platform.externalAccounts.create({
   *   currency: 'USD',
   *   accountInfo: {
   *     accountType: 'USD_ACCOUNT',
   *     accountCategory: 'CHECKING',
   *     accountNumber: '000123456789',
   *     routingNumber: '021000021',
   *   },
   * });
   * ```
   */
  create(params: PlatformExternalAccountCreateParams, options?: SignedRequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(op.createPlatformExternalAccount, { body: params }, options);
  }

  /**
   * Lists the platform's external accounts, page by page (`limit`, `cursor`): production pages this list.
   * The spec's answer, every account in one `{ data }`, is read as one complete page, so `await` still
   * resolves to `{ data }` (the first page) and `for await` walks every page.
   * @example
   * ```ts
   * for await (const account of cb.platform.externalAccounts.list({ currency: 'USD' })) {
   *   console.log(account.id, account.status);
   * }
   * // Or one page: `data` as before.
   * const { data: accounts } = await cb.platform.externalAccounts.list({ limit: 50 });
   * ```
   */
  list(params?: PlatformExternalAccountListParams, options?: ListOptions): PagePromise<ExternalAccount> {
    return this._client.list(op.listPlatformExternalAccounts, { query: params }, options);
  }
}

/** Platform-level resources. */
export class Platform extends APIResource {
  /** The platform's own external accounts. */
  readonly externalAccounts = new PlatformExternalAccounts(this._client);
  /** The platform's own internal accounts. */
  readonly internalAccounts: PlatformInternalAccounts = new PlatformInternalAccounts(this._client);
}

/** The platform's own internal accounts (one per supported currency), as opposed to its customers'. */
export class PlatformInternalAccounts extends APIResource {
  /**
   * Lists the platform's internal accounts, filtered by `currency` or `type`; every account in one `{ data }`
   * (production does not page this list). They fund platform-wide payments, such as rewards.
   * @example
   * ```ts
   * const { data: [usd] } = await cb.platform.internalAccounts.list({ currency: 'USD' });
   * if (usd) console.log(usd.id, formatAmount(usd.balance));
   * ```
   */
  list(params?: PlatformInternalAccountListParams, options?: RequestOptions): APIPromise<PlatformInternalAccountList> {
    return this._client.call(op.listPlatformInternalAccounts, { query: params }, options);
  }
}
