/**
 * crossborder-sdk: a typed client for the Cross-Border Payments and Embedded Wallet Service.
 *
 * ```ts
 * import { Crossborder } from 'crossborder-sdk';
 * const cb = new Crossborder({ tokenId, clientSecret });
 * ```
 * @module crossborder-sdk
 */
export { Crossborder } from './client';
export { Auth, Credentials, Sessions } from './resources/auth';
export { Customers } from './resources/customers';
export { ExternalAccounts, InternalAccounts, Platform, PlatformExternalAccounts } from './resources/accounts';
export { Config, Invitations, Receiver, Sandbox, UmaProviders, Verifications } from './resources/misc';
export { Quotes, TransferIn } from './resources/quotes';
export { Transactions } from './resources/transactions';
export { Webhooks } from './resources/webhooks';
export type { Sleep } from './core/retry';
export type { WebhookHeaders, WebhookPublicKey, WebhookRawBody } from './webhooks/verify';
export type { DedupeOptions, DedupeResult, MemoryDedupeStoreOptions, RedisDedupeStoreOptions, RedisLikeClient } from './webhooks/dedupe';
export type { ApprovePaymentOptions, RejectPaymentOptions } from './webhooks/approval';
export { API_VERSION, DEFAULT_BASE_URLS, MAX_TIMEOUT_MS, type Operation, type CallInput } from './core/client';
export { APIPromise, type WithResponse } from './core/api-promise';
export { Page, PagePromise, type ListEnvelope } from './core/pagination';
export type { ClientOptions, Environment, ListOptions, RequestOptions, SignedRequestOptions, Signer, ValidationIssueReport } from './core/options';
export type { Logger, LogLevel } from './core/logger';
export * from './core/errors';
export { formatAmount, toMinorUnits, type HasDecimals } from './helpers/money';
export { isExpired } from './resources/quotes';
export { TERMINAL_STATUSES, type WaitForOptions } from './resources/transactions';
export type { VerifyOptions } from './resources/auth';
export type { UnwrapOptions } from './resources/webhooks';
export type { UnknownEvent, WebhookEnvelope } from './webhooks/events';
export { MemoryDedupeStore, RedisDedupeStore, dedupe, type DedupeStore } from './webhooks/dedupe';
export { approvePayment, deferApproval, rejectPayment, requestCounterpartyInfo } from './webhooks/approval';
export { passkeyAssertion, passkeyAttestation } from './wallet/passkey';
export type * from './types';
