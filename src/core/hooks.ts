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
import type { FormBytes } from './form';
import { bodyText, maskBodyText, redactHeaders } from './logger';
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

/** What the hooks know of the operation. */
export interface HookPlan {
  readonly label: string;
  readonly op: { readonly method: string; readonly path: string };
  outcomeUnknown(mayHaveArrived: boolean): boolean;
}

/** What the hooks know of the leg an attempt belongs to. */
export interface HookLeg {
  readonly url: string;
  readonly body: string | FormBytes | undefined;
  readonly idempotencyKey: string | undefined;
  readonly headers: Record<string, string>;
}

/**
 * One call's hooks, made by {@link HookRunner.call} only when the client has hooks: the transport tells it of each
 * attempt, answer and retry (it counts the attempts across the call's legs and times each), and it runs the hooks
 * that are set.
 */
export interface CallHooks {
  /** An attempt of `leg` is about to go out: runs `beforeRequest`; returns the headers to send (the leg's, or a copy with the hook's added). */
  attempt(leg: HookLeg): Promise<Record<string, string>>;
  /** The attempt's answer is read: runs `afterResponse`; throws a {@link HookError} carrying the answer. */
  answer(response: Response, text: string, data: unknown): Promise<void>;
  /** The attempt is to be retried after `delay` ms (`failure`: it got no answer; else `response`): runs `beforeRetry`. */
  retry(delay: number, failure: { readonly name: string; readonly outcomeUnknown: boolean } | undefined, response: Response | undefined): Promise<void>;
}

/** The client's hooks, ready to run. */
export interface HookRunner {
  /** The hooks of one call of `plan`'s operation. */
  call(plan: HookPlan): CallHooks;
  /** The call's promise, with `onError` run when it rejects (not for a {@link HookError}); the promise itself without `onError`. */
  settle<T>(call: Promise<T>, plan: HookPlan): Promise<T>;
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
  const bodyOf = (text: string | undefined): unknown =>
    raw ? (text === '' || text === undefined ? undefined : scrub(text)) : deepFreeze(maskBodyText(text === undefined ? undefined : scrub(text)));

  /** The view of the attempt under way, the fields every attempt hook shares. */
  const requestView = (attempt: number, plan: HookPlan, leg: HookLeg, sent: Record<string, string>): HookRequestView => {
    const query = leg.url.indexOf('?');
    const path = (query === -1 ? leg.url : leg.url.slice(0, query)).slice(baseUrl.length);
    return {
      operation: plan.label,
      method: plan.op.method,
      urlTemplate: plan.op.path,
      path: scrub(path),
      attempt,
      signed: sent['service-wallet-signature'] !== undefined,
      idempotencyKey: leg.idempotencyKey,
      headers: headersOf(sent),
      body: bodyOf(bodyText(leg.body)),
    };
  };

  /** Runs one hook; what it throws becomes a HookError with the call's facts. */
  const run = async <V>(
    name: HookName,
    hook: (view: V) => unknown,
    view: V,
    facts: Omit<ConstructorParameters<typeof HookError>[2], 'cause'>,
  ): Promise<unknown> => {
    try {
      return await hook(view);
    } catch (thrown) {
      throw new HookError(name, `hooks.${name} threw: ${scrub(message(thrown))}`, { ...facts, cause: thrown });
    }
  };

  const requestIdOf = (response: Response) => {
    const id = response.headers.get('x-request-id');
    return id === null ? undefined : scrub(id);
  };

  return {
    call: (plan) => {
      let attempts = 0;
      let started = 0;
      let leg: HookLeg;
      let sent: Record<string, string>;
      const view = () => requestView(attempts, plan, leg, sent);
      return {
        attempt: async (given) => {
          attempts++;
          started = performance.now();
          leg = given;
          sent = given.headers;
          if (!beforeRequest) return sent;
          const facts = { operation: plan.label, idempotencyKey: leg.idempotencyKey, outcomeUnknown: plan.outcomeUnknown(attempts > 1) };
          const result = (await run('beforeRequest', beforeRequest, Object.freeze(view()), facts)) as BeforeRequestResult | undefined | void;
          const added = result?.headers;
          if (added === undefined || added === null) return sent;
          const problems = headerProblems(added, 'headers');
          if (problems.length)
            throw new HookError(
              'beforeRequest',
              `hooks.beforeRequest returned a header that cannot be sent: ${problems[0]!.path} ${problems[0]!.message}; nothing was sent`,
              facts,
            );
          const headers = { ...sent };
          for (const name in added) {
            const reserved = CLIENT_HEADERS.get(name.toLowerCase());
            if (reserved !== undefined) {
              throw new HookError(
                'beforeRequest',
                `hooks.beforeRequest may not set ${reserved} (the client sets it; returned as headers.${name}); nothing was sent`,
                facts,
              );
            }
            if (added[name] !== undefined) headers[name.toLowerCase()] = added[name];
          }
          return (sent = headers);
        },
        answer: async (response, text, data) => {
          if (!afterResponse) return;
          const { status } = response;
          const requestId = requestIdOf(response);
          const answered: HookResponseView = Object.freeze({
            ...view(),
            status,
            requestId,
            durationMs: Math.round(performance.now() - started),
            responseHeaders: headersOf(response.headers),
            responseBody: bodyOf(text),
          });
          // A write answered with its result (2xx), or refused (4xx), is known; a 5xx or a 303 leaves it unknown.
          const outcomeUnknown = plan.outcomeUnknown(status >= 500 || status === 303);
          await run('afterResponse', afterResponse, answered, {
            operation: plan.label,
            idempotencyKey: leg.idempotencyKey,
            status,
            requestId,
            outcomeUnknown,
            result: { data, response, requestId },
          });
        },
        retry: async (delay, failure, response) => {
          if (!beforeRetry) return;
          const status = response?.status;
          const requestId = response && requestIdOf(response);
          const retrying: HookRetryView = Object.freeze({
            ...view(),
            status,
            requestId,
            durationMs: Math.round(performance.now() - started),
            reason: failure ? failure.name : `status ${status}`,
            delayMs: delay,
            nextAttempt: attempts + 1,
          });
          const outcomeUnknown = failure ? failure.outcomeUnknown : plan.outcomeUnknown(status! >= 500);
          await run('beforeRetry', beforeRetry, retrying, {
            operation: plan.label,
            idempotencyKey: leg.idempotencyKey,
            status,
            requestId,
            outcomeUnknown,
            error: failure,
          });
        },
      };
    },
    settle: (promise, plan) => {
      if (!onError) return promise;
      const started = performance.now();
      return promise.catch(async (error: unknown) => {
        if (error instanceof HookError) throw error;
        const e = (error ?? {}) as {
          name?: unknown;
          status?: unknown;
          requestId?: unknown;
          code?: unknown;
          outcomeUnknown?: unknown;
          idempotencyKey?: unknown;
        };
        const status = typeof e.status === 'number' ? e.status : undefined;
        const requestId = typeof e.requestId === 'string' ? e.requestId : undefined;
        const idempotencyKey = typeof e.idempotencyKey === 'string' ? e.idempotencyKey : undefined;
        const outcomeUnknown = e.outcomeUnknown === true;
        const failed: HookErrorView = Object.freeze({
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
        await run('onError', onError, failed, { operation: plan.label, idempotencyKey, status, requestId, outcomeUnknown, error });
        throw error;
      });
    },
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
