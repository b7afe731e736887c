/**
 * Options of the client and of each call.
 * @module
 */
import type { SignatureChallenge } from './errors';
import type { Logger, LogLevel } from './logger';
import type { Sleep } from './retry';

/** Which service the client talks to. Sandbox-only methods refuse to run against `production`. */
export type Environment = 'sandbox' | 'production';

/** Signs a wallet challenge: returns the `Service-Wallet-Signature` value. May take seconds (a relay to the user's device). */
export type Signer = (challenge: SignatureChallenge) => Promise<string>;

/** Options of {@link Crossborder}. */
export interface ClientOptions {
  /** API token id. Default: `CROSSBORDER_TOKEN_ID`. */
  tokenId?: string | undefined;
  /** API client secret. Default: `CROSSBORDER_CLIENT_SECRET`. Never logged or shown. */
  clientSecret?: string | undefined;
  /** Service address; the version segment `/2025-10-13` is added when missing. Default: `CROSSBORDER_BASE_URL`, else the environment's address. */
  baseUrl?: string | undefined;
  /** `sandbox` or `production` (default `production`). Sandbox-only methods refuse to run in `production`. */
  environment?: Environment | undefined;
  /** A Fetch implementation, e.g. `createSandbox().fetch` for the in-process sandbox. Default: `globalThis.fetch`, looked up at each call. */
  fetch?: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
  /** Retries after the first attempt, for failures that are safe to repeat. Default 2. */
  maxRetries?: number | undefined;
  /** Per-attempt timeout in milliseconds. Default 60 000. */
  timeout?: number | undefined;
  /** Where logs go (console and pino fit). Default: none. */
  logger?: Logger | undefined;
  /** Default `warn` when a logger is given. */
  logLevel?: LogLevel | undefined;
  /** The service's webhook public key (PEM or uncompressed-point hex). Default: `CROSSBORDER_WEBHOOK_PUBLIC_KEY`. */
  webhookPublicKey?: string | undefined;
  /** Check every 2xx body against the document's schema (off by default: the service may add fields). */
  validateResponses?: boolean | undefined;
  /** Headers added to every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** How to wait between attempts (tests inject one; default: an abortable `setTimeout`). */
  sleep?: Sleep | undefined;
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
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
}

/** Options of operations that may answer 202 with a wallet challenge. */
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
