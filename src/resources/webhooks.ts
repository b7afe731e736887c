import { APIResource } from '../core/resource';
import type { UnknownEvent } from '../webhooks/events';
import type { WebhookHeaders, WebhookPublicKey, WebhookRawBody } from '../webhooks/verify';
import type { WebhookEvent } from '../types';

/** Options of {@link Webhooks.unwrap}. */
export interface UnwrapOptions {
  /** Overrides the client's `webhookPublicKey`. */
  publicKey?: WebhookPublicKey | undefined;
  /** Refuse events older than this many ms (`stale_event`). Off by default; see `dedupe()`. */
  maxAge?: number | undefined;
}

// Verification code is loaded on the first delivery: it stays out of the bundle path of API calls.
type WebhooksModule = typeof import('../webhooks/unwrap');
let webhooksModule: Promise<WebhooksModule> | undefined;
// Once loaded, taken without an await (one fewer turn of the microtask queue per delivery).
let webhooksLoaded: WebhooksModule | undefined;
const loadWebhooks = () => (webhooksModule ??= import('../webhooks/unwrap').then((m) => (webhooksLoaded = m)));

/** Webhook deliveries: signature check and typed events. */
export class Webhooks extends APIResource {
  /**
   * Checks `X-Service-Signature` (bare base64 or the versioned JSON form) over the raw body with the
   * service's public key and returns the event, typed by its `type`. Once the signature holds the
   * event is always returned: whatever in `data` differs from the document (a missing field, a new
   * value) is listed in `event.issues`, never thrown. An event type this SDK does not know yet comes
   * back as an {@link UnknownEvent}; comparing `event.type` with a known type rules it out, so
   * `if (event.type === 'OUTGOING_PAYMENT.COMPLETED')` narrows `event.data` with no other guard.
   * Pass the body exactly as received (string, bytes, or the Fetch `Request`), never re-serialized JSON.
   * @throws {@link WebhookVerificationError} saying which check failed.
   * @example
   * ```ts
   * // A Fetch handler (Next.js route, Hono, a worker): pass the Request, unread.
   * try {
   *   const event = await cb.webhooks.unwrap(request);
   *   if (event.type === 'OUTGOING_PAYMENT.COMPLETED') {
   *     console.log(event.data.id, event.data.status); // event.data: OutgoingTransaction
   *   } else if (event.type === 'INCOMING_PAYMENT.PENDING') {
   *     console.log(event.data.receivedAmount);
   *   } else if ('unknown' in event) {
   *     console.log('a type this SDK does not know yet:', String(event.type));
   *   }
   * } catch (error) {
   *   if (!(error instanceof WebhookVerificationError)) throw error;
   *   console.log(error.reason); // answer 400
   * }
   *
   * // Node's http, or express.raw(): the raw bytes and the headers.
   * const event = await cb.webhooks.unwrap(rawBody, headers);
   * ```
   */
  unwrap(rawBody: WebhookRawBody, headers?: WebhookHeaders | null, options?: UnwrapOptions | null): Promise<WebhookEvent | UnknownEvent> {
    // Once loaded, the delivery's one asynchronous step is unwrapEvent's own (not wrapped in another async function).
    const webhooks = webhooksLoaded;
    if (webhooks === undefined) return loadWebhooks().then(() => this.unwrap(rawBody, headers, options));
    try {
      // A span with the event's type and id, or why it was refused (when a tracer provider is there).
      const read = { publicKey: options?.publicKey ?? this._client.webhookPublicKey, maxAge: options?.maxAge, checks: this._client.responseChecks };
      return this._client.telemetry.webhook(() => webhooks.unwrapEvent(rawBody, headers ?? undefined, read));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Checks the signature only; resolves when it matches, throws {@link WebhookVerificationError} otherwise.
   * @example
   * ```ts
   * // Throws WebhookVerificationError unless the signature holds.
   * await cb.webhooks.verify(rawBody, headers);
   * ```
   */
  verify(rawBody: WebhookRawBody, headers?: WebhookHeaders | null, options?: Pick<UnwrapOptions, 'publicKey'> | null): Promise<void> {
    // Once loaded, verifyOnly's own promise is returned (not awaited inside another async function).
    const webhooks = webhooksLoaded;
    if (webhooks === undefined) return loadWebhooks().then(() => this.verify(rawBody, headers, options));
    try {
      return webhooks.verifyOnly(rawBody, headers ?? undefined, options?.publicKey ?? this._client.webhookPublicKey);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
