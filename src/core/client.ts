/**
 * The pipeline every operation goes through, written once: local checks, auth, Idempotency-Key,
 * the attempt loop (timeouts, retries), error mapping, the 202 signed retry, and pagination.
 * Resources only say which operation and which params; the result type follows from the operation.
 * A call runs in one direction (DESIGN.md): resource → client → plan (URL, checks, write/safe/outcome)
 * → transport (attempts, fetch) → answers (body, errors, challenges, envelopes) → back. Each stage has
 * its file: settings (the client's options, checked once), plan, call-options, wire, transport,
 * retry (the one retry decision), answers, signed-retry, validation.
 * @module
 */
import { createQuerySerializer } from 'openapi-fetch';
import { APIPromise, type AfterLeg, type WithResponse } from './api-promise';
import { createScrub, readAnswer, readEnvelope, type Scrub } from './answers';
import { isEmpty, readCallOptions, type CallOptions, type CallSettings } from './call-options';
import { ConfigurationError, ValidationError, type ValidationIssue } from './errors';
import type { FormBytes } from './form';
import type { CallHooks, HookRunner } from './hooks';
import { ignoreRejection, SILENT_LOG, type Log } from './logger';
import type { ClientOptions, Environment, ListOptions, ValidationIssueReport } from './options';
import { Page, PagePromise, type CursorTrail, type PageFetcher } from './pagination';
import type { OperationId, OperationRow } from '../generated/operations';
import type { CoreParts, RequestChecks, ResponseChecks } from './part-types';
import { OperationPlan, type CallInput, type InputOf, type ItemOf, type Operation, type QuerySerializer, type ResultOf } from './plan';
import { defaultSleep } from './retry';
import { env, readSettings } from './settings';
import type { SignedRetry } from './signed-retry';
import type { CallTrace, CoreTelemetry, PageLink, TelemetryRecorder } from './telemetry';
import { sendAndRead, type Outgoing, type TransportConfig } from './transport';
import { VERSION } from './version';
import { mergeHeaders, normalizeQuery, wireProblems } from './wire';

/** What a row's `signing` loads (typed here: the row's field is `unknown`, so the public `Operation` names no internal module). */
type SigningModule = typeof import('./signed-retry');

export { API_VERSION, DEFAULT_BASE_URLS, MAX_TIMEOUT_MS, normalizeBaseUrl } from './settings';
export type { CallInput, InputOf, ItemOf, Operation, ResultOf } from './plan';
export type { CoreParts } from './part-types';

const NO_HEADERS: [string, unknown][] = [];

/** The telemetry of a core without the `telemetry` part: nothing is recorded, and none of the gate's code is bundled. */
const NO_TELEMETRY: CoreTelemetry = {
  call: (_method, _template, _id, _link, run) => run(undefined),
  work: async () => undefined,
  webhook: (verify) => verify(),
};
const NO_BAGS: [string, Record<string, unknown> | undefined][] = [];

/** What a client shows of itself: its public fields, and its `util.inspect` and `JSON.stringify` forms. */
interface ClientFields {
  readonly environment: Environment | 'unknown';
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeout: number;
  readonly webhookPublicKey: string | undefined;
}

/**
 * The public fields of a client, written once: {@link CrossborderCore} fills them from its settings, the
 * facade `Crossborder` from its core. The credentials are never among them.
 * @internal
 */
export abstract class ClientInfo implements ClientFields {
  // Declared, and set by the constructor in this order: the same own properties as class fields, without
  // their declarations in every bundle.
  /** `sandbox`, `production`, or `unknown` (a `baseUrl` given without an environment: the service decides). */
  declare readonly environment: Environment | 'unknown';
  /** Base address including the version segment `/2025-10-13`. */
  declare readonly baseUrl: string;
  /** Retries after the first attempt, for failures that are safe to repeat. */
  declare readonly maxRetries: number;
  /** Per-attempt timeout in ms. */
  declare readonly timeout: number;
  /** The service's webhook public key (PEM or hex), if configured. */
  declare readonly webhookPublicKey: string | undefined;

  constructor(fields: ClientFields) {
    this.environment = fields.environment;
    this.baseUrl = fields.baseUrl;
    this.maxRetries = fields.maxRetries;
    this.timeout = fields.timeout;
    this.webhookPublicKey = fields.webhookPublicKey;
  }
}

// Not on the type (so not in autocompletion), but there for `util.inspect` and `JSON.stringify`:
// short, and never the credentials (they are private fields of the core).
Object.defineProperties(ClientInfo.prototype, {
  [Symbol.for('nodejs.util.inspect.custom')]: {
    value(this: ClientInfo) {
      return `Crossborder { environment: '${this.environment}', baseUrl: '${this.baseUrl}' }`;
    },
  },
  toJSON: {
    value(this: ClientInfo) {
      return { environment: this.environment, baseUrl: this.baseUrl, maxRetries: this.maxRetries, timeout: this.timeout };
    },
  },
});

/**
 * The client without its resources and without its optional parts: the pipeline every operation goes
 * through (auth, Idempotency-Key, retries and timeouts, typed errors, the signed retry, pagination), for a
 * program that bundles only what it uses. Call operations on it with the standalone functions of
 * `crossborder-sdk/functions` (`listCustomers(core, params)`), or give it the resource classes it needs
 * (`new Customers(core)`); either behaves, throws and is typed as on {@link Crossborder}.
 * Holds the credentials in private fields: they never show in `util.inspect`, `JSON.stringify` or errors.
 * A missing credential is a {@link ConfigurationError} from the first API call, not from the constructor:
 * a client that only unwraps webhooks needs none.
 *
 * ```ts
 * import { CrossborderCore, Webhooks } from 'crossborder-sdk';
 * import { listCustomers } from 'crossborder-sdk/functions';
 * const core = new CrossborderCore({ tokenId, clientSecret, webhookPublicKey });
 * for await (const customer of listCustomers(core, { limit: 50 })) console.log(customer.id);
 * const event = await new Webhooks(core).unwrap(request);
 * ```
 *
 * `Crossborder` keeps every behaviour on; a core has the optional ones only when given their parts
 * ({@link CoreParts}), `new CrossborderCore(options, { requestChecks, responseChecks, logging, telemetry: openTelemetry })`:
 * - without {@link requestChecks}, parameters are not checked before sending: a bad one gets the
 *   service's own 400 (`BadRequestError`, one round trip later) instead of a local `ValidationError`;
 * - without {@link responseChecks}, `validateResponses` is refused and webhook events are checked by their
 *   envelope only;
 * - without {@link logging}, nothing is logged (`logger` and `logLevel` are refused);
 * - without {@link openTelemetry}, no spans or metrics, even with a provider registered.
 * A bundle holds none of the code of a part it does not import.
 * @group Client
 */
export class CrossborderCore extends ClientInfo {
  readonly #authorization: string;
  /** Why the client cannot authenticate (a credential missing): every API call is refused with it; webhooks still unwrap. */
  readonly #missingCredentials: string | undefined;
  /** openapi-fetch's query serializer, made once per client (every plan of the client shares it). */
  readonly #querySerializer: QuerySerializer;
  readonly #transport: TransportConfig;
  readonly #validateResponses: boolean;
  readonly #onValidationIssue: ((report: ValidationIssueReport) => void) | undefined;
  readonly #defaultHeaders: Record<string, string>;
  /** Every header of a call without headers of its own (lower-case names), with and without a JSON body. */
  readonly #plainHeaders: Readonly<Record<string, string>>;
  readonly #jsonHeaders: Readonly<Record<string, string>>;
  /** What a call without options runs with. */
  readonly #defaults: CallSettings;
  readonly #plans = new Map<Operation, OperationPlan>();
  readonly #requestChecks: RequestChecks | undefined;
  /** @internal The `responseChecks` part (answers with `validateResponses`, webhook events), when given. */
  declare readonly responseChecks: ResponseChecks | undefined;
  /** The signed retry's bookkeeping (challenges seen, requestIds sent), made when a write's row first loads it (`signing`). */
  #signed: SignedRetry | undefined;
  /** The `hooks` option ready to run, when it sets any hook (the `hooks` part); undefined: no hook, nothing built per call. */
  readonly #hooks: HookRunner | undefined;
  /** @internal */
  declare readonly log: Log;
  /** @internal Removes the credentials from texts built from answers. */
  declare readonly scrub: Scrub;
  /** @internal OpenTelemetry spans and metrics (see ./telemetry): the gate of the `telemetry` part, else nothing recorded. */
  declare readonly telemetry: CoreTelemetry;

  /**
   * `parts`: the optional behaviours ({@link CoreParts}). `telemetry`, the OpenTelemetry recorder
   * ({@link openTelemetry}): without it, no spans or metrics. `requestChecks` ({@link requestChecks}):
   * without it, parameters are not checked locally and a bad one gets the service's 400 (a
   * `BadRequestError`) instead of a `ValidationError` before sending. `responseChecks`
   * ({@link responseChecks}): needed by `validateResponses`; without it, webhook events are checked by
   * their envelope only. `logging` ({@link logging}): needed by `logger` and `logLevel`; without it, nothing is logged.
   * @throws {@link ConfigurationError} when an option needs a part that is not given (rather than be ignored).
   */
  constructor(options: ClientOptions | null = {}, parts?: CoreParts | null) {
    options ??= {};
    const settings = readSettings(options);
    super(settings);
    this.#validateResponses = options.validateResponses ?? false;
    this.#onValidationIssue = options.onValidationIssue;
    this.#defaultHeaders = settings.headers;
    this.#authorization = settings.authorization;
    this.#missingCredentials = settings.missingCredentials;
    this.#plainHeaders = { ...settings.headers, authorization: settings.authorization, accept: 'application/json' };
    this.#jsonHeaders = { 'content-type': 'application/json', ...this.#plainHeaders };
    this.#defaults = { userKey: undefined, maxRetries: this.maxRetries, timeout: this.timeout, headers: undefined };
    this.scrub = createScrub(settings.secrets);
    // Accepted and then ignored would be worse: the user would look for spans, lines or reports that never come.
    if (!parts?.telemetry && (options.tracerProvider || options.meterProvider || (options.telemetry ?? false) !== false)) {
      throw new ConfigurationError('tracerProvider, meterProvider and telemetry need the recorder: new CrossborderCore(options, { telemetry: openTelemetry })');
    }
    if (!parts?.logging && (options.logger !== undefined || options.logLevel !== undefined)) {
      throw new ConfigurationError('logger and logLevel need the logging part: new CrossborderCore(options, { logging })');
    }
    if (!parts?.hooks && (options.hooks !== undefined || options.unsafeRawBodies !== undefined)) {
      throw new ConfigurationError('hooks need the hooks part: new CrossborderCore(options, { hooks: requestHooks })');
    }
    if (!parts?.responseChecks && this.#validateResponses) {
      throw new ConfigurationError('validateResponses needs the response checks: new CrossborderCore(options, { responseChecks })');
    }
    this.log = parts?.logging ? parts.logging.make(options.logger, options.logLevel, env('CROSSBORDER_LOG')) : SILENT_LOG;
    this.#requestChecks = parts?.requestChecks ?? undefined;
    this.#hooks = parts?.hooks?.make(options.hooks, options.unsafeRawBodies ?? false, this.scrub, this.baseUrl);
    this.responseChecks = parts?.responseChecks ?? undefined;
    this.telemetry = parts?.telemetry ? parts.telemetry(options, this.baseUrl, VERSION) : NO_TELEMETRY;
    this.#transport = {
      fetch: options.fetch,
      sleep: options.sleep ?? defaultSleep,
      log: this.log,
      random: Math.random,
      scrub: this.scrub,
    };
    this.#querySerializer = createQuerySerializer();
  }

  /**
   * Runs one operation through the pipeline: the surface the standalone functions of `crossborder-sdk/functions`,
   * the resource classes and the CLI are built on. `op` is a row of the generated operation table (or an
   * {@link Operation} of your own), `input` its path, query, body and header parameters, `options` the call's
   * `RequestOptions` (signed writes: {@link SignedRequestOptions}). An operation of the document types its
   * input and its result (`ResultOf`); any other operation (tests, `request(core, …)`) resolves to `T`.
   * Checks, Idempotency-Key, retries, hooks, the signed retry and typed errors are those of every method.
   */
  call<Id extends OperationId>(op: OperationRow<Id>, input: InputOf<Id>, options?: CallOptions | null): APIPromise<ResultOf<Id>>;
  call<T = unknown>(op: Operation, input?: CallInput, options?: CallOptions | null): APIPromise<T>;
  call(op: Operation, input: CallInput = {}, options?: CallOptions | null): APIPromise<unknown> {
    // The pipeline inside the call's trace, when there is a provider to record to.
    return new APIPromise(this.telemetry.call(op.method, op.path, op.id, undefined, (trace) => this.#run(op, input, options ?? {}, trace)));
  }

  /**
   * Runs a list operation, as {@link call} runs any other: the result is awaitable (the first {@link Page}) and
   * iterable with `for await` (every item, page after page). An operation of the document types its items
   * (`ItemOf`); any other lists `T`. `options.prefetch` asks for page n+1 while page n is read.
   */
  list<Id extends OperationId>(op: OperationRow<Id>, input: InputOf<Id>, options?: ListOptions | null): PagePromise<ItemOf<Id>>;
  list<T = unknown>(op: Operation, input?: CallInput, options?: ListOptions | null): PagePromise<T>;
  list<T>(op: Operation, input: CallInput = {}, options?: ListOptions | null): PagePromise<T> {
    const opts = options ?? {};
    const link: PageLink = { pages: 0 }; // the iteration: each page's span links to the first
    // The pages after the first (one function per list call, made with it): the same query with the cursor,
    // the signal of the page's fetch joined with the list's.
    const next: PageFetcher<T> = (cursor, signal, trail) => {
      const pageInput = { ...input, query: { ...(input.query ?? undefined), cursor } };
      const pageSignal = signal && opts.signal ? AbortSignal.any([signal, opts.signal]) : (signal ?? opts.signal);
      const pageOptions = pageSignal === opts.signal ? opts : { ...opts, signal: pageSignal };
      return this.#page<T>(op, pageInput, pageOptions, link, next, cursor, trail).then(pageOf);
    };
    return new PagePromise(this.#page<T>(op, input, opts, link, next, undefined, undefined));
  }

  /**
   * One page of a list: the call, then its envelope read into a {@link Page} that fetches the next with `next`.
   * Without a trace to record, the page is read in the leg's own asynchronous step (its `after`), not in a
   * reaction of its own; with one, after the call's span has ended, as a reaction on the traced call (a
   * malformed envelope is the page's error, not the call's).
   */
  #page<T>(
    op: Operation,
    input: CallInput,
    options: ListOptions,
    link: PageLink,
    next: PageFetcher<T>,
    cursor: string | undefined,
    trail: CursorTrail | undefined,
  ): Promise<WithResponse<Page<T>>> {
    // The leg's result is the call's own object (made by readAnswer, or handed on as is by the trace): its data becomes the page.
    const read = (result: WithResponse<unknown>): WithResponse<Page<T>> => {
      const { data, response, requestId } = result;
      const operation = this.#plan(op).label;
      const envelope = readEnvelope<T>(
        data,
        response,
        operation,
        op.paginated,
        (issues) => this.#report({ operation, status: response.status, requestId, issues }),
        this.scrub,
      );
      result.data = new Page<T>(envelope, next, cursor, options.prefetch, trail);
      return result as WithResponse<Page<T>>;
    };
    // In the leg: a read (a write's leg looks for its challenge there), untraced, started now (not once a recorder has loaded).
    let now = true;
    let inLeg = false;
    const call = this.telemetry.call(op.method, op.path, op.id, link, (trace) =>
      this.#run(op, input, options, trace, (inLeg = now && !trace && !this.#plan(op).write) ? read : undefined),
    );
    now = false;
    return inLeg ? (call as Promise<WithResponse<Page<T>>>) : call.then(read);
  }

  /** @internal A rejected call, for refusals decided before the pipeline (same promise type as a call). */
  reject<T>(error: unknown): APIPromise<T> {
    return new APIPromise<T>(Promise.reject(error));
  }

  /** @internal Waits like the retry loop does (injectable in tests), abortable by `signal`. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.#transport.sleep(ms, signal);
  }

  /** The operation's plan, made on its first call (per client: it holds the client's base address). */
  #plan(op: Operation): OperationPlan {
    let plan = this.#plans.get(op);
    if (!plan) {
      plan = new OperationPlan(op, this.baseUrl, this.#querySerializer, this.#requestChecks);
      // Generated operations are a fixed set; ad-hoc ones (request()) are not kept beyond a bound.
      if (this.#plans.size < 256) this.#plans.set(op, plan);
    }
    return plan;
  }

  /**
   * Checks the call and starts its first leg. Not an async function: a call that needs no waiting before it
   * is sent (its checks loaded and passing, a JSON body) goes out in this same synchronous stretch, and its
   * only asynchronous step is the leg's (./transport `sendAndRead`); the rare paths (checks to load,
   * multipart, a signed leg, a challenge) branch out. Never throws: a refusal is the promise's rejection.
   */
  #run(op: Operation, input: CallInput, options: CallOptions, trace: CallTrace | undefined, read?: AfterLeg): Promise<WithResponse<unknown>> {
    const call = this.#start(op, input, options, trace, read);
    return this.#hooks ? this.#hooks.settle(call, this.#plan(op)) : call;
  }

  /** The call, before the `onError` hook sees its failure. */
  #start(op: Operation, input: CallInput, options: CallOptions, trace: CallTrace | undefined, read?: AfterLeg): Promise<WithResponse<unknown>> {
    try {
      // Credentials are asked for by the first call that needs them, not by the constructor (webhook-only clients need none).
      if (this.#missingCredentials !== undefined && !op.anonymous) throw new ConfigurationError(this.#missingCredentials);
      const plan = this.#plan(op);
      if (op.sandboxOnly && this.environment === 'production') {
        throw new ConfigurationError(`${op.id} is sandbox-only and this client's environment is 'production'; nothing was sent`);
      }
      const query = input.query === undefined || input.query === null ? undefined : normalizeQuery(input.query);
      const checked = plan.paramIssues(input.path, query, input.body);
      if (Array.isArray(checked)) return this.#checked(plan, input, query, options, trace, checked, read);
      return checked.then((issues) => this.#checked(plan, input, query, options, trace, issues, read));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The call once its parameters are checked (`issues`: what the checks found): its options and the wire
   * checked, its body serialized, its legs sent; `read`: what the last leg's result becomes (a list's page).
   * Throws a refusal.
   */
  #checked(
    plan: OperationPlan,
    input: CallInput,
    query: Record<string, unknown> | undefined,
    options: CallOptions,
    trace: CallTrace | undefined,
    issues: ValidationIssue[],
    read: AfterLeg | undefined,
  ): Promise<WithResponse<unknown>> {
    const { op, label: operation } = plan;
    const given = !isEmpty(options);
    const settings = given ? readCallOptions(options, operation, op.idempotent, plan.write, this.#defaults, issues) : this.#defaults;
    if (given || input.header) {
      wireProblems(
        input.path,
        query,
        [
          ['options.idempotencyKey', settings.userKey],
          ['options.signature', options.signature],
          ['options.requestId', options.requestId],
          ...Object.entries(input.header ?? {}).map(([k, v]) => [`options.${k}`, v] as [string, unknown]),
        ],
        [['options.headers', settings.headers]],
        issues,
      );
    } else if (input.path !== undefined || query !== undefined) wireProblems(input.path, query, NO_HEADERS, NO_BAGS, issues);
    if (issues.length) throw new ValidationError(issues);

    const idempotencyKey = op.idempotent ? (settings.userKey ?? crypto.randomUUID()) : undefined;
    const leg: Leg = {
      plan,
      input,
      query,
      body: undefined,
      idempotencyKey,
      signal: options.signal,
      settings,
      trace,
      hooks: this.#hooks?.call(plan),
    };
    // Serialized once: the signed repeat and every retry send these exact bytes.
    if (input.body !== undefined && op.form !== undefined) {
      // The encoder comes with the multipart operation's row (loaded with its first call), not with the core; it
      // refuses a body it cannot send as this method does a JSON one.
      return (async () => {
        leg.body = await (await op.form!()).formBody(input.body, op.multipart!);
        return this.#legs(leg, options, read);
      })();
    }
    try {
      leg.body = input.body === undefined ? undefined : JSON.stringify(input.body);
    } catch (error) {
      throw notJson(error);
    }
    return this.#legs(leg, options, read);
  }

  /**
   * The call's legs: the first (signed, when the options carry a signature: relay mode, whose requestId the signed
   * retry claims), then one per wallet challenge a write is answered with, looked for in the leg's own step. A read
   * is its first leg's promise, its result made into what `read` makes of it (a list's page) in the same step
   * (`read` is given for reads only).
   */
  #legs(leg: Leg, options: CallOptions, read: AfterLeg | undefined): Promise<WithResponse<unknown>> {
    const { signature, requestId } = options;
    const { op, label } = leg.plan;
    const signed = signature !== undefined && requestId !== undefined;
    // Only a write's 202 can be a challenge (see #challenges). The final answer of a write whose row brings the SCA
    // check (an answer that can hold a payment: src/core/sca.ts) is looked at by it once loaded, at #challenges' end.
    const after: AfterLeg | undefined = leg.plan.write
      ? (result) => (result.response.status === 202 || op.sca ? this.#challenges(leg, options, result, signed ? 1 : 0) : result)
      : read;
    if (!signed) return this.#send(leg, undefined, undefined, undefined, after);
    leg.trace?.signed(requestId);
    // A relayed signature's requestId is single use, and its challenge (when this client handed it out) unexpired.
    if (!op.signing) return this.#send(leg, signature, requestId, undefined, after);
    return op.signing().then((loaded) => {
      const m = loaded as SigningModule;
      const retry = (this.#signed ??= new m.SignedRetry());
      retry.claim(requestId, label);
      return this.#send(leg, signature, requestId, retry.expiry(requestId), after);
    });
  }

  /**
   * A write's answer: its wallet challenges answered by the signed retry its row brings (`signing`), then the row's
   * SCA check, when it has one. A write without `signing` (an operation of the caller's own) answered with a
   * challenge is refused, never taken for its result.
   */
  async #challenges(leg: Leg, options: CallOptions, result: WithResponse<unknown>, signedLegs: number): Promise<WithResponse<unknown>> {
    const { op, label: operation } = leg.plan;
    if (result.response.status === 202) {
      if (op.signing) {
        const m = (await op.signing()) as SigningModule;
        const retry = (this.#signed ??= new m.SignedRetry());
        const { idempotencyKey, trace } = leg;
        const challenged = { operation, signed: op.signed, idempotencyKey, trace, scrub: this.scrub, signer: options.signer };
        result = await m.answerChallenges(retry, { ...challenged, send: (s, r, notAfter) => this.#send(leg, s, r, notAfter) }, result, signedLegs);
      } else if ((result.data as { payloadToSign?: unknown } | null)?.payloadToSign !== undefined) {
        throw new ConfigurationError(`${operation} was answered with a wallet challenge: give its operation the signed retry ({ signing })`);
      }
    }
    return op.sca ? (await op.sca()).scaHold(operation, result) : result;
  }

  /**
   * One leg: its URL and headers, then the attempt loop and the answer read in one asynchronous step
   * (non-2xx becomes a typed error). Throws when the URL cannot be built (nothing was sent).
   */
  #send(leg: Leg, signature?: string, requestId?: string, notAfter?: number, after?: AfterLeg): Promise<WithResponse<unknown>> {
    const { plan, input, query, body, idempotencyKey, settings } = leg;
    const { op } = plan;
    let url: string;
    try {
      url = plan.url(input.path, query);
    } catch (error) {
      // Nothing was sent: building the URL failed (the checks in #run should have caught it).
      throw new ValidationError([
        { path: '', rule: 'unsendable', message: `the request cannot be built: ${error instanceof Error ? error.message : String(error)}` },
      ]);
    }
    // A plain object with lower-case names (a later source replaces an earlier one, whatever the
    // case): fetch copies it faster than a `Headers`, and the custom `fetch` option gets it as is.
    let headers: Record<string, string>;
    if (settings.headers === undefined && input.header === undefined) {
      headers = { ...(body === undefined ? this.#plainHeaders : this.#jsonHeaders) };
      if (typeof body === 'object') headers['content-type'] = body.contentType;
    } else {
      headers = body === undefined ? {} : { 'content-type': typeof body === 'object' ? body.contentType : 'application/json' };
      Object.assign(headers, this.#defaultHeaders); // lower-cased once, in the constructor
      mergeHeaders(headers, settings.headers);
      mergeHeaders(headers, input.header);
      headers.authorization = this.#authorization;
      headers.accept = 'application/json';
    }
    if (op.anonymous) delete headers.authorization; // the document's `security: []`: no credential is sent
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (signature !== undefined) headers['service-wallet-signature'] = signature;
    if (requestId !== undefined) headers['request-id'] = requestId;

    const out: Outgoing = {
      url,
      headers,
      body,
      idempotencyKey,
      maxRetries: settings.maxRetries,
      timeout: settings.timeout,
      signal: leg.signal,
      safe: plan.safe(idempotencyKey, requestId),
      notAfter,
      trace: leg.trace,
      hooks: leg.hooks,
    };
    // With validateResponses (which needs the responseChecks part), a documented 2xx body is checked first (drift
    // reported, never thrown), then handed on: the part's code, so that a core without it holds none of it.
    const checked = this.#validateResponses && (op.resource === true || op.response !== undefined);
    return sendAndRead(this.#transport, plan, out, checked ? this.responseChecks!.checked(plan, (report) => this.#report(report), after) : after);
  }

  /** Drift between an answer and the document: reported, never thrown (the call succeeded at the service). */
  #report(report: ValidationIssueReport): void {
    if (this.#onValidationIssue) {
      try {
        ignoreRejection(this.#onValidationIssue(report));
      } catch {
        // The hook is the user's; a call that succeeded stays a success.
      }
      return;
    }
    // A warning in the log (the logging part), else on the console with validateResponses (the responseChecks part).
    if (!this.log.drift(report) && this.#validateResponses) this.responseChecks!.warn(report);
  }
}

/** A page out of its call's result (the pages after the first are fetched for their page alone). */
const pageOf = <T>(result: WithResponse<Page<T>>): Page<T> => result.data;

/** The refusal of a body that cannot be serialized (nothing was sent). */
function notJson(error: unknown): ValidationError {
  return new ValidationError([{ path: '', rule: 'not_json', message: `cannot be sent as JSON (${error instanceof Error ? error.message : String(error)})` }]);
}

/** What one leg of a call sends (the signed repeat sends the same, plus the two headers). */
interface Leg {
  plan: OperationPlan;
  input: CallInput;
  query: Record<string, unknown> | undefined;
  /**
   * The body, serialized once: a JSON body's text, or a multipart body's bytes (which carry their content type,
   * with its boundary, and their description for logs and hooks).
   */
  body: string | FormBytes | undefined;
  idempotencyKey: string | undefined;
  signal: AbortSignal | undefined;
  settings: CallSettings;
  trace: CallTrace | undefined;
  /** The call's hooks and its attempt count (shared by its legs), when the client has hooks. */
  hooks: CallHooks | undefined;
}
