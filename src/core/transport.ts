/**
 * The attempt loop. openapi-fetch builds one `Request` per logical call and hands it to the
 * `fetch` made here, which sends it (again, when that is safe) with a per-attempt timeout,
 * buffers each answer under that timeout, and returns the last one. Middleware cannot re-send
 * (the body is spent), so retries live in this fetch.
 * @module
 */
import { requestIdOf, type Scrub } from './answers';
import { isDispatcherTimeout, probeDispatcher, provenDispatcher, type Dispatcher } from './dispatcher';
import { APIConnectionError, APITimeoutError, APIUserAbortError } from './errors';
import { Log, maskBodyText, redactHeaders } from './logger';
import {
  backoffDelay,
  isPermanentRefusal,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  surelyNotSent,
  unknownOutcomeHint,
  type Sleep,
} from './retry';
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

/** What the transport needs to know about one logical call. */
export interface CallContext {
  /** `POST /quotes`: for errors and logs. */
  operation: string;
  /** Sent on every attempt when set. */
  idempotencyKey: string | undefined;
  /** Attempts after the first. */
  maxRetries: number;
  /** Per-attempt limit in ms. */
  timeout: number;
  /** The caller's signal: aborting it stops everything, never retried. */
  signal: AbortSignal | undefined;
  /** Every header of the request, lower-case names; sent as is on every attempt. */
  headers: Record<string, string>;
  /** The body, serialized once: these exact bytes go on every attempt (and the signed repeat). */
  body: string | undefined;
  /**
   * True when repeating a request that may have arrived cannot act twice (a GET, or an
   * Idempotency-Key). Otherwise an attempt is repeated only on proof that it never left (connection
   * refused, DNS failure): a 429 or a 503 may come from a gateway after the service acted.
   */
  safe: boolean;
  /** A signed leg's challenge expiry (epoch ms): no attempt starts at or after it (the service would refuse it). */
  notAfter?: number | undefined;
  /** Number of attempts made, filled in by the transport. */
  attempts: number;
  /** The last response received, filled in by the transport. */
  response: Response | undefined;
  /** The call's trace (OpenTelemetry), when one is recorded: told of each retry. */
  trace?: CallTrace | undefined;
}

/**
 * What openapi-fetch builds for a call, kept as plain data (it accepts a custom `Request` class):
 * the URL it made from the path and query, the method, and the call's context (passed through its
 * options). Headers and body are not given to openapi-fetch at all: the client hands the transport
 * its own (see {@link CallContext}), so nothing is merged into a `Headers` or serialized twice.
 */
export class PreparedRequest {
  readonly url: string;
  readonly method: string;
  readonly ctx: CallContext | undefined;
  constructor(url: string, init: { method?: string; ctx?: CallContext }) {
    this.url = url;
    this.method = init.method ?? 'GET';
    this.ctx = init.ctx;
  }
}

/** openapi-fetch reads `Content-Length` to spot an empty body; the buffered text says so already. */
const NO_HEADERS = { get: (): null => null };

/**
 * The answer handed back to openapi-fetch: the real response's status and headers with the body
 * already read (under the attempt's timeout), so it is not wrapped in a second `Response`.
 */
export class BufferedResponse {
  constructor(
    /** The response as received (its body has been read). */
    readonly raw: Response,
    /** The body text. */
    readonly bodyText: string,
  ) {}
  get status(): number {
    return this.raw.status;
  }
  get ok(): boolean {
    return this.raw.ok;
  }
  get statusText(): string {
    return this.raw.statusText;
  }
  /** openapi-fetch's view: no length header, so it reads the (already buffered) text and parses what is there. */
  get headers(): typeof NO_HEADERS {
    return NO_HEADERS;
  }
  text(): Promise<string> {
    return Promise.resolve(this.bodyText);
  }
  json(): Promise<unknown> {
    try {
      return Promise.resolve(JSON.parse(this.bodyText));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

/** The `fetch` given to openapi-fetch once per client: each request carries its call's context. */
export function createTransport(config: TransportConfig) {
  return (request: PreparedRequest): Promise<BufferedResponse> => attemptLoop(config, request.ctx!, request.url, request.method);
}

async function attemptLoop(config: TransportConfig, ctx: CallContext, url: string, method: string): Promise<BufferedResponse> {
  const { headers, body } = ctx;
  const { log } = config;

  for (let retry = 0; ; retry++) {
    if (ctx.signal?.aborted) throw userAbort(ctx, retry > 0 && method !== 'GET', ctx.signal.reason);
    ctx.attempts = retry + 1;
    const fetch = config.fetch ?? globalThis.fetch;
    // Node's own fetch, once seen to use it: the dispatcher enforces the attempt's deadline; no signal of ours.
    const dispatcher: Dispatcher | undefined = config.fetch ? undefined : provenDispatcher(fetch, ctx.timeout);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    let onAbort: (() => void) | undefined;
    let init: RequestInit & { dispatcher?: Dispatcher };
    // Never follow a redirect: a 303 would turn a write into a GET elsewhere, a 307 re-post personal data.
    if (dispatcher) init = { method, headers, body, redirect: 'manual', dispatcher, signal: ctx.signal };
    else {
      const controller = new AbortController();
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, ctx.timeout);
      onAbort = () => controller.abort();
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      init = { method, headers, body, signal: controller.signal, redirect: 'manual' };
      const probe = config.fetch ? undefined : probeDispatcher(fetch, ctx.timeout);
      if (probe) init.dispatcher = probe;
    }
    const started = log.enabled('info') ? performance.now() : 0;
    // The operation's path template, not the URL: path and query values may be personal data.
    if (log.enabled('debug')) {
      log.debug(`→ ${ctx.operation}`, () => ({
        attempt: retry + 1,
        headers: redactHeaders(headers),
        body: maskBodyText(body),
      }));
    }

    let response: Response;
    let text: string;
    let sent = false;
    try {
      response = await (fetch as (input: string, init: RequestInit) => Promise<Response>)(url, init);
      sent = true;
      // Read the answer under the same timeout: a stalled or cut body is a lost response.
      text = await response.text();
    } catch (error) {
      if (timer !== undefined) clearTimeout(timer);
      if (onAbort) ctx.signal?.removeEventListener('abort', onAbort);
      if (ctx.signal?.aborted) throw userAbort(ctx, method !== 'GET', ctx.signal.reason ?? error);
      const mayHaveArrived = sent || !surelyNotSent(error);
      const failure =
        timedOut || isDispatcherTimeout(error)
          ? new APITimeoutError(`${ctx.operation} timed out after ${ctx.timeout} ms`, {
              outcomeUnknown: method !== 'GET',
              idempotencyKey: ctx.idempotencyKey,
              operation: ctx.operation,
              cause: error,
            })
          : new APIConnectionError(
              `${ctx.operation} failed: ${describe(error)}` +
                (mayHaveArrived && method !== 'GET' ? unknownOutcomeHint(ctx.idempotencyKey) : ''),
              {
                outcomeUnknown: mayHaveArrived && method !== 'GET',
                idempotencyKey: ctx.idempotencyKey,
                operation: ctx.operation,
                cause: error,
              },
            );
      const delay = backoffDelay(retry, config.random);
      if (retry < ctx.maxRetries && (ctx.safe || !mayHaveArrived) && inTime(ctx, delay)) {
        if (log.enabled('info')) log.info(`${ctx.operation}: ${failure.message}; retrying in ${delay} ms`);
        ctx.trace?.retry(retry + 1, delay, undefined, undefined, failure);
        await pause(config, delay, ctx, method);
        continue;
      }
      throw failure;
    }
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort) ctx.signal?.removeEventListener('abort', onAbort);
    if (started) {
      const ms = Math.round(performance.now() - started);
      const requestId = requestIdOf(response, config.scrub);
      log.info(`${ctx.operation} ${response.status} ${ms}ms`, () => ({
        method,
        path: ctx.operation.slice(method.length + 1),
        status: response.status,
        ms,
        requestId,
        attempt: retry + 1,
      }));
      log.debug(`← ${response.status} ${ctx.operation}`, () => ({
        headers: config.scrub(redactHeaders(response.headers)),
        body: maskBodyText(config.scrub(text)),
      }));
    }

    const { status } = response;
    ctx.response = response;
    if (retry < ctx.maxRetries && isRetryableStatus(status)) {
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      const repeatable = ctx.safe;
      const tooLong = retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS;
      const delay = retryAfter ?? backoffDelay(retry, config.random);
      if (repeatable && !tooLong && !isPermanentRefusal(status, codeOf(text)) && inTime(ctx, delay)) {
        if (log.enabled('info')) log.info(`${ctx.operation}: status ${status}; retrying in ${delay} ms`);
        ctx.trace?.retry(retry + 1, delay, status, retryAfter);
        await pause(config, delay, ctx, method);
        continue;
      }
    }
    return new BufferedResponse(response, text);
  }
}

/** True when an attempt after `delay` ms would still start before the context's deadline (if any). */
function inTime(ctx: CallContext, delay: number): boolean {
  return ctx.notAfter === undefined || Date.now() + delay < ctx.notAfter;
}

async function pause(config: TransportConfig, ms: number, ctx: CallContext, method: string): Promise<void> {
  try {
    await config.sleep(ms, ctx.signal);
  } catch (error) {
    throw userAbort(ctx, method !== 'GET', error);
  }
}

function userAbort(ctx: CallContext, maybeSent: boolean, cause: unknown): APIUserAbortError {
  return new APIUserAbortError(`${ctx.operation} was aborted by the caller`, {
    idempotencyKey: ctx.idempotencyKey,
    operation: ctx.operation,
    outcomeUnknown: maybeSent,
    cause,
  });
}

function codeOf(text: string): unknown {
  try {
    return (JSON.parse(text) as { code?: unknown })?.code;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return cause instanceof Error ? `${error.message} (${typeof code === 'string' ? code + ': ' : ''}${cause.message})` : error.message;
}
