/**
 * Webhook delivery: signed events POSTed to the configured `webhookEndpoint`, at least once, and to
 * each attached listener (`crossborder-sdk listen`, a scenario run) beside it, as `stripe listen`
 * does: a listener never takes the endpoint's place, and the endpoint is never rewritten for one.
 *
 * - One event is one id, one body and one signature; each target gets its own delivery of it (its
 *   own attempts in the log), so a dead listener never holds back the endpoint.
 * - Notification events are retried with exponential backoff until a 2xx, at most `maxAttempts`
 *   times; every attempt of one event carries the same body and `id` (receivers dedupe by it).
 * - `INCOMING_PAYMENT.PENDING` is the approval request: its answer *is* the decision (200 approve,
 *   403 reject, 422 more data, 202 defer), so it is sent once and never retried. Every target gets
 *   it, and one answer decides: the configured endpoint's when there is one (as in production), else
 *   that of the oldest attached listener that answers approvals; the others' answers are logged and
 *   decide nothing. With no such target the payment waits for `/approve` or `/reject`.
 * - A redirect (3xx) is never followed: it is a failed attempt, logged with its status and
 *   `Location`, as the signed body must not be re-posted to wherever a receiver points.
 * - First attempts go out in the order the events happened (signing is queued); retries may interleave.
 * - Backoff timers are unref'd; `flush()` skips the remaining waits (for tests), `cancel()` stops all.
 * @module
 */
import { signWebhook, type WebhookKeyPair } from '../../webhooks/sign';
import { SIGNATURE_HEADER } from '../../webhooks/verify';
import type { Clock } from './clock';
import { iso } from './clock';
import type { IdFactory } from './random';
import { readBounded } from '../../core/read-bounded';

/** How the sandbox delivers webhooks. */
export interface WebhookDeliveryOptions {
  /** The fetch used to POST events. Default: `globalThis.fetch`, looked up per delivery (so msw sees it). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Attempts per event before giving up. Default 8. */
  maxAttempts?: number;
  /** Wait before the second attempt, doubled after each failure (capped at 60 s). Default 1000 ms. */
  initialBackoffMs?: number;
  /** Per-attempt timeout. Default 5000 ms, the approval window of decisions.md. */
  timeoutMs?: number;
  /** Sign with this key pair instead of a fresh one (e.g. to keep the public key across restarts). */
  keyPair?: WebhookKeyPair;
  /** Called after each delivery attempt (the CLI's delivery log). */
  onAttempt?: (attempt: DeliveryLogEntry) => void;
}

/** One delivery attempt, as the sandbox logs it. */
export interface DeliveryLogEntry {
  type: string;
  eventId: string;
  url: string;
  /** 1 for the first attempt. */
  attempt: number;
  status?: number | undefined;
  error?: string | undefined;
  /** How long the attempt took, in ms (real time). */
  ms?: number | undefined;
}

/** One attempt to deliver an event. */
export interface DeliveryAttempt {
  /** Sandbox-clock time the attempt started (ISO 8601). */
  at: string;
  /** How long the receiver took to answer (or to fail), in ms of real time. */
  ms?: number;
  /** HTTP status answered, when there was an answer. */
  status?: number;
  /** The body the receiver answered, as text, cut to its first 4,096 characters (`responseTruncated` says when). */
  response?: string;
  /** True when `response` was cut. */
  responseTruncated?: boolean;
  /** Why there was no answer (network error, timeout). */
  error?: string;
}

/** Characters of a receiver's answer kept in the delivery log. */
export const MAX_KEPT_RESPONSE = 4096;
/** Bytes of a receiver's answer read at most (an approval reply is parsed from them); the rest is discarded. */
const MAX_READ_RESPONSE = 64 * 1024;

/** The delivery log entry of one event to one target. */
export interface Delivery {
  eventId: string;
  type: string;
  /** Where it goes: the configured `webhookEndpoint`, or the URL of the listener {@link listener}. */
  endpoint: string;
  /** The id of the attached listener it goes to; absent for the configured endpoint. */
  listener?: string;
  /** The exact body sent (what the signature covers). */
  body: string;
  signature: string;
  attempts: DeliveryAttempt[];
  /** `pending` while attempts remain; `delivered` after a 2xx; `failed` when attempts ran out (or no retry applies). */
  state: 'pending' | 'delivered' | 'failed';
}

/** What the platform answered to an approval request. */
export type ApprovalReply =
  | { kind: 'approve'; receiverCustomerInfo?: Record<string, string> }
  | { kind: 'reject' }
  | { kind: 'more-info' }
  | { kind: 'defer' }
  | { kind: 'timeout' }
  | { kind: 'error' };

/** A delivery target attached beside the configured endpoint for as long as it is connected. */
export interface WebhookListener {
  /** `Listener:<n>`. */
  id: string;
  /** Where its deliveries are POSTed. */
  url: string;
  /**
   * `answer`: its answer to an approval request decides the payment when no `webhookEndpoint` is
   * configured and no listener attached before it answers approvals (`crossborder-sdk listen`).
   * `observe`: it receives every event and decides nothing (a scenario run watching deliveries).
   */
  approvals: 'answer' | 'observe';
  /** Sandbox-clock time it attached (ISO 8601). */
  attachedAt: string;
}

const MAX_BACKOFF_MS = 60_000;

/** The `data` of the sandbox's TEST event (the control plane's trigger and `POST /sandbox/webhooks/test` send the same). */
export function testEventData(): { message: string } {
  return { message: 'Sent from the sandbox.' };
}

/** Most listeners attached at once. */
export const MAX_WEBHOOK_LISTENERS = 16;

/** Sends the sandbox's webhooks and keeps their log. */
export class WebhookDispatcher {
  readonly keyPair: WebhookKeyPair;
  readonly #deliveries: Delivery[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  /** Backoff waits, with the listener their delivery goes to (detaching one ends its waits). */
  readonly #waiters = new Map<() => void, string | undefined>();
  /** Each attempt's abort, with the listener it goes to (detaching one aborts its attempts). */
  readonly #controllers = new Map<AbortController, string | undefined>();
  readonly #listeners = new Map<string, WebhookListener>();
  #listenerSequence = 0;
  readonly #options: Required<Omit<WebhookDeliveryOptions, 'fetch' | 'keyPair' | 'onAttempt'>> & Pick<WebhookDeliveryOptions, 'fetch' | 'onAttempt'>;
  readonly #clock: Clock;
  readonly #ids: () => IdFactory;
  readonly #endpoint: () => string | undefined;
  #generation = 0;
  /** Signing is asynchronous; chaining it keeps deliveries in event order. */
  #signQueue: Promise<unknown> = Promise.resolve();

  readonly #onChange: ((delivery: Delivery) => void) | undefined;

  /** @param onChange called after every attempt, once the delivery's state is updated (the inspector's live refresh). */
  constructor(
    options: WebhookDeliveryOptions,
    keyPair: WebhookKeyPair,
    clock: Clock,
    ids: () => IdFactory,
    endpoint: () => string | undefined,
    onChange?: (delivery: Delivery) => void,
  ) {
    this.#onChange = onChange;
    this.keyPair = keyPair;
    this.#options = {
      fetch: options.fetch,
      onAttempt: options.onAttempt,
      maxAttempts: Math.max(1, options.maxAttempts ?? 8),
      initialBackoffMs: Math.max(0, options.initialBackoffMs ?? 1000),
      timeoutMs: Math.max(1, options.timeoutMs ?? 5000),
    };
    this.#clock = clock;
    this.#ids = ids;
    this.#endpoint = endpoint;
  }

  /** The delivery log, oldest first. */
  get deliveries(): readonly Delivery[] {
    return this.#deliveries;
  }

  /** The listeners attached now, oldest first. */
  get listeners(): readonly WebhookListener[] {
    return [...this.#listeners.values()];
  }

  /**
   * Attaches a delivery target beside the configured endpoint: from now on it gets every event,
   * until {@link detach}. Throws a RangeError past {@link MAX_WEBHOOK_LISTENERS}.
   */
  attach(url: string, approvals: WebhookListener['approvals'] = 'answer'): WebhookListener {
    if (this.#listeners.size >= MAX_WEBHOOK_LISTENERS) throw new RangeError(`${MAX_WEBHOOK_LISTENERS} listeners are attached already`);
    const listener: WebhookListener = { id: `Listener:${++this.#listenerSequence}`, url, approvals, attachedAt: iso(this.#clock.now()) };
    this.#listeners.set(listener.id, listener);
    return listener;
  }

  /**
   * Detaches a listener: it gets nothing more, its attempts in flight are aborted and its retries
   * dropped (their deliveries end `failed`). False when it is not attached.
   */
  detach(id: string): boolean {
    if (!this.#listeners.delete(id)) return false;
    for (const [controller, listener] of this.#controllers) if (listener === id) controller.abort(new Error('detached'));
    for (const [wake, listener] of this.#waiters) if (listener === id) wake();
    return true;
  }

  /**
   * Queues a notification event to the configured endpoint and every attached listener; answers its
   * id, or undefined (nothing sent) when there is no target at all.
   */
  emit(type: string, data: unknown): string | undefined {
    const prepared = this.#prepare(type, data);
    if (!prepared) return undefined;
    // Captured now: a reset() while the event is being signed must still cancel it.
    const generation = this.#generation;
    for (const delivery of prepared.deliveries) this.#track(delivery.then((d) => this.#deliverWithRetries(d, generation)));
    return prepared.eventId;
  }

  /**
   * Sends a `TEST` event with `data` and waits for the configured endpoint's answer to one attempt
   * (production's `POST /sandbox/webhooks/test` answers it): no retry there, a failed attempt is the
   * result. Attached listeners get the event as any other. Undefined when no `webhookEndpoint` is
   * configured (nothing is sent).
   */
  async test(data: unknown): Promise<(DeliveryAttempt & { url: string }) | undefined> {
    if (!this.#endpoint()) return undefined;
    const prepared = this.#prepare('TEST', data);
    if (!prepared) return undefined;
    const generation = this.#generation;
    const [first, ...others] = prepared.deliveries;
    for (const delivery of others) this.#track(delivery.then((d) => this.#deliverWithRetries(d, generation)));
    const delivery = await first!;
    const done = this.#attempt(delivery).then(({ status }) => {
      delivery.state = status !== undefined && status >= 200 && status < 300 ? 'delivered' : 'failed';
      this.#changed(delivery);
    });
    this.#track(done);
    await done;
    return { url: delivery.endpoint, ...delivery.attempts[delivery.attempts.length - 1]! };
  }

  /**
   * Sends an earlier event again, same event id, body and signature (as the service redelivers), to
   * each of its targets still there: the attempts add to their log entries. False when there is no
   * such event (or none of its targets is left).
   */
  redeliver(eventId: string): boolean {
    const deliveries = this.#deliveries.filter((d) => d.eventId === eventId && this.#attached(d));
    const generation = this.#generation;
    for (const delivery of deliveries) {
      delivery.state = 'pending';
      this.#track(this.#deliverWithRetries(delivery, generation));
    }
    return deliveries.length > 0;
  }

  /**
   * Sends the approval request for an incoming payment to every target and reports the answer that
   * decides (see the module's notes). Returns false when no target decides (the payment then waits
   * for `/approve` or `/reject`); the others are sent the request all the same.
   */
  requestApproval(data: unknown, onReply: (reply: ApprovalReply) => void): boolean {
    const prepared = this.#prepare('INCOMING_PAYMENT.PENDING', data);
    if (!prepared) return false;
    const deciding = prepared.decider;
    const generation = this.#generation;
    for (const [i, delivery] of prepared.deliveries.entries()) {
      this.#track(
        delivery.then(async (d) => {
          if (generation !== this.#generation) return;
          const result = await this.#attempt(d);
          d.state = result.status !== undefined && result.status >= 200 && result.status < 300 ? 'delivered' : 'failed';
          if (i === deciding && generation === this.#generation) onReply(result.reply);
          this.#changed(d);
        }),
      );
    }
    return deciding !== undefined;
  }

  /**
   * Resolves once every queued delivery has finished, skipping backoff waits. Bounded: each event has
   * at most `maxAttempts` attempts of at most `timeoutMs` each.
   */
  async flush(): Promise<void> {
    const { maxAttempts, timeoutMs } = this.#options;
    const deadline = Date.now() + maxAttempts * (timeoutMs + 100) + 1000;
    // Replies can queue new deliveries (approve → COMPLETED event) and failed attempts start new
    // waits, so wake and re-check in short rounds until nothing is in flight.
    while (this.#inFlight.size > 0 && Date.now() < deadline) {
      for (const wake of this.#waiters.keys()) wake();
      await Promise.race([Promise.allSettled([...this.#inFlight]), new Promise((r) => setTimeout(r, 5))]);
    }
  }

  /** Stops every delivery (in flight, waiting) and forgets the log. Listeners stay attached. */
  cancel(): void {
    this.#generation++;
    for (const c of this.#controllers.keys()) c.abort();
    for (const wake of this.#waiters.keys()) wake();
    this.#deliveries.length = 0;
  }

  /** True while a delivery's target is there: the endpoint always, a listener until it detaches. */
  #attached(delivery: Delivery): boolean {
    return delivery.listener === undefined || this.#listeners.has(delivery.listener);
  }

  /**
   * One event, signed once, and its delivery to each target; `decider` is the index of the target
   * whose answer to an approval request decides. Undefined when there is no target.
   */
  #prepare(type: string, data: unknown): { eventId: string; deliveries: Promise<Delivery>[]; decider: number | undefined } | undefined {
    const endpoint = this.#endpoint();
    const listeners = [...this.#listeners.values()];
    if (!endpoint && listeners.length === 0) return undefined;
    const event = { id: this.#ids().next('Webhook').id, type, timestamp: iso(this.#clock.now()), data };
    const body = JSON.stringify(event);
    const targets: { url: string; listener?: string }[] = [...(endpoint ? [{ url: endpoint }] : []), ...listeners.map((l) => ({ url: l.url, listener: l.id }))];
    const decider = endpoint ? 0 : listeners.findIndex((l) => l.approvals === 'answer');
    const deliveries = targets.map((target) => {
      const delivery: Delivery = {
        eventId: event.id,
        type,
        endpoint: target.url,
        ...(target.listener ? { listener: target.listener } : {}),
        body,
        signature: '',
        attempts: [],
        state: 'pending',
      };
      this.#deliveries.push(delivery);
      return delivery;
    });
    const signed = this.#signQueue.then(() => signWebhook(body, this.keyPair.privateKeyPem));
    this.#signQueue = signed.catch(() => undefined);
    return {
      eventId: event.id,
      decider: decider < 0 ? undefined : decider,
      deliveries: deliveries.map((delivery) =>
        signed.then((signature) => {
          delivery.signature = signature;
          return delivery;
        }),
      ),
    };
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch(() => undefined).finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  async #deliverWithRetries(delivery: Delivery, generation: number): Promise<void> {
    for (let attempt = 1; generation === this.#generation && this.#attached(delivery); attempt++) {
      const { status } = await this.#attempt(delivery);
      if (status !== undefined && status >= 200 && status < 300) {
        delivery.state = 'delivered';
        this.#changed(delivery);
        return;
      }
      if (attempt >= this.#options.maxAttempts) break;
      this.#changed(delivery);
      await this.#wait(Math.min(this.#options.initialBackoffMs * 2 ** (attempt - 1), MAX_BACKOFF_MS), delivery.listener);
    }
    delivery.state = 'failed';
    this.#changed(delivery);
  }

  #changed(delivery: Delivery): void {
    try {
      this.#onChange?.(delivery);
    } catch {
      // a listener never changes a delivery
    }
  }

  async #attempt(delivery: Delivery): Promise<{ status?: number; reply: ApprovalReply }> {
    try {
      return await this.#send(delivery);
    } finally {
      const last = delivery.attempts[delivery.attempts.length - 1];
      try {
        this.#options.onAttempt?.({
          type: delivery.type,
          eventId: delivery.eventId,
          url: delivery.endpoint,
          attempt: delivery.attempts.length,
          status: last?.status,
          error: last?.error,
          ms: last?.ms,
        });
      } catch {
        // a log hook never changes a delivery
      }
    }
  }

  async #send(delivery: Delivery): Promise<{ status?: number; reply: ApprovalReply }> {
    const controller = new AbortController();
    this.#controllers.set(controller, delivery.listener);
    const timer = setTimeout(() => controller.abort(new Error('timeout')), this.#options.timeoutMs);
    (timer as { unref?: () => void }).unref?.();
    const record: DeliveryAttempt = { at: iso(this.#clock.now()) };
    delivery.attempts.push(record);
    const started = performance.now();
    try {
      if (!this.#attached(delivery)) throw new Error('detached');
      const send = this.#options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
      // Lower case, as HTTP/2 and Fetch send it: a `fetch` given in the options reads the plain object.
      const response = await send(delivery.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER.toLowerCase()]: delivery.signature },
        body: delivery.body,
        signal: controller.signal,
        // The signed body goes to the target and nowhere else: a 3xx is a failed attempt.
        redirect: 'manual',
      });
      record.status = response.status;
      const { bytes, cut } = await readBounded(response.body, MAX_READ_RESPONSE).catch(() => ({ bytes: new Uint8Array(0), cut: false }));
      const text = new TextDecoder().decode(bytes);
      record.ms = Math.round(performance.now() - started);
      if (text !== '') record.response = text.slice(0, MAX_KEPT_RESPONSE);
      if (cut || text.length > MAX_KEPT_RESPONSE) record.responseTruncated = true;
      if (response.status >= 300 && response.status < 400) {
        const location = response.headers.get('location');
        record.error = `a redirect (${response.status}${location ? ` to ${location.slice(0, 200)}` : ''}) is not followed: the delivery failed`;
        return { status: response.status, reply: { kind: 'error' } };
      }
      return { status: response.status, reply: approvalReply(response.status, cut ? '' : text) };
    } catch (error) {
      const reason = (controller.signal.reason as Error | undefined)?.message;
      const timedOut = controller.signal.aborted && reason === 'timeout';
      const detached = (controller.signal.aborted && reason === 'detached') || (error instanceof Error && error.message === 'detached');
      record.ms = Math.round(performance.now() - started);
      record.error = timedOut ? `no answer within ${this.#options.timeoutMs} ms` : detached ? 'the listener detached' : failure(error);
      return { reply: { kind: timedOut ? 'timeout' : 'error' } };
    } finally {
      clearTimeout(timer);
      this.#controllers.delete(controller);
    }
  }

  #wait(ms: number, listener: string | undefined): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      (timer as { unref?: () => void }).unref?.();
      this.#waiters.set(wake, listener);
    });
  }
}

/** Reads the platform's answer to `INCOMING_PAYMENT.PENDING` (decisions.md, "Payment approval"). */
function approvalReply(status: number, text: string): ApprovalReply {
  if (status === 200) {
    let info: unknown;
    try {
      info = text ? (JSON.parse(text) as { receiverCustomerInfo?: unknown }).receiverCustomerInfo : undefined;
    } catch {
      info = undefined;
    }
    const valid = typeof info === 'object' && info !== null && Object.values(info).every((v) => typeof v === 'string');
    return valid ? { kind: 'approve', receiverCustomerInfo: info as Record<string, string> } : { kind: 'approve' };
  }
  if (status === 403) return { kind: 'reject' };
  if (status === 422) return { kind: 'more-info' };
  if (status === 202) return { kind: 'defer' };
  return { kind: 'error' };
}

/** Why a delivery got no answer: fetch's own message says only `fetch failed`; its cause names the reason (ECONNREFUSED, ENOTFOUND…). */
function failure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const detail = typeof cause?.message === 'string' && cause.message !== '' ? cause.message : undefined;
  if (!code && !detail) return error.message;
  return `${error.message} (${detail && code && detail.includes(code) ? detail : [code, detail].filter(Boolean).join(': ')})`;
}
