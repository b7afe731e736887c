/**
 * The attempt loop: sends one leg (again, when {@link retryDecision} says so) with a per-attempt
 * timeout, reads each answer's body under that timeout, parses it once, and returns the last answer
 * with its body and the number of attempts. Nothing is written back into the caller's objects.
 * @module
 */
import { parseBody, readAnswer, requestIdOf, type AnswerPlan, type Exchange, type Scrub } from './answers';
import type { AfterLeg, WithResponse } from './api-promise';

export type { AfterLeg } from './api-promise';
import { AttemptDispatcher, isDispatcherTimeout, probeDispatcher, provenDispatcher, type Dispatcher } from './dispatcher';
import { APIConnectionError, APITimeoutError, APIUserAbortError } from './errors';
import type { Log } from './logger';
import type { FormBytes } from './form';
import type { CallHooks } from './hooks';
import type { OperationPlan } from './plan';
import { isRetryableStatus, retryDecision, surelyNotSent, unknownOutcomeHint, type RetryInput, type Sleep } from './retry';
import type { CallTrace } from './telemetry';

/** What the transport needs from the client, made once per client. */
export interface TransportConfig {
  /** The user's fetch; undefined: `globalThis.fetch`, looked up per attempt (interceptors installed later still see calls). */
  fetch: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
  sleep: Sleep;
  log: Log;
  random: () => number;
  /** Removes the client's credentials from texts built from answers (logged bodies). */
  scrub: Scrub;
}

/** What one leg of a call sends (the signed repeat is a second leg: the same, plus two headers). */
export interface Outgoing {
  /** The URL, path and query filled in by the plan. */
  url: string;
  /** Every header of the request, lower-case names; sent as is on every attempt. */
  headers: Record<string, string>;
  /**
   * The body, serialized once: these exact bytes go on every attempt (and the signed repeat). A multipart body's
   * bytes carry their description (`described`), which the log and the hooks see instead of a file's content.
   */
  body: string | FormBytes | undefined;
  /** Sent on every attempt when set (in `headers`); named in errors. */
  idempotencyKey: string | undefined;
  /** Attempts after the first. */
  maxRetries: number;
  /** Per-attempt limit in ms. */
  timeout: number;
  /** The caller's signal: aborting it stops everything, never retried. */
  signal: AbortSignal | undefined;
  /** The plan's answer to "may this request be repeated after it may have arrived?" ({@link OperationPlan.safe}). */
  safe: boolean;
  /** A signed leg's challenge expiry (epoch ms): no attempt starts at or after it (the service would refuse it). */
  notAfter: number | undefined;
  /** The call's trace (OpenTelemetry), when one is recorded: told of the leg and of each retry. */
  trace: CallTrace | undefined;
  /** The call's request hooks, when the client has any: run around each attempt (undefined: nothing is built). */
  hooks?: CallHooks | undefined;
}

/** What the transport needs of the operation's plan: its label and method, and what it decides of an unknown outcome. */
export type TransportPlan = Pick<OperationPlan, 'label' | 'op' | 'outcomeUnknown'>;

const now = () => Date.now();

/**
 * Sends one leg and returns its final answer: the `Response`, its body text parsed once, and the
 * attempts made. Throws the failure of the last attempt (timeout, connection) or the caller's abort.
 */
export function send(config: TransportConfig, plan: TransportPlan, out: Outgoing): Promise<Exchange> {
  return attempts(config, plan, out, undefined) as Promise<Exchange>;
}

/**
 * {@link send}, then the final answer read ({@link readAnswer}: a non-2xx becomes the error of its status)
 * and handed to `after`, in the same asynchronous step: a call's leg is one async function, not one
 * awaiting another.
 */
export function sendAndRead(config: TransportConfig, plan: TransportPlan & AnswerPlan, out: Outgoing, after?: AfterLeg): Promise<WithResponse<unknown>> {
  return attempts(config, plan, out, plan, after) as Promise<WithResponse<unknown>>;
}

async function attempts(
  config: TransportConfig,
  plan: TransportPlan,
  out: Outgoing,
  read: AnswerPlan | undefined,
  after?: AfterLeg,
): Promise<Exchange | WithResponse<unknown>> {
  const { url, headers, body, signal, trace, hooks } = out;
  const { log } = config;
  const { label: operation } = plan;
  const { method } = plan.op;
  // The trace reads the attempt count of each leg when the call ends (http.request.resend_count); none without a trace.
  const tally = trace ? { attempts: 0 } : undefined;
  if (tally) trace!.leg(tally, headers);
  // What the retry decision reads, made only when an attempt fails or answers a status that may be retried.
  let decide: RetryInput | undefined;
  // The log's levels, read once per leg rather than three times per attempt.
  const info = log.enabled('info');
  const debug = log.enabled('debug');

  for (let retry = 0; ; retry++) {
    if (signal?.aborted) throw userAbort(plan, out, plan.outcomeUnknown(retry > 0), signal.reason);
    if (tally) tally.attempts = retry + 1;
    // With hooks: the attempt counted across the call's legs, `beforeRequest` run (it may add headers to this attempt).
    const sent = hooks ? await hooks.attempt(out) : headers;
    const fetch = config.fetch ?? globalThis.fetch;
    // Node's own fetch, once seen to use it: the dispatcher enforces the attempt's deadline; no timer of ours.
    const dispatcher: Dispatcher | undefined = config.fetch ? undefined : provenDispatcher(fetch, out.timeout);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    // What the caller's signal aborts (see `follow`), never the caller's signal itself: on the dispatcher
    // path the attempt's own dispatcher (fetch gets no signal), else the attempt's own signal.
    let controller: AbortController | undefined;
    let attempt: AttemptDispatcher | undefined;
    let init: RequestInit & { dispatcher?: Dispatcher };
    // Never follow a redirect: a 303 would turn a write into a GET elsewhere, a 307 re-post personal data.
    if (dispatcher) {
      if (signal) follow(signal, (attempt = new AttemptDispatcher(out.timeout)));
      init = { method, headers: sent, body, redirect: 'manual', dispatcher: attempt ?? dispatcher };
    } else {
      controller = new AbortController();
      if (signal) follow(signal, controller);
      timer = setTimeout(() => {
        timedOut = true;
        controller!.abort();
      }, out.timeout);
      init = { method, headers: sent, body, signal: controller.signal, redirect: 'manual' };
      const probe = config.fetch ? undefined : probeDispatcher(fetch, out.timeout);
      if (probe) init.dispatcher = probe;
    }
    const started = info ? performance.now() : 0;
    // The operation's path template, not the URL: path and query values may be personal data.
    if (debug) log.sending(operation, retry + 1, sent, body);

    let response: Response;
    let text: string;
    let arrived = false;
    try {
      const fetching = fetch(url, init);
      response = await (attempt ? attempt.settle(fetching) : fetching);
      arrived = true;
      // Read the answer under the same timeout: a stalled or cut body is a lost response.
      text = await response.text();
    } catch (error) {
      if (timer !== undefined) clearTimeout(timer);
      if (signal) unfollow(signal, (attempt ?? controller)!);
      if (signal?.aborted) throw userAbort(plan, out, plan.outcomeUnknown(true), signal.reason ?? error);
      const mayHaveArrived = arrived || !surelyNotSent(error);
      const outcomeUnknown = plan.outcomeUnknown(mayHaveArrived);
      const failure =
        timedOut || isDispatcherTimeout(error)
          ? new APITimeoutError(`${operation} timed out after ${out.timeout} ms`, {
              outcomeUnknown: plan.outcomeUnknown(true),
              idempotencyKey: out.idempotencyKey,
              operation,
              cause: error,
            })
          : new APIConnectionError(`${operation} failed: ${describe(error)}` + (outcomeUnknown ? unknownOutcomeHint(out.idempotencyKey) : ''), {
              outcomeUnknown,
              idempotencyKey: out.idempotencyKey,
              operation,
              cause: error,
            });
      (decide ??= retryInput(config, out)).retry = retry;
      const next = retryDecision({ failed: true, mayHaveArrived }, decide);
      if (next === undefined) throw failure;
      if (hooks) await hooks.retry(next.delay, failure, undefined);
      if (info) log.retrying(operation, failure.message, next.delay);
      trace?.retry(retry + 1, next.delay, undefined, undefined, failure);
      await pause(config, next.delay, plan, out);
      continue;
    }
    if (timer !== undefined) clearTimeout(timer);
    if (signal) unfollow(signal, (attempt ?? controller)!);
    const { status } = response;
    if (started) log.answered(plan, response, text, started, requestIdOf(response, config.scrub), retry + 1, config.scrub);

    const parsed = parseBody(status, text);
    // The answer goes to `afterResponse` before anything is decided of it: a throw there ends the call with this answer, never sent again.
    if (hooks) await hooks.answer(response, text, parsed.data);
    // A status that is never retried (a 2xx, the usual answer) ends the leg here: no Retry-After lookup, no
    // decision to make (retryDecision refuses it first thing).
    if (!isRetryableStatus(status)) return ended(config, out, read, after, { response, text, data: parsed.data, notJson: parsed.notJson, attempts: retry + 1 });
    const code = parsed.data !== null && typeof parsed.data === 'object' ? (parsed.data as { code?: unknown }).code : undefined;
    (decide ??= retryInput(config, out)).retry = retry;
    const next = retryDecision({ status, retryAfter: response.headers.get('retry-after'), code }, decide);
    if (next === undefined) return ended(config, out, read, after, { response, text, data: parsed.data, notJson: parsed.notJson, attempts: retry + 1 });
    if (hooks) await hooks.retry(next.delay, undefined, response);
    if (info) log.retrying(operation, `status ${status}`, next.delay);
    trace?.retry(retry + 1, next.delay, status, next.retryAfter);
    await pause(config, next.delay, plan, out);
  }
}

/** The leg's last answer: as it came ({@link send}), or read into the call's result and handed on ({@link sendAndRead}). */
function ended(
  config: TransportConfig,
  out: Outgoing,
  read: AnswerPlan | undefined,
  after: AfterLeg | undefined,
  exchange: Exchange,
): Exchange | WithResponse<unknown> | Promise<WithResponse<unknown>> {
  if (read === undefined) return exchange;
  const result = readAnswer(read, exchange, out.idempotencyKey, config.scrub);
  return after === undefined ? result : after(result);
}

/** What the caller's signal aborts: an attempt's own signal, or its own dispatcher. */
interface Abortable {
  abort(reason?: unknown): void;
}

/**
 * The attempts in flight under each caller's signal, and the one listener on it that aborts them all,
 * there while any is in flight. One listener per signal however many calls share it (a server's shutdown
 * signal, a batch's): fetch (undici) given the caller's signal itself would leave a listener per call on
 * it until the request is garbage-collected, each added past a walk of the others, and a listener per call
 * would pass the signal's warning threshold at 11 calls in flight.
 */
const relays = new WeakMap<AbortSignal, { attempts: Set<Abortable>; onAbort: () => void }>();

/** `attempt` is aborted (with the reason) when `signal` is; {@link unfollow} when the attempt ends. */
function follow(signal: AbortSignal, attempt: Abortable): void {
  let relay = relays.get(signal);
  if (relay === undefined) {
    const attempts = new Set<Abortable>();
    const onAbort = () => {
      for (const a of attempts) a.abort(signal.reason);
    };
    relay = { attempts, onAbort };
    relays.set(signal, relay);
    signal.addEventListener('abort', onAbort, { once: true });
  }
  relay.attempts.add(attempt);
  if (signal.aborted) attempt.abort(signal.reason); // aborted already: its listener has run
}

/** The attempt ended: it leaves the relay, and the last one out takes the listener off the caller's signal. */
function unfollow(signal: AbortSignal, attempt: Abortable): void {
  const relay = relays.get(signal);
  if (relay === undefined) return;
  relay.attempts.delete(attempt);
  if (relay.attempts.size === 0) {
    signal.removeEventListener('abort', relay.onAbort);
    relays.delete(signal);
  }
}

function retryInput(config: TransportConfig, out: Outgoing): RetryInput {
  return { retry: 0, maxRetries: out.maxRetries, safe: out.safe, notAfter: out.notAfter, now, random: config.random };
}

async function pause(config: TransportConfig, ms: number, plan: TransportPlan, out: Outgoing): Promise<void> {
  try {
    await config.sleep(ms, out.signal);
  } catch (error) {
    throw userAbort(plan, out, plan.outcomeUnknown(true), error);
  }
}

function userAbort(plan: TransportPlan, out: Outgoing, outcomeUnknown: boolean, cause: unknown): APIUserAbortError {
  return new APIUserAbortError(`${plan.label} was aborted by the caller`, {
    idempotencyKey: out.idempotencyKey,
    operation: plan.label,
    outcomeUnknown,
    cause,
  });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return cause instanceof Error ? `${error.message} (${typeof code === 'string' ? code + ': ' : ''}${cause.message})` : error.message;
}
