/**
 * Webhook delivery: signed events POSTed to the configured `webhookEndpoint`, at least once.
 *
 * - Notification events are retried with exponential backoff until a 2xx, at most `maxAttempts`
 *   times; every attempt of one event carries the same body and `id` (receivers dedupe by it).
 * - `INCOMING_PAYMENT.PENDING` is the approval request: its answer *is* the decision (200 approve,
 *   403 reject, 422 more data, 202 defer), so it is sent once and never retried.
 * - First attempts go out in the order the events happened (signing is queued); retries may interleave.
 * - Backoff timers are unref'd; `flush()` skips the remaining waits (for tests), `cancel()` stops all.
 * @module
 */
import { signWebhook, type WebhookKeyPair } from '../../webhooks/sign';
import { SIGNATURE_HEADER } from '../../webhooks/verify';
import type { Clock } from './clock';
import { iso } from './clock';
import type { IdFactory } from './random';

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

/** Reads at most `limit` bytes of `response`'s body, then cancels the rest (a receiver may answer without end). */
export async function readAnswer(response: Response, limit: number): Promise<{ text: string; cut: boolean }> {
  if (!response.body) return { text: '', cut: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > limit) {
      cut = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const bytes = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
    if (offset === bytes.length) break;
  }
  return { text: new TextDecoder().decode(bytes), cut };
}

/** The delivery log entry of one event. */
export interface Delivery {
  eventId: string;
  type: string;
  endpoint: string;
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

const MAX_BACKOFF_MS = 60_000;

/** Sends the sandbox's webhooks and keeps their log. */
export class WebhookDispatcher {
  readonly keyPair: WebhookKeyPair;
  readonly #deliveries: Delivery[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #waiters = new Set<() => void>();
  readonly #controllers = new Set<AbortController>();
  readonly #options: Required<Omit<WebhookDeliveryOptions, 'fetch' | 'keyPair' | 'onAttempt'>> & Pick<WebhookDeliveryOptions, 'fetch' | 'onAttempt'>;
  readonly #clock: Clock;
  readonly #ids: () => IdFactory;
  readonly #endpoint: () => string | undefined;
  #generation = 0;
  /** Signing is asynchronous; chaining it keeps deliveries in event order. */
  #signQueue: Promise<unknown> = Promise.resolve();

  readonly #onChange: ((delivery: Delivery) => void) | undefined;

  /** @param onChange called after every attempt, once the delivery's state is updated (the inspector's live refresh). */
  constructor(options: WebhookDeliveryOptions, keyPair: WebhookKeyPair, clock: Clock, ids: () => IdFactory, endpoint: () => string | undefined, onChange?: (delivery: Delivery) => void) {
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

  /** Queues a notification event; does nothing when no `webhookEndpoint` is configured. */
  emit(type: string, data: unknown): void {
    const delivery = this.#prepare(type, data);
    // Captured now: a reset() while the event is being signed must still cancel it.
    const generation = this.#generation;
    if (delivery) this.#track(delivery.then((d) => this.#deliverWithRetries(d, generation)));
  }

  /**
   * Sends an earlier delivery again, same event id, body and signature (as the service redelivers):
   * the attempts add to its log entry. False when there is no such event.
   */
  redeliver(eventId: string): boolean {
    const delivery = this.#deliveries.find((d) => d.eventId === eventId);
    if (!delivery) return false;
    delivery.state = 'pending';
    const generation = this.#generation;
    this.#track(this.#deliverWithRetries(delivery, generation));
    return true;
  }

  /**
   * Sends the approval request for an incoming payment and reports the platform's answer.
   * Returns false (and sends nothing) when no `webhookEndpoint` is configured.
   */
  requestApproval(data: unknown, onReply: (reply: ApprovalReply) => void): boolean {
    const delivery = this.#prepare('INCOMING_PAYMENT.PENDING', data);
    if (!delivery) return false;
    const generation = this.#generation;
    this.#track(
      delivery.then(async (d) => {
        if (generation !== this.#generation) return;
        const result = await this.#attempt(d);
        d.state = result.status !== undefined && result.status >= 200 && result.status < 300 ? 'delivered' : 'failed';
        if (generation === this.#generation) onReply(result.reply);
        this.#changed(d);
      }),
    );
    return true;
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
      for (const wake of this.#waiters) wake();
      await Promise.race([Promise.allSettled([...this.#inFlight]), new Promise((r) => setTimeout(r, 5))]);
    }
  }

  /** Stops every delivery (in flight, waiting) and forgets the log. */
  cancel(): void {
    this.#generation++;
    for (const c of this.#controllers) c.abort();
    for (const wake of this.#waiters) wake();
    this.#deliveries.length = 0;
  }

  #prepare(type: string, data: unknown): Promise<Delivery> | undefined {
    const endpoint = this.#endpoint();
    if (!endpoint) return undefined;
    const event = { id: this.#ids().next('Webhook').id, type, timestamp: iso(this.#clock.now()), data };
    const body = JSON.stringify(event);
    const delivery: Delivery = { eventId: event.id, type, endpoint, body, signature: '', attempts: [], state: 'pending' };
    this.#deliveries.push(delivery);
    const signed = this.#signQueue.then(() => signWebhook(body, this.keyPair.privateKeyPem));
    this.#signQueue = signed.catch(() => undefined);
    return signed.then((signature) => {
      delivery.signature = signature;
      return delivery;
    });
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch(() => undefined).finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  async #deliverWithRetries(delivery: Delivery, generation: number): Promise<void> {
    for (let attempt = 1; generation === this.#generation; attempt++) {
      const { status } = await this.#attempt(delivery);
      if (status !== undefined && status >= 200 && status < 300) {
        delivery.state = 'delivered';
        this.#changed(delivery);
        return;
      }
      if (attempt >= this.#options.maxAttempts) break;
      this.#changed(delivery);
      await this.#wait(Math.min(this.#options.initialBackoffMs * 2 ** (attempt - 1), MAX_BACKOFF_MS));
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
        this.#options.onAttempt?.({ type: delivery.type, eventId: delivery.eventId, url: delivery.endpoint, attempt: delivery.attempts.length, status: last?.status, error: last?.error, ms: last?.ms });
      } catch {
        // a log hook never changes a delivery
      }
    }
  }

  async #send(delivery: Delivery): Promise<{ status?: number; reply: ApprovalReply }> {
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timer = setTimeout(() => controller.abort(new Error('timeout')), this.#options.timeoutMs);
    (timer as { unref?: () => void }).unref?.();
    const record: DeliveryAttempt = { at: iso(this.#clock.now()) };
    delivery.attempts.push(record);
    const started = performance.now();
    try {
      const send = this.#options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
      // Lower case, as HTTP/2 and Fetch send it: a `fetch` given in the options reads the plain object.
      const response = await send(delivery.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER.toLowerCase()]: delivery.signature },
        body: delivery.body,
        signal: controller.signal,
      });
      record.status = response.status;
      const { text, cut } = await readAnswer(response, MAX_READ_RESPONSE).catch(() => ({ text: '', cut: false }));
      record.ms = Math.round(performance.now() - started);
      if (text !== '') record.response = text.slice(0, MAX_KEPT_RESPONSE);
      if (cut || text.length > MAX_KEPT_RESPONSE) record.responseTruncated = true;
      return { status: response.status, reply: approvalReply(response.status, cut ? '' : text) };
    } catch (error) {
      const timedOut = controller.signal.aborted && (controller.signal.reason as Error | undefined)?.message === 'timeout';
      record.ms = Math.round(performance.now() - started);
      record.error = timedOut ? `no answer within ${this.#options.timeoutMs} ms` : failure(error);
      return { reply: { kind: timedOut ? 'timeout' : 'error' } };
    } finally {
      clearTimeout(timer);
      this.#controllers.delete(controller);
    }
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      (timer as { unref?: () => void }).unref?.();
      this.#waiters.add(wake);
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
