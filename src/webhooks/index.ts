/**
 * Webhooks: verify deliveries (`X-Service-Signature`, ECDSA P-256), unwrap them into events,
 * dedupe redeliveries and replays, and answer the payment approval webhook.
 * Runs in Node ≥ 20, Deno, Bun, browsers and edge runtimes: signatures are checked with `node:crypto` where
 * the runtime has it (found at the first verification, never imported), with WebCrypto elsewhere.
 * @module
 */
export { WebhookVerificationError } from '../core/errors';
export {
  SIGNATURE_HEADER,
  getHeader,
  importWebhookPublicKey,
  readRawBody,
  verifyWebhookSignature,
  type WebhookHeaders,
  type WebhookPublicKey,
  type WebhookRawBody,
} from './verify';
export {
  MAX_FUTURE_SKEW_MS,
  eventParser,
  unwrapWebhook,
  type ParsedEvent,
  type UnknownEvent,
  type UnknownEventType,
  type UnwrapWebhookOptions,
  type WebhookEnvelope,
} from './events';
export {
  MemoryDedupeStore,
  RedisDedupeStore,
  confirmHandled,
  dedupe,
  type ClaimOutcome,
  type DedupeOptions,
  type DedupeResult,
  type DedupeStore,
  type MemoryDedupeStoreOptions,
  type RedisDedupeStoreOptions,
  type RedisLikeClient,
} from './dedupe';
export { approvePayment, deferApproval, rejectPayment, requestCounterpartyInfo, type ApprovePaymentOptions, type RejectPaymentOptions } from './approval';
export { generateWebhookKeyPair, signWebhook, type SignWebhookOptions, type WebhookKeyPair } from './sign';
