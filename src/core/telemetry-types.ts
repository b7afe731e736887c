/**
 * The types of the OpenTelemetry instrumentation that both its gate (./telemetry) and its recorder
 * (./telemetry-record) read: the providers, the options, the work span. Types only, so that the two import
 * each other in one direction.
 * @module
 */
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
