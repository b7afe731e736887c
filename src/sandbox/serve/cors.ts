/**
 * CORS: which browser origins may call the sandbox, the headers their answers carry, and the
 * preflights, answered without credentials. Over HTTP a request from an origin not allowed is
 * refused; in-process calls (fetch, msw) cross no network and are never refused.
 * @module
 */
import { errorAnswer, type SandboxResponse } from './http';
import { IN_PROCESS, isLoopbackOrigin, type Exposure } from './exposure';

/** Options of CORS: origins allowed to call the sandbox from a browser. */
export interface CorsOptions {
  /**
   * Origins allowed besides the loopback ones (`http://localhost:*`, `http://127.0.0.1:*`,
   * `http://[::1]:*`, and https), which are always allowed, as is the sandbox's own origin (the
   * inspector page). `'*'` allows every origin: on purpose only (any page the developer opens could
   * then drive the sandbox). Over HTTP a request whose `Origin` is not allowed is refused (403), with or
   * without a preflight. In-process calls (fetch, msw) are never refused.
   */
  origins?: '*' | string[] | undefined;
}

/** Headers a preflight allows when it does not name the ones it wants. */
const DEFAULT_ALLOWED_HEADERS = 'authorization, content-type, idempotency-key, service-wallet-signature, request-id, x-sandbox-token';
const EXPOSED_HEADERS = 'x-request-id, idempotent-replayed, retry-after';

/**
 * How the sandbox answers `origin`: `'*'` or the origin itself when allowed, undefined when refused,
 * null when the request names no origin (not a cross-origin browser request: nothing to decide).
 */
export function originVerdict(
  origin: string | undefined,
  options: CorsOptions = {},
  exposure: Exposure = IN_PROCESS,
  host?: string,
): string | undefined | null {
  if (origin === undefined) return null;
  if (options.origins === '*') return '*';
  if (options.origins?.includes(origin)) return origin;
  if (!exposure.binding) return options.origins === undefined ? '*' : undefined; // in-process: no network, the default stays open
  if (isLoopbackOrigin(origin)) return origin;
  // The sandbox's own origin (its inspector page served beyond loopback): `Host` was checked already.
  try {
    if (host !== undefined && new URL(origin).host === host.toLowerCase()) return origin;
  } catch {
    // not a URL (`null`): refused
  }
  return undefined;
}

/** The CORS headers for a request from `origin` (none when it is not allowed). */
export function corsHeaders(origin: string | undefined, options: CorsOptions = {}, exposure: Exposure = IN_PROCESS, host?: string): Record<string, string> {
  const allowed = originVerdict(origin, options, exposure, host);
  if (!allowed) return {};
  return {
    'Access-Control-Allow-Origin': allowed,
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    ...(allowed === '*' ? {} : { Vary: 'Origin' }),
  };
}

/** The answer to a request from an origin that is not allowed (no CORS headers: the page reads nothing). */
export function forbiddenOrigin(origin: string): SandboxResponse {
  return errorAnswer(
    403,
    'FORBIDDEN',
    `Requests from the origin ${JSON.stringify(origin).slice(0, 200)} are not allowed: only loopback origins are, unless the sandbox allows more (cors.origins, the CLI's --cors-origin).`,
  );
}

/** A list of header names, as `Access-Control-Request-Headers` carries it. */
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/**
 * Answers a CORS preflight without asking for credentials (a preflight carries none). An allowed
 * origin gets the headers it asks for (the sandbox reads any header); any other origin gets 403 and
 * no CORS headers at all.
 */
export function preflight(
  origin: string | undefined,
  options: CorsOptions = {},
  exposure: Exposure = IN_PROCESS,
  requestHeaders?: string,
  host?: string,
): SandboxResponse {
  const headers = corsHeaders(origin, options, exposure, host);
  if (!headers['Access-Control-Allow-Origin']) return { status: 403, headers: {}, body: undefined };
  const asked = requestHeaders?.trim();
  return {
    status: 204,
    headers: {
      ...headers,
      'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': asked && HEADER_LIST.test(asked) ? asked : DEFAULT_ALLOWED_HEADERS,
      'Access-Control-Max-Age': '600',
      Vary: [headers.Vary, 'Access-Control-Request-Headers'].filter(Boolean).join(', '),
    },
    body: undefined,
  };
}
