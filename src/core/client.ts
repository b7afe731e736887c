/**
 * The pipeline every operation goes through, written once: local checks, validation, auth,
 * Idempotency-Key, the attempt loop (timeouts, retries), error mapping, the 202 signed retry,
 * and pagination. Resources only say which operation, which params, and what comes back.
 * @module
 */
import createClient, { createQuerySerializer } from 'openapi-fetch';
import { APIPromise, type WithResponse } from './api-promise';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  CrossborderError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  SignatureChallengeError,
  SignatureRequiredError,
  UnprocessableEntityError,
  ValidationError,
  type SignatureChallenge,
  type ValidationIssue,
} from './errors';
import { Log } from './logger';
import type { ClientOptions, Environment, ListOptions, RequestOptions, SignedRequestOptions } from './options';
import { Page, PagePromise, type ListEnvelope } from './pagination';
import { defaultSleep, parseRetryAfter, unknownOutcomeHint } from './retry';
import { createAttemptLoop, PreparedRequest, type CallContext, type TransportConfig } from './transport';
import { check, resolvedSchema, resolveSchema, type SchemaRef } from './validation';

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
  /** May answer 202 with a wallet challenge (the signed retry). */
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
  query?: object | undefined;
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
  let url = baseUrl.trim().replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/i.test(url)) throw new ConfigurationError(`baseUrl must be an http(s) URL, got '${baseUrl}'`);
  if (!url.endsWith(`/${API_VERSION}`)) url += `/${API_VERSION}`;
  return url;
}

/**
 * The transport core of {@link Crossborder}. Holds the credentials in private fields: they never
 * show in `util.inspect`, `JSON.stringify` or errors.
 */
export class CoreClient {
  /** `sandbox` or `production`. */
  readonly environment: Environment;
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
  readonly #defaultHeaders: Record<string, string>;
  /** Challenges seen (requestId → expiresAt) and requestIds already sent, so none is reused. */
  readonly #challenges = new Map<string, string>();
  readonly #usedRequestIds = new Set<string>();
  /** @internal */
  readonly log: Log;

  constructor(options: ClientOptions = {}) {
    const tokenId = options.tokenId ?? env('CROSSBORDER_TOKEN_ID');
    const secret = options.clientSecret ?? env('CROSSBORDER_CLIENT_SECRET');
    if (!tokenId) throw new ConfigurationError('Missing tokenId: pass { tokenId } or set CROSSBORDER_TOKEN_ID');
    if (!secret) throw new ConfigurationError('Missing clientSecret: pass { clientSecret } or set CROSSBORDER_CLIENT_SECRET');
    if (tokenId.includes(':')) throw new ConfigurationError('tokenId must not contain ":" (HTTP Basic joins it to the secret with one)');
    const environment = options.environment ?? 'production';
    if (environment !== 'sandbox' && environment !== 'production') {
      throw new ConfigurationError(`environment must be 'sandbox' or 'production', got '${String(environment)}'`);
    }
    this.environment = environment;
    this.baseUrl = normalizeBaseUrl(options.baseUrl ?? env('CROSSBORDER_BASE_URL') ?? DEFAULT_BASE_URLS[environment]);
    this.maxRetries = nonNegativeInteger('maxRetries', options.maxRetries ?? 2);
    this.timeout = positiveNumber('timeout', options.timeout ?? 60_000);
    this.webhookPublicKey = options.webhookPublicKey ?? env('CROSSBORDER_WEBHOOK_PUBLIC_KEY');
    this.#validateResponses = options.validateResponses ?? false;
    this.#defaultHeaders = mergeHeaders({}, options.defaultHeaders);
    this.#authorization = `Basic ${base64(`${tokenId}:${secret}`)}`;
    this.log = new Log(options.logger, options.logLevel ?? 'warn');
    const userFetch = options.fetch;
    this.#transport = {
      // Looked up per call so that test interceptors installed later (msw) still see requests.
      fetch: userFetch ?? ((input, init) => globalThis.fetch(input, init)),
      sleep: options.sleep ?? defaultSleep,
      log: this.log,
      random: Math.random,
    };
    this.#http = createClient({
      baseUrl: this.baseUrl,
      Request: PreparedRequest as unknown as typeof Request,
      // Made once here: openapi-fetch would otherwise build the default serializer on every call.
      querySerializer: createQuerySerializer(),
    });
  }

  /** @internal Runs one operation through the pipeline. */
  call<T>(op: Operation, input: CallInput = {}, options: AnyOptions = {}): APIPromise<T> {
    return new APIPromise(this.#run<T>(op, input, options));
  }

  /** @internal Runs a list operation: the result is awaitable (first page) and iterable (all items). */
  list<T>(op: Operation, input: CallInput = {}, options: ListOptions = {}): PagePromise<T> {
    const fetchPage = (cursor: string | undefined, signal?: AbortSignal): Promise<WithResponse<Page<T>>> => {
      const query = cursor === undefined ? input.query : { ...input.query, cursor };
      const pageSignal = signal && options.signal ? AbortSignal.any([signal, options.signal]) : (signal ?? options.signal);
      return this.#run<ListEnvelope<T>>(op, { ...input, query }, { ...options, signal: pageSignal }).then((r) => {
        assertEnvelope(r.data, r.response, op);
        return { ...r, data: new Page<T>(r.data, (c, s) => fetchPage(c, s).then((p) => p.data), cursor, options.prefetch) };
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
      idempotent: options.idempotencyKey !== undefined,
      signed: true,
      sandboxOnly: false,
      paginated: false,
    };
    return this.call<T>(op, input, options);
  }

  async #run<T>(op: Operation, input: CallInput, options: AnyOptions): Promise<WithResponse<T>> {
    const operation = `${op.method} ${op.path}`;
    if (op.sandboxOnly && this.environment === 'production') {
      throw new ConfigurationError(
        `${op.id} is sandbox-only and this client's environment is 'production'; nothing was sent`,
      );
    }
    const query = input.query === undefined ? undefined : normalizeQuery(input.query);
    const checked = validateParams(op, input.path, query, input.body);
    const issues = Array.isArray(checked) ? checked : await checked;
    if (options.idempotencyKey !== undefined && !op.idempotent) {
      issues.push({ path: 'options.idempotencyKey', rule: 'unsupported', message: `${operation} does not honour Idempotency-Key` });
    } else if (options.idempotencyKey !== undefined && (typeof options.idempotencyKey !== 'string' || options.idempotencyKey.length === 0 || options.idempotencyKey.length > 255)) {
      issues.push({ path: 'options.idempotencyKey', rule: 'invalid_format', message: 'must be a non-empty string of at most 255 characters' });
    }
    if ((options.signature === undefined) !== (options.requestId === undefined) && op.signed) {
      issues.push({ path: options.signature === undefined ? 'options.signature' : 'options.requestId', rule: 'required', message: 'signature and requestId go together (the second leg of a signed call)' });
    }
    if ((options.signature !== undefined || options.signer !== undefined) && !op.signed) {
      issues.push({ path: 'options.signer', rule: 'unsupported', message: `${operation} is not a signed operation` });
    }
    issues.push(...wireProblems(input, query, options));
    if (issues.length) throw new ValidationError(issues);

    const idempotencyKey = op.idempotent ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    // Serialized once: the signed repeat and every retry send these exact bytes.
    let bodyText: string | undefined;
    try {
      bodyText = input.body === undefined ? undefined : JSON.stringify(input.body);
    } catch (error) {
      throw new ValidationError([{ path: '', rule: 'not_json', message: `cannot be sent as JSON (${error instanceof Error ? error.message : String(error)})` }]);
    }
    const send = (signature?: string, requestId?: string) =>
      this.#send<T>(op, operation, input, query, bodyText, idempotencyKey, options, signature, requestId);

    if (options.signature !== undefined && options.requestId !== undefined) {
      this.#claimRequestId(options.requestId, operation);
      return this.#expectFinal(await send(options.signature, options.requestId), op, operation);
    }
    const first = await send();
    if (first.response.status !== 202 || !op.signed) return first;

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
    assertNotExpired(challenge, operation); // the signer may have taken long: never send a stale challenge
    this.#claimRequestId(challenge.requestId, operation);
    return this.#expectFinal(await send(signature, challenge.requestId), op, operation);
  }

  /** One leg: one request through openapi-fetch and the attempt loop; non-2xx becomes a typed error. */
  async #send<T>(
    op: Operation,
    operation: string,
    input: CallInput,
    query: Record<string, unknown> | undefined,
    bodyText: string | undefined,
    idempotencyKey: string | undefined,
    options: AnyOptions,
    signature: string | undefined,
    requestId: string | undefined,
  ): Promise<WithResponse<T>> {
    // A plain object with lower-case names (a later source replaces an earlier one, whatever the
    // case): fetch copies it faster than a `Headers`, and the custom `fetch` option gets it as is.
    const headers: Record<string, string> = bodyText === undefined ? {} : { 'content-type': 'application/json' };
    Object.assign(headers, this.#defaultHeaders); // lower-cased once, in the constructor
    mergeHeaders(headers, options.headers);
    mergeHeaders(headers, input.header);
    headers.authorization = this.#authorization;
    headers.accept = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (signature !== undefined) headers['service-wallet-signature'] = signature;
    if (requestId !== undefined) headers['request-id'] = requestId;

    const ctx: CallContext = {
      operation,
      idempotencyKey,
      maxRetries: nonNegativeInteger('options.maxRetries', options.maxRetries ?? this.maxRetries),
      timeout: positiveNumber('options.timeout', options.timeout ?? this.timeout),
      signal: options.signal,
      headers,
      body: bodyText,
      safe: op.method === 'GET' || idempotencyKey !== undefined,
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
      throw new APIConnectionError(
        `${operation} answered ${ctx.response?.status ?? ''} with a body that is not JSON` +
          (op.method !== 'GET' ? unknownOutcomeHint(idempotencyKey) : ''),
        {
          outcomeUnknown: op.method !== 'GET',
          idempotencyKey,
          operation,
          cause: error,
          status: ctx.response?.status,
          requestId: ctx.response?.headers.get('x-request-id') ?? undefined,
        },
      );
    }
    const response = ctx.response!; // the real Response (openapi-fetch saw its buffered copy)
    const responseRequestId = response.headers.get('x-request-id') ?? undefined;
    if (!response.ok) throw toAPIError(response, result.error, operation, idempotencyKey);
    if (result.data === undefined && response.status !== 204 && response.status !== 202) {
      throw new APIConnectionError(`${operation} answered ${response.status} with an empty body`, {
        outcomeUnknown: op.method !== 'GET',
        idempotencyKey,
        operation,
        status: response.status,
        requestId: responseRequestId,
      });
    }
    if (this.#validateResponses && op.response && response.status !== 202 && response.status !== 204) {
      await validateResponse(op, result.data, response, operation);
    }
    return { data: result.data as T, response, idempotencyKey, requestId: responseRequestId };
  }

  #expectFinal<T>(result: WithResponse<T>, op: Operation, operation: string): WithResponse<T> {
    if (result.response.status === 202 && op.signed) {
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

/** An unpaired surrogate: such a string cannot be encoded as UTF-8 (nor percent-encoded). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Header values: Latin-1 without control characters (a newline would split the header). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * What the schemas cannot see but the wire refuses: a path parameter that is not one URL segment,
 * a string that is not well-formed UTF-16 (a lone surrogate cannot be percent-encoded), a header
 * value with a newline or a character beyond Latin-1.
 */
function wireProblems(input: CallInput, query: Record<string, unknown> | undefined, options: AnyOptions): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(input.path ?? {})) {
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
      issues.push({ path: name, rule: 'invalid_segment', message: 'must be a non-empty string other than "." or ".."' });
    } else if (LONE_SURROGATE.test(value)) {
      issues.push({ path: name, rule: 'invalid_string', message: 'contains an unpaired surrogate' });
    }
  }
  for (const [name, value] of Object.entries(query ?? {})) {
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) issues.push({ path: name, rule: 'invalid_string', message: 'contains an unpaired surrogate' });
  }
  const headers: [string, unknown][] = [
    ['options.idempotencyKey', options.idempotencyKey],
    ['options.signature', options.signature],
    ['options.requestId', options.requestId],
    ...Object.entries(options.headers ?? {}).map(([k, v]) => [`options.headers.${k}`, v] as [string, unknown]),
    ...Object.entries(input.header ?? {}).map(([k, v]) => [`options.${k}`, v] as [string, unknown]),
  ];
  for (const [path, value] of headers) {
    if (value !== undefined && (typeof value !== 'string' || !HEADER_VALUE.test(value))) {
      issues.push({ path, rule: 'invalid_header', message: 'must be a string of Latin-1 characters without line breaks' });
    }
  }
  return issues;
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

/** Dates become ISO strings (openapi-fetch drops them), undefined entries go. */
function normalizeQuery(query: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    out[key] = value instanceof Date ? (Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()) : value;
  }
  return out;
}

function assertNotExpired(challenge: SignatureChallenge, operation: string): void {
  const expires = Date.parse(challenge.expiresAt);
  if (!Number.isNaN(expires) && expires <= Date.now()) {
    throw new SignatureChallengeError(
      `The challenge ${challenge.requestId} for ${operation} expired at ${challenge.expiresAt}; start again from the unsigned call`,
    );
  }
}

function readChallenge(data: unknown, response: Response, operation: string): SignatureChallenge {
  const c = data as Partial<SignatureChallenge> | undefined;
  const issues: ValidationIssue[] = [];
  for (const field of ['payloadToSign', 'requestId', 'expiresAt'] as const) {
    if (typeof c?.[field] !== 'string') issues.push({ path: field, rule: 'invalid_type', message: 'expected string' });
  }
  if (issues.length) {
    throw new ResponseValidationError(issues, { status: 202, operation, requestId: response.headers.get('x-request-id') ?? undefined });
  }
  return { payloadToSign: c!.payloadToSign!, requestId: c!.requestId!, expiresAt: c!.expiresAt!, type: typeof c!.type === 'string' ? c!.type : undefined };
}

function assertEnvelope(data: unknown, response: Response, op: Operation): asserts data is ListEnvelope<unknown> {
  const e = data as Partial<ListEnvelope<unknown>> | null;
  const issues: ValidationIssue[] = [];
  if (e === null || typeof e !== 'object') issues.push({ path: '', rule: 'invalid_type', message: 'expected object' });
  else {
    if (!Array.isArray(e.data)) issues.push({ path: 'data', rule: 'invalid_type', message: 'expected array' });
    if (op.paginated && typeof e.hasMore !== 'boolean') issues.push({ path: 'hasMore', rule: 'invalid_type', message: 'expected boolean' });
    if (e.nextCursor !== undefined && e.nextCursor !== null && typeof e.nextCursor !== 'string') {
      issues.push({ path: 'nextCursor', rule: 'invalid_type', message: 'expected string' });
    }
  }
  if (issues.length) {
    throw new ResponseValidationError(issues, {
      status: response.status,
      operation: `${op.method} ${op.path}`,
      requestId: response.headers.get('x-request-id') ?? undefined,
    });
  }
  const envelope = e as ListEnvelope<unknown> & { nextCursor?: string | null };
  if (envelope.nextCursor === null) envelope.nextCursor = undefined;
  if (!op.paginated) envelope.hasMore ??= false;
  if (typeof envelope.totalCount !== 'number') envelope.totalCount = envelope.data.length;
}

async function validateResponse(op: Operation, data: unknown, response: Response, operation: string): Promise<void> {
  const issues = check(await resolveSchema(op.response!), data);
  if (issues.length) {
    throw new ResponseValidationError(issues, { status: response.status, operation, requestId: response.headers.get('x-request-id') ?? undefined });
  }
}

/** Maps a non-2xx answer to the error class of its status, whatever its body. */
export function toAPIError(response: Response, body: unknown, operation: string, idempotencyKey: string | undefined): APIError {
  const parsed = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const text = typeof body === 'string' ? body : '';
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const message =
    typeof parsed.message === 'string'
      ? parsed.message
      : text
        ? `${response.statusText || 'error'}: ${text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200)}`
        : response.statusText || undefined;
  const init = {
    status: response.status,
    code: typeof parsed.code === 'string' ? parsed.code : undefined,
    message,
    details: parsed.details !== null && typeof parsed.details === 'object' ? (parsed.details as Record<string, unknown>) : undefined,
    requestId: response.headers.get('x-request-id') ?? undefined,
    headers,
    idempotencyKey,
    operation,
    // A write that failed inside the service may have taken effect; a refusal (4xx) did not.
    outcomeUnknown: response.status >= 500 && !operation.startsWith('GET '),
  };
  switch (response.status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 422:
      return new UnprocessableEntityError(init);
    case 429:
      return new RateLimitError({ ...init, retryAfter: parseRetryAfter(response.headers.get('retry-after')) });
    default:
      return response.status >= 500 ? new InternalServerError(init) : new APIError(init);
  }
}

/** Copies headers into `target` under lower-case names (undefined values are skipped). */
function mergeHeaders(target: Record<string, string>, source: Record<string, string | undefined> | undefined): Record<string, string> {
  if (source) {
    for (const name in source) {
      const value = source[name];
      if (value !== undefined) target[name.toLowerCase()] = value;
    }
  }
  return target;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new ConfigurationError(`${name} must be a whole number ≥ 0, got ${String(value)}`);
  return value;
}

function positiveNumber(name: string, value: number): number {
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new ConfigurationError(`${name} must be a positive number of milliseconds, got ${String(value)}`);
  }
  return value;
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
