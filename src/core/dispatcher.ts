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
 *
 * undici's `bodyTimeout` bounds the time between two chunks, not the body: a body dripping a byte
 * now and then would hold the call for ever. So each dispatch also carries a deadline of its own: a
 * timer started when the request is handed to undici, which aborts the request (through the abort
 * function undici gives fetch's handler) when the timeout has passed, whatever phase it is in.
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

/** The code of the error with which an attempt past its deadline is aborted. */
export const DEADLINE_CODE = 'CROSSBORDER_ATTEMPT_DEADLINE';

/** Errors undici raises when one of these timeouts fires, and the deadline's own. */
export function isDispatcherTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === DEADLINE_CODE) return true;
  }
  return false;
}

/** The handler fetch gives undici (undici 6 and 7 alike): the calls the deadline needs. */
interface FetchHandler {
  onConnect?: (abort: (reason?: unknown) => void, ...rest: unknown[]) => unknown;
  onComplete?: (...args: unknown[]) => unknown;
  onError?: (...args: unknown[]) => unknown;
}

function deadlineError(ms: number): Error {
  return Object.assign(new Error(`attempt deadline of ${ms} ms passed`), { code: DEADLINE_CODE });
}

/**
 * Arms the whole-attempt deadline on fetch's handler for this request (fetch makes one per request):
 * when `ms` has passed, the request is aborted, before or after its headers, mid-body included; the
 * timer stops when the request completes or fails. A handler of another shape keeps undici's two timeouts only.
 */
function armDeadline(handler: unknown, ms: number, attempt?: AttemptDispatcher): ReturnType<typeof setTimeout> | undefined {
  const h = handler as FetchHandler;
  const { onConnect, onComplete, onError } = h;
  if (typeof onConnect !== 'function') return undefined;
  let abort: ((reason?: unknown) => void) | undefined;
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    abort?.(deadlineError(ms));
  }, ms);
  // Forwarded with `arguments` (no rest array per call: these run on every request).
  h.onConnect = function (this: unknown, a: (reason?: unknown) => void) {
    abort = a;
    const result = onConnect.apply(this, arguments as unknown as Parameters<typeof onConnect>);
    // Connecting took the whole time (undici gives a connection 10 s): stop before sending.
    if (expired) a(deadlineError(ms));
    else attempt?.connected(a);
    return result;
  };
  h.onComplete = function (this: unknown) {
    clearTimeout(timer);
    return onComplete?.apply(this, arguments as unknown as unknown[]);
  };
  h.onError = function (this: unknown) {
    clearTimeout(timer);
    return onError?.apply(this, arguments as unknown as unknown[]);
  };
  return timer;
}

/**
 * A dispatcher that gives each request `ms` in all and hands it to the process's dispatcher.
 * @internal exported for tests.
 */
export function timeoutDispatcher(ms: number, onUse?: () => void): Dispatcher {
  return {
    dispatch(options, handler) {
      // Proven only by a handler whose requests it can stop (the deadline, a caller's abort): fetch's own.
      if (onUse && typeof (handler as FetchHandler).onConnect === 'function') onUse();
      return dispatchWithin(ms, options, handler, undefined);
    },
  };
}

/** Hands one request to the process's dispatcher with `ms` in all (undici's two timeouts and the deadline). */
function dispatchWithin(ms: number, options: Record<string, unknown>, handler: unknown, attempt: AttemptDispatcher | undefined): boolean {
  // fetch makes these objects for this request: undici's two timeouts (a stalled connection is
  // dropped at once) and the deadline of the whole attempt.
  options.headersTimeout = ms;
  options.bodyTimeout = ms;
  const global = (globalThis as Record<symbol, Dispatcher | undefined>)[GLOBAL_DISPATCHER];
  if (!global) throw new TypeError('no undici dispatcher in this process');
  const timer = armDeadline(handler, ms, attempt);
  try {
    return global.dispatch(options, handler);
  } catch (error) {
    // Refused before it started (nothing will call the handler): its deadline goes too.
    clearTimeout(timer);
    throw error;
  }
}

/**
 * The dispatcher of one attempt under a caller's signal, on a fetch proven to use dispatchers: the
 * attempt is aborted through the abort function undici gives fetch's handler, so fetch is handed no
 * signal at all. (Given one, undici adds a listener to it, a `WeakRef` and a `FinalizationRegistry`
 * entry per request, which it keeps until the request is garbage-collected: tens of µs of CPU per call.)
 * An abort before undici has handed over its function (the request waits for a connection) rejects the
 * attempt's fetch at once ({@link settle}) and stops the request as soon as it connects, before sending.
 */
export class AttemptDispatcher implements Dispatcher {
  readonly #ms: number;
  #abort: ((reason?: unknown) => void) | undefined;
  #aborted = false;
  #reason: unknown;
  #reject: ((reason: unknown) => void) | undefined;

  constructor(ms: number) {
    this.#ms = ms;
  }

  dispatch(options: Record<string, unknown>, handler: unknown): boolean {
    return dispatchWithin(this.#ms, options, handler, this);
  }

  /** undici handed over its abort function: an abort that came first is carried out now (nothing was sent). */
  connected(abort: (reason?: unknown) => void): void {
    this.#abort = abort;
    if (this.#aborted) abort(this.#reason);
  }

  /** `fetching`, or the abort's reason as soon as the attempt is aborted, whichever comes first. */
  settle<T>(fetching: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#reject = reject;
      fetching.then(resolve, reject);
    });
  }

  /** Aborts the attempt: its request if undici has it, and the fetch that waits for it. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#abort?.(reason);
    this.#reject?.(reason);
  }
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
