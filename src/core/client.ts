/**
 * The pipeline every operation goes through, written once: local checks, validation, auth,
 * Idempotency-Key, the attempt loop (timeouts, retries), error mapping, the 202 signed retry,
 * and pagination. Resources only say which operation, which params, and what comes back.
 * @module
 */
import createClient, { createQuerySerializer } from 'openapi-fetch';
import { APIPromise, type WithResponse } from './api-promise';
import { base64Forms, createScrub, isChallenge, readChallenge, readEnvelope, toAPIError, type Scrub } from './answers';
import {
  APIConnectionError,
  ConfigurationError,
  CrossborderError,
  SignatureChallengeError,
  SignatureRequiredError,
  ValidationError,
  type SignatureChallenge,
  type ValidationIssue,
} from './errors';
import { logFromOptions, type Log } from './logger';
import type { ClientOptions, Environment, ListOptions, RequestOptions, SignedRequestOptions, ValidationIssueReport } from './options';
import { Page, PagePromise, type CursorTrail } from './pagination';
import { defaultSleep, unknownOutcomeHint } from './retry';
import { createAttemptLoop, PreparedRequest, type CallContext, type TransportConfig } from './transport';
import { check, resolvedSchema, resolveSchema, type SchemaRef } from './validation';
import { VERSION } from './version';
import { headerIn, mergeHeaders, normalizeQuery, wireProblems } from './wire';

/** The API version this SDK speaks: the path segment after the base address. */
export const API_VERSION = '2025-10-13';

/** Default service addresses per environment. */
export const DEFAULT_BASE_URLS: Record<Environment, string> = {
  production: 'https://api.crossborder.example',
  sandbox: 'https://sandbox.crossborder.example',
};

/** What the generated operation table says about one operation. */
export interface Operation {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** Honours `Idempotency-Key`: the SDK sends one per call, and retries are safe. */
  readonly idempotent: boolean;
  /**
   * The spec lists it as answering 202 with a wallet challenge. Documentation only: any write whose
   * answer is a 202 challenge goes through the signed retry (the service extends signing).
   */
  readonly signed: boolean;
  /** Refused by production platforms. */
  readonly sandboxOnly: boolean;
  /** Answers the list envelope. */
  readonly paginated: boolean;
  /** A request body must be given. */
  readonly bodyRequired?: boolean | undefined;
  /** @internal Schemas (or their names in the generated module) of the path parameters, the query and the body. */
  readonly params?: { readonly path?: SchemaRef | undefined; readonly query?: SchemaRef | undefined; readonly body?: SchemaRef | undefined } | undefined;
  /** @internal Name of the 2xx body schema in the generated zod module (checked with `validateResponses`). */
  readonly response?: string | undefined;
}

/** Parameters of one call, split by where they go. */
export interface CallInput {
  path?: Record<string, string> | undefined;
  query?: object | null | undefined;
  body?: unknown;
  /** Operation headers that are parameters (e.g. PASSKEY verify `Request-Id`). */
  header?: Record<string, string> | undefined;
}

type AnyOptions = RequestOptions & SignedRequestOptions & ListOptions;
type HttpClient = ReturnType<typeof createClient>;

const MAX_REMEMBERED_CHALLENGES = 1_000;

/** Environment variables, read where `process` exists (not in browsers). */
function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env?.[name];
  return value === '' ? undefined : value;
}

/** Base address with the version segment exactly once and no trailing slash. */
export function normalizeBaseUrl(baseUrl: string): string {
  let url = String(baseUrl).trim().replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/i.test(url)) throw new ConfigurationError(`baseUrl must be an http(s) URL, got '${baseUrl}'`);
  if (!url.endsWith(`/${API_VERSION}`)) url += `/${API_VERSION}`;
  return url;
}

/** Longest timer a JavaScript runtime honours (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** `crossborder-sdk/<version> <runtime>/<version>`, or undefined where the runtime forbids the header (browsers). */
function userAgent(): string | undefined {
  const g = globalThis as { Bun?: { version?: string }; Deno?: { version?: { deno?: string } }; EdgeRuntime?: unknown; navigator?: { userAgent?: string }; document?: unknown };
  let runtime: string | undefined;
  if (g.Bun?.version) runtime = `bun/${g.Bun.version}`;
  else if (g.Deno?.version?.deno) runtime = `deno/${g.Deno.version.deno}`;
  else if (typeof g.EdgeRuntime === 'string') runtime = `edge-runtime/${g.EdgeRuntime}`;
  else if (g.navigator?.userAgent === 'Cloudflare-Workers') runtime = 'workerd';
  else if (typeof process !== 'undefined' && process.versions?.node) runtime = `node/${process.versions.node}`;
  else if (g.document !== undefined) return undefined;
  return `crossborder-sdk/${VERSION}${runtime ? ` ${runtime}` : ''}`;
}

/** True in a web page (not a worker, not a server runtime). */
function inBrowser(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown; Deno?: unknown };
  return typeof g.window !== 'undefined' && typeof g.document !== 'undefined' && g.Deno === undefined;
}

/**
 * The transport core of {@link Crossborder}: the pipeline every operation goes through. Holds the
 * credentials in private fields: they never show in `util.inspect`, `JSON.stringify` or errors.
 * Resources reach it; users reach it only through {@link Crossborder.request}.
 * @internal
 */
export class CoreClient {
  /** `sandbox`, `production`, or `unknown` (a `baseUrl` given without an environment: the service decides). */
  readonly environment: Environment | 'unknown';
  /** Base address including the version segment. */
  readonly baseUrl: string;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** Per-attempt timeout in ms. */
  readonly timeout: number;
  /** Webhook public key (PEM or hex), if configured. */
  readonly webhookPublicKey: string | undefined;
  readonly #authorization: string;
  readonly #http: HttpClient;
  readonly #transport: TransportConfig;
  readonly #validateResponses: boolean;
  readonly #onValidationIssue: ((report: ValidationIssueReport) => void) | undefined;
  readonly #defaultHeaders: Record<string, string>;
  /** Challenges seen (requestId → expiresAt) and requestIds already sent, so none is reused. */
  readonly #challenges = new Map<string, string>();
  readonly #usedRequestIds = new Set<string>();
  /** @internal */
  readonly log: Log;
  /** @internal Removes the credentials from texts built from answers. */
  readonly scrub: Scrub;

  constructor(options: ClientOptions | null = {}) {
    options ??= {};
    const tokenId = options.tokenId ?? env('CROSSBORDER_TOKEN_ID');
    const secret = options.clientSecret ?? env('CROSSBORDER_CLIENT_SECRET');
    if (!tokenId) throw new ConfigurationError('Missing tokenId: pass { tokenId } or set CROSSBORDER_TOKEN_ID');
    if (!secret) throw new ConfigurationError('Missing clientSecret: pass { clientSecret } or set CROSSBORDER_CLIENT_SECRET');
    if (typeof tokenId !== 'string' || typeof secret !== 'string') throw new ConfigurationError('tokenId and clientSecret must be strings');
    if (tokenId.includes(':')) throw new ConfigurationError('tokenId must not contain ":" (HTTP Basic joins it to the secret with one)');
    if (inBrowser() && options.dangerouslyAllowBrowser !== true) {
      throw new ConfigurationError(
        'The client secret would ship to every visitor of this page: call the service from your backend ' +
          '(crossborder-sdk/wallet is the browser side), or pass dangerouslyAllowBrowser: true if you know why',
      );
    }
    const baseUrl = options.baseUrl ?? env('CROSSBORDER_BASE_URL');
    const environment = options.environment ?? env('CROSSBORDER_ENVIRONMENT') ?? (baseUrl === undefined ? 'production' : 'unknown');
    if (environment !== 'sandbox' && environment !== 'production' && environment !== 'unknown') {
      throw new ConfigurationError(`environment must be 'sandbox' or 'production', got '${String(environment)}'`);
    }
    this.environment = environment;
    this.baseUrl = normalizeBaseUrl(baseUrl ?? DEFAULT_BASE_URLS[environment === 'sandbox' ? 'sandbox' : 'production']);
    this.maxRetries = retries(options.maxRetries ?? 2, (m) => {
      throw new ConfigurationError(`maxRetries ${m}`);
    });
    this.timeout = timeoutOf(options.timeout ?? 60_000, (m) => {
      throw new ConfigurationError(`timeout ${m}`);
    });
    this.webhookPublicKey = options.webhookPublicKey ?? env('CROSSBORDER_WEBHOOK_PUBLIC_KEY');
    this.#validateResponses = options.validateResponses ?? false;
    this.#onValidationIssue = options.onValidationIssue;
    const problems = wireProblems(undefined, undefined, [], [['defaultHeaders', options.defaultHeaders]]);
    if (problems.length) throw new ConfigurationError(`${problems[0]!.path} ${problems[0]!.message}`);
    if (headerIn(options.defaultHeaders, 'idempotency-key') !== undefined) {
      throw new ConfigurationError('defaultHeaders must not carry Idempotency-Key: one key for every call would replay the first answer; pass options.idempotencyKey per call');
    }
    const agent = userAgent();
    this.#defaultHeaders = mergeHeaders(agent ? { 'user-agent': agent } : {}, options.defaultHeaders);
    this.#authorization = `Basic ${base64Forms(`${tokenId}:${secret}`)[0]}`;
    this.scrub = createScrub([secret, `${tokenId}:${secret}`, ...base64Forms(`${tokenId}:${secret}`), ...base64Forms(secret)]);
    this.log = logFromOptions(options.logger, options.logLevel, env('CROSSBORDER_LOG'));
    const userFetch = options.fetch;
    this.#transport = {
      // Looked up per call so that test interceptors installed later (msw) still see requests.
      fetch: userFetch ?? ((input, init) => globalThis.fetch(input, init)),
      sleep: options.sleep ?? defaultSleep,
      log: this.log,
      random: Math.random,
      scrub: this.scrub,
    };
    this.#http = createClient({
      baseUrl: this.baseUrl,
      Request: PreparedRequest as unknown as typeof Request,
      // Made once here: openapi-fetch would otherwise build the default serializer on every call.
      querySerializer: createQuerySerializer(),
    });
  }

  /** @internal Runs one operation through the pipeline. */
  call<T>(op: Operation, input: CallInput = {}, options?: AnyOptions | null): APIPromise<T> {
    return new APIPromise(this.#run<T>(op, input, options ?? {}));
  }

  /** @internal Runs a list operation: the result is awaitable (first page) and iterable (all items). */
  list<T>(op: Operation, input: CallInput = {}, options?: ListOptions | null): PagePromise<T> {
    const opts = options ?? {};
    const baseQuery = input.query ?? undefined;
    const fetchPage = (cursor: string | undefined, signal?: AbortSignal, trail?: CursorTrail): Promise<WithResponse<Page<T>>> => {
      const query = cursor === undefined ? baseQuery : { ...baseQuery, cursor };
      const pageSignal = signal && opts.signal ? AbortSignal.any([signal, opts.signal]) : (signal ?? opts.signal);
      return this.#run<unknown>(op, { ...input, query }, { ...opts, signal: pageSignal }).then((r) => {
        const operation = `${op.method} ${op.path}`;
        const envelope = readEnvelope<T>(r.data, r.response, operation, op.paginated, (issues) =>
          this.#report({ operation, status: r.response.status, requestId: r.requestId, issues }),
        );
        return { ...r, data: new Page<T>(envelope, (c, s, t) => fetchPage(c, s, t).then((p) => p.data), cursor, opts.prefetch, trail) };
      });
    };
    return new PagePromise(fetchPage(undefined));
  }

  /** @internal A rejected call, for refusals decided before the pipeline (same promise type as a call). */
  reject<T>(error: unknown): APIPromise<T> {
    return new APIPromise<T>(Promise.reject(error));
  }

  /** @internal Waits like the retry loop does (injectable in tests), abortable by `signal`. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.#transport.sleep(ms, signal);
  }

  /**
   * Calls any operation of the API by method and path, for operations not wrapped yet.
   * Path parameters are given in `path` and substituted into `{name}` placeholders.
   */
  request<T = unknown>(
    method: Operation['method'],
    path: string,
    input: CallInput = {},
    options: SignedRequestOptions = {},
  ): APIPromise<T> {
    const op: Operation = {
      id: `${method} ${path}`,
      method,
      path,
      idempotent: options?.idempotencyKey !== undefined || headerIn(options?.headers, 'idempotency-key') !== undefined,
      signed: true,
      sandboxOnly: false,
      paginated: false,
    };
    return this.call<T>(op, input ?? {}, options);
  }

  async #run<T>(op: Operation, input: CallInput, options: AnyOptions): Promise<WithResponse<T>> {
    const operation = `${op.method} ${op.path}`;
    if (op.sandboxOnly && this.environment === 'production') {
      throw new ConfigurationError(
        `${op.id} is sandbox-only and this client's environment is 'production'; nothing was sent`,
      );
    }
    const query = input.query === undefined || input.query === null ? undefined : normalizeQuery(input.query);
    const checked = validateParams(op, input.path, query, input.body);
    const issues = Array.isArray(checked) ? checked : await checked;
    const write = op.method !== 'GET';
    // `Idempotency-Key` among the headers is the idempotencyKey option, by one rule: never replaced, never smuggled.
    const headerKey = headerIn(options.headers, 'idempotency-key');
    let userKey = options.idempotencyKey;
    if (headerKey !== undefined) {
      if (!op.idempotent) {
        issues.push({ path: 'options.headers.Idempotency-Key', rule: 'unsupported', message: `${operation} does not honour Idempotency-Key (the service would ignore it)` });
      } else if (userKey !== undefined && userKey !== headerKey) {
        issues.push({ path: 'options.headers.Idempotency-Key', rule: 'conflict', message: 'differs from options.idempotencyKey: give the key once' });
      } else userKey = headerKey as string;
    }
    if (options.idempotencyKey !== undefined && !op.idempotent) {
      issues.push({ path: 'options.idempotencyKey', rule: 'unsupported', message: `${operation} does not honour Idempotency-Key` });
    } else if (userKey !== undefined && (typeof userKey !== 'string' || userKey.length === 0 || userKey.length > 255)) {
      issues.push({ path: 'options.idempotencyKey', rule: 'invalid_format', message: 'must be a non-empty string of at most 255 characters' });
    }
    if ((options.signature === undefined) !== (options.requestId === undefined)) {
      issues.push({ path: options.signature === undefined ? 'options.signature' : 'options.requestId', rule: 'required', message: 'signature and requestId go together (the second leg of a signed call)' });
    }
    if ((options.signature !== undefined || options.signer !== undefined) && !write) {
      issues.push({ path: 'options.signer', rule: 'unsupported', message: `${operation} is a read: reads are never signed` });
    }
    if (options.signer !== undefined && typeof options.signer !== 'function') {
      issues.push({ path: 'options.signer', rule: 'invalid_type', message: 'expected a function (challenge) => Promise<string>' });
    }
    const maxRetries = options.maxRetries === undefined ? this.maxRetries : retries(options.maxRetries, (m) => issue(issues, 'options.maxRetries', m));
    const timeout = options.timeout === undefined ? this.timeout : timeoutOf(options.timeout, (m) => issue(issues, 'options.timeout', m));
    const headerBags: [string, Record<string, unknown> | undefined][] = [['options.headers', withoutKey(options.headers)]];
    issues.push(
      ...wireProblems(input.path, query, [
        ['options.idempotencyKey', userKey],
        ['options.signature', options.signature],
        ['options.requestId', options.requestId],
        ...Object.entries(input.header ?? {}).map(([k, v]) => [`options.${k}`, v] as [string, unknown]),
      ], headerBags),
    );
    if (issues.length) throw new ValidationError(issues);

    const idempotencyKey = op.idempotent ? ((userKey as string | undefined) ?? crypto.randomUUID()) : undefined;
    // Serialized once: the signed repeat and every retry send these exact bytes.
    let bodyText: string | undefined;
    try {
      bodyText = input.body === undefined ? undefined : JSON.stringify(input.body);
    } catch (error) {
      throw new ValidationError([{ path: '', rule: 'not_json', message: `cannot be sent as JSON (${error instanceof Error ? error.message : String(error)})` }]);
    }
    const leg: Leg = { op, operation, input, query, bodyText, idempotencyKey, options, maxRetries, timeout };

    if (options.signature !== undefined && options.requestId !== undefined) {
      this.#claimRequestId(options.requestId, operation);
      return this.#expectFinal(await this.#send<T>(leg, options.signature, options.requestId), op, operation);
    }
    const first = await this.#send<T>(leg);
    if (first.response.status !== 202 || !write || !isChallenge(first.data, op.signed)) return first;

    const challenge = readChallenge(first.data, first.response, operation);
    if (!options.signer) {
      this.#remember(challenge);
      throw new SignatureRequiredError(challenge, { operation, idempotencyKey });
    }
    assertNotExpired(challenge, operation);
    const signature = await options.signer(challenge);
    if (typeof signature !== 'string' || signature === '') {
      throw new SignatureChallengeError(`The signer returned no signature for ${operation}`);
    }
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(signature)) {
      throw new SignatureChallengeError(`The signer returned a signature that cannot be sent as a header for ${operation}`);
    }
    assertNotExpired(challenge, operation); // the signer may have taken long: never send a stale challenge
    this.#claimRequestId(challenge.requestId, operation);
    return this.#expectFinal(await this.#send<T>(leg, signature, challenge.requestId), op, operation);
  }

  /** One leg: one request through openapi-fetch and the attempt loop; non-2xx becomes a typed error. */
  async #send<T>(leg: Leg, signature?: string, requestId?: string): Promise<WithResponse<T>> {
    const { op, operation, input, query, bodyText, idempotencyKey, options } = leg;
    // A plain object with lower-case names (a later source replaces an earlier one, whatever the
    // case): fetch copies it faster than a `Headers`, and the custom `fetch` option gets it as is.
    const headers: Record<string, string> = bodyText === undefined ? {} : { 'content-type': 'application/json' };
    Object.assign(headers, this.#defaultHeaders); // lower-cased once, in the constructor
    mergeHeaders(headers, withoutKey(options.headers) as Record<string, string> | undefined);
    mergeHeaders(headers, input.header);
    headers.authorization = this.#authorization;
    headers.accept = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (signature !== undefined) headers['service-wallet-signature'] = signature;
    if (requestId !== undefined) headers['request-id'] = requestId;

    const ctx: CallContext = {
      operation,
      idempotencyKey,
      maxRetries: leg.maxRetries,
      timeout: leg.timeout,
      signal: options.signal,
      headers,
      body: bodyText,
      // A signed leg goes out once per requestId: repeated only when it surely never left.
      safe: requestId === undefined && (op.method === 'GET' || idempotencyKey !== undefined),
      attempts: 0,
      response: undefined,
    };
    let result: { data?: unknown; error?: unknown };
    try {
      result = await this.#http.request(op.method.toLowerCase() as 'get', op.path as never, {
        params: { path: input.path, query },
        fetch: createAttemptLoop(this.#transport, ctx),
      } as never);
    } catch (error) {
      if (error instanceof CrossborderError) throw error;
      // Nothing was sent: building the request failed (the checks in #run should have caught it).
      if (ctx.attempts === 0) {
        throw new ValidationError([{ path: '', rule: 'unsendable', message: `the request cannot be built: ${error instanceof Error ? error.message : String(error)}` }]);
      }
      // openapi-fetch parses 2xx bodies itself: a non-JSON one (a proxy's HTML page) throws here.
      const cause = error instanceof Error ? Object.assign(new Error(this.scrub(error.message)), { name: error.name }) : undefined;
      throw new APIConnectionError(
        `${operation} answered ${ctx.response?.status ?? ''} with a body that is not JSON` +
          (op.method !== 'GET' ? unknownOutcomeHint(idempotencyKey) : ''),
        {
          outcomeUnknown: op.method !== 'GET',
          idempotencyKey,
          operation,
          cause,
          status: ctx.response?.status,
          requestId: ctx.response?.headers.get('x-request-id') ?? undefined,
        },
      );
    }
    const response = ctx.response!; // the real Response (openapi-fetch saw its buffered copy)
    const responseRequestId = response.headers.get('x-request-id') ?? undefined;
    if (!response.ok) throw toAPIError(response, result.error, operation, idempotencyKey, this.scrub);
    // A 2xx without the resource (an empty body, `null`): the write went out, its result is unknown.
    // A 2xx without the resource is not a success. Only a DELETE answers 204 (revocations); the escape
    // hatch (no documented answer) also takes a 202 or 204 without body, or a JSON null.
    const documented = op.response !== undefined;
    const empty = result.data === undefined || result.data === null;
    const expected =
      (response.status === 204 && (op.method === 'DELETE' || !documented)) || (!documented && (response.status === 202 || result.data === null));
    if (empty && !expected) {
      const write = op.method !== 'GET';
      throw new APIConnectionError(
        `${operation} answered ${response.status} without the resource` + (write ? unknownOutcomeHint(idempotencyKey) : ''),
        { outcomeUnknown: write, idempotencyKey, operation, status: response.status, requestId: responseRequestId },
      );
    }
    if (this.#validateResponses && op.response && response.status !== 202 && response.status !== 204) {
      const issues = check(await resolveSchema(op.response), result.data);
      if (issues.length) this.#report({ operation, status: response.status, requestId: responseRequestId, issues });
    }
    return { data: result.data as T, response, idempotencyKey, requestId: responseRequestId };
  }

  /** Drift between an answer and the document: reported, never thrown (the call succeeded at the service). */
  #report(report: ValidationIssueReport): void {
    if (this.#onValidationIssue) {
      try {
        this.#onValidationIssue(report);
      } catch {
        // The hook is the user's; a call that succeeded stays a success.
      }
      return;
    }
    const first = report.issues[0];
    const message = `${report.operation} answered ${report.status} with a body that differs from the document: ${first?.path || '(root)'}: ${first?.message ?? ''}`;
    if (this.log.enabled('warn')) this.log.warn(message, () => ({ ...report }));
    else if (this.#validateResponses) {
      try {
        console.warn(`[crossborder-sdk] ${message}`);
      } catch {
        // no console
      }
    }
  }

  #expectFinal<T>(result: WithResponse<T>, op: Operation, operation: string): WithResponse<T> {
    if (result.response.status === 202 && isChallenge(result.data, op.signed)) {
      const again = readChallenge(result.data, result.response, operation);
      this.#remember(again);
      throw new SignatureChallengeError(
        `${operation}: the service asked for another signature after the signed request (requestId ${again.requestId}); ` +
          `start again from the unsigned call`,
      );
    }
    return result;
  }

  /** Marks a requestId as sent; refuses one already sent or whose challenge has expired. */
  #claimRequestId(requestId: string, operation: string): void {
    if (this.#usedRequestIds.has(requestId)) {
      throw new SignatureChallengeError(
        `requestId ${requestId} was already used (it is single use); start again from the unsigned call to ${operation}`,
      );
    }
    const expiresAt = this.#challenges.get(requestId);
    if (expiresAt !== undefined) assertNotExpired({ requestId, expiresAt, payloadToSign: '' }, operation);
    this.#usedRequestIds.add(requestId);
    if (this.#usedRequestIds.size > MAX_REMEMBERED_CHALLENGES) {
      this.#usedRequestIds.delete(this.#usedRequestIds.values().next().value as string);
    }
  }

  #remember(challenge: SignatureChallenge): void {
    this.#challenges.set(challenge.requestId, challenge.expiresAt);
    if (this.#challenges.size > MAX_REMEMBERED_CHALLENGES) {
      this.#challenges.delete(this.#challenges.keys().next().value as string);
    }
  }

  /** The credentials are private fields; this keeps `util.inspect` output short and safe. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Crossborder { environment: '${this.environment}', baseUrl: '${this.baseUrl}' }`;
  }

  toJSON(): Record<string, unknown> {
    return { environment: this.environment, baseUrl: this.baseUrl, maxRetries: this.maxRetries, timeout: this.timeout };
  }
}

/** What one leg of a call sends (the signed repeat sends the same, plus the two headers). */
interface Leg {
  op: Operation;
  operation: string;
  input: CallInput;
  query: Record<string, unknown> | undefined;
  bodyText: string | undefined;
  idempotencyKey: string | undefined;
  options: AnyOptions;
  maxRetries: number;
  timeout: number;
}

/** The headers option without `Idempotency-Key` (which is the idempotencyKey option). */
function withoutKey(headers: Record<string, string> | undefined | null): Record<string, string> | undefined {
  if (!headers || headerIn(headers, 'idempotency-key') === undefined) return headers ?? undefined;
  const out: Record<string, string> = {};
  for (const name in headers) if (name.toLowerCase() !== 'idempotency-key') out[name] = headers[name]!;
  return out;
}

function issue(issues: ValidationIssue[], path: string, message: string): number {
  issues.push({ path, rule: 'invalid_value', message });
  return 0;
}

/** A whole number of retries ≥ 0; `fail` reports anything else. */
function retries(value: unknown, fail: (message: string) => unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    fail(`must be a whole number ≥ 0, got ${String(value)}`);
    return 0;
  }
  return value;
}

/** A timeout in ms, > 0 and within what timers can hold (a longer one would fire at once). */
function timeoutOf(value: unknown, fail: (message: string) => unknown): number {
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value) || value > MAX_TIMEOUT_MS) {
    fail(`must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS} (about 24.8 days), got ${String(value)}`);
    return 1;
  }
  return value;
}

/**
 * Checks path parameters, query and body against the operation's schemas. Paths name the field as
 * the caller wrote it. Synchronous once the generated schemas are loaded (every call but the first).
 */
function validateParams(op: Operation, path: CallInput['path'], query: Record<string, unknown> | undefined, body: unknown): ValidationIssue[] | Promise<ValidationIssue[]> {
  const refs = [op.params?.path, query === undefined ? undefined : op.params?.query, body === undefined ? undefined : op.params?.body];
  const schemas = refs.map((ref) => ref && resolvedSchema(ref));
  if (schemas.some((schema, i) => schema === undefined && refs[i] !== undefined)) {
    return Promise.all(refs.map((ref) => ref && resolveSchema(ref))).then(() => validateParams(op, path, query, body));
  }
  const [pathSchema, querySchema, bodySchema] = schemas;
  const issues: ValidationIssue[] = [];
  if (pathSchema) issues.push(...check(pathSchema, path ?? {}));
  if (querySchema) issues.push(...check(querySchema, query));
  if (body === undefined) {
    if (op.bodyRequired) issues.push({ path: '', rule: 'required', message: 'a request body is required' });
  } else if (bodySchema) {
    issues.push(...check(bodySchema, body));
  }
  return issues;
}

function assertNotExpired(challenge: SignatureChallenge, operation: string): void {
  const expires = Date.parse(challenge.expiresAt);
  // An unreadable expiry counts as expired: a challenge is never signed without knowing it is valid.
  if (Number.isNaN(expires) || expires <= Date.now()) {
    throw new SignatureChallengeError(
      `The challenge ${challenge.requestId} for ${operation} expired at ${challenge.expiresAt}; start again from the unsigned call`,
    );
  }
}

