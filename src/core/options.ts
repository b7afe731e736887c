/**
 * Options of the client and of each call.
 * @module
 */
import type { SignatureChallenge, ValidationIssue } from './errors';
import type { RequestHooks } from './hook-types';
import type { Logger, LogLevel } from './log-types';
import type { Sleep } from './retry';
import type { MeterProviderLike, TelemetryOptions, TracerProviderLike } from './telemetry-types';

/** Which service the client talks to. Sandbox-only methods refuse to run against `production`. */
export type Environment = 'sandbox' | 'production';

/** An answer that differs from the document, reported by `validateResponses` (never thrown). */
export interface ValidationIssueReport {
  /** e.g. `POST /quotes`. */
  operation: string;
  /** HTTP status of the answer (2xx: the call succeeded). */
  status: number;
  /** `X-Request-Id` of the answer. */
  requestId: string | undefined;
  /** What differs, by field. */
  issues: ValidationIssue[];
}

/** Signs a wallet challenge: returns the `Service-Wallet-Signature` value. May take seconds (a relay to the user's device). */
export type Signer = (challenge: SignatureChallenge) => Promise<string>;

/**
 * Options of {@link Crossborder} and {@link CrossborderCore}. A name that is not one of these is a
 * `ConfigurationError` naming the option it may mean (`baseURL`: "Did you mean baseUrl?").
 */
export interface ClientOptions {
  /**
   * API token id. Default: `CROSSBORDER_TOKEN_ID`. Needed by API calls: without it the first call
   * throws a `ConfigurationError`; `webhooks.unwrap` needs only `webhookPublicKey`.
   */
  tokenId?: string | undefined;
  /** API client secret. Default: `CROSSBORDER_CLIENT_SECRET`. Never logged or shown. Needed by API calls, as `tokenId`. */
  clientSecret?: string | undefined;
  /**
   * An agent's credential: the `accessToken` of a redeemed device code (`cb.agents.redeemDeviceCode`). Given, the
   * client is that agent: it sends `Authorization: Bearer <agentToken>` and calls `cb.agents.me`, under the agent's
   * policy, instead of the platform's operations. Default: `CROSSBORDER_AGENT_TOKEN` when neither `tokenId` nor
   * `clientSecret` is given. Never logged or shown; refused beside `tokenId` or `clientSecret`.
   */
  agentToken?: string | undefined;
  /** Service address; the version segment `/2025-10-13` is added when missing. Default: `CROSSBORDER_BASE_URL`, else the environment's address. */
  baseUrl?: string | undefined;
  /**
   * `sandbox` or `production`. Default: `CROSSBORDER_ENVIRONMENT`; else `production` when no `baseUrl`
   * is given, and unknown when one is (the service then decides what is sandbox-only). Sandbox-only
   * methods are refused locally only in `production`.
   */
  environment?: Environment | undefined;
  /** A Fetch implementation, e.g. `createSandbox().fetch` for the in-process sandbox. Default: `globalThis.fetch`, looked up at each call. */
  fetch?: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
  /** Retries after the first attempt, for failures that are safe to repeat. Default 2. */
  maxRetries?: number | undefined;
  /** Deadline of each attempt in milliseconds (connecting, headers and the whole body). Default 60 000. */
  timeout?: number | undefined;
  /**
   * Where logs go: console, pino, winston and bunyan fit (both argument orders are understood).
   * Default: none, or the console when `CROSSBORDER_LOG` is set. At `info`, one line per request
   * (method, path, status, ms, request id, attempt); at `debug`, redacted headers and bodies.
   */
  logger?: Logger | undefined;
  /** Default: `CROSSBORDER_LOG` (`debug`, `info`, `warn`, `error`, `off`), else `warn`. */
  logLevel?: LogLevel | undefined;
  /** The service's webhook public key (PEM or uncompressed-point hex). Default: `CROSSBORDER_WEBHOOK_PUBLIC_KEY`. */
  webhookPublicKey?: string | undefined;
  /**
   * Development aid: compare every 2xx body with the document's schema and report what differs to
   * `onValidationIssue` (else the logger's `warn`, else the console). Never fails a call: the call
   * succeeded at the service, and money may have moved.
   */
  validateResponses?: boolean | undefined;
  /** Receives the differences `validateResponses` finds (and a list envelope's repairs). */
  onValidationIssue?: ((report: ValidationIssueReport) => void) | undefined;
  /**
   * The client holds your API secret: in a browser (a web page, or a dedicated, shared or service
   * worker) it would ship to every visitor, so the client refuses to start there unless this is `true`.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /** Headers added to every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** How to wait between attempts (tests inject one; default: an abortable `setTimeout`). */
  sleep?: Sleep | undefined;
  /**
   * OpenTelemetry tracer provider for the SDK's spans. Default: the one registered globally with
   * `@opentelemetry/api` (an optional peer dependency), if any. See docs/observability.md.
   */
  tracerProvider?: TracerProviderLike | undefined;
  /** OpenTelemetry meter provider for the SDK's metrics. Default: the one registered globally, if any. */
  meterProvider?: MeterProviderLike | undefined;
  /** `false` turns the built-in OpenTelemetry spans and metrics off; `{ propagateContext: true }` sends `traceparent`. */
  telemetry?: boolean | TelemetryOptions | undefined;
  /**
   * Request hooks, called around each attempt: `beforeRequest` (may add headers), `afterResponse`, `beforeRetry`,
   * `onError`. Each gets a frozen view with headers redacted and bodies masked as the logger does; a hook that
   * throws fails the call with a `HookError` naming it. See {@link RequestHooks} and docs/hooks.md.
   */
  hooks?: RequestHooks | undefined;
  /**
   * `true` gives hooks what is otherwise masked: the request and answer bodies as sent and received (their text, so
   * personal data such as names, emails, birth dates and account numbers, and the secrets a body may carry:
   * one-time codes, session keys, wallet challenges and signatures), and the error object in `onError`. Headers stay
   * redacted (`Authorization`, `Service-Wallet-Signature`, cookies) and the client's own credentials are removed from
   * the texts. Default `false`; refused when not a boolean.
   */
  unsafeRawBodies?: boolean | undefined;
}

/** Options accepted by every method, as its last argument. */
export interface RequestOptions {
  /** Aborts the call (never retried). */
  signal?: AbortSignal | undefined;
  /** Per-attempt timeout in ms for this call. */
  timeout?: number | undefined;
  /** Retries for this call. */
  maxRetries?: number | undefined;
  /** For operations that honour `Idempotency-Key`: the key to send (default: a new UUID per call). Reuse it to retry a call whose outcome is unknown. */
  idempotencyKey?: string | undefined;
  /** Extra headers for this call. An `Idempotency-Key` here is the same as `idempotencyKey` (refused where the operation has none). */
  headers?: Record<string, string> | undefined;
}

/**
 * Options of writes: any write may answer 202 with a wallet challenge (the spec's signed operations,
 * and others the service signs, such as executing a quote funded from an embedded wallet).
 */
export interface SignedRequestOptions extends RequestOptions {
  /** Signs the challenge, then the SDK repeats the identical request with the signature. */
  signer?: Signer | undefined;
  /** Second leg of the relay mode: the signature of a challenge received in a {@link SignatureRequiredError}. */
  signature?: string | undefined;
  /** Second leg of the relay mode: the challenge's `requestId`. */
  requestId?: string | undefined;
}

/** Options of list methods. */
export interface ListOptions extends RequestOptions {
  /** Request page n+1 while page n is being consumed (`for await`). */
  prefetch?: boolean | undefined;
}
