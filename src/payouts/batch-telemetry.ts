/**
 * Which recorder a payout batch's spans go through. The batch's options and its client type the recorder as
 * `unknown` (a plain-JavaScript caller, or a client wrapper with a `telemetry` of its own, may hold anything there);
 * this is where such a value is narrowed to a {@link WorkTelemetry}, by what it has rather than by a cast.
 * @module
 */
import type { WorkTelemetry } from '../core/telemetry';

/** True when `value` can start the batch's spans: an object (or function) with a `work` method. */
export function isWorkTelemetry(value: unknown): value is WorkTelemetry {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && 'work' in value && typeof value.work === 'function';
}

/**
 * The recorder of a batch's spans: the one given in the options, else the client's (`cb.telemetry`), when it is a
 * {@link WorkTelemetry}; otherwise none, and the batch runs without spans.
 */
export function batchTelemetry(given: unknown, client: { readonly telemetry?: unknown }): WorkTelemetry | undefined {
  const chosen = given ?? client.telemetry;
  return isWorkTelemetry(chosen) ? chosen : undefined;
}
