/**
 * The error hierarchy. Every error the SDK throws extends {@link CrossborderError}, so one
 * `instanceof` check separates SDK failures from bugs in the caller's own code.
 *
 * The fields are `declare`d and set by each constructor, always, in the order they are declared: the
 * same own properties in the same order as class fields would give (`toJSON`, `util.inspect`), without
 * the field declarations in every bundle (the worker bundle).
 * @module
 */
import type { ErrorCode } from '../generated/named';
import { CrossborderError, type RequestContext, type ValidationIssue } from './error-base';

export { CrossborderError, WebhookVerificationError } from './error-base';
export { ValidationError, type RequestContext, type ValidationIssue } from './error-base';
export { ScaRequiredError } from './sca';

/** Header bag kept on API errors (lower-cased names). Secrets never appear here: request headers are not kept. */
export type ResponseHeaders = Record<string, string>;

/**
 * The service answered with a non-2xx status. Subclasses are keyed by status.
 * `code` is one of the documented {@link ErrorCode}s, or any other string the service may add.
 */
export class APIError extends CrossborderError {
  override name = 'APIError';
  /** HTTP status of the answer. */
  declare readonly status: number;
  /** Machine-readable code (e.g. `QUOTE_EXPIRED`); `UNKNOWN` when the body carried none. */
  declare readonly code: ErrorCode | (string & {});
  /** Extra structured information from the error body. */
  declare readonly details: Record<string, unknown> | undefined;
  /** `X-Request-Id` of the answer: quote it when reporting a problem. */
  declare readonly requestId: string | undefined;
  /** Response headers, lower-cased. */
  declare readonly headers: ResponseHeaders;
  /** The Idempotency-Key sent with the request, when there was one. */
  declare readonly idempotencyKey: string | undefined;
  /** Operation that failed, e.g. `POST /quotes`. */
  declare readonly operation: string | undefined;
  /**
   * True when the service may have acted before failing: a 5xx on a write. Reconcile before doing
   * anything else (retry with the same `idempotencyKey`, or look the resource up). False for a 4xx,
   * which the service refused, and for reads.
   */
  declare readonly outcomeUnknown: boolean;
  /**
   * Milliseconds the service asked to wait before trying again (`Retry-After`), when it said:
   * on a 429, and on a 503 (whose write may still have taken effect: see `outcomeUnknown`).
   */
  declare readonly retryAfter: number | undefined;

  constructor(init: {
    status: number;
    code?: string | undefined;
    message?: string | undefined;
    details?: Record<string, unknown> | undefined;
    requestId?: string | undefined;
    headers?: ResponseHeaders | undefined;
    idempotencyKey?: string | undefined;
    operation?: string | undefined;
    outcomeUnknown?: boolean | undefined;
    retryAfter?: number | undefined;
  }) {
    const code = init.code ?? 'UNKNOWN';
    super(`${init.status} ${code}: ${init.message ?? 'request failed'}` + (init.requestId ? ` (request ${init.requestId})` : ''));
    this.status = init.status;
    this.code = code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.headers = init.headers ?? {};
    this.idempotencyKey = init.idempotencyKey;
    this.operation = init.operation;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.retryAfter = init.retryAfter;
  }
}

/**
 * 400: the service refused the input. When the service names the refused fields (production's
 * `details.errors[]`), `issues` lists them as a {@link ValidationError} does, and `field` is the first.
 */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
  /** The fields the service refused, each with its rule; empty when the answer named none. */
  declare readonly issues: ValidationIssue[];
  /** Path of the first refused field, when the answer named one. */
  declare readonly field: string | undefined;
  constructor(init: ConstructorParameters<typeof APIError>[0] & { issues?: ValidationIssue[] | undefined }) {
    const { issues = [], ...rest } = init;
    super(rest);
    this.issues = issues;
    this.field = issues[0]?.path;
  }
}
/** 401: credentials, wallet signature or `Request-Id` refused. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** 403: not allowed (e.g. `SANDBOX_ONLY` with a production key). */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
/** 404: the resource does not exist (or was deleted). */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/** 409: state conflict (`QUOTE_EXPIRED`, `IDEMPOTENCY_KEY_REUSED`, `INVALID_STATE_TRANSITION`). */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/** 422: the service wants something else (e.g. more counterparty fields). */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
/**
 * 429: too many requests. `retryAfter` is the wait the service asked for, in milliseconds.
 * `dailyVolumeLimitExceeded` (code `DAILY_VOLUME_LIMIT_EXCEEDED`) is no rate limit: the amount would pass
 * the corridor's daily volume limit, waiting seconds does not help, and the SDK never retries it.
 */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  /** True for `DAILY_VOLUME_LIMIT_EXCEEDED`: not retried; lower the amount or wait for the daily limit to reset. */
  declare readonly dailyVolumeLimitExceeded: boolean;
  constructor(init: ConstructorParameters<typeof APIError>[0]) {
    const daily = init.code === DAILY_VOLUME_LIMIT_EXCEEDED;
    super(daily ? { ...init, message: `${init.message ?? ''} (a daily volume limit, not a rate limit: not retried)` } : init);
    this.dailyVolumeLimitExceeded = daily;
  }
}

/** The 429 code of a daily volume limit, which no retry can fix. */
export const DAILY_VOLUME_LIMIT_EXCEEDED = 'DAILY_VOLUME_LIMIT_EXCEEDED';
/**
 * Any 5xx, even with an empty body. On a write, `outcomeUnknown` is true: a gateway may answer 503
 * after the service acted, so the SDK does not resend a write without an Idempotency-Key.
 */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/**
 * The request could not be completed over the network, or the answer could not be read.
 * `outcomeUnknown` tells whether the service may have acted on it: when true, retry with the
 * same `idempotencyKey` (or look the resource up) before doing anything else.
 */
export class APIConnectionError extends CrossborderError {
  override name = 'APIConnectionError';
  /** True when the request may have reached the service (the response was lost or unreadable). */
  declare readonly outcomeUnknown: boolean;
  /** Idempotency-Key sent with the request, to retry with. */
  declare readonly idempotencyKey: string | undefined;
  /** Operation that failed, e.g. `POST /quotes`. */
  declare readonly operation: string | undefined;
  /** HTTP status, when a response arrived but its body was unusable (e.g. HTML from a proxy). */
  declare readonly status: number | undefined;
  /** `X-Request-Id` of the response, when one arrived. */
  declare readonly requestId: string | undefined;

  constructor(
    message: string,
    init: RequestContext & {
      outcomeUnknown: boolean;
      cause?: unknown;
      status?: number | undefined;
      requestId?: string | undefined;
    },
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.outcomeUnknown = init.outcomeUnknown;
    this.idempotencyKey = init.idempotencyKey;
    this.operation = init.operation;
    this.status = init.status;
    this.requestId = init.requestId;
  }
}

/** The attempt took longer than the `timeout` option. Distinct from an abort by the caller. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
}

/** The caller's `AbortSignal` fired. Never retried. */
export class APIUserAbortError extends CrossborderError {
  override name = 'APIUserAbortError';
  declare readonly idempotencyKey: string | undefined;
  /** True when the request may already have reached the service. */
  declare readonly outcomeUnknown: boolean;
  /** Operation that was aborted, e.g. `POST /quotes`. */
  declare readonly operation: string | undefined;
  constructor(message: string, init: RequestContext & { outcomeUnknown: boolean; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.idempotencyKey = init.idempotencyKey;
    this.outcomeUnknown = init.outcomeUnknown;
    this.operation = init.operation;
  }
}

/** A wallet challenge, as answered with 202 by a signed operation. */
export interface SignatureChallenge {
  /** The exact string to sign, byte for byte. */
  payloadToSign: string;
  /** Single-use id to send back as `Request-Id`. */
  requestId: string;
  /** ISO date-time after which the challenge is refused. */
  expiresAt: string;
  /** Credential type, when the service says. */
  type?: string | undefined;
}

/**
 * A signed operation answered 202 and no `signer` was given. Relay `challenge.payloadToSign` to the
 * user's device, then call the same method again with `{ signature, requestId }`.
 */
export class SignatureRequiredError extends CrossborderError {
  override name = 'SignatureRequiredError';
  declare readonly challenge: SignatureChallenge;
  declare readonly idempotencyKey: string | undefined;
  constructor(challenge: SignatureChallenge, init: RequestContext = {}) {
    super(
      `${init.operation ?? 'This operation'} needs a wallet signature: sign challenge.payloadToSign ` +
        `before ${challenge.expiresAt} and call again with { signature, requestId: '${challenge.requestId}' }`,
    );
    this.challenge = challenge;
    this.idempotencyKey = init.idempotencyKey;
  }
}

/** A signed-retry challenge cannot be used (expired, or its `requestId` was already used). */
export class SignatureChallengeError extends CrossborderError {
  override name = 'SignatureChallengeError';
}

/** A quote was executed after its `expiresAt` (checked locally before sending). */
export class QuoteExpiredError extends CrossborderError {
  override name = 'QuoteExpiredError';
  declare readonly quoteId: string;
  declare readonly expiresAt: string;
  constructor(quoteId: string, expiresAt: string) {
    super(`Quote ${quoteId} expired at ${expiresAt}; create a new quote`);
    this.quoteId = quoteId;
    this.expiresAt = expiresAt;
  }
}

/**
 * A request hook (the client's `hooks` option) threw or rejected: the message names the hook
 * (`hooks.afterResponse threw: …`) and `cause` is what it threw. Also the refusal of a header a
 * `beforeRequest` hook may not set (the message names the header; nothing was sent). The hook's failure never hides what
 * the service did: after an answer, `status`, `requestId` and `result` are that answer's, and
 * `outcomeUnknown` says whether a write may have acted (false for a write whose answer was read).
 */
export class HookError extends CrossborderError {
  override name = 'HookError';
  /** The hook that threw: `beforeRequest`, `afterResponse`, `beforeRetry` or `onError`. */
  declare readonly hook: 'beforeRequest' | 'afterResponse' | 'beforeRetry' | 'onError';
  /** Operation of the call, e.g. `POST /quotes`. */
  declare readonly operation: string | undefined;
  /** The Idempotency-Key the call sent: retry with it to reconcile. */
  declare readonly idempotencyKey: string | undefined;
  /** HTTP status of the last answer, when one came. */
  declare readonly status: number | undefined;
  /** `X-Request-Id` of the last answer, when one came. */
  declare readonly requestId: string | undefined;
  /**
   * True when the service may have acted and the SDK does not know how: a write whose attempt got no readable
   * answer, or a 5xx. False for a write whose answer the hook was given (see `result`), and for reads.
   */
  declare readonly outcomeUnknown: boolean;
  /**
   * The answer the call got, read as the call would have returned it (`data` parsed, the `Response`), when the hook
   * threw after an answer (`afterResponse`). Not enumerable: `JSON.stringify(error)` leaves it out (its data may
   * hold personal data).
   */
  declare readonly result: { data: unknown; response: Response; requestId: string | undefined } | undefined;
  /**
   * The error the call was failing with when the hook threw (`onError`, or `beforeRetry` after a failed attempt).
   * Not enumerable, as `result`.
   */
  declare readonly error: unknown;

  constructor(
    hook: HookError['hook'],
    message: string,
    init: RequestContext & {
      cause?: unknown;
      status?: number | undefined;
      requestId?: string | undefined;
      outcomeUnknown: boolean;
      result?: HookError['result'];
      error?: unknown;
    },
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.hook = hook;
    this.operation = init.operation;
    this.idempotencyKey = init.idempotencyKey;
    this.status = init.status;
    this.requestId = init.requestId;
    this.outcomeUnknown = init.outcomeUnknown;
    Object.defineProperty(this, 'result', { value: init.result, enumerable: false });
    Object.defineProperty(this, 'error', { value: init.error, enumerable: false });
  }
}

/** A configuration mistake found when building the client (e.g. missing credentials). */
export class ConfigurationError extends CrossborderError {
  override name = 'ConfigurationError';
}

/**
 * A 2xx answer did not have the documented shape (with `validateResponses`, or where the SDK
 * needs the shape itself, as for list envelopes and 202 challenges).
 */
export class ResponseValidationError extends CrossborderError {
  override name = 'ResponseValidationError';
  declare readonly issues: ValidationIssue[];
  declare readonly status: number;
  declare readonly requestId: string | undefined;
  declare readonly operation: string | undefined;
  constructor(issues: ValidationIssue[], init: { status: number; requestId?: string | undefined; operation?: string | undefined }) {
    const first = issues[0];
    super(
      `${init.operation ?? 'Response'} answered ${init.status} with an unexpected body` +
        (first ? `: ${first.path || '(root)'}: ${first.message}` : '') +
        (init.requestId ? ` (request ${init.requestId})` : ''),
    );
    this.issues = issues;
    this.status = init.status;
    this.requestId = init.requestId;
    this.operation = init.operation;
  }
}

/** Pagination would loop: the service answered a cursor that was already followed. */
export class PaginationError extends CrossborderError {
  override name = 'PaginationError';
}

/** Machine-readable cause of a {@link WalletCryptoError}. */
export type WalletCryptoErrorReason = 'invalid_input' | 'decrypt_failed' | 'challenge_expired' | 'session_expired' | 'unsupported';

/**
 * A wallet key operation failed on the device: bad input (hex, lengths, passkey fields), a session key
 * that does not open, or a challenge / session past its `expiresAt`. Messages never carry key material.
 */
export class WalletCryptoError extends CrossborderError {
  override name = 'WalletCryptoError';
  /** Which check failed. */
  declare readonly reason: WalletCryptoErrorReason;
  /** @param options `cause`: the underlying failure (kept, so a runtime's own refusal is not lost). */
  constructor(reason: WalletCryptoErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
  }
}
