/**
 * What request hooks are given and may return: the types of the `hooks` client option, in a module of their own
 * (it imports nothing) so that the options, the transport and the hooks part all read them without a circle.
 * @module
 */

/** The four hooks by name, as named in a {@link HookError}. */
export type HookName = 'beforeRequest' | 'afterResponse' | 'beforeRetry' | 'onError';

/**
 * What every hook is told of the call: the operation and, once an attempt is under way, the attempt. Frozen: a hook
 * reads it and cannot change the request through it.
 */
export interface HookCallView {
  /** Method and path template, e.g. `POST /quotes/{quoteId}/execute`. */
  readonly operation: string;
  /** HTTP method, e.g. `POST`. */
  readonly method: string;
  /** The operation's path template, e.g. `/quotes/{quoteId}` (never personal data: no values). */
  readonly urlTemplate: string;
  /** The Idempotency-Key the call sends on every attempt, when the operation honours one. */
  readonly idempotencyKey: string | undefined;
}

/** What a hook is told of one attempt about to go out (or gone out). */
export interface HookRequestView extends HookCallView {
  /**
   * The request path with its values filled in, relative to the base address and without the query (whose values
   * may be personal data), e.g. `/quotes/Quote:019542f5/execute`.
   */
  readonly path: string;
  /**
   * The attempt, counted from 1 across the whole call: retries count, and so does each signed repeat of a write
   * answered with a wallet challenge (202).
   */
  readonly attempt: number;
  /** True when this attempt carries a wallet signature (the signed repeat, or the second leg of the relay mode). */
  readonly signed: boolean;
  /**
   * The request headers, lower-case names, redacted as the logger redacts them: `authorization`,
   * `service-wallet-signature`, cookies and proxy credentials read `[redacted]`.
   */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The request body, masked as the logger masks it (personal data and secrets read `[redacted]`, at any depth; a
   * body that is not JSON is a summary such as `[120 bytes, not JSON]`). With `unsafeRawBodies: true`, the body text
   * as sent. `undefined` when there is none.
   */
  readonly body: unknown;
}

/** What `afterResponse` is told: the attempt and the answer it got. */
export interface HookResponseView extends HookRequestView {
  /** HTTP status of the answer. */
  readonly status: number;
  /** `X-Request-Id` of the answer. */
  readonly requestId: string | undefined;
  /** Milliseconds from sending the attempt to having read the whole answer. */
  readonly durationMs: number;
  /** The answer's headers, lower-case names, redacted as the request's are. */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The answer's body, masked as the request's is (with `unsafeRawBodies: true`, its text as received). */
  readonly responseBody: unknown;
}

/** What `beforeRetry` is told: the attempt that failed or answered a status that may be retried, and the wait before the next. */
export interface HookRetryView extends HookRequestView {
  /** The status of the answer to be retried (a 429, a 503, …); `undefined` when the attempt got no answer (timeout, connection). */
  readonly status: number | undefined;
  /** `X-Request-Id` of the answer, when there was one. */
  readonly requestId: string | undefined;
  /** Milliseconds from sending the attempt to its failure or its answer. */
  readonly durationMs: number;
  /** Why the attempt is retried: `status 503`, or the failure's name (`APITimeoutError`, `APIConnectionError`). */
  readonly reason: string;
  /** Milliseconds the client waits before the next attempt. */
  readonly delayMs: number;
  /** The number of the next attempt. */
  readonly nextAttempt: number;
}

/** What `onError` is told: the call failed, and with what. */
export interface HookErrorView extends HookCallView {
  /** The status of the answer the call failed with, when one came (an `APIError`). */
  readonly status: number | undefined;
  /** `X-Request-Id` of that answer. */
  readonly requestId: string | undefined;
  /** Milliseconds from the call to its failure. */
  readonly durationMs: number;
  /** The error's class name, e.g. `RateLimitError`, `APITimeoutError`, `ValidationError`. */
  readonly errorName: string;
  /** The service's error code (`QUOTE_EXPIRED`), when the error has one. */
  readonly code: string | undefined;
  /** True when the service may have acted on the call (a write that failed without a readable answer). */
  readonly outcomeUnknown: boolean;
  /**
   * The error itself (its message may quote the service's words, which may name a person), only with
   * `unsafeRawBodies: true`; `undefined` otherwise.
   */
  readonly error: unknown;
}

/** What `beforeRequest` may return: headers to add to this attempt. */
export interface BeforeRequestResult {
  /**
   * Headers added to this attempt (and only this one: return them again for the next). They may replace any header
   * but `Authorization`, `Idempotency-Key` and the signature headers (`Service-Wallet-Signature`, `Request-Id`):
   * returning one of those fails the call with a `HookError` naming it, before anything is sent.
   */
  headers?: Record<string, string> | undefined;
}

/**
 * Request hooks: functions the client calls around each attempt, for metrics, tracing into your own system, audit
 * logs or extra headers. Each is optional and may be async (the call waits for it). Each gets a frozen, redacted view
 * ({@link HookRequestView}): no credential, signature or personal data reaches a hook unless the client's
 * `unsafeRawBodies` option is `true`.
 *
 * A hook that throws (or rejects) fails the call with a `HookError` naming it (`hooks.afterResponse threw: …`), whose
 * `cause` is what was thrown. An answer is never lost and a write is never repeated for it: the error carries the
 * answer's status, request id and result, and a write that was answered is not sent again.
 */
export interface RequestHooks {
  /**
   * Before each attempt is sent (retries and signed repeats included). May return headers to add to it. Throwing
   * fails the call before this attempt goes out.
   */
  beforeRequest?: ((request: HookRequestView) => BeforeRequestResult | void | Promise<BeforeRequestResult | void>) | undefined;
  /**
   * After each attempt's answer is read (any status, before the client decides to retry it). Throwing fails the call
   * with a `HookError` carrying the answer (`status`, `requestId`, `result`); the request is not sent again.
   */
  afterResponse?: ((response: HookResponseView) => void | Promise<void>) | undefined;
  /** Before the client waits and retries an attempt. Throwing stops the retries: the call fails with a `HookError`. */
  beforeRetry?: ((retry: HookRetryView) => void | Promise<void>) | undefined;
  /**
   * Once when a call fails, with the error it fails with (not for a `HookError` of another hook). The call still
   * fails with that error; throwing here fails it with a `HookError` instead, whose `error` is the original one.
   */
  onError?: ((failure: HookErrorView) => void | Promise<void>) | undefined;
}
