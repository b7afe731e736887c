/**
 * The one way into the sandbox that every adapter (fetch, msw, HTTP) takes, so each request is
 * handled and logged once: the change listeners told when it may have changed the state, the
 * `onRequest` hook (the CLI's log), the inspector's live stream, and the last {@link REQUEST_LOG_SIZE}
 * kept for `/_sandbox/requests`.
 * @module
 */
import { iso, type Clock } from '../domain/clock';
import { CONTROL_PREFIX, type Exposure } from './control';
import type { SandboxRequest, SandboxResponse } from './http';
import type { Live } from './live';
import type { Route } from './router';

/** One request, as the sandbox logs it. */
export interface RequestLogEntry {
  method: string;
  /** Path and query as received. */
  path: string;
  status: number;
  /** Time to answer, in ms. */
  ms: number;
  /** `X-Request-Id` of the answer. */
  requestId: string | undefined;
  /** True when an Idempotency-Key replayed an earlier answer. */
  replayed: boolean;
  /** The error's `code` on a 4xx/5xx answer (`NOT_FOUND`, `INVALID_INPUT`…). */
  code?: string | undefined;
}

/** Requests the sandbox remembers for the inspector. */
export const REQUEST_LOG_SIZE = 200;

/** In-process calls (fetch, msw) never cross a network: treated like loopback. */
const IN_PROCESS: Exposure = { loopback: true };

/** The `code` of an error answer's body, if it has one. */
function errorCode(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const code = (JSON.parse(body) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a request may have changed the state: everything but preflights and the reads of the
 * `/_sandbox/` controls (an API GET may record something, a UMA lookup for one).
 */
function mayChange(method: string, path: string): boolean {
  const m = method.toUpperCase();
  if (m === 'OPTIONS' || m === 'HEAD') return false;
  return !(m === 'GET' && (path === '/_sandbox' || path.startsWith(CONTROL_PREFIX)));
}

/** The logged way in, and the requests it remembers. */
export interface RequestLog {
  /** Answers `req` through the route and logs it; `exposure` defaults to in-process. */
  handle(req: SandboxRequest, exposure?: Exposure): Promise<SandboxResponse>;
  /** The last requests answered, oldest first (a copy). */
  entries(): (RequestLogEntry & { at: string })[];
}

/** Logs what `route` answers; times are read from `clock`. */
export function createRequestLog(route: Route, clock: Clock, live: Live, onRequest: ((entry: RequestLogEntry) => void) | undefined): RequestLog {
  const kept: (RequestLogEntry & { at: string })[] = [];
  return {
    entries: () => [...kept],
    async handle(req, exposure = IN_PROCESS) {
      const started = performance.now();
      const url = new URL(req.url, 'http://sandbox.invalid');
      // A browser asks for an icon when it opens the inspector: answer nothing, quietly.
      if (url.pathname === '/favicon.ico' && ['GET', 'HEAD'].includes(req.method.toUpperCase()))
        return { status: 204, headers: { 'cache-control': 'max-age=86400' }, body: undefined };
      const res = await route(req, exposure);
      if (mayChange(req.method, url.pathname)) live.changed();
      // Everything else is logged, /_sandbox/* calls and preflights included, except the inspector
      // page's own reads (it marks them; logging them would make every refresh trigger the next one).
      if (url.pathname.startsWith(CONTROL_PREFIX) && req.header('x-sandbox-inspector') !== undefined) return res;
      const header = (name: string) => Object.entries(res.headers).find(([k]) => k.toLowerCase() === name)?.[1];
      const entry = {
        method: req.method,
        path: url.pathname + (url.searchParams.has('token') ? url.search.replace(/([?&]token=)[^&]*/g, '$1[redacted]') : url.search),
        status: res.status,
        ms: Math.round(performance.now() - started),
        requestId: header('x-request-id'),
        replayed: header('idempotent-replayed') === 'true',
        ...(res.status >= 400 ? { code: errorCode(res.body) } : {}),
      };
      kept.push({ ...entry, at: iso(clock.now()) });
      if (kept.length > REQUEST_LOG_SIZE) kept.shift();
      live.publish({ type: 'request', entry: { ...entry, at: iso(clock.now()) } });
      try {
        onRequest?.({ ...entry, at: iso(clock.now()) } as RequestLogEntry);
      } catch {
        // a log hook never changes an answer
      }
      return res;
    },
  };
}
