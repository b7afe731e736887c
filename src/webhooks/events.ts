/**
 * From a signed delivery to an event: verify, decode, check the envelope, then hand the JSON to a
 * parser (the typed schemas) or return the envelope as is.
 * @module
 */
import { WebhookVerificationError } from '../core/error-base';
import type { ValidationIssue } from '../core/errors';
import { checkMaxAge, MAX_FUTURE_SKEW_MS, parseIsoDateTime } from './time';
import { verifyThen, verifyWebhookSignature, type WebhookHeaders, type WebhookPublicKey, type WebhookRawBody } from './verify';

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
  /**
   * What in this verified delivery differs from the document (a missing field, an unknown value):
   * absent when it matches. A verified delivery is always delivered; check here instead of failing.
   */
  issues?: ValidationIssue[] | undefined;
}

declare const unknownEventTypeBrand: unique symbol;

/**
 * The `type` of an event this version of the SDK does not know: at run time the string the service
 * sent. It is typed apart from `string` so that comparing `event.type` with a known type (`===`,
 * `switch`) rules the unknown events out and narrows `event.data` with no other guard. Read it as a
 * string with `String(event.type)` or `` `${event.type}` ``; to handle a type newer than this SDK,
 * compare `String(event.type) === 'NEW.TYPE'` inside `if ('unknown' in event)`.
 */
export type UnknownEventType = String & { readonly [unknownEventTypeBrand]: true };

/**
 * An event whose `type` this version of the SDK does not know. Returned rather than thrown, so a
 * new event type on the service does not break a deployed handler. Tell it apart with
 * `if ('unknown' in event)`; comparing `event.type` with a known type already excludes it.
 */
export interface UnknownEvent {
  /** Event id, `Webhook:<id>`. */
  id: string;
  /** The unrecognized type, as sent (a string at run time; see {@link UnknownEventType}). */
  type: UnknownEventType;
  /** ISO 8601 date-time. */
  timestamp: string;
  /** The payload, unchecked. */
  data: unknown;
  /** Marks the event as not recognized: `if ('unknown' in event)`. */
  unknown: true;
  /** Envelope fields that differ from the document (absent when none). */
  issues?: ValidationIssue[] | undefined;
}

/** Marks a checked envelope as an {@link UnknownEvent} (its `type` is kept as sent). */
export function toUnknownEvent(envelope: {
  id: string;
  type: unknown;
  timestamp: string;
  data: unknown;
  issues?: ValidationIssue[] | undefined;
}): UnknownEvent {
  // The brand of UnknownEventType exists in types only: the value is the type as sent.
  return { ...envelope, type: envelope.type as UnknownEventType, unknown: true };
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
   * than 5 minutes in the future (`future_event`). Off by default (also when undefined); `dedupe()` applies its own age limit.
   */
  maxAge?: number | undefined;
  /** Clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

const utf8Decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What of the envelope differs from `{ id, type, timestamp, data }`: reported, not thrown (the
 * signature makes a delivery trustworthy, not its shape).
 */
export function envelopeIssues(json: {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly timestamp?: unknown;
  readonly data?: unknown;
}): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (typeof json.id !== 'string' || json.id === '') issues.push({ path: 'id', rule: 'invalid_type', message: 'expected a string (the event id)' });
  if (typeof json.type !== 'string' || json.type === '') issues.push({ path: 'type', rule: 'invalid_type', message: 'expected a non-empty string' });
  if (parseIsoDateTime(json.timestamp) === undefined) issues.push({ path: 'timestamp', rule: 'invalid_format', message: 'expected an ISO 8601 date-time' });
  if (!isPlainObject(json.data)) issues.push({ path: 'data', rule: 'invalid_type', message: 'expected object' });
  return issues;
}

/**
 * Checks that a parsed body is a JSON object: the one thing a delivery must be to be an event.
 * @throws {@link WebhookVerificationError} `invalid_event` otherwise.
 */
export function assertWebhookEnvelope(json: unknown): asserts json is WebhookEnvelope {
  if (!isPlainObject(json)) {
    throw new WebhookVerificationError(
      'invalid_event',
      `the webhook event is not a JSON object (got ${Array.isArray(json) ? 'an array' : json === null ? 'null' : typeof json})`,
    );
  }
}

/** Attaches issues to an event (nothing when there are none). */
export function withIssues<E extends object>(event: E, issues: readonly ValidationIssue[]): E {
  if (issues.length === 0) return event;
  const previous = (event as { issues?: ValidationIssue[] }).issues;
  return { ...event, issues: [...(Array.isArray(previous) ? previous : []), ...issues] };
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

/** Options of {@link readWebhook}: those of {@link unwrapWebhook} but the parser. */
export type ReadWebhookOptions = Omit<UnwrapWebhookOptions<unknown>, 'parse'>;

/**
 * The first half of {@link unwrapWebhook}: signature → strict UTF-8 → `JSON.parse` → a JSON object →
 * optional age check. Returns the delivery's JSON object, its envelope not checked yet.
 * @throws {@link WebhookVerificationError} as {@link unwrapWebhook}.
 * @internal
 */
export async function readWebhook(rawBody: WebhookRawBody, headers: WebhookHeaders | undefined, options: ReadWebhookOptions): Promise<WebhookEnvelope> {
  return verifyThen(rawBody, headers, checkedOptions(options).publicKey, readDelivery, options);
}

/**
 * `options` once its `maxAge` is checked (a RangeError, thrown before anything about the delivery).
 * @internal
 */
export function checkedOptions<O extends ReadWebhookOptions>(options: O): O {
  if (options.maxAge !== undefined) checkMaxAge(options.maxAge);
  return options;
}

/**
 * The second half of {@link readWebhook}, on the verified bytes, synchronously: strict UTF-8 →
 * `JSON.parse` → a JSON object → the age check.
 * @internal
 */
export function readDelivery(bytes: Uint8Array, rawBody: WebhookRawBody, options: ReadWebhookOptions): WebhookEnvelope {
  const text = decodeBody(bytes, rawBody);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new WebhookVerificationError('invalid_body', notJsonMessage(cause, text.length));
  }
  assertWebhookEnvelope(json);
  if (options.maxAge !== undefined) assertFresh(json, options.maxAge, (options.now ?? Date.now)());
  return json;
}

const isWellFormed = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;

/** The verified bytes as text: strict UTF-8 (a body given as a string is its own text, when decoding its bytes would give it back). */
function decodeBody(bytes: Uint8Array, rawBody: WebhookRawBody): string {
  // A lone surrogate is encoded as U+FFFD and a leading U+FEFF is dropped by decoding: those strings are decoded as before.
  if (typeof rawBody === 'string' && isWellFormed?.call(rawBody) && rawBody.charCodeAt(0) !== 0xfeff) return rawBody;
  try {
    return utf8Decoder.decode(bytes);
  } catch (cause) {
    throw new WebhookVerificationError('invalid_body', 'the webhook body is not valid UTF-8', { cause });
  }
}

/**
 * Why a body is not JSON, without quoting it: the engine's `SyntaxError` message quotes the text (V8:
 * `Unexpected token 'x', "<the body>" is not valid JSON`), and a webhook body carries customers' data.
 * Only the kind of fault and its position (when the engine gives one) are kept; the error has no `cause`.
 */
export function notJsonMessage(cause: unknown, length: number): string {
  const message = cause instanceof Error ? cause.message : '';
  const position = /\bposition (\d+)/.exec(message)?.[1];
  const kind =
    length === 0 || Number(position) === length || /end of (JSON )?(input|data)|\bEOF\b/i.test(message)
      ? 'it ends before the JSON value does'
      : /after JSON|non-whitespace/i.test(message)
        ? 'text follows the JSON value'
        : /control character/i.test(message)
          ? 'a control character inside a string'
          : 'an unexpected character';
  return `the webhook body is not JSON: ${kind}${position === undefined ? '' : ` at position ${position}`} (${length} characters)`;
}

/** The delivery with what of its envelope differs from `{ id, type, timestamp, data }` in `issues`. @internal */
export function withEnvelopeIssues(json: WebhookEnvelope): WebhookEnvelope {
  return withIssues(json, envelopeIssues(json));
}

/**
 * A verified delivery whose parser threw: handed over all the same, the reason in `issues`
 * (`parse_failed`, the message cut at 500 characters).
 * @internal
 */
export function withParseFailure<E extends object>(delivered: E, cause: unknown): E {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return withIssues(delivered, [{ path: '', rule: 'parse_failed', message: detail.length > 500 ? `${detail.slice(0, 500)}…` : detail }]);
}

/**
 * Verifies a webhook delivery and returns its event.
 *
 * Steps: signature ({@link verifyWebhookSignature}) → strict UTF-8 → `JSON.parse` → a JSON object
 * → optional age check → `options.parse`. Nothing of the body is parsed before the signature holds.
 * After it holds, the event is always returned: what differs from the document (a missing field, a
 * value this SDK does not know) is in `event.issues`, never thrown (a refused payment-approval
 * webhook would fail a customer's payment). The signature carries no timestamp, so use `dedupe()`
 * (or `maxAge`) against replays.
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
 *   (not UTF-8, not JSON), `invalid_event` (not a JSON object), `stale_event` / `future_event` (with `maxAge`).
 * @throws RangeError when `maxAge` is negative or NaN (a programming error, not a bad delivery).
 */
export async function unwrapWebhook<E = WebhookEnvelope>(
  rawBody: WebhookRawBody,
  headers: WebhookHeaders | undefined,
  options: UnwrapWebhookOptions<E>,
): Promise<E> {
  const { parse, ...read } = options ?? ({} as UnwrapWebhookOptions<E>);
  const envelope = withEnvelopeIssues(await readWebhook(rawBody, headers, read));
  if (!parse) return envelope as E;
  try {
    return await parse(envelope);
  } catch (cause) {
    // The delivery is authentic: a parser that cannot type it still hands it over, with the reason.
    return withParseFailure(envelope, cause) as E;
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
export function eventParser<P extends Record<string, (envelope: WebhookEnvelope) => unknown>>(parsers: P): (json: unknown) => Promise<ParsedEvent<P>> {
  return async (json: unknown): Promise<ParsedEvent<P>> => {
    assertWebhookEnvelope(json);
    // Own properties only: a type named "constructor" or "__proto__" must not reach Object.prototype.
    const parser = typeof json.type === 'string' && Object.prototype.hasOwnProperty.call(parsers, json.type) ? parsers[json.type] : undefined;
    if (!parser) {
      return toUnknownEvent(json);
    }
    return (await parser(json)) as Awaited<ReturnType<P[keyof P]>>;
  };
}

/** What a parser built by {@link eventParser} returns: one of the typed events, or {@link UnknownEvent}. */
export type ParsedEvent<P extends Record<string, (envelope: WebhookEnvelope) => unknown>> = Awaited<ReturnType<P[keyof P]>> | UnknownEvent;
