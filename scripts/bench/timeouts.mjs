/**
 * The baselines' timeouts, by the same mechanisms as the SDK's: on Node's fetch, undici's
 * `headersTimeout`/`bodyTimeout` on each dispatch through a dispatcher that hands the request to the
 * process's global one (what src/core/dispatcher.ts does); elsewhere, and for comparison, a signal.
 * Plain JavaScript, so that the children the benchmarks run in plain node (no loader between node and
 * the package) share it with the scripts run through tsx (types: timeouts.d.mts).
 */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/** A dispatcher that gives every request `ms` for its headers and between body chunks. */
export function timeoutDispatcher(ms) {
  return {
    dispatch(options, handler) {
      options.headersTimeout = ms;
      options.bodyTimeout = ms;
      return globalThis[GLOBAL_DISPATCHER].dispatch(options, handler);
    },
  };
}

/** The SDK's default per-attempt timeout. */
export const TIMEOUT_MS = 60_000;
