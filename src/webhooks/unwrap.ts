/**
 * What `Webhooks.unwrap` and `Webhooks.verify` run of src/webhooks/ (src/resources/webhooks.ts), loaded
 * on the first delivery. A module loaded by `import()` keeps all its exports in a bundle: this one
 * exports only what those two call, so that events.ts and verify.ts are not held whole (their other
 * exports serve `crossborder-sdk/webhooks`).
 *
 * A delivery runs top to bottom in one asynchronous step ({@link unwrapEvent}): the key (cached), the
 * header, the signature (`node:crypto`, synchronous, where the runtime has it), then, in the same
 * synchronous stretch, decoding, `JSON.parse` and the envelope and age checks; the event's schema check
 * is the core's `responseChecks` part (loaded on first use), without which the envelope alone is checked.
 * @module
 */
import type { ResponseChecks } from '../core/parts';
import { WEBHOOK_EVENT_TYPES } from '../generated/operations';
import type { WebhookEvent } from '../types';
import {
  checkedOptions,
  readDelivery,
  toUnknownEvent,
  withEnvelopeIssues,
  withIssues,
  withParseFailure,
  type ReadWebhookOptions,
  type UnknownEvent,
  type WebhookEnvelope,
} from './events';
import { verifyThen, type WebhookHeaders, type WebhookPublicKey, type WebhookRawBody } from './verify';

const KNOWN_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);
const nothing = () => undefined;

/**
 * Verifies a delivery and types it by its `type`, checking it once: a known type against its schema,
 * which covers the envelope and `data`; any other type against the envelope alone. What differs from
 * the document goes to `event.issues`, never thrown.
 */
export function unwrapEvent(rawBody: WebhookRawBody, headers: WebhookHeaders | undefined, options: UnwrapEventOptions): Promise<WebhookEvent | UnknownEvent> {
  try {
    checkedOptions(options);
  } catch (error) {
    return Promise.reject(error);
  }
  return verifyThen(rawBody, headers, options.publicKey, typedDelivery, options);
}

/** What {@link unwrapEvent} reads with: the key, the age limit and the core's `responseChecks` part (absent without it), in one object made per delivery. */
export interface UnwrapEventOptions extends ReadWebhookOptions {
  checks: ResponseChecks | undefined;
}

/** The signature check alone, with no copy of the body (nothing of it is kept). */
export function verifyOnly(rawBody: WebhookRawBody, headers: WebhookHeaders | undefined, publicKey: WebhookPublicKey | undefined): Promise<void> {
  return verifyThen(rawBody, headers, publicKey, nothing);
}

function typedDelivery(bytes: Uint8Array, rawBody: WebhookRawBody, options: UnwrapEventOptions): WebhookEvent | UnknownEvent | Promise<WebhookEvent> {
  const json = readDelivery(bytes, rawBody, options);
  const checks = options.checks;
  if (!KNOWN_TYPES.has(json.type)) return toUnknownEvent(withEnvelopeIssues(json));
  // `issues` is the SDK's to fill: whatever the body carries under that name is dropped (the parsed
  // body is the SDK's own object: without one, it is the event as is).
  const event = Object.prototype.hasOwnProperty.call(json, 'issues') ? withoutIssues(json) : json;
  // Without the core's responseChecks part, the envelope alone is checked (CrossborderCore's choice).
  if (!checks) return withEnvelopeIssues(event) as WebhookEvent;
  try {
    const issues = checks.event(event);
    // A loaded check that finds nothing answers at once: the event is delivered in this same step, no promise.
    if (Array.isArray(issues)) return issues.length === 0 ? (event as WebhookEvent) : (withIssues(event, issues) as WebhookEvent);
    return issues.then(
      (found) => (found.length === 0 ? (event as WebhookEvent) : (withIssues(event, found) as WebhookEvent)),
      (cause: unknown) => parseFailure(json, cause),
    );
  } catch (cause) {
    return parseFailure(json, cause);
  }
}

// The delivery is authentic: a check that cannot run still hands it over, with the reason.
function parseFailure(json: WebhookEnvelope, cause: unknown): WebhookEvent {
  return withParseFailure(withEnvelopeIssues(json), cause) as WebhookEvent;
}

function withoutIssues({ issues: _sent, ...event }: WebhookEnvelope): Omit<WebhookEnvelope, 'issues'> {
  return event;
}
