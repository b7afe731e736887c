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
  OwnershipChallenge,
  OwnershipChallengeParams,
  OwnershipVerifyParams,
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

  /**
   * Retrieves one external account of a customer by its id (production's operation). A deleted account,
   * or one of the platform (`cb.platform.externalAccounts.retrieve`), throws `NotFoundError`.
   * @example
   * ```ts
   * const account = await cb.externalAccounts.retrieve(externalAccountId);
   * console.log(account.status, account.accountInfo.accountType); // 'ACTIVE' 'USD_ACCOUNT'
   * ```
   */
  retrieve(externalAccountId: string, options?: RequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(op.getCustomerExternalAccountById, { path: { externalAccountId } }, options);
  }

  /**
   * Deletes an external account of a customer (production's operation). Resolves to `undefined`; the
   * account is then gone from `retrieve` and `list`, and a quote to it is refused.
   * @example
   * ```ts
   * await cb.externalAccounts.delete(externalAccountId);
   * // cb.externalAccounts.retrieve(externalAccountId) now throws NotFoundError
   * ```
   */
  delete(externalAccountId: string, options?: SignedRequestOptions): APIPromise<void> {
    return this._client.call(op.deleteCustomerExternalAccountById, { path: { externalAccountId } }, options);
  }

  /**
   * Starts (or restarts) ownership verification of a `FIRST_PARTY` self-custody wallet in
   * `PENDING_OWNERSHIP_VERIFICATION` or `UNVERIFIED` status (production's operation). `WALLET_SIGNATURE`
   * answers a `messageToSign` for {@link ExternalAccounts.verify}; `LIVENESS` a hosted `verificationLink`
   * whose outcome arrives as `EXTERNAL_ACCOUNT.STATUS_UPDATED` (or by polling the account).
   * @example
   * ```ts
   * const challenge = await cb.externalAccounts.challenge(externalAccountId, { method: 'WALLET_SIGNATURE' });
   * if (challenge.method === 'WALLET_SIGNATURE') console.log(challenge.messageToSign, challenge.expiresAt);
   * ```
   */
  challenge(externalAccountId: string, params: OwnershipChallengeParams, options?: SignedRequestOptions): APIPromise<OwnershipChallenge> {
    return this._client.call(op.createExternalAccountOwnershipChallenge, { path: { externalAccountId }, body: params }, options);
  }

  /**
   * Completes a `WALLET_SIGNATURE` challenge with the wallet's signature over the exact `messageToSign`
   * (production's operation). Resolves to the account, now `ACTIVE`; a wrong or late signature throws
   * `BadRequestError` and leaves the account `UNVERIFIED` (start a new challenge).
   * @example
   * ```ts
   * const challenge = await cb.externalAccounts.challenge(externalAccountId, { method: 'WALLET_SIGNATURE' });
   * if (challenge.method === 'WALLET_SIGNATURE') {
   *   const signature = '…'; // the user's own wallet signs challenge.messageToSign and hands you this
   *   const account = await cb.externalAccounts.verify(externalAccountId, { signature });
   *   console.log(account.status); // 'ACTIVE'
   * }
   * ```
   */
  verify(externalAccountId: string, params: OwnershipVerifyParams, options?: SignedRequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(op.verifyExternalAccountOwnership, { path: { externalAccountId }, body: params }, options);
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
   *     beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Example Platform Inc.' },
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

  /**
   * Retrieves one of the platform's own external accounts by its id (production's operation). A deleted
   * account, or one of a customer (`cb.externalAccounts.retrieve`), throws `NotFoundError`.
   * @example
   * ```ts
   * const account = await cb.platform.externalAccounts.retrieve(externalAccountId);
   * console.log(account.customerId); // null: the platform's own
   * ```
   */
  retrieve(externalAccountId: string, options?: RequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(op.getPlatformExternalAccountById, { path: { externalAccountId } }, options);
  }

  /**
   * Deletes one of the platform's own external accounts (production's operation). Resolves to
   * `undefined`; the account is then gone from `retrieve` and `list`, and a quote to it is refused.
   * @example
   * ```ts
   * await cb.platform.externalAccounts.delete(externalAccountId);
   * ```
   */
  delete(externalAccountId: string, options?: SignedRequestOptions): APIPromise<void> {
    return this._client.call(op.deletePlatformExternalAccountById, { path: { externalAccountId } }, options);
  }

  /**
   * Starts (or restarts) ownership verification of a platform-owned `FIRST_PARTY` self-custody wallet
   * (production's operation); as {@link ExternalAccounts.challenge}.
   * @example
   * ```ts
   * const challenge = await cb.platform.externalAccounts.challenge(externalAccountId, { method: 'WALLET_SIGNATURE' });
   * console.log(challenge.expiresAt);
   * ```
   */
  challenge(externalAccountId: string, params: OwnershipChallengeParams, options?: SignedRequestOptions): APIPromise<OwnershipChallenge> {
    return this._client.call(op.createPlatformExternalAccountOwnershipChallenge, { path: { externalAccountId }, body: params }, options);
  }

  /**
   * Completes a `WALLET_SIGNATURE` challenge of a platform-owned wallet (production's operation); as
   * {@link ExternalAccounts.verify}.
   * @example
   * ```ts
   * const signature = '…'; // the wallet's signature over the challenge's messageToSign
   * const account = await cb.platform.externalAccounts.verify(externalAccountId, { signature });
   * console.log(account.status); // 'ACTIVE'
   * ```
   */
  verify(externalAccountId: string, params: OwnershipVerifyParams, options?: SignedRequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(op.verifyPlatformExternalAccountOwnership, { path: { externalAccountId }, body: params }, options);
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
