/**
 * The controls over HTTP: answers a `/_sandbox/` request by the table of controls
 * (src/helpers/sandbox-controls.ts), with one handler per control that reads the request and calls
 * the {@link Controls}. They take the same Basic credentials as the API (any values); the inspector
 * page and its event stream are open on loopback.
 * @module
 */
import { SANDBOX_CONTROLS, type ControlName, type ControlRoute } from '../../helpers/sandbox-controls';
import { MAX_CLOCK_MS } from '../domain/clock';
import { SandboxError } from '../domain/errors';
import { MAX_WEBHOOK_LISTENERS, type WebhookListener } from '../domain/webhooks';
import type { SandboxFaults } from '../domain/faults';
import {
  compilePath,
  errorAnswer,
  eventStream,
  jsonAnswer,
  MAX_STREAM_BUFFER_BYTES,
  sseEvent,
  type PathPattern,
  type SandboxRequest,
  type SandboxResponse,
} from './http';
import type { Controls } from './controls';
import { IN_PROCESS, type Exposure } from './exposure';
import { INSPECTOR_HTML } from './inspector';
import { sse } from './live';

/** Most `/_sandbox/events` subscribers at once; one more is answered 503. */
export const MAX_EVENT_SUBSCRIBERS = 16;

/** How often an attached listener's stream carries a comment line (a dead peer is then seen by the write). */
export const LISTENER_HEARTBEAT_MS = 10_000;

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30s`, `10m`, `2h`, `1d` (or `500ms`) → milliseconds; undefined when unreadable. */
export function parseDuration(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  return match ? Math.round(Number(match[1]) * UNITS[match[2]!]!) : undefined;
}

/** What a control's handler gets: the request's path parameters and JSON body, the controls, and how the request came in. */
interface ControlCall {
  params: Record<string, string>;
  body: Record<string, unknown>;
  controls: Controls;
  exposure: Exposure;
}

/** One control's HTTP handler. */
type ControlHandler = (call: ControlCall) => SandboxResponse;

const invalid = (field: string, message: string) => errorAnswer(400, 'INVALID_INPUT', message, { field });
const isoNow = (controls: Controls) => new Date(controls.now()).toISOString();

/** A held stream with no slot left: 503 with `Retry-After: 5`. */
function busy(message: string): SandboxResponse {
  return errorAnswer(503, 'SERVICE_UNAVAILABLE', message, undefined, { 'retry-after': '5' });
}

function unauthorized(message: string): SandboxResponse {
  return errorAnswer(401, 'UNAUTHORIZED', message, undefined, { 'WWW-Authenticate': 'Basic realm="crossborder-sandbox"' });
}

function authorized(header: string | undefined): boolean {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  try {
    return match !== null && atob(match[1]!).indexOf(':') > 0;
  } catch {
    return false;
  }
}

/** Every control's handler: the compiler refuses a control of the table without one. */
const HANDLERS: { readonly [K in ControlName]: ControlHandler } = {
  inspector: () => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body: INSPECTOR_HTML }),
  events: ({ controls }) => {
    // Each subscriber holds a connection and a buffer: a bounded number of them.
    if (controls.subscribers() >= MAX_EVENT_SUBSCRIBERS) {
      return busy(`The live stream has ${MAX_EVENT_SUBSCRIBERS} subscribers already; close one (an inspector tab) and try again.`);
    }
    return eventStream((write) => {
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
    });
  },
  reset: ({ controls }) => {
    controls.reset();
    return jsonAnswer(200, { reset: true, now: isoNow(controls) });
  },
  clock: ({ body, controls }) => {
    const ms = body.advanceMs !== undefined ? body.advanceMs : parseDuration(body.advance);
    const field = body.advanceMs !== undefined ? 'advanceMs' : 'advance';
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
      return invalid(field, 'Give {"advance":"10m"} (30s, 10m, 2h, 1d) or {"advanceMs":600000}, not negative.');
    if (!(controls.now() + ms <= MAX_CLOCK_MS)) {
      return invalid(
        field,
        `${field}: advancing ${ms} ms would take the clock past ${new Date(MAX_CLOCK_MS).toISOString()}, the last date the state (and its --state file) can hold.`,
      );
    }
    controls.advance(ms);
    return jsonAnswer(200, { now: isoNow(controls), advancedMs: ms });
  },
  exportState: ({ controls }) => jsonAnswer(200, controls.exportState()),
  importState: ({ body, controls }) => {
    try {
      controls.importState(body);
    } catch (cause) {
      const where = cause as { table?: string; key?: string };
      return errorAnswer(400, 'INVALID_INPUT', `Not a sandbox state: ${cause instanceof Error ? cause.message : String(cause)}`, {
        field: where.table ? `world.${where.table}` : 'body',
        ...(where.key !== undefined ? { key: where.key } : {}),
      });
    }
    return jsonAnswer(200, { imported: true, now: isoNow(controls) });
  },
  faults: ({ controls }) => jsonAnswer(200, controls.faults()),
  setFaults: ({ body, controls }) => {
    try {
      controls.setFaults(body);
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      return invalid(message.split(':')[0]!, message);
    }
    return jsonAnswer(200, controls.faults());
  },
  ledger: ({ controls }) => jsonAnswer(200, { data: controls.ledger() }),
  requests: ({ controls }) => jsonAnswer(200, { data: controls.requests() }),
  deliveries: ({ controls }) => jsonAnswer(200, { data: controls.deliveries() }),
  redeliver: ({ params, controls }) => {
    const { eventId } = params as { eventId: string };
    return controls.redeliver(eventId)
      ? jsonAnswer(202, { eventId, redelivering: true })
      : errorAnswer(404, 'NOT_FOUND', `No delivery of event ${eventId}.`, { eventId });
  },
  trigger: ({ body, controls }) => {
    if (typeof body.type !== 'string' || body.type === '') return invalid('type', 'Give {"type":"INCOMING_PAYMENT.PENDING","resourceId":"Transaction:…"}.');
    const resourceId = typeof body.resourceId === 'string' ? body.resourceId : undefined;
    const result = controls.trigger(body.type, resourceId);
    return result.error
      ? invalid(result.error.includes('webhookEndpoint') ? 'type' : 'resourceId', result.error)
      : jsonAnswer(200, { eventId: result.eventId, type: body.type });
  },
  listeners: ({ controls }) => jsonAnswer(200, controls.listeners()),
  attachListener: ({ body, controls, exposure }) => {
    // The attachment lasts as long as the connection: an in-process call (fetch, msw) has none to hold.
    if (!exposure.binding)
      return invalid(
        'url',
        'A listener attaches over HTTP (sandbox.listen()): it stays attached while its connection is open, and an in-process call holds none.',
      );
    return attachListener(body, controls);
  },
  detachListener: ({ params, controls }) => {
    const { id } = params as { id: string };
    return controls.detachListener(id)
      ? { status: 204, headers: {}, body: undefined }
      : errorAnswer(404, 'NOT_FOUND', `No listener ${id} is attached.`, { id });
  },
  claimInvitation: ({ params, body, controls }) => {
    const { code } = params as { code: string };
    if (body.inviteeUma !== undefined && typeof body.inviteeUma !== 'string')
      return invalid('inviteeUma', 'inviteeUma: give the UMA address of the invitee, such as $grace@sandbox.example.');
    try {
      return jsonAnswer(200, controls.claimInvitation(code, body.inviteeUma));
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      const errorCode = cause instanceof SandboxError ? cause.code : undefined;
      if (errorCode === 'INVITATION_NOT_FOUND') return errorAnswer(404, 'NOT_FOUND', `${message}.`, { code });
      if (errorCode === 'INVALID_UMA_ADDRESS') return invalid('inviteeUma', `inviteeUma: ${message}.`);
      return errorAnswer(409, 'INVALID_STATE_TRANSITION', `${message}.`, { code });
    }
  },
};

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
    return invalid('url', 'url: give the http(s) URL the listener receives deliveries at, such as {"url":"http://127.0.0.1:5000/webhooks"}.');
  }
  const approvals = body.approvals ?? 'answer';
  if (approvals !== 'answer' && approvals !== 'observe') {
    return invalid(
      'approvals',
      `approvals: "answer" (its answer to INCOMING_PAYMENT.PENDING may decide) or "observe" (it decides nothing), not ${JSON.stringify(approvals)}.`,
    );
  }
  if (controls.listeners().data.length >= MAX_WEBHOOK_LISTENERS) {
    return busy(`${MAX_WEBHOOK_LISTENERS} listeners are attached already; stop one and try again.`);
  }
  return eventStream((write) => {
    let listener: WebhookListener;
    try {
      listener = controls.attachListener(url as string, approvals);
    } catch (cause) {
      write(sseEvent({ message: cause instanceof Error ? cause.message : String(cause) }, 'refused'));
      return () => {};
    }
    write(sseEvent(listener, 'attached'));
    const heartbeat = setInterval(() => write(': listening\n\n'), LISTENER_HEARTBEAT_MS);
    (heartbeat as { unref?: () => void }).unref?.();
    return () => {
      clearInterval(heartbeat);
      controls.detachListener(listener.id);
    };
  });
}

/** The table compiled: each control's route, path matcher and handler. */
const COMPILED = (Object.entries(SANDBOX_CONTROLS) as [ControlName, ControlRoute][]).map(([name, route]) => ({
  route,
  pattern: compilePath(route.path),
  handler: HANDLERS[name],
}));

/** The controls there are, as a 404 lists them. */
const LISTED = COMPILED.map(({ route }) => `${route.method} ${route.path}`).join(', ');

/** The control `method` `path` names, with its path parameters; undefined when none does. */
function match(method: string, path: string): { route: ControlRoute; params: Record<string, string>; handler: ControlHandler } | undefined {
  for (const { route, pattern, handler } of COMPILED) {
    if (route.method !== method) continue;
    const params = pattern.match(path);
    if (params) return { route, params, handler };
  }
  return undefined;
}

/** Answers a `/_sandbox/*` request. */
export function handleControl(req: SandboxRequest, path: string, controls: Controls, exposure: Exposure = IN_PROCESS): SandboxResponse {
  const method = req.method.toUpperCase();
  const found = match(method, path);
  if (found?.route.open) {
    // On loopback the inspector page and its event stream are open (a browser's EventSource sends no
    // credentials of its own). Bound to another address they take the Basic credentials like the rest:
    // the browser asks for them once (WWW-Authenticate) and sends them with the page's requests after.
    if (!exposure.loopback && !authorized(req.header('authorization'))) {
      return unauthorized(
        `The sandbox is served on a non-loopback address: the inspector and ${SANDBOX_CONTROLS.events.path} take the same HTTP Basic credentials as the API (any values).`,
      );
    }
    return found.handler({ params: found.params, body: {}, controls, exposure });
  }
  if (!authorized(req.header('authorization'))) return unauthorized('The sandbox controls take the same HTTP Basic credentials as the API (any values).');
  // A body the adapter could not read (too large, not UTF-8) is reported as such, not as a bad document.
  if (req.bodyError) return invalid('body', req.bodyError);
  let body: Record<string, unknown> = {};
  if (req.body && req.body.trim() !== '') {
    try {
      body = JSON.parse(req.body) as Record<string, unknown>;
    } catch {
      return invalid('body', 'The request body is not valid JSON.');
    }
  }
  if (!found) return errorAnswer(404, 'NOT_FOUND', `No sandbox control ${method} ${path}; there are ${LISTED}.`, { path });
  return found.handler({ params: found.params, body, controls, exposure });
}
