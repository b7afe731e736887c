/**
 * `crossborder-sdk/webhooks`: a webhook receiver that carries no client. Signature verification and the
 * typed events, nothing of the request pipeline (no `Crossborder`, no transport, no retries, no checks of
 * requests): a worker that only receives webhooks needs the service's public key and nothing else.
 *
 * `unwrap` and `verify` run the same code as `cb.webhooks.unwrap` and `cb.webhooks.verify` of the main entry
 * (src/webhooks/unwrap.ts), and throw the same {@link WebhookVerificationError} class (`instanceof` holds
 * across the two entries). The one difference: the full client, with its `responseChecks` part, also checks
 * `event.data` against the event's schema (what differs goes to `event.issues`); this entry checks the
 * envelope (`id`, `type`, `timestamp`, `data`), as a `CrossborderCore` without that part does.
 *
 * @example
 * ```ts
 * import { unwrap, WebhookVerificationError } from 'crossborder-sdk/webhooks';
 *
 * export default {
 *   async fetch(request: Request, env: { CROSSBORDER_WEBHOOK_PUBLIC_KEY: string }) {
 *     try {
 *       const event = await unwrap(request, undefined, { publicKey: env.CROSSBORDER_WEBHOOK_PUBLIC_KEY });
 *       if (event.type === 'OUTGOING_PAYMENT.COMPLETED') console.log(event.data.id);
 *       return new Response(null, { status: 204 });
 *     } catch (error) {
 *       if (error instanceof WebhookVerificationError) return new Response(error.reason, { status: 400 });
 *       throw error;
 *     }
 *   },
 * };
 * ```
 * @module crossborder-sdk/webhooks
 */
import { WebhookVerificationError } from '../core/error-base';
import type { WebhookEvent } from '../types';
import type { UnknownEvent } from './events';
import { unwrapEvent, verifyOnly } from './unwrap';
import type { WebhookHeaders, WebhookPublicKey, WebhookRawBody } from './verify';

export { WebhookVerificationError };
export type { ValidationIssue } from '../core/errors';
export type { WebhookEvent } from '../types';
export type { UnknownEvent, UnknownEventType, WebhookEnvelope } from './events';
export type { WebhookHeaders, WebhookPublicKey, WebhookRawBody } from './verify';
// Handling each event once and answering the payment approval webhook need no client either (the same code as the
// main entry's, the same classes): a bundle that does not call them leaves them out.
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

/** Options of {@link unwrap}. */
export interface ReceiverUnwrapOptions {
  /** The service's webhook public key (PEM, hex, or a `CryptoKey`). Required: without it every delivery is refused (`missing_public_key`). */
  publicKey: WebhookPublicKey | undefined;
  /**
   * Refuse events whose `timestamp` is older than this many milliseconds (`stale_event`), or dated more
   * than 5 minutes in the future (`future_event`). Off by default; `dedupe()` applies its own age limit.
   */
  maxAge?: number | undefined;
  /** Clock, in epoch milliseconds, for `maxAge`. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** Options of {@link verify}. */
export interface ReceiverVerifyOptions {
  /** The service's webhook public key (PEM, hex, or a `CryptoKey`). */
  publicKey: WebhookPublicKey | undefined;
}

/**
 * Checks `X-Service-Signature` over the body exactly as received and returns the event, typed by its
 * `type`. Once the signature holds the event is always returned: what of its envelope differs from the
 * document is in `event.issues`, never thrown. A type this SDK does not know comes back as an
 * {@link UnknownEvent} (`'unknown' in event`); comparing `event.type` with a known type narrows `event.data`.
 * @param body the body as received: a string, bytes, or the Fetch `Request` itself (unread).
 * @param headers the request's headers (`undefined` when `body` is a `Request`).
 * @throws {@link WebhookVerificationError} saying which check failed (its `reason`), never quoting the body.
 * @throws RangeError when `maxAge` is negative or not a number.
 */
export function unwrap(body: WebhookRawBody, headers: WebhookHeaders | null | undefined, options: ReceiverUnwrapOptions): Promise<WebhookEvent | UnknownEvent> {
  try {
    const publicKey = keyOf(options, 'unwrap');
    const read = { publicKey, maxAge: options.maxAge, now: options.now, checks: undefined };
    return unwrapEvent(body, headers ?? undefined, read);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Checks the signature only: resolves when it holds.
 * @throws {@link WebhookVerificationError} otherwise.
 */
export function verify(body: WebhookRawBody, headers: WebhookHeaders | null | undefined, options: ReceiverVerifyOptions): Promise<void> {
  try {
    return verifyOnly(body, headers ?? undefined, keyOf(options, 'verify'));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The key given, or the `missing_key` refusal naming the option this entry takes (the client's names its own). */
function keyOf(options: { publicKey: WebhookPublicKey | undefined } | null | undefined, name: 'unwrap' | 'verify'): WebhookPublicKey {
  const publicKey = options?.publicKey;
  if (publicKey === undefined || publicKey === null || (typeof publicKey === 'string' && publicKey.trim() === '')) {
    throw new WebhookVerificationError(
      'missing_key',
      `no webhook public key: pass the service's public key (PEM or hex) as ${name}(body, headers, { publicKey })`,
    );
  }
  return publicKey;
}
