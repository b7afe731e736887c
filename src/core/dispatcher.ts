/**
 * The per-attempt timeout without an AbortSignal per request, where the runtime allows it: on Node's
 * own fetch (undici), each dispatch carries `headersTimeout` and `bodyTimeout`, through a dispatcher
 * the client owns that hands the request to the process's global dispatcher (so a proxy agent or a
 * mock agent set with `setGlobalDispatcher` still applies). Browsers, edge runtimes, Bun, Deno and a
 * user's `fetch` keep the signal path in ./transport.
 *
 * A fetch function is trusted with the dispatcher only after it has been seen to use one (its first
 * attempt carries both the dispatcher and the signal): a test interceptor that answers by itself
 * (msw) never does, so its calls keep the signal and their timeouts.
 * @module
 */

/** The slot where undici keeps the process's dispatcher (Node's own, or one a user installed). */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * undici's request timers tick about once a second (cheap, but up to ~1 s late): shorter timeouts
 * keep the exact timer and signal. 10 s also covers connecting: undici gives up on a connection after 10 s.
 */
export const DISPATCHER_MIN_TIMEOUT_MS = 10_000;

/** The part of an undici dispatcher that fetch uses. */
export interface Dispatcher {
  dispatch(options: Record<string, unknown>, handler: unknown): boolean;
}

/** Fetch functions seen to hand their `dispatcher` to undici. */
const proven = new WeakSet<object>();
/** One dispatcher per timeout value (a few values in practice; bounded all the same). */
const byTimeout = new Map<number, Dispatcher>();

/** Errors undici raises when one of these timeouts fires. */
export function isDispatcherTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return true;
  }
  return false;
}

function timeoutDispatcher(ms: number, onUse?: () => void): Dispatcher {
  return {
    dispatch(options, handler) {
      onUse?.();
      // fetch makes this object for this request: setting the two timeouts on it is all it takes.
      options.headersTimeout = ms;
      options.bodyTimeout = ms;
      const global = (globalThis as Record<symbol, Dispatcher | undefined>)[GLOBAL_DISPATCHER];
      if (!global) throw new TypeError('no undici dispatcher in this process');
      return global.dispatch(options, handler);
    },
  };
}

/** The dispatcher that enforces `ms` for `fetch`, when `fetch` is known to use it; else undefined (use a signal). */
export function provenDispatcher(fetch: object, ms: number): Dispatcher | undefined {
  if (ms < DISPATCHER_MIN_TIMEOUT_MS || !proven.has(fetch)) return undefined;
  let dispatcher = byTimeout.get(ms);
  if (!dispatcher) {
    dispatcher = timeoutDispatcher(ms);
    if (byTimeout.size < 32) byTimeout.set(ms, dispatcher);
  }
  return dispatcher;
}

/**
 * On Node, a dispatcher to send along with the signal of an attempt whose fetch is not proven yet:
 * if fetch dispatches through it, later attempts of that fetch need no signal.
 */
export function probeDispatcher(fetch: object, ms: number): Dispatcher | undefined {
  if (ms < DISPATCHER_MIN_TIMEOUT_MS || typeof process === 'undefined' || !process.versions?.undici) return undefined;
  return timeoutDispatcher(ms, () => proven.add(fetch));
}
