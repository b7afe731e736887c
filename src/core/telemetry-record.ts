/**
 * The recording half of the built-in OpenTelemetry support (see ./telemetry): loaded on the first call
 * made while a provider is there, so that a client without one never loads it.
 * @module
 */
// Types only: a value imported from ./telemetry would move it into a chunk of its own, loaded at import.
import { operationEffects } from '../generated/effects';
import type { MeterProviderLike, OtelGlobal, TelemetryOptions, TelemetrySettings, TracerProviderLike, WorkSpan } from './telemetry';

/** An attribute value as OpenTelemetry takes it. */
type AttributeValue = string | number | boolean;
type Attributes = Record<string, AttributeValue | undefined>;

/** The part of an OpenTelemetry `Context` the SDK uses. */
interface ContextLike {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): ContextLike;
  deleteValue(key: symbol): ContextLike;
}

/** The part of an OpenTelemetry `SpanContext` the SDK uses. */
interface SpanContextLike {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: { serialize(): string } | undefined;
}

/** The part of an OpenTelemetry `Span` the SDK uses. */
interface SpanLike {
  spanContext(): SpanContextLike;
  setAttribute(key: string, value: AttributeValue): unknown;
  setAttributes(attributes: Attributes): unknown;
  addEvent(name: string, attributes?: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  isRecording(): boolean;
  end(): void;
}

/** The part of an OpenTelemetry `Tracer` the SDK uses. */
interface TracerLike {
  startSpan(name: string, options?: { kind?: number; attributes?: Attributes; links?: { context: SpanContextLike }[] }, context?: ContextLike): SpanLike;
}

interface HistogramLike {
  record(value: number, attributes?: Attributes): void;
}
interface CounterLike {
  add(value: number, attributes?: Attributes): void;
}
interface MeterLike {
  createHistogram(name: string, options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } }): HistogramLike;
  createCounter(name: string, options?: { description?: string; unit?: string }): CounterLike;
}

/** The key under which `@opentelemetry/api` keeps the active span in a context. */
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;
const NAME = 'crossborder-sdk';
/** Bucket boundaries (s) the HTTP semantic conventions advise for `http.client.request.duration`. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** A context for when no context manager is registered (the root: no active span). */
class RootContext implements ContextLike {
  constructor(private readonly values: ReadonlyMap<symbol, unknown> = new Map()) {}
  getValue(key: symbol): unknown {
    return this.values.get(key);
  }
  setValue(key: symbol, value: unknown): ContextLike {
    return new RootContext(new Map(this.values).set(key, value));
  }
  deleteValue(key: symbol): ContextLike {
    const values = new Map(this.values);
    values.delete(key);
    return new RootContext(values);
  }
}
const ROOT = new RootContext();

const otelGlobal = () =>
  (globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')] as
    | (OtelGlobal & {
        context?: { active(): ContextLike; with<A extends unknown[], R>(context: ContextLike, fn: (...args: A) => R, thisArg?: unknown, ...args: A): R };
      })
    | undefined;

/** What records: the providers' tracer and instruments, made once per provider seen. */
export class Recorder {
  readonly #off: boolean;
  readonly #tracerProvider: TracerProviderLike | undefined;
  readonly #meterProvider: MeterProviderLike | undefined;
  readonly #version: string;
  /** The last provider seen and its tracer (a provider registered after the client was made is picked up). */
  #tracerFrom: TracerProviderLike | undefined;
  #tracer: TracerLike | undefined;
  #meterFrom: MeterProviderLike | undefined;
  #instruments: Instruments | undefined;
  /** What every call of an operation records alike, by operation id (made on its first call). */
  readonly #ops = new Map<string, Op>();
  /** @internal */
  readonly propagate: boolean;
  /** @internal How the Idempotency-Key is recorded; undefined: not at all (the default). */
  readonly keys: KeyRecord | undefined;
  /** `server.address` and `server.port` of the base address. */
  readonly #server: Attributes;

  constructor(options: TelemetrySettings) {
    const { baseUrl = 'http://localhost', version = '' } = options;
    this.#off = options.telemetry === false;
    this.#tracerProvider = options.tracerProvider;
    this.#meterProvider = options.meterProvider;
    this.#version = version;
    const telemetry = typeof options.telemetry === 'object' && options.telemetry !== null ? options.telemetry : {};
    this.propagate = telemetry.propagateContext === true;
    this.keys = telemetry.recordIdempotencyKey === 'raw' || telemetry.idempotencyKeyHmacKey !== undefined ? new KeyRecord(telemetry) : undefined;
    const url = new URL(baseUrl);
    this.#server = { 'server.address': url.hostname, 'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
  }

  /** The tracer to use now, if any. */
  tracer(): TracerLike | undefined {
    if (this.#off) return undefined;
    const provider = this.#tracerProvider ?? otelGlobal()?.trace;
    if (provider === undefined) return undefined;
    if (provider !== this.#tracerFrom) {
      this.#tracer = provider.getTracer(NAME, this.#version) as TracerLike;
      this.#tracerFrom = provider;
    }
    return this.#tracer;
  }

  #meters(): Instruments | undefined {
    const provider = this.#meterProvider ?? otelGlobal()?.metrics;
    if (provider === undefined) return undefined;
    if (provider !== this.#meterFrom) {
      const meter = provider.getMeter(NAME, this.#version) as MeterLike;
      this.#instruments = {
        duration: meter.createHistogram('http.client.request.duration', {
          description: 'Duration of each logical call (its retries and signed leg included)',
          unit: 's',
          advice: { explicitBucketBoundaries: DURATION_BUCKETS },
        }),
        unknown: meter.createCounter('crossborder.client.unknown_outcomes', {
          description: 'Writes whose outcome is unknown (the service may have acted): reconcile them',
          unit: '{call}',
        }),
      };
      this.#meterFrom = provider;
    }
    return this.#instruments;
  }

  /**
   * Runs one logical call (`run`) inside its trace, or without one when there is nothing to record to
   * (no provider, or `telemetry: false`). `link`: the iteration a page request belongs to.
   */
  call<R extends Outcome>(
    method: string,
    template: string,
    operationId: string,
    link: PageLink | undefined,
    run: (trace: CallTrace | undefined) => Promise<R>,
  ): Promise<R> {
    const tracer = this.tracer();
    const instruments = this.#off ? undefined : this.#meters();
    if (tracer === undefined && instruments === undefined) return run(undefined);
    const trace = new CallTrace(this, tracer, instruments, this.#op(method, template, operationId), link);
    return trace.end(trace.run(run));
  }

  /** The operation's shared attributes (one object per operation, not per call: the SDK copies what it keeps). */
  #op(method: string, template: string, operationId: string): Op {
    let op = this.#ops.get(operationId);
    if (op === undefined || op.method !== method || op.template !== template) {
      op = new Op(method, template, operationId, this.#server);
      // Generated operations are a fixed set; ad-hoc ones (request()) are not kept beyond a bound.
      if (this.#ops.size < 256) this.#ops.set(operationId, op);
    }
    return op;
  }

  /** Starts an INTERNAL span of a unit of work (see `WorkSpan`), under `parent` or the active span; undefined without a tracer. */
  work(name: string, attributes: Readonly<Attributes>, parent?: WorkSpan): WorkSpan | undefined {
    const tracer = this.tracer();
    if (tracer === undefined) return undefined;
    const manager = otelGlobal()?.context;
    const under = parent instanceof Work ? parent.context : (manager?.active() ?? ROOT);
    const span = tracer.startSpan(name, { kind: SPAN_KIND_INTERNAL, attributes: clean(attributes) }, under);
    return new Work(span, under.setValue(SPAN_KEY, span));
  }

  /** Runs `verify` (a webhook's unwrap) in a span carrying its event type and id, outcome and reason. */
  async webhook<T extends { id?: unknown; type?: unknown }>(verify: () => Promise<T>): Promise<T> {
    const tracer = this.tracer();
    if (tracer === undefined) return verify();
    const parent = otelGlobal()?.context?.active() ?? ROOT;
    const span = tracer.startSpan('crossborder.webhooks.unwrap', { kind: SPAN_KIND_INTERNAL }, parent);
    try {
      const event = await verify();
      span.setAttributes({
        'crossborder.webhook.verified': true,
        'crossborder.webhook.event_type': typeof event.type === 'string' ? event.type : undefined,
        'crossborder.webhook.event_id': typeof event.id === 'string' ? event.id : undefined,
      });
      return event;
    } catch (error) {
      const reason = (error as { reason?: unknown })?.reason;
      span.setAttributes({
        'crossborder.webhook.verified': false,
        'crossborder.webhook.failure_reason': typeof reason === 'string' ? reason : undefined,
        'error.type': errorName(error),
      });
      span.setStatus({ code: STATUS_ERROR, message: typeof reason === 'string' ? reason : undefined });
      throw error;
    } finally {
      span.end();
    }
  }
}

/** A span of a unit of work (see `WorkSpan` in ./telemetry). */
class Work implements WorkSpan {
  #ended = false;
  constructor(
    readonly span: SpanLike,
    /** @internal The context with this span active (the parent of spans started under it). */
    readonly context: ContextLike,
  ) {}

  set(attributes: Readonly<Attributes>): void {
    if (!this.#ended) this.span.setAttributes(clean(attributes));
  }

  run<R>(fn: () => R): R {
    const manager = otelGlobal()?.context;
    return manager ? manager.with(this.context, fn) : fn();
  }

  end(error?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    if (error !== undefined) {
      this.span.setAttribute('error.type', error);
      this.span.setStatus({ code: STATUS_ERROR, message: error });
    }
    this.span.end();
  }
}

interface Instruments {
  duration: HistogramLike;
  unknown: CounterLike;
}

/**
 * What every call of one operation records alike: its span's name, its span's first attributes and
 * its metrics' attributes per outcome, made once and frozen (a tracer or meter copies what it keeps;
 * the frozen objects are never changed).
 */
class Op {
  readonly name: string;
  /** The options of the call's span (no page: a page's span adds its number). */
  readonly start: { readonly kind: number; readonly attributes: Readonly<Attributes> };
  readonly #metric: Attributes;
  /** The metrics' attributes by final status and error type (a few per operation; bounded). */
  readonly #outcomes = new Map<number | string, Readonly<Attributes>>();

  constructor(
    readonly method: string,
    readonly template: string,
    operationId: string,
    server: Attributes,
  ) {
    this.name = `${method} ${template}`;
    this.#metric = { 'http.request.method': method, 'url.template': template, ...server };
    // The operation's declared effect (`x-effect`), from the generated table; absent for an ad-hoc request().
    const effect = (operationEffects as { readonly [id: string]: { readonly effect: string } | undefined })[operationId]?.effect;
    this.start = Object.freeze({
      kind: SPAN_KIND_CLIENT,
      attributes: Object.freeze({
        ...this.#metric,
        'crossborder.operation.id': operationId,
        ...(effect === undefined ? {} : { 'crossborder.operation.effect': effect }),
      }),
    });
  }

  /** The metrics' attributes of a call that ended with `status` (absent when no answer came) and `errorType`. */
  metric(status: number | undefined, errorType: string | undefined): Readonly<Attributes> {
    const key = errorType === undefined ? (status ?? -1) : `${status ?? ''} ${errorType}`;
    let attributes = this.#outcomes.get(key);
    if (attributes === undefined) {
      attributes = Object.freeze(clean({ ...this.#metric, 'http.response.status_code': status, 'error.type': errorType }));
      if (this.#outcomes.size < 64) this.#outcomes.set(key, attributes);
    }
    return attributes;
  }
}

/** One iteration of a list: its pages' spans link to the first page's span and count from 1. */
export interface PageLink {
  /** The first page's span context, once its span has started. */
  first?: SpanContextLike | undefined;
  /** Pages requested so far in this iteration. */
  pages: number;
}

/** What the pipeline knows of a call when it ends (a result or an error). */
export interface Outcome {
  response?: { status: number } | undefined;
  status?: number | undefined;
  requestId?: string | undefined;
  idempotencyKey?: string | undefined;
  code?: unknown;
  outcomeUnknown?: boolean | undefined;
  challenge?: { requestId?: unknown } | undefined;
}

/**
 * The trace of one logical call: its span (when a tracer is there), its attempts, and its metrics.
 * The pipeline tells it what happens; it decides what is recorded.
 */
export class CallTrace {
  readonly #telemetry: Recorder;
  readonly #op: Op;
  readonly #span: SpanLike | undefined;
  readonly #instruments: Instruments | undefined;
  readonly #started: number;
  readonly #context: ContextLike | undefined;
  /** Each leg's attempt count (the transport's context), summed into `http.request.resend_count`. */
  readonly #legs: { attempts: number }[] = [];
  /** The HMAC of the Idempotency-Key sent, when the options ask for one (computed while the request is out). */
  #keyHmac: Promise<string | undefined> | undefined;

  constructor(telemetry: Recorder, tracer: TracerLike | undefined, instruments: Instruments | undefined, op: Op, link?: PageLink) {
    this.#telemetry = telemetry;
    this.#op = op;
    this.#instruments = instruments;
    this.#started = instruments === undefined ? 0 : performance.now();
    if (tracer === undefined) return;
    const context = otelGlobal()?.context;
    const parent = context ? context.active() : ROOT;
    let options: { kind: number; attributes?: Attributes; links?: { context: SpanContextLike }[] } = op.start;
    if (link) {
      link.pages++;
      options = { kind: SPAN_KIND_CLIENT, attributes: { ...op.start.attributes, 'crossborder.page.number': link.pages } };
      if (link.first) options.links = [{ context: link.first }];
    }
    const span = tracer.startSpan(op.name, options, parent);
    if (link && link.first === undefined) link.first = span.spanContext();
    if (!span.isRecording() && !telemetry.propagate) return; // sampled out: nothing to add
    this.#span = span;
    this.#context = context ? parent.setValue(SPAN_KEY, span) : undefined;
  }

  /** Runs the call with its span active, so spans made inside (a user's fetch, an HTTP instrumentation) are its children. */
  run<R>(fn: (trace: CallTrace) => R): R {
    const manager = this.#context && otelGlobal()?.context;
    return manager ? manager.with(this.#context, fn, undefined, this) : fn(this);
  }

  /** A leg starts (the first request, or the signed repeat); adds `traceparent` when propagation is on. */
  leg(ctx: { attempts: number }, headers: Record<string, string>): void {
    this.#legs.push(ctx);
    const key = headers['idempotency-key'];
    if (key !== undefined && this.#keyHmac === undefined && this.#span) this.#keyHmac = this.#telemetry.keys?.hmac(key);
    if (!this.#telemetry.propagate || !this.#span) return;
    const { traceId, spanId, traceFlags, traceState } = this.#span.spanContext();
    if (!/^[0-9a-f]{32}$/.test(traceId) || /^0+$/.test(traceId) || !/^[0-9a-f]{16}$/.test(spanId) || /^0+$/.test(spanId)) return;
    headers.traceparent = `00-${traceId}-${spanId}-0${traceFlags & 1}`;
    const state = traceState?.serialize();
    if (state) headers.tracestate = state;
  }

  /**
   * An attempt failed and the next one starts after `delayMs`: why (`retry_after`, `status_503`,
   * `connection_reset`, `timeout`, …), and the cause's class as `error.type` (`503`, `ECONNRESET`,
   * `timeout`). Only the attributes there are: an absent one is left out, not exported empty.
   */
  retry(attempt: number, delayMs: number, status: number | undefined, retryAfterMs: number | undefined, error?: unknown): void {
    if (!this.#span) return;
    const attributes: Attributes = {
      'crossborder.attempt': attempt,
      'crossborder.retry.delay_ms': delayMs,
      'crossborder.retry.cause': retryCause(status, retryAfterMs, error),
      'error.type': retryErrorType(status, error),
    };
    if (status !== undefined) attributes['http.response.status_code'] = status;
    if (retryAfterMs !== undefined) attributes['crossborder.retry.retry_after_ms'] = retryAfterMs;
    this.#span.addEvent('crossborder.retry', attributes);
  }

  /** The service answered 202 with a wallet challenge (its requestId and type; the payload is not recorded). */
  challenge(challenge: { requestId: string; type?: unknown }): void {
    this.#span?.addEvent('crossborder.signature.challenge', {
      'crossborder.signature.request_id': challenge.requestId,
      'crossborder.signature.type': typeof challenge.type === 'string' ? challenge.type : undefined,
    });
  }

  /** The signed leg goes out (the signature itself is never recorded). */
  signed(requestId: string): void {
    if (!this.#span) return;
    this.#span.addEvent('crossborder.signature.signed_retry', { 'crossborder.signature.request_id': requestId });
    this.#span.setAttribute('crossborder.signature.request_id', requestId);
  }

  /**
   * Ends the call's span and records its metrics when `call` settles; resolves and rejects as `call` does
   * (after the Idempotency-Key's HMAC, when one is asked for: ready by then, computed during the request).
   */
  end<R extends Outcome>(call: Promise<R>): Promise<R> {
    return call.then(
      (result) => {
        const hmac = this.#keyHmac;
        if (hmac === undefined) {
          this.#finish(result, undefined, undefined);
          return result;
        }
        return hmac.then((mac) => {
          this.#finish(result, undefined, mac);
          return result;
        });
      },
      (error: unknown) => {
        const hmac = this.#keyHmac;
        if (hmac === undefined) {
          this.#finish(error ?? {}, error, undefined);
          throw error;
        }
        return hmac.then((mac) => {
          this.#finish(error ?? {}, error, mac);
          throw error;
        });
      },
    );
  }

  #finish(outcome: Outcome, error: unknown, keyHmac: string | undefined): void {
    const challenged = error !== undefined && errorName(error) === 'SignatureRequiredError';
    const status = outcome.response?.status ?? (typeof outcome.status === 'number' ? outcome.status : challenged ? 202 : undefined);
    const errorType = error === undefined || challenged ? undefined : status !== undefined && status >= 400 ? String(status) : errorName(error);
    const unknown = outcome.outcomeUnknown === true;
    const instruments = this.#instruments;
    if (instruments) {
      const metric = this.#op.metric(status, errorType);
      instruments.duration.record((performance.now() - this.#started) / 1000, metric);
      if (unknown) instruments.unknown.add(1, metric);
    }
    const span = this.#span;
    if (!span) return;
    // One attribute at a time, and only those there are: no object per call for the SDK to walk.
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (errorType !== undefined) span.setAttribute('error.type', errorType);
    let resends = -1;
    for (const leg of this.#legs) resends += leg.attempts;
    if (resends > 0) span.setAttribute('http.request.resend_count', resends);
    if (typeof outcome.requestId === 'string') span.setAttribute('crossborder.request_id', outcome.requestId);
    const key = outcome.idempotencyKey;
    span.setAttribute('crossborder.idempotency_key.sent', typeof key === 'string');
    if (typeof key === 'string' && this.#telemetry.keys?.raw) span.setAttribute('crossborder.idempotency_key', key);
    if (keyHmac !== undefined) span.setAttribute('crossborder.idempotency_key.hmac_sha256', keyHmac);
    if (error !== undefined) span.setAttribute('crossborder.outcome_unknown', unknown);
    if (typeof outcome.code === 'string') span.setAttribute('crossborder.error.code', outcome.code);
    if (challenged && typeof outcome.challenge?.requestId === 'string') span.setAttribute('crossborder.signature.request_id', outcome.challenge.requestId);
    if (errorType !== undefined) span.setStatus({ code: STATUS_ERROR, message: errorType });
    span.end();
  }
}

/** Why an attempt is repeated, in a few fixed words. */
function retryCause(status: number | undefined, retryAfterMs: number | undefined, error: unknown): string {
  if (status !== undefined) return retryAfterMs !== undefined ? 'retry_after' : `status_${status}`;
  if (errorName(error) === 'APITimeoutError') return 'timeout';
  const code = networkCode(error);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'connection_reset';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  return code ? code.toLowerCase() : 'connection_error';
}

/** The class of what made an attempt fail: its status, `timeout`, the network's code (`ECONNRESET`), else the error's name. */
function retryErrorType(status: number | undefined, error: unknown): string {
  if (status !== undefined) return String(status);
  if (errorName(error) === 'APITimeoutError') return 'timeout';
  return networkCode(error) ?? errorName(error);
}

function networkCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/** Attributes without the undefined ones (metrics keep every key they are given). */
function clean(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const k in attributes) if (attributes[k] !== undefined) out[k] = attributes[k];
  return out;
}

/** The Idempotency-Key as the options ask it recorded: nothing (the default), raw, or as an HMAC-SHA256 under the user's key. */
class KeyRecord {
  /** `recordIdempotencyKey: 'raw'`. */
  readonly raw: boolean;
  /** The user's HMAC key, imported once (WebCrypto: the platform's own, in every runtime the SDK runs in). */
  readonly #hmacKey: Promise<CryptoKey> | undefined;

  constructor(options: TelemetryOptions) {
    this.raw = options.recordIdempotencyKey === 'raw';
    const key = options.idempotencyKeyHmacKey;
    if (key !== undefined) {
      const bytes = typeof key === 'string' ? new TextEncoder().encode(key) : new Uint8Array(key); // a copy: the caller's array may change
      this.#hmacKey = crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      this.#hmacKey.catch(() => undefined); // surfaced as no attribute, per call
    }
  }

  /**
   * The hex HMAC-SHA256 of `key`, started when the request goes out so that it is ready when the answer
   * is (WebCrypto is asynchronous); undefined when no HMAC is asked for. Never rejects: a platform
   * that cannot compute it records no attribute rather than failing the call.
   */
  hmac(key: string): Promise<string | undefined> | undefined {
    return this.#hmacKey
      ?.then((k) => crypto.subtle.sign('HMAC', k, new TextEncoder().encode(key)))
      .then(
        (mac) => Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join(''),
        () => undefined,
      );
  }
}
