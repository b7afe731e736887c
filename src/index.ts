/**
 * crossborder-sdk: a typed client for the Cross-Border Payments and Embedded Wallet Service.
 * Start with {@link Crossborder}: every resource hangs off it (`cb.customers`, `cb.quotes`, …).
 *
 * ```ts
 * import { Crossborder } from 'crossborder-sdk';
 * const cb = new Crossborder({ tokenId, clientSecret, environment: 'sandbox' });
 * ```
 * @groupDescription Client
 * The client and what configures it: make one and reuse it.
 * @groupDescription Resources
 * The classes behind `cb.customers`, `cb.quotes`, `cb.auth.credentials`, …: each method with its
 * parameters, its result and an example.
 * @groupDescription Errors
 * Everything a call throws extends `CrossborderError`; an `APIError` carries the service's `status`,
 * `code` and `requestId`.
 * @groupDescription Pagination
 * Every `list()` returns a `PagePromise`: `await` it for one `Page`, or `for await` it for every item.
 * @groupDescription Webhooks
 * `cb.webhooks.unwrap()` and the events it returns, handling each event once, and payment approval.
 * @groupDescription Wallet
 * Passkey helpers and the `Signer` of signed operations; the device side is `crossborder-sdk/wallet`.
 * @groupDescription Options
 * The options of the client, and the last argument of every method.
 * @groupDescription API types
 * The service's request and response bodies, by name.
 * @groupDescription Helpers
 * Amounts are integers in the currency's smallest unit: format them, or convert from a decimal string.
 * @module crossborder-sdk
 */
export { Crossborder } from './client';
export { Auth, Credentials, DelegatedKeys, Sessions } from './resources/auth';
export { Customers } from './resources/customers';
export { ExternalAccounts, InternalAccounts, Platform, PlatformExternalAccounts } from './resources/accounts';
export { Config } from './resources/config';
export { Invitations } from './resources/invitations';
export { Receiver } from './resources/receiver';
export { Sandbox } from './resources/sandbox';
export { UmaProviders } from './resources/uma-providers';
export { Verifications } from './resources/verifications';
export { BeneficialOwners } from './resources/beneficial-owners';
export { Tokens } from './resources/tokens';
export { Cards } from './resources/cards';
export { Sca, ScaEvents, ScaFactors, ScaLogin, ScaResets } from './resources/sca';
export { Documents } from './resources/documents';
export {
  AgentActions,
  AgentExternalAccounts,
  AgentInternalAccounts,
  AgentManagement,
  AgentMe,
  AgentQuotes,
  Agents,
  AgentSelf,
  AgentTransactions,
} from './resources/agents';
export type { Uploadable, UploadData } from './core/form';
export { Discoveries, Vasps } from './resources/directories';
export { Stablecoins, StablecoinProviderAccounts } from './resources/stablecoins';
export { Quotes, TransferIn, TransferOut } from './resources/quotes';
export { Crypto, ExchangeRates } from './resources/exchange-rates';
export { PlatformInternalAccounts } from './resources/accounts';
export { Transactions } from './resources/transactions';
export { Webhooks } from './resources/webhooks';
export type { Sleep } from './core/retry';
export type { WebhookHeaders, WebhookPublicKey, WebhookRawBody } from './webhooks/verify';
export type { DedupeOptions, DedupeResult, MemoryDedupeStoreOptions, RedisDedupeStoreOptions, RedisLikeClient } from './webhooks/dedupe';
export type { ApprovePaymentOptions, RejectPaymentOptions } from './webhooks/approval';
export { API_VERSION, CrossborderCore, DEFAULT_BASE_URLS, MAX_TIMEOUT_MS, type CoreParts, type Operation, type CallInput } from './core/client';
export { APIPromise, type WithResponse } from './core/api-promise';
export type { InputOf, ItemOf, QueryOf, ResultOf } from './core/operation';
export type { OperationId, OperationRow } from './generated/operations';
export type { CallOptions } from './core/call-options';
export { Page, PagePromise, type ListEnvelope } from './core/pagination';
export type { ClientOptions, Environment, ListOptions, RequestOptions, SignedRequestOptions, Signer, ValidationIssueReport } from './core/options';
export { logging, requestChecks, responseChecks, type Logging, type RequestChecks, type ResponseChecks } from './core/parts';
export {
  openTelemetry,
  type MeterProviderLike,
  type TelemetryOptions,
  type TelemetryRecorder,
  type TracerProviderLike,
  type WorkSpan,
  type WorkTelemetry,
} from './core/telemetry';
export type { Logger, LogLevel } from './core/logger';
export { requestHooks, type HooksPart } from './core/hooks';
export type {
  BeforeRequestResult,
  HookCallView,
  HookErrorView,
  HookName,
  HookRequestView,
  HookResponseView,
  HookRetryView,
  RequestHooks,
} from './core/hook-types';
export * from './core/errors';
export { formatAmount, toMinorUnits, type HasDecimals } from './helpers/money';
export { isExpired } from './resources/quotes';
export { TERMINAL_STATUSES, type WaitForOptions } from './resources/transactions';
export type { VerifyOptions } from './resources/auth';
export type { UnwrapOptions } from './resources/webhooks';
export type { UnknownEvent, UnknownEventType, WebhookEnvelope } from './webhooks/events';
export { MemoryDedupeStore, RedisDedupeStore, confirmHandled, dedupe, type ClaimOutcome, type DedupeStore } from './webhooks/dedupe';
export { approvePayment, deferApproval, rejectPayment, requestCounterpartyInfo } from './webhooks/approval';
export { passkeyAssertion, passkeyAttestation } from './wallet/passkey';
export type * from './types';
