/**
 * The table of the sandbox's own controls, the `/_sandbox/` paths beside the API's version segment
 * (the real service has none of them): each control's method, path and what it does. The sandbox's
 * HTTP server answers them by this table (src/sandbox/serve/control-http.ts, over the one
 * `Controls` implementation that the in-process `Sandbox` object also uses), and the CLI's `sandbox`,
 * `listen` and `trigger` commands call them by name. A module of constants only, so that the CLI
 * reads it without loading the sandbox.
 * @module
 */

/** The root of the sandbox's own paths (the inspector page answers here too). */
export const CONTROL_ROOT = '/_sandbox';

/** The prefix of the sandbox's own paths. */
export const CONTROL_PREFIX = `${CONTROL_ROOT}/`;

/** The header that carries the sandbox's control token. */
export const CONTROL_TOKEN_HEADER = 'x-sandbox-token';

/** One control: its method, its path (`{name}` for a path parameter) and what it does. */
export interface ControlRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly does: string;
  /**
   * Readable without credentials when the sandbox is served on loopback (a browser's EventSource
   * sends none of its own); beyond loopback it takes the Basic credentials like the rest.
   */
  readonly open?: true;
}

/** Every control of the sandbox, by name. A new control is one entry here and its implementation. */
export const SANDBOX_CONTROLS = {
  inspector: { method: 'GET', path: '/_sandbox/', does: 'the inspector page (also at /_sandbox)', open: true },
  events: {
    method: 'GET',
    path: '/_sandbox/events',
    does: 'a live stream (Server-Sent Events) of the requests answered and the changes no request made',
    open: true,
  },
  reset: { method: 'POST', path: '/_sandbox/reset', does: 'forgets all state and puts the clock back where it started' },
  clock: { method: 'POST', path: '/_sandbox/clock', does: 'advances the clock ({"advance":"10m"} or {"advanceMs":600000}) and runs what became due' },
  exportState: { method: 'GET', path: '/_sandbox/state', does: 'the whole state as a document' },
  importState: { method: 'PUT', path: '/_sandbox/state', does: 'replaces the state with an exported document' },
  faults: { method: 'GET', path: '/_sandbox/faults', does: 'the faults injected' },
  setFaults: { method: 'PUT', path: '/_sandbox/faults', does: 'replaces the faults injected' },
  ledger: { method: 'GET', path: '/_sandbox/ledger', does: 'the executions ledger (one entry per quote executed)' },
  requests: { method: 'GET', path: '/_sandbox/requests', does: 'the last requests answered' },
  deliveries: { method: 'GET', path: '/_sandbox/webhooks/deliveries', does: 'the webhook delivery log' },
  redeliver: { method: 'POST', path: '/_sandbox/webhooks/deliveries/{eventId}/redeliver', does: 'delivers an event again' },
  trigger: { method: 'POST', path: '/_sandbox/webhooks/trigger', does: 'sends a webhook event ({"type":…,"resourceId":…})' },
  listeners: { method: 'GET', path: '/_sandbox/webhooks/listeners', does: 'the configured endpoint and the listeners attached' },
  attachListener: { method: 'POST', path: '/_sandbox/webhooks/listeners', does: 'attaches a delivery target for as long as the connection stays open' },
  detachListener: { method: 'DELETE', path: '/_sandbox/webhooks/listeners/{id}', does: 'detaches a listener' },
  claimInvitation: { method: 'POST', path: '/_sandbox/invitations/{code}/claim', does: 'claims an invitation as its invitee would' },
} as const satisfies Record<string, ControlRoute>;

/** The name of a control. */
export type ControlName = keyof typeof SANDBOX_CONTROLS;

/**
 * The path of control `name` with its `{parameters}` filled in from `params` (each encoded as a path
 * segment).
 * @throws Error naming the parameter when `params` lacks one the path has.
 */
export function controlPath(name: ControlName, params: Record<string, string> = {}): string {
  return SANDBOX_CONTROLS[name].path.replace(/\{([^}]+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`the sandbox control ${name} needs its path parameter ${key}`);
    return encodeURIComponent(value);
  });
}
