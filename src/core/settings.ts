/**
 * The client's settings, read and checked once when it is made: credentials, address, environment,
 * retries, timeout, headers. A call only checks what it overrides.
 * @module
 */
import { base64Forms } from './scrub';
import { ConfigurationError } from './errors';
import type { ClientOptions, Environment } from './options';
import { checkOptionNames } from './suggest';
import { API_VERSION, VERSION } from './version';
import { headerIn, headerProblems, mergeHeaders } from './wire';

export { API_VERSION };

/** Default service addresses per environment. */
export const DEFAULT_BASE_URLS: Record<Environment, string> = {
  production: 'https://api.crossborder.example',
  sandbox: 'https://sandbox.crossborder.example',
};

/** Longest timer a JavaScript runtime honours (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Environment variables, read where `process` exists (not in browsers). */
export function env(name: string): string | undefined {
  let value: string | undefined;
  try {
    value = typeof process === 'undefined' ? undefined : process.env?.[name];
  } catch {
    // Deno without --allow-env throws on the read: a fallback the runtime withholds is simply absent.
    return undefined;
  }
  return value === '' ? undefined : value;
}

/** Base address with the version segment exactly once and no trailing slash. */
export function normalizeBaseUrl(baseUrl: string): string {
  let url = String(baseUrl).trim().replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/i.test(url)) throw new ConfigurationError(`baseUrl must be an http(s) URL, got '${baseUrl}'`);
  if (!url.endsWith(`/${API_VERSION}`)) url += `/${API_VERSION}`;
  return url;
}

/** A whole number of retries ≥ 0, or the reason it is not. */
export function retriesProblem(value: unknown): string | undefined {
  return typeof value !== 'number' || !Number.isInteger(value) || value < 0 ? `must be a whole number ≥ 0, got ${String(value)}` : undefined;
}

/** A timeout in ms, > 0 and within what timers can hold (a longer one would fire at once), or the reason it is not. */
export function timeoutProblem(value: unknown): string | undefined {
  return typeof value !== 'number' || !(value > 0) || !Number.isFinite(value) || value > MAX_TIMEOUT_MS
    ? `must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS} (about 24.8 days), got ${String(value)}`
    : undefined;
}

/** The globals that tell a runtime. */
type Globals = Record<string, unknown> & {
  Bun?: { version?: string };
  Deno?: { version?: { deno?: string } };
  EdgeRuntime?: unknown;
  navigator?: { userAgent?: unknown };
  document?: unknown;
};

/** A server runtime with worker-like globals, by its own global (Bun, Deno, Vercel Edge, Cloudflare workerd), as `name/version`. */
function serverRuntime(g: Globals): string | undefined {
  if (g.Bun?.version) return `bun/${g.Bun.version}`;
  if (g.Deno?.version?.deno) return `deno/${g.Deno.version.deno}`;
  if (typeof g.EdgeRuntime === 'string') return `edge-runtime/${g.EdgeRuntime}`;
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
}

/** `crossborder-sdk/<version> <runtime>/<version>`, or undefined where the runtime forbids the header (browsers). */
function userAgent(): string | undefined {
  const g = globalThis as Globals;
  const runtime = serverRuntime(g) ?? (typeof process !== 'undefined' && process.versions?.node ? `node/${process.versions.node}` : undefined);
  if (!runtime && g.document !== undefined) return undefined;
  return `crossborder-sdk/${VERSION}${runtime ? ` ${runtime}` : ''}`;
}

/** The classes of a browser worker's global object: dedicated, shared and service workers. */
const WORKER_SCOPES = ['WorkerGlobalScope', 'DedicatedWorkerGlobalScope', 'SharedWorkerGlobalScope', 'ServiceWorkerGlobalScope'];

/**
 * True in a browser: a web page, or a dedicated, shared or service worker (no window, no document:
 * the global object is a WorkerGlobalScope, with importScripts). Not in a server runtime, some of
 * which have worker-like globals: Deno, Bun, Cloudflare workerd, Vercel Edge.
 */
function inBrowser(): boolean {
  const g = globalThis as Globals;
  if (g.Deno !== undefined) return false;
  if (typeof g.window !== 'undefined' && typeof g.document !== 'undefined') return true;
  if (serverRuntime(g)) return false;
  if (typeof g.importScripts === 'function') return true;
  return WORKER_SCOPES.some((name) => typeof g[name] === 'function' && globalThis instanceof (g[name] as abstract new () => unknown));
}

/** What a client runs with, checked. */
export interface Settings {
  environment: Environment | 'unknown';
  baseUrl: string;
  maxRetries: number;
  timeout: number;
  webhookPublicKey: string | undefined;
  /** `Basic …` (or an agent's `Bearer …`): held by the client in a private field, never logged (empty when a credential is missing). */
  authorization: string;
  /** Why the client cannot authenticate (a credential missing): the first API call throws it as a ConfigurationError. */
  missingCredentials: string | undefined;
  /** The credentials in every form an answer could echo them (the scrubber removes these). */
  secrets: string[];
  /** `user-agent` and the default headers, lower-case names. */
  headers: Record<string, string>;
}

/** Every option of the client, by name (the `satisfies` keeps the list equal to {@link ClientOptions}'s keys). */
const CLIENT_OPTIONS = Object.keys({
  tokenId: 1,
  clientSecret: 1,
  agentToken: 1,
  baseUrl: 1,
  environment: 1,
  fetch: 1,
  maxRetries: 1,
  timeout: 1,
  logger: 1,
  logLevel: 1,
  webhookPublicKey: 1,
  validateResponses: 1,
  onValidationIssue: 1,
  dangerouslyAllowBrowser: 1,
  defaultHeaders: 1,
  sleep: 1,
  tracerProvider: 1,
  meterProvider: 1,
  telemetry: 1,
  hooks: 1,
  unsafeRawBodies: 1,
} satisfies Record<keyof ClientOptions, 1>);

/** Reads and checks the client options (and their environment variables); throws ConfigurationError. */
export function readSettings(options: ClientOptions): Settings {
  if (typeof options !== 'object') throw new ConfigurationError(`The client's options must be an object, got ${typeof options}`);
  checkOptionNames(options, CLIENT_OPTIONS, 'client option');
  // An agent's credential (`agentToken`, else CROSSBORDER_AGENT_TOKEN when the options give no platform credential)
  // takes the place of the platform's: the client is then that agent, its token the secret (scrubbed as one).
  // Beside a platform credential it is refused, as a credential that is not a string is.
  const platform = options.tokenId !== undefined || options.clientSecret !== undefined;
  const agentToken = options.agentToken ?? (platform ? undefined : env('CROSSBORDER_AGENT_TOKEN'));
  const tokenId = agentToken ? undefined : (options.tokenId ?? env('CROSSBORDER_TOKEN_ID'));
  const secret = agentToken ?? options.clientSecret ?? env('CROSSBORDER_CLIENT_SECRET');
  if (
    (agentToken !== undefined && (platform || !/^[\x21-\x7e]+$/.test(agentToken))) ||
    (tokenId && typeof tokenId !== 'string') ||
    (secret && typeof secret !== 'string')
  ) {
    throw new ConfigurationError('Give either tokenId and clientSecret or agentToken: they must be strings, agentToken without spaces');
  }
  // A missing credential is asked for by the first API call, not here: a client that only unwraps
  // webhooks needs none. One given but unusable is refused now.
  const missingCredentials =
    agentToken || tokenId
      ? secret
        ? undefined
        : 'Missing clientSecret: pass { clientSecret } or set CROSSBORDER_CLIENT_SECRET'
      : 'Missing tokenId: pass { tokenId } or set CROSSBORDER_TOKEN_ID';
  if (tokenId && tokenId.includes(':')) throw new ConfigurationError('tokenId must not contain ":" (HTTP Basic joins it to the secret with one)');
  if (missingCredentials === undefined && inBrowser() && options.dangerouslyAllowBrowser !== true) {
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
  const maxRetries = options.maxRetries ?? 2;
  const retries = retriesProblem(maxRetries);
  if (retries) throw new ConfigurationError(`maxRetries ${retries}`);
  const timeout = options.timeout ?? 60_000;
  const timeouts = timeoutProblem(timeout);
  if (timeouts) throw new ConfigurationError(`timeout ${timeouts}`);
  const problems = headerProblems(options.defaultHeaders, 'defaultHeaders');
  if (problems.length) throw new ConfigurationError(`${problems[0]!.path} ${problems[0]!.message}`);
  if (headerIn(options.defaultHeaders, 'idempotency-key') !== undefined) {
    throw new ConfigurationError(
      'defaultHeaders must not carry Idempotency-Key: one key for every call would replay the first answer; pass options.idempotencyKey per call',
    );
  }
  const agent = userAgent();
  const basic = tokenId && secret ? base64Forms(`${tokenId}:${secret}`) : undefined;
  return {
    environment,
    baseUrl: normalizeBaseUrl(baseUrl ?? DEFAULT_BASE_URLS[environment === 'sandbox' ? 'sandbox' : 'production']),
    maxRetries,
    timeout,
    webhookPublicKey: options.webhookPublicKey ?? env('CROSSBORDER_WEBHOOK_PUBLIC_KEY'),
    missingCredentials,
    authorization: agentToken ? `Bearer ${agentToken}` : basic === undefined ? '' : `Basic ${basic[0]}`,
    // Whatever was given is scrubbed, even when the other half is missing.
    secrets: basic === undefined ? (secret ? [secret, ...base64Forms(secret)] : []) : [secret!, `${tokenId}:${secret}`, ...basic, ...base64Forms(secret!)],
    headers: mergeHeaders(agent ? { 'user-agent': agent } : {}, options.defaultHeaders),
  };
}
