/**
 * crossborder-sdk: a typed client for the Cross-Border Payments and Embedded Wallet Service.
 *
 * ```ts
 * import { Crossborder } from 'crossborder-sdk';
 * const cb = new Crossborder({ tokenId, clientSecret });
 * ```
 * @module
 */
export { Crossborder } from './client';
export { API_VERSION, DEFAULT_BASE_URLS, type Operation, type CallInput } from './core/client';
export { APIPromise, type WithResponse } from './core/api-promise';
export { Page, PagePromise, type ListEnvelope } from './core/pagination';
export type { ClientOptions, Environment, ListOptions, RequestOptions, SignedRequestOptions, Signer } from './core/options';
export type { Logger, LogLevel } from './core/logger';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  CrossborderError,
  InternalServerError,
  NotFoundError,
  PaginationError,
  PermissionDeniedError,
  QuoteExpiredError,
  RateLimitError,
  ResponseValidationError,
  SignatureChallengeError,
  SignatureRequiredError,
  UnprocessableEntityError,
  ValidationError,
  WebhookVerificationError,
  type SignatureChallenge,
  type ValidationIssue,
} from './core/errors';
export { formatAmount, toMinorUnits, type HasDecimals } from './helpers/money';
export { isExpired } from './resources/quotes';
export { TERMINAL_STATUSES, type WaitForOptions } from './resources/transactions';
export type { VerifyOptions } from './resources/auth';
export type { UnwrapOptions } from './resources/webhooks';
export type { UnknownEvent, WebhookEnvelope } from './webhooks/events';
export { MemoryDedupeStore, dedupe, type DedupeStore } from './webhooks/dedupe';
export { approvePayment, deferApproval, rejectPayment, requestCounterpartyInfo } from './webhooks/approval';
export { passkeyAssertion, passkeyAttestation } from './wallet/passkey';
export type * from './types';
