/**
 * OpenTelemetry, built in and optional. One CLIENT span per logical call (its attempts, retries and
 * signed leg as events on it), one span per `webhooks.unwrap`, and two metrics.
 *
 * `@opentelemetry/api` is never imported: a provider passed in the options is used as given, and a
 * provider registered globally is read from the slot `@opentelemetry/api` itself keeps on
 * `globalThis` (`Symbol.for('opentelemetry.js.api.1')`, shared by every copy of the API 1.x). So the
 * SDK loads and bundles nothing for it, works the same in every runtime, and with no provider the
 * cost of a call is one property read.
 *
 * Attributes are chosen, never copied: no body, header, query value, path value, signature or
 * credential reaches a span. The Idempotency-Key is not recorded unless the options ask for it
 * (`recordIdempotencyKey: 'raw'`, or an HMAC under `idempotencyKeyHmacKey`).
 * @module
 */
import { ConfigurationError } from './errors';
import { checkOptionNames } from './suggest';
import type { CallTrace, Outcome, PageLink, Recorder } from './telemetry-record';

export type { CallTrace, PageLink } from './telemetry-record';

/**
 * An OpenTelemetry `TracerProvider` (`trace.getTracerProvider()` of `@opentelemetry/api`, or an SDK's:
 * `BasicTracerProvider`, `NodeTracerProvider`). Typed loosely so that no `@opentelemetry/*` types are needed.
 */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

/** An OpenTelemetry `MeterProvider` (`metrics.getMeterProvider()` of `@opentelemetry/api`, or `@opentelemetry/sdk-metrics`'). */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): unknown;
}

/** Options of the built-in OpenTelemetry instrumentation (`telemetry` in the client options). */
export interface TelemetryOptions {
  /**
   * Send the W3C `traceparent` (and `tracestate`) of the call's span on each request, so the service's
   * spans join the trace. Off by default: a service or gateway may refuse headers it does not know.
   */
  propagateContext?: boolean | undefined;
  /**
   * `'raw'` records each call's Idempotency-Key as sent, as `crossborder.idempotency_key`, so that traces
   * can be searched by it. Off by default: keys often carry business identifiers (`payout-order-483920`).
   */
  recordIdempotencyKey?: 'raw' | undefined;
  /**
   * A secret of yours: each call's Idempotency-Key is recorded as `crossborder.idempotency_key.hmac_sha256`,
   * the hex HMAC-SHA256 of the key (UTF-8) under this secret. Searchable by whoever holds the secret
   * (compute the same HMAC), not reversible without it, however guessable the key. Keep it out of the
   * tracing backend. Default: none, and no attribute derived from the key.
   */
  idempotencyKeyHmacKey?: string | Uint8Array | undefined;
}

const TELEMETRY_OPTIONS = Object.keys({ propagateContext: 1, recordIdempotencyKey: 1, idempotencyKeyHmacKey: 1 } satisfies Record<keyof TelemetryOptions, 1>);

/** Refuses telemetry options that would record something else than asked (a ConfigurationError naming the option). */
export function checkTelemetryOptions(telemetry: unknown): void {
  if (telemetry === undefined || typeof telemetry === 'boolean') return;
  if (telemetry === null || typeof telemetry !== 'object') throw new ConfigurationError(`telemetry must be a boolean or an object, got ${String(telemetry)}`);
  checkOptionNames(telemetry, TELEMETRY_OPTIONS, 'telemetry option');
  const { recordIdempotencyKey, idempotencyKeyHmacKey } = telemetry as TelemetryOptions;
  if (recordIdempotencyKey !== undefined && recordIdempotencyKey !== 'raw') {
    throw new ConfigurationError(`telemetry.recordIdempotencyKey must be 'raw' or undefined, got ${JSON.stringify(recordIdempotencyKey)}`);
  }
  if (
    idempotencyKeyHmacKey !== undefined &&
    !((typeof idempotencyKeyHmacKey === 'string' || idempotencyKeyHmacKey instanceof Uint8Array) && idempotencyKeyHmacKey.length > 0)
  ) {
    throw new ConfigurationError('telemetry.idempotencyKeyHmacKey must be a non-empty string or Uint8Array');
  }
}

/** The telemetry options of the client. */
export interface TelemetrySettings {
  telemetry?: boolean | TelemetryOptions | undefined;
  tracerProvider?: TracerProviderLike | undefined;
  meterProvider?: MeterProviderLike | undefined;
  /** The client's base address (`server.address`, `server.port`) and the SDK's version (the tracer's). */
  baseUrl?: string;
  version?: string;
}

/** What `@opentelemetry/api` keeps on `globalThis` once a provider is registered. */
export interface OtelGlobal {
  trace?: TracerProviderLike;
  metrics?: MeterProviderLike;
}

const GLOBAL_KEY = Symbol.for('opentelemetry.js.api.1');

/** The global slot of `@opentelemetry/api` 1.x (undefined until something is registered there). */
export const otelSlot = (): OtelGlobal | undefined => (globalThis as Record<symbol, OtelGlobal | undefined>)[GLOBAL_KEY];

/**
 * The OpenTelemetry part of a core ({@link openTelemetry}): makes the client's telemetry gate, which loads the
 * code that records spans and metrics (./telemetry-record) when there is a provider. `Crossborder` has it; a
 * {@link CrossborderCore} has it when given {@link openTelemetry}, so that a bundle without tracing holds
 * neither the gate nor the recorder. Opaque: pass {@link openTelemetry}.
 */
export interface TelemetryRecorder {
  /** @internal Makes the client's gate. */
  (settings: TelemetrySettings, baseUrl: string, version: string): CoreTelemetry;
}

/**
 * The part of a client's telemetry that code built on the client uses (`cb.telemetry`): spans of a unit of
 * work made of several calls, under which those calls' own spans go (`crossborder-sdk/payouts` records a
 * batch and each payout with it).
 */
export interface WorkTelemetry {
  /** Starts a span of work (resolves undefined when no tracer provider is registered). */
  work(name: string, attributes: Readonly<Record<string, string | number | boolean | undefined>>, parent?: WorkSpan): Promise<WorkSpan | undefined>;
}

/**
 * @internal What the core and its resources ask of telemetry: the gate ({@link Telemetry}) with the
 * recorder part, else {@link NO_TELEMETRY}.
 */
export interface CoreTelemetry extends WorkTelemetry {
  call<R extends Outcome>(
    method: string,
    template: string,
    operationId: string,
    link: PageLink | undefined,
    run: (trace: CallTrace | undefined) => Promise<R>,
  ): Promise<R>;
  webhook<T extends { id?: unknown; type?: unknown }>(verify: () => Promise<T>): Promise<T>;
}

/**
 * A span of a unit of work made of several calls (a payout batch, one payout): INTERNAL, child of the
 * span it was started under. The calls made inside {@link WorkSpan.run} are its children when a context
 * manager is registered with `@opentelemetry/api` (as the SDK's own spans are).
 */
export interface WorkSpan {
  /** Sets attributes (an undefined value is left out). */
  set(attributes: Readonly<Record<string, string | number | boolean | undefined>>): void;
  /** Runs `fn` with this span active. */
  run<R>(fn: () => R): R;
  /** Ends the span; `error` (a code) marks it failed. Later calls do nothing. */
  end(error?: string): void;
}

/** What {@link TelemetryRecorder} loads (./telemetry-record): kept out of the public type, which is opaque. */
type RecorderModule = { Recorder: new (settings: TelemetrySettings) => Recorder };

/**
 * The client's telemetry: decides per call, in one property read, whether there is anything to record
 * to; the code that records (./telemetry-record) is loaded the first time there is.
 */
export class Telemetry implements CoreTelemetry {
  /** The recorder once loaded, or its loading. */
  #recorder: Recorder | Promise<Recorder> | undefined;
  readonly #settings: TelemetrySettings;
  readonly #load: (() => Promise<object>) | undefined;

  /** `load`: the recorder's code; without it nothing is ever recorded. */
  constructor({ telemetry, tracerProvider, meterProvider }: TelemetrySettings, baseUrl: string, version: string, load: (() => Promise<object>) | undefined) {
    checkTelemetryOptions(telemetry);
    this.#settings = { telemetry, tracerProvider, meterProvider, baseUrl, version };
    this.#load = load;
  }

  /** The recorder, when there is a provider to record to (loaded on first need). */
  #wanted(): Recorder | Promise<Recorder> | undefined {
    const s = this.#settings;
    if (s.telemetry === false || this.#load === undefined) return undefined;
    if (!s.tracerProvider && !s.meterProvider) {
      const slot = otelSlot();
      if (!slot?.trace && !slot?.metrics) return undefined;
    }
    return (this.#recorder ??= this.#load().then((m) => (this.#recorder = new (m as RecorderModule).Recorder(s))));
  }

  /** Runs one logical call inside its trace (a CLIENT span, metrics), when there is a provider. */
  call<R extends Outcome>(
    method: string,
    template: string,
    operationId: string,
    link: PageLink | undefined,
    run: (trace: CallTrace | undefined) => Promise<R>,
  ): Promise<R> {
    const r = this.#wanted();
    return r === undefined
      ? run(undefined)
      : r instanceof Promise
        ? r.then((x) => x.call(method, template, operationId, link, run))
        : r.call(method, template, operationId, link, run);
  }

  /**
   * Starts a {@link WorkSpan} named `name` under `parent` (else under the active span), when there is a
   * tracer; resolves undefined when there is nothing to record to.
   */
  async work(name: string, attributes: Readonly<Record<string, string | number | boolean | undefined>>, parent?: WorkSpan): Promise<WorkSpan | undefined> {
    const r = this.#wanted();
    return r === undefined ? undefined : (await r).work(name, attributes, parent);
  }

  /** Runs a webhook's unwrap in a span carrying its event type and id, outcome and reason, when there is a tracer. */
  webhook<T extends { id?: unknown; type?: unknown }>(verify: () => Promise<T>): Promise<T> {
    const r = this.#wanted();
    return r === undefined ? verify() : Promise.resolve(r).then((x) => x.webhook(verify));
  }
}

/**
 * The OpenTelemetry recorder, for a {@link CrossborderCore}: `new CrossborderCore(options, { telemetry: openTelemetry })`
 * records spans and metrics exactly as `Crossborder` does (to the `tracerProvider`/`meterProvider` of the
 * options, or the ones registered globally). `Crossborder` always has it; a core without it records nothing
 * and its bundle holds none of that code.
 */
export const openTelemetry: TelemetryRecorder = (settings, baseUrl, version) => new Telemetry(settings, baseUrl, version, loadRecorder);

const loadRecorder = () => import('./telemetry-record');
