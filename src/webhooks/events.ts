/**
 * From a signed delivery to an event: verify, decode, check the envelope, then hand the JSON to a
 * parser (the typed schemas) or return the envelope as is.
 * @module
 */
import { WebhookVerificationError } from '../core/errors';
import { checkMaxAge, MAX_FUTURE_SKEW_MS, parseIsoDateTime } from './time';
import { verifyWebhookSignature, type WebhookHeaders, type WebhookPublicKey, type WebhookRawBody } from './verify';

export { checkMaxAge, MAX_FUTURE_SKEW_MS, parseIsoDateTime };

/**
 * The shape every delivery has: `{ id: "Webhook:<id>", type, timestamp, data }`.
 * The type parameters let typed events be written as e.g.
 * `WebhookEnvelope<'INCOMING_PAYMENT.PENDING', IncomingTransaction>`.
 */
export interface WebhookEnvelope<Type extends string = string, Data = Record<string, unknown>> {
  /** Event id, `Webhook:<id>`; the same on every redelivery of one event: dedupe by it. */
  id: string;
  /** Event type, e.g. `INCOMING_PAYMENT.COMPLETED`. */
  type: Type;
  /** When the service created the event (ISO 8601 date-time). */
  timestamp: string;
  /** The resource the event is about (a transaction, an invitation, …). */
  data: Data;
}

/**
 * An event whose `type` this version of the SDK does not know. Returned rather than thrown, so a
 * new event type on the service does not break a deployed handler.
 */
export interface UnknownEvent {
  /** Event id, `Webhook:<id>`. */
  id: string;
  /** The unrecognized type. */
  type: string;
  /** ISO 8601 date-time. */
  timestamp: string;
  /** The payload, unchecked. */
  data: unknown;
  /** Marks the event as not recognized; narrow with `if ('unknown' in event)`. */
  unknown: true;
}

/** Options of {@link unwrapWebhook}. */
export interface UnwrapWebhookOptions<E> {
  /** The service's webhook public key (PEM, hex, or `CryptoKey`). */
  publicKey: WebhookPublicKey | undefined;
  /**
   * Turns the checked envelope into the typed event (e.g. zod schemas keyed by `type`, see
   * {@link eventParser}). A throw becomes `invalid_event` with the cause attached. Default: the envelope.
   */
  parse?: (json: unknown) => E | Promise<E>;
  /**
   * Refuse events whose `timestamp` is older than this many milliseconds (`stale_event`), or dated more
   * than 5 minutes in the future (`future_event`). Off by default; `dedupe()` applies its own age limit.
   */
  maxAge?: number;
  /** Clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

const utf8Decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks that a parsed body has the envelope shape.
 * @throws {@link WebhookVerificationError} `invalid_event` naming the first wrong field.
 */
export function assertWebhookEnvelope(json: unknown): asserts json is WebhookEnvelope {
  const fail = (message: string): never => {
    throw new WebhookVerificationError('invalid_event', `the webhook event ${message}`);
  };
  if (!isPlainObject(json)) return fail(`is not a JSON object (got ${Array.isArray(json) ? 'an array' : json === null ? 'null' : typeof json})`);
  if (typeof json.id !== 'string' || !json.id.startsWith('Webhook:') || json.id.length === 'Webhook:'.length) {
    fail('field "id" must be a string "Webhook:<id>"');
  }
  if (typeof json.type !== 'string' || json.type === '') fail('field "type" must be a non-empty string');
  if (parseIsoDateTime(json.timestamp) === undefined) fail('field "timestamp" must be an ISO 8601 date-time string');
  if (!isPlainObject(json.data)) fail('field "data" must be an object');
}

/**
 * Checks an event's `timestamp` against the clock.
 * @throws {@link WebhookVerificationError} `stale_event` when older than `maxAge` ms, `future_event` when more than
 *   5 minutes in the future.
 */
export function assertFresh(event: { id: string; timestamp: string }, maxAge: number, now: number): void {
  const at = parseIsoDateTime(event.timestamp);
  if (at === undefined) {
    throw new WebhookVerificationError('invalid_event', 'the webhook event field "timestamp" must be an ISO 8601 date-time string');
  }
  if (now - at > maxAge) {
    throw new WebhookVerificationError(
      'stale_event',
      `webhook event ${event.id} is ${Math.round((now - at) / 1000)} s old, more than the ${Math.round(maxAge / 1000)} s allowed ` +
        '(a replay, or a redelivery after a long outage: reconcile through the API)',
    );
  }
  if (at - now > MAX_FUTURE_SKEW_MS) {
    throw new WebhookVerificationError(
      'future_event',
      `webhook event ${event.id} is dated ${Math.round((at - now) / 1000)} s in the future: check this server's clock`,
    );
  }
}

/**
 * Verifies a webhook delivery and returns its event.
 *
 * Steps: signature ({@link verifyWebhookSignature}) → strict UTF-8 → `JSON.parse` → envelope shape
 * → optional age check → `options.parse`. Nothing of the body is parsed before the signature holds.
 * The signature carries no timestamp, so use `dedupe()` (or `maxAge`) against replays.
 *
 * @example
 * ```ts
 * const event = await unwrapWebhook(rawBody, req.headers, { publicKey: process.env.CROSSBORDER_WEBHOOK_PUBLIC_KEY });
 * ```
 * @param rawBody the body exactly as received.
 * @param headers the request headers (may be `undefined` when `rawBody` is a `Request`).
 * @returns the event from `options.parse`, or the checked envelope when no parser is given
 *   (unknown types included: they never throw).
 * @throws {@link WebhookVerificationError}: any `verifyWebhookSignature` reason, `invalid_body`
 *   (not UTF-8, not JSON), `invalid_event` (envelope or `parse` failed; the cause is attached),
 *   `stale_event` (with `maxAge`).
 * @throws RangeError when `maxAge` is negative or NaN (a programming error, not a bad delivery).
 */
export async function unwrapWebhook<E = WebhookEnvelope>(
  rawBody: WebhookRawBody,
  headers: WebhookHeaders | undefined,
  options: UnwrapWebhookOptions<E>,
): Promise<E> {
  const { publicKey, parse, maxAge, now = Date.now } = options ?? ({} as UnwrapWebhookOptions<E>);
  if (maxAge !== undefined) checkMaxAge(maxAge);
  const bytes = await verifyWebhookSignature(rawBody, headers, publicKey);
  let text: string;
  try {
    text = utf8Decoder.decode(bytes);
  } catch (cause) {
    throw new WebhookVerificationError('invalid_body', 'the webhook body is not valid UTF-8', { cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new WebhookVerificationError(
      'invalid_body',
      `the webhook body is not JSON: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
  assertWebhookEnvelope(json);
  if (maxAge !== undefined) assertFresh(json, maxAge, now());
  if (!parse) return json as E;
  try {
    return await parse(json);
  } catch (cause) {
    if (cause instanceof WebhookVerificationError) throw cause;
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new WebhookVerificationError(
      'invalid_event',
      `webhook event ${json.id} (${json.type}) does not match its schema: ${detail.length > 500 ? `${detail.slice(0, 500)}…` : detail}`,
      { cause },
    );
  }
}

/**
 * Builds a `parse` for {@link unwrapWebhook} from one parser per event type. Types without a
 * parser come back as {@link UnknownEvent} instead of failing.
 * @example
 * ```ts
 * const parse = eventParser({ 'INCOMING_PAYMENT.PENDING': (e) => zIncomingPaymentPending.parse(e) });
 * const event = await unwrapWebhook(raw, headers, { publicKey, parse });
 * ```
 */
export function eventParser<P extends Record<string, (envelope: WebhookEnvelope) => unknown>>(
  parsers: P,
): (json: unknown) => Promise<ParsedEvent<P>> {
  return async (json: unknown): Promise<ParsedEvent<P>> => {
    assertWebhookEnvelope(json);
    // Own properties only: a type named "constructor" or "__proto__" must not reach Object.prototype.
    const parser = Object.prototype.hasOwnProperty.call(parsers, json.type) ? parsers[json.type] : undefined;
    if (!parser) {
      const unknownEvent: UnknownEvent = { ...json, unknown: true };
      return unknownEvent;
    }
    return (await parser(json)) as Awaited<ReturnType<P[keyof P]>>;
  };
}

/** What a parser built by {@link eventParser} returns: one of the typed events, or {@link UnknownEvent}. */
export type ParsedEvent<P extends Record<string, (envelope: WebhookEnvelope) => unknown>> =
  | Awaited<ReturnType<P[keyof P]>>
  | UnknownEvent;
