/**
 * The `hooks` part: runs the client's request hooks ({@link RequestHooks}) around each attempt, each given a frozen
 * view of the attempt redacted by the logger's own rules (headers by `redactHeaders`, bodies by `maskBodyText`, both
 * through the client's scrubber). A part, as the logger is, so that a core without hooks holds none of this code nor
 * the redaction; a client without hooks makes no view and no closure: the transport sees `undefined`.
 * @module
 */
import type { Scrub } from './scrub';
import { ConfigurationError, HookError } from './errors';
import type { BeforeRequestResult, HookErrorView, HookName, HookRequestView, HookResponseView, HookRetryView, RequestHooks } from './hook-types';
import { maskBodyText, redactHeaders } from './logger';
import { checkOptionNames } from './suggest';
import { headerProblems } from './wire';

/** The hooks by name (the `satisfies` keeps the list equal to {@link RequestHooks}'s keys). */
const HOOK_NAMES = Object.keys({ beforeRequest: 1, afterResponse: 1, beforeRetry: 1, onError: 1 } satisfies Record<keyof RequestHooks, 1>);

/** Headers the client alone sets: a hook that could replace them could forge a credential, a key or a signature. */
const CLIENT_HEADERS: ReadonlyMap<string, string> = new Map([
  ['authorization', 'Authorization'],
  ['idempotency-key', 'Idempotency-Key'],
  ['service-wallet-signature', 'Service-Wallet-Signature'],
  ['request-id', 'Request-Id'],
]);

/** What the transport knows of the operation when it runs a hook. */
export interface HookPlan {
  readonly label: string;
  readonly op: { readonly method: string; readonly path: string };
  outcomeUnknown(mayHaveArrived: boolean): boolean;
}

/** What the transport knows of the leg when it runs a hook. */
export interface HookLeg {
  readonly url: string;
  readonly body: string | undefined;
  readonly idempotencyKey: string | undefined;
  readonly headers: Record<string, string>;
}

/** One call's hooks: the client's runner and the attempts made so far (counted across the call's legs). */
export interface CallHooks {
  readonly runner: HookRunner;
  attempts: number;
}

/** The facts of an attempt that is about to be retried. */
export interface RetryFacts {
  status: number | undefined;
  requestId: string | undefined;
  reason: string;
  delay: number;
  outcomeUnknown: boolean;
  error: unknown;
}

/**
 * The client's hooks, ready to run: a method is there only when its hook is given, so the transport asks
 * `runner.beforeRequest` and builds nothing for a hook that is not set.
 */
export interface HookRunner {
  /** Runs `beforeRequest` for attempt `hooks.attempts`; returns the headers to send (the leg's, or a copy with the hook's added). */
  readonly beforeRequest: ((call: CallHooks, plan: HookPlan, leg: HookLeg, started: number) => Promise<Record<string, string>>) | undefined;
  /** Runs `afterResponse` for the attempt's answer; throws a {@link HookError} carrying the answer. */
  readonly afterResponse:
    | ((call: CallHooks, plan: HookPlan, leg: HookLeg, sent: Record<string, string>, started: number, response: Response, text: string, data: unknown, requestId: string | undefined) => Promise<void>)
    | undefined;
  /** Runs `beforeRetry`; a throw stops the retries. */
  readonly beforeRetry: ((call: CallHooks, plan: HookPlan, leg: HookLeg, sent: Record<string, string>, started: number, facts: RetryFacts) => Promise<void>) | undefined;
  /** The call's promise, with `onError` run when it rejects (not for a {@link HookError}); undefined without `onError`. */
  readonly onError: (<T>(call: Promise<T>, plan: HookPlan, started: number) => Promise<T>) | undefined;
}

/**
 * The `hooks` part of a core: what runs the `hooks` option. `Crossborder` has it; a `CrossborderCore` has it when
 * given it, `new CrossborderCore(options, { hooks: requestHooks })`.
 * @group Client
 */
export interface HooksPart {
  /** @internal The runner of the client's hooks, or undefined when none is set (nothing runs, nothing is built). */
  readonly make: (hooks: RequestHooks | undefined, unsafeRawBodies: boolean, scrub: Scrub, baseUrl: string) => HookRunner | undefined;
}

const message = (thrown: unknown): string => (thrown instanceof Error ? thrown.message : String(thrown));

/** Checks the `hooks` and `unsafeRawBodies` options; throws a ConfigurationError naming the field. */
function checkHooks(hooks: unknown, unsafeRawBodies: unknown): asserts hooks is RequestHooks | undefined {
  if (unsafeRawBodies !== undefined && typeof unsafeRawBodies !== 'boolean') {
    throw new ConfigurationError(`unsafeRawBodies must be true or false, got ${typeof unsafeRawBodies}`);
  }
  if (hooks === undefined || hooks === null) return;
  if (typeof hooks !== 'object') throw new ConfigurationError(`hooks must be an object of hook functions, got ${typeof hooks}`);
  checkOptionNames(hooks, HOOK_NAMES, 'hook');
  for (const name of HOOK_NAMES) {
    const hook = (hooks as Record<string, unknown>)[name];
    if (hook !== undefined && typeof hook !== 'function') throw new ConfigurationError(`hooks.${name} must be a function, got ${typeof hook}`);
  }
}

function make(hooks: RequestHooks | undefined, unsafeRawBodies: boolean, scrub: Scrub, baseUrl: string): HookRunner | undefined {
  checkHooks(hooks, unsafeRawBodies);
  if (!hooks || (!hooks.beforeRequest && !hooks.afterResponse && !hooks.beforeRetry && !hooks.onError)) return undefined;
  const { beforeRequest, afterResponse, beforeRetry, onError } = hooks;
  const raw = unsafeRawBodies === true;
  const headersOf = (headers: Headers | Record<string, string>): Readonly<Record<string, string>> => Object.freeze(scrub(redactHeaders(headers)));
  const bodyOf = (text: string | undefined): unknown => (raw ? (text === '' || text === undefined ? undefined : scrub(text)) : deepFreeze(maskBodyText(text === undefined ? undefined : scrub(text))));

  /** The view of the attempt under way, the fields every attempt hook shares. */
  const requestView = (call: CallHooks, plan: HookPlan, leg: HookLeg, sent: Record<string, string>): HookRequestView => {
    const query = leg.url.indexOf('?');
    const path = (query === -1 ? leg.url : leg.url.slice(0, query)).slice(baseUrl.length);
    return {
      operation: plan.label,
      method: plan.op.method,
      urlTemplate: plan.op.path,
      path: scrub(path),
      attempt: call.attempts,
      signed: sent['service-wallet-signature'] !== undefined,
      idempotencyKey: leg.idempotencyKey,
      headers: headersOf(sent),
      body: bodyOf(leg.body),
    };
  };

  /** Runs one hook; what it throws becomes a HookError with the call's facts. */
  const run = async <V>(name: HookName, hook: (view: V) => unknown, view: V, facts: Omit<ConstructorParameters<typeof HookError>[2], 'cause'>): Promise<unknown> => {
    try {
      return await hook(view);
    } catch (thrown) {
      throw new HookError(name, `hooks.${name} threw: ${scrub(message(thrown))}`, { ...facts, cause: thrown });
    }
  };

  return {
    beforeRequest: beforeRequest
      ? async (call, plan, leg) => {
          const view = Object.freeze(requestView(call, plan, leg, leg.headers));
          const facts = { operation: plan.label, idempotencyKey: leg.idempotencyKey, outcomeUnknown: plan.outcomeUnknown(call.attempts > 1) };
          const result = (await run('beforeRequest', beforeRequest, view, facts)) as BeforeRequestResult | undefined | void;
          const added = result?.headers;
          if (added === undefined || added === null) return leg.headers;
          const problems = headerProblems(added, 'headers');
          if (problems.length) throw new HookError('beforeRequest', `hooks.beforeRequest returned a header that cannot be sent: ${problems[0]!.path} ${problems[0]!.message}; nothing was sent`, facts);
          const headers = { ...leg.headers };
          for (const name in added) {
            const lower = name.toLowerCase();
            const reserved = CLIENT_HEADERS.get(lower);
            if (reserved !== undefined) {
              throw new HookError('beforeRequest', `hooks.beforeRequest may not set ${reserved} (the client sets it; returned as headers.${name}); nothing was sent`, facts);
            }
            if (added[name] !== undefined) headers[lower] = added[name];
          }
          return headers;
        }
      : undefined,
    afterResponse: afterResponse
      ? async (call, plan, leg, sent, started, response, text, data, requestId) => {
          const { status } = response;
          const view: HookResponseView = Object.freeze({
            ...requestView(call, plan, leg, sent),
            status,
            requestId,
            durationMs: Math.round(performance.now() - started),
            responseHeaders: headersOf(response.headers),
            responseBody: bodyOf(text),
          });
          // A write answered with its result (2xx), or refused (4xx), is known; a 5xx or a 303 leaves it unknown.
          const outcomeUnknown = plan.outcomeUnknown(status >= 500 || status === 303);
          await run('afterResponse', afterResponse, view, { operation: plan.label, idempotencyKey: leg.idempotencyKey, status, requestId, outcomeUnknown, result: { data, response, requestId } });
        }
      : undefined,
    beforeRetry: beforeRetry
      ? async (call, plan, leg, sent, started, facts) => {
          const view: HookRetryView = Object.freeze({
            ...requestView(call, plan, leg, sent),
            status: facts.status,
            requestId: facts.requestId,
            durationMs: Math.round(performance.now() - started),
            reason: facts.reason,
            delayMs: facts.delay,
            nextAttempt: call.attempts + 1,
          });
          await run('beforeRetry', beforeRetry, view, {
            operation: plan.label,
            idempotencyKey: leg.idempotencyKey,
            status: facts.status,
            requestId: facts.requestId,
            outcomeUnknown: facts.outcomeUnknown,
            error: facts.error,
          });
        }
      : undefined,
    onError: onError
      ? <T>(promise: Promise<T>, plan: HookPlan, started: number) =>
          promise.catch(async (error: unknown) => {
            if (error instanceof HookError) throw error;
            const e = (error ?? {}) as { name?: unknown; status?: unknown; requestId?: unknown; code?: unknown; outcomeUnknown?: unknown; idempotencyKey?: unknown };
            const status = typeof e.status === 'number' ? e.status : undefined;
            const requestId = typeof e.requestId === 'string' ? e.requestId : undefined;
            const idempotencyKey = typeof e.idempotencyKey === 'string' ? e.idempotencyKey : undefined;
            const outcomeUnknown = e.outcomeUnknown === true;
            const view: HookErrorView = Object.freeze({
              operation: plan.label,
              method: plan.op.method,
              urlTemplate: plan.op.path,
              idempotencyKey,
              status,
              requestId,
              durationMs: Math.round(performance.now() - started),
              errorName: typeof e.name === 'string' ? e.name : typeof error,
              code: typeof e.code === 'string' ? e.code : undefined,
              outcomeUnknown,
              error: raw ? error : undefined,
            });
            await run('onError', onError, view, { operation: plan.label, idempotencyKey, status, requestId, outcomeUnknown, error });
            throw error;
          })
      : undefined,
  };
}

/** A masked body, frozen at every level: a hook reads it and cannot change what another hook sees. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Request hooks ({@link RequestHooks}): the code that runs the client's `hooks` option with redacted views.
 * `Crossborder` has it; a {@link CrossborderCore} has it when given this part,
 * `new CrossborderCore(options, { hooks: requestHooks })`. Without it, a `hooks` or `unsafeRawBodies` option is
 * refused when the core is made.
 * @group Client
 */
export const requestHooks: HooksPart = { make };
