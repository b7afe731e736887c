/**
 * The sandbox's own surface, beside the version segment (the real API has no such path): drive and
 * inspect the emulator over HTTP, with the same Basic credentials as the API, and CORS for browser
 * development. `POST /_sandbox/reset`, `POST /_sandbox/clock` (`{"advance":"10m"}` or
 * `{"advanceMs":600000}`), `GET /_sandbox/state`, `GET /_sandbox/webhooks/deliveries`.
 * @module
 */
import { MAX_CLOCK_MS } from '../domain/clock';
import { MAX_WEBHOOK_LISTENERS, type WebhookListener } from '../domain/webhooks';
import { JSON_HEADERS, MAX_STREAM_BUFFER_BYTES, type SandboxRequest, type SandboxResponse } from './http';
import { INSPECTOR_HTML } from './inspector';
import { isLoopbackOrigin, type Binding } from './exposure';

/** The prefix of the sandbox's own paths. */
export const CONTROL_PREFIX = '/_sandbox/';

/** What the control surface drives. */
export interface Controls {
  reset(): void;
  advance(ms: number): void;
  now(): number;
  snapshot(): unknown;
  /** Replaces the state; throws with the reason when the document is not a state. */
  importState(state: unknown): void;
  deliveries(): unknown;
  /** Sends an event of `type` about resource `resourceId` (none for TEST); the event id, or an error message. */
  trigger(type: string, resourceId: string | undefined): { eventId?: string; error?: string };
  redeliver(eventId: string): boolean;
  /** Claims an invitation as its invitee would (INVITATION.CLAIMED follows); the reason when it cannot be. */
  claimInvitation(code: string, inviteeUma: string | undefined): { invitation?: unknown; error?: string };
  /** Attaches a webhook delivery target beside the configured endpoint (throws a RangeError when too many are). */
  attachListener(url: string, approvals: WebhookListener['approvals']): WebhookListener;
  /** Detaches a listener; false when it is not attached. */
  detachListener(id: string): boolean;
  /** The configured endpoint and the listeners attached now. */
  listeners(): { endpoint: string | null; data: WebhookListener[] };
  /** The last requests answered (oldest first). */
  requests(): unknown[];
  /**
   * Calls `listener` with each request answered from now on, and with each change that no request
   * made (the scheduler settled a payment, a webhook attempt finished); returns the unsubscribe.
   */
  subscribe(listener: (event: LiveEvent) => void): () => void;
  /** How many live-stream subscribers there are now. */
  subscribers(): number;
  /** Replaces the injected faults when given (throws naming the field), and answers them (domain/faults.ts). */
  faults(next?: unknown): unknown;
  /** The executions ledger (domain/faults.ts). */
  ledger(): unknown[];
}

/** What `/_sandbox/events` streams: `data:` lines for requests, `event: change` for the rest. */
export type LiveEvent =
  { type: 'request'; entry: unknown } | { type: 'change'; change: { source: 'scheduler' | 'delivery'; at: string; [key: string]: unknown } };

/** One Server-Sent Event. */
export function sse(event: LiveEvent): string {
  return event.type === 'request' ? `data: ${JSON.stringify(event.entry)}\n\n` : `event: change\ndata: ${JSON.stringify(event.change)}\n\n`;
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30s`, `10m`, `2h`, `1d` (or `500ms`) → milliseconds; undefined when unreadable. */
export function parseDuration(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  return match ? Math.round(Number(match[1]) * UNITS[match[2]!]!) : undefined;
}

const reply = (status: number, body: unknown): SandboxResponse => ({ status, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) });
const error = (status: number, code: string, message: string, details?: Record<string, unknown>) =>
  reply(status, { status, code, message, ...(details ? { details } : {}) });

function authorized(header: string | undefined): boolean {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  try {
    return match !== null && atob(match[1]!).indexOf(':') > 0;
  } catch {
    return false;
  }
}

export { isLoopbackHost } from './exposure';

/** How a request reached the sandbox. */
export interface Exposure {
  /**
   * True when the server is bound to a loopback address (or the call is in-process): the inspector page
   * and its event stream are open. Otherwise both take the Basic credentials too.
   */
  loopback: boolean;
  /**
   * Where the HTTP listener that received the request is bound; undefined for in-process calls (fetch,
   * msw), which cross no network and carry whatever URL the caller chose, so neither `Host` nor
   * `Origin` is checked for them.
   */
  binding?: Binding | undefined;
  /** The control token `/_sandbox/*` and `PATCH /config` take over this listener; undefined: none. */
  controlToken?: string | undefined;
}

/** Most `/_sandbox/events` subscribers at once; one more is answered 503. */
export const MAX_EVENT_SUBSCRIBERS = 16;

const UNAUTHORIZED = (message: string): SandboxResponse => ({
  ...error(401, 'UNAUTHORIZED', message),
  headers: { ...JSON_HEADERS, 'WWW-Authenticate': 'Basic realm="crossborder-sandbox"' },
});

/** Answers a `/_sandbox/*` request. */
export function handleControl(req: SandboxRequest, path: string, controls: Controls, exposure: Exposure = { loopback: true }): SandboxResponse {
  const reading = req.method.toUpperCase() === 'GET' && (path === CONTROL_PREFIX || path === '/_sandbox' || path === '/_sandbox/events');
  // On loopback the inspector page and its event stream are open (a browser's EventSource sends no
  // credentials of its own). Bound to another address they take the Basic credentials like the rest:
  // the browser asks for them once (WWW-Authenticate) and sends them with the page's requests after.
  if (reading && !exposure.loopback && !authorized(req.header('authorization'))) {
    return UNAUTHORIZED(
      'The sandbox is served on a non-loopback address: the inspector and /_sandbox/events take the same HTTP Basic credentials as the API (any values).',
    );
  }
  if (req.method.toUpperCase() === 'GET' && (path === CONTROL_PREFIX || path === '/_sandbox')) {
    return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body: INSPECTOR_HTML };
  }
  if (req.method.toUpperCase() === 'GET' && path === '/_sandbox/events') {
    // Each subscriber holds a connection and a buffer: a bounded number of them.
    if (controls.subscribers() >= MAX_EVENT_SUBSCRIBERS) {
      return busy(`The live stream has ${MAX_EVENT_SUBSCRIBERS} subscribers already; close one (an inspector tab) and try again.`);
    }
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' },
      body: undefined,
      stream: (write) => {
        if (controls.subscribers() >= MAX_EVENT_SUBSCRIBERS) return () => {}; // filled meanwhile: an empty stream
        // The recent requests, newest kept first, as many as fit in half the subscriber's buffer.
        const replay: string[] = [];
        let bytes = 0;
        for (const entry of controls.requests().reverse()) {
          const event = sse({ type: 'request', entry });
          bytes += event.length;
          if (bytes > MAX_STREAM_BUFFER_BYTES / 2) break;
          replay.unshift(event);
        }
        for (const event of replay) write(event);
        return controls.subscribe((event) => write(sse(event)));
      },
    };
  }
  if (!authorized(req.header('authorization'))) return UNAUTHORIZED('The sandbox controls take the same HTTP Basic credentials as the API (any values).');
  const method = req.method.toUpperCase();
  const route = `${method} ${path}`;
  // A body the adapter could not read (too large, not UTF-8) is reported as such, not as a bad document.
  if (req.bodyError) return error(400, 'INVALID_INPUT', req.bodyError, { field: 'body' });
  let body: Record<string, unknown> = {};
  if (req.body && req.body.trim() !== '') {
    try {
      body = JSON.parse(req.body) as Record<string, unknown>;
    } catch {
      return error(400, 'INVALID_INPUT', 'The request body is not valid JSON.', { field: 'body' });
    }
  }
  if (route === 'POST /_sandbox/webhooks/listeners') {
    // The attachment lasts as long as the connection: an in-process call (fetch, msw) has none to hold.
    if (!exposure.binding)
      return error(
        400,
        'INVALID_INPUT',
        'A listener attaches over HTTP (sandbox.listen()): it stays attached while its connection is open, and an in-process call holds none.',
        { field: 'url' },
      );
    return attachListener(body, controls);
  }
  const detach = /^DELETE \/_sandbox\/webhooks\/listeners\/([^/]+)$/.exec(route);
  if (detach) {
    const id = decodeURIComponent(detach[1]!);
    return controls.detachListener(id) ? { status: 204, headers: {}, body: undefined } : error(404, 'NOT_FOUND', `No listener ${id} is attached.`, { id });
  }
  const claim = /^POST \/_sandbox\/invitations\/([^/]+)\/claim$/.exec(route);
  if (claim) {
    const code = decodeURIComponent(claim[1]!);
    if (body.inviteeUma !== undefined && typeof body.inviteeUma !== 'string')
      return error(400, 'INVALID_INPUT', 'inviteeUma: give the UMA address of the invitee, such as $grace@sandbox.example.', { field: 'inviteeUma' });
    const claimed = controls.claimInvitation(code, body.inviteeUma);
    if (claimed.error?.startsWith('no invitation')) return error(404, 'NOT_FOUND', `${claimed.error}.`, { code });
    if (claimed.error?.includes('not an UMA address')) return error(400, 'INVALID_INPUT', `inviteeUma: ${claimed.error}.`, { field: 'inviteeUma' });
    if (claimed.error) return error(409, 'INVALID_STATE_TRANSITION', `${claimed.error}.`, { code });
    return reply(200, claimed.invitation);
  }
  const redeliver = /^POST \/_sandbox\/webhooks\/deliveries\/([^/]+)\/redeliver$/.exec(route);
  if (redeliver) {
    const eventId = decodeURIComponent(redeliver[1]!);
    return controls.redeliver(eventId) ? reply(202, { eventId, redelivering: true }) : error(404, 'NOT_FOUND', `No delivery of event ${eventId}.`, { eventId });
  }
  switch (route) {
    case 'POST /_sandbox/reset':
      controls.reset();
      return reply(200, { reset: true, now: new Date(controls.now()).toISOString() });
    case 'POST /_sandbox/clock': {
      const ms = body.advanceMs !== undefined ? body.advanceMs : parseDuration(body.advance);
      const field = body.advanceMs !== undefined ? 'advanceMs' : 'advance';
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        return error(400, 'INVALID_INPUT', 'Give {"advance":"10m"} (30s, 10m, 2h, 1d) or {"advanceMs":600000}, not negative.', { field });
      }
      if (!(controls.now() + ms <= MAX_CLOCK_MS)) {
        return error(
          400,
          'INVALID_INPUT',
          `${field}: advancing ${ms} ms would take the clock past ${new Date(MAX_CLOCK_MS).toISOString()}, the last date the state (and its --state file) can hold.`,
          { field },
        );
      }
      controls.advance(ms);
      return reply(200, { now: new Date(controls.now()).toISOString(), advancedMs: ms });
    }
    case 'GET /_sandbox/state':
      return reply(200, controls.snapshot());
    case 'GET /_sandbox/faults':
      return reply(200, controls.faults());
    case 'PUT /_sandbox/faults':
      try {
        return reply(200, controls.faults(body));
      } catch (cause) {
        const message = cause instanceof Error ? cause.message : String(cause);
        return error(400, 'INVALID_INPUT', message, { field: message.split(':')[0] });
      }
    case 'GET /_sandbox/ledger':
      return reply(200, { data: controls.ledger() });
    case 'PUT /_sandbox/state':
      try {
        controls.importState(body);
      } catch (cause) {
        const where = cause as { table?: string; key?: string };
        return error(400, 'INVALID_INPUT', `Not a sandbox state: ${cause instanceof Error ? cause.message : String(cause)}`, {
          field: where.table ? `world.${where.table}` : 'body',
          ...(where.key !== undefined ? { key: where.key } : {}),
        });
      }
      return reply(200, { imported: true, now: new Date(controls.now()).toISOString() });
    case 'GET /_sandbox/requests':
      return reply(200, { data: controls.requests() });
    case 'GET /_sandbox/webhooks/deliveries':
      return reply(200, { data: controls.deliveries() });
    case 'GET /_sandbox/webhooks/listeners':
      return reply(200, controls.listeners());
    case 'POST /_sandbox/webhooks/trigger': {
      if (typeof body.type !== 'string' || body.type === '')
        return error(400, 'INVALID_INPUT', 'Give {"type":"INCOMING_PAYMENT.PENDING","resourceId":"Transaction:…"}.', { field: 'type' });
      const resourceId = typeof body.resourceId === 'string' ? body.resourceId : undefined;
      const result = controls.trigger(body.type, resourceId);
      return result.error
        ? error(400, 'INVALID_INPUT', result.error, { field: result.error.includes('webhookEndpoint') ? 'type' : 'resourceId' })
        : reply(200, { eventId: result.eventId, type: body.type });
    }
    default:
      return error(
        404,
        'NOT_FOUND',
        `No sandbox control ${route}; there are POST /_sandbox/reset, POST /_sandbox/clock, GET and PUT /_sandbox/state, GET /_sandbox/webhooks/deliveries, POST /_sandbox/webhooks/trigger, POST /_sandbox/webhooks/deliveries/{eventId}/redeliver, GET and POST /_sandbox/webhooks/listeners, DELETE /_sandbox/webhooks/listeners/{id}, POST /_sandbox/invitations/{code}/claim.`,
        { path },
      );
  }
}

/** How often an attached listener's stream carries a comment line (a dead peer is then seen by the write). */
export const LISTENER_HEARTBEAT_MS = 10_000;

/**
 * `POST /_sandbox/webhooks/listeners` `{"url":"http://127.0.0.1:5000/webhooks","approvals":"answer"|"observe"}`:
 * attaches `url` as a delivery target beside the configured `webhookEndpoint` (which is left as it
 * is) for as long as this request's connection stays open. The answer is a held event stream: first
 * `event: attached` with the listener (`id`, `url`, `approvals`), then a comment line every
 * {@link LISTENER_HEARTBEAT_MS}. When the connection closes (the listener stopped, was killed, or
 * its machine went away) the listener is detached and gets nothing more. Over HTTP only: an
 * in-process call (fetch, msw) holds no connection, so it attaches nothing.
 */
function attachListener(body: Record<string, unknown>, controls: Controls): SandboxResponse {
  const url = body.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return error(400, 'INVALID_INPUT', 'url: give the http(s) URL the listener receives deliveries at, such as {"url":"http://127.0.0.1:5000/webhooks"}.', {
      field: 'url',
    });
  }
  const approvals = body.approvals ?? 'answer';
  if (approvals !== 'answer' && approvals !== 'observe') {
    return error(
      400,
      'INVALID_INPUT',
      `approvals: "answer" (its answer to INCOMING_PAYMENT.PENDING may decide) or "observe" (it decides nothing), not ${JSON.stringify(approvals)}.`,
      { field: 'approvals' },
    );
  }
  if (controls.listeners().data.length >= MAX_WEBHOOK_LISTENERS) {
    return busy(`${MAX_WEBHOOK_LISTENERS} listeners are attached already; stop one and try again.`);
  }
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' },
    body: undefined,
    stream: (write) => {
      let listener: WebhookListener;
      try {
        listener = controls.attachListener(url as string, approvals);
      } catch (cause) {
        write(`event: refused\ndata: ${JSON.stringify({ message: cause instanceof Error ? cause.message : String(cause) })}\n\n`);
        return () => {};
      }
      write(`event: attached\ndata: ${JSON.stringify(listener)}\n\n`);
      const heartbeat = setInterval(() => write(': listening\n\n'), LISTENER_HEARTBEAT_MS);
      (heartbeat as { unref?: () => void }).unref?.();
      return () => {
        clearInterval(heartbeat);
        controls.detachListener(listener.id);
      };
    },
  };
}

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
  exposure: Exposure = { loopback: true },
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
export function corsHeaders(
  origin: string | undefined,
  options: CorsOptions = {},
  exposure: Exposure = { loopback: true },
  host?: string,
): Record<string, string> {
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
  return error(
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
  exposure: Exposure = { loopback: true },
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

/** A held stream with no slot left: 503 with `Retry-After: 5`. */
function busy(message: string): SandboxResponse {
  const answer = error(503, 'SERVICE_UNAVAILABLE', message);
  return { ...answer, headers: { ...answer.headers, 'retry-after': '5' } };
}
