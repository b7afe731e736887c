/**
 * `createSandboxCore`: the sandbox without its msw handlers (what the CLI runs). The public
 * `createSandbox` of `crossborder-sdk/sandbox` adds `handlers` on top. This module puts the parts
 * together: the clock (sandbox-clock.ts), the listeners (live.ts), the generations of state and their
 * reset, export and import (lifecycle.ts), the checks and routing of a request (router.ts), the logged
 * way in (request-log.ts), the Fetch adapter (fetch-adapter.ts), the state reads (snapshot.ts), the
 * HTTP servers (listen.ts) and the controls (control-plane.ts).
 * @module
 */
import type { Invitation } from '../generated/types';
import { createClock, iso, type Clock } from './domain/clock';
import { configureFaults, currentFaults, ledgerExecutions, type LedgerExecution, type SandboxFaults } from './domain/faults';
import type { Ctx, SandboxEnvironment } from './domain/context';
import type { CorsOptions } from './serve/control';
import { createControls } from './serve/control-plane';
import { createCore } from './routes/core';
import { checkControlToken } from './serve/exposure';
import { fetchAdapter } from './serve/fetch-adapter';
import { createGenerations, stateControls } from './domain/lifecycle';
import { createListener, type SandboxServer } from './serve/listen';
import { createLive } from './serve/live';
import type { SandboxStateDocument } from './serve/persist';
import { createUniqueRandom } from './domain/random';
import { createRequestLog, type RequestLogEntry } from './serve/request-log';
import { routes } from './routes';
import { claimInvitation } from './domain/invitations';
import { createRouter } from './serve/router';
import { createSandboxClock } from './domain/sandbox-clock';
import { Scheduler } from './domain/scheduler';
import { stateView, type SandboxSnapshot, type SandboxState } from './domain/snapshot';
import { createWebhookKeyPair } from './domain/webhook-keys';
import { WebhookDispatcher, type Delivery, type WebhookDeliveryOptions } from './domain/webhooks';

export type { LedgerExecution, RequestLogEntry, SandboxFaults, SandboxServer, SandboxSnapshot, SandboxState };

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /** `production` refuses the sandbox-only endpoints with 403 SANDBOX_ONLY. Default `sandbox`. */
  environment?: SandboxEnvironment;
  /** The clock everything time-dependent reads. Default: real time (see {@link createClock}). */
  clock?: Clock;
  /** How webhooks are delivered (fetch, attempts, backoff, key pair). */
  webhookDelivery?: WebhookDeliveryOptions;
  /** Seed of the id/reference generator: the same seed gives the same ids in the same order. Default 1. */
  seed?: number;
  /** Called with unexpected failures (answered 500 INTERNAL_ERROR). Default `console.error`. */
  onError?: (error: unknown) => void;
  /**
   * Called after each request is answered (the CLI's request log): API calls, `/_sandbox/*` calls and
   * CORS preflights; not the inspector page's own reads, nor a browser's `/favicon.ico`.
   */
  onRequest?: (entry: RequestLogEntry) => void;
  /**
   * Origins a browser page may call the sandbox from over HTTP, besides the loopback origins
   * (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`) and the sandbox's own, which are
   * always allowed. A request naming another `Origin` is refused (403) and not acted upon.
   */
  cors?: CorsOptions;
  /**
   * The control token: when set, every `/_sandbox/*` request (the controls, the state, the inspector and
   * its event stream) and every `PATCH /config` that arrives over HTTP must carry it in the
   * `X-Sandbox-Token` header (the inspector page: open it once as `/_sandbox/?token=<token>`, which
   * sets a same-site cookie). The API's own calls take the Basic credentials as before, and in-process
   * calls (`fetch`, msw) never need it. At least 16 visible ASCII characters; see
   * {@link generateControlToken}. Default: none on a loopback address; `listen()` on any other address
   * (`0.0.0.0`) generates one when none is given and reports it as {@link SandboxServer.controlToken}.
   */
  controlToken?: string;
  /**
   * More names a request's `Host` header may carry over HTTP (`devbox.local`, `host.docker.internal`,
   * with or without `:port`). Always accepted: loopback names (`localhost`, `127.x.x.x`, `[::1]`) and the
   * address `listen()` bound with its port; any other `Host` is refused (421) against DNS rebinding.
   */
  allowedHosts?: string[];
  /**
   * Faults a batch of payouts meets in production: a rate limit (429 with `Retry-After`), the daily
   * volume limit, payouts failing after PROCESSING (refunded), latency. Off by default; change them
   * later with `sandbox.faults.set()` or `PUT /_sandbox/faults`.
   */
  faults?: SandboxFaults;
}

/** The sandbox minus its msw handlers. */
export interface SandboxCore {
  /** A standard fetch served in-process (no sockets): pass it as the SDK client's `fetch`. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** The pure handler over Fetch objects: one `Request` in, its `Response` out. */
  handle(request: Request): Promise<Response>;
  /**
   * Serves the sandbox over HTTP on `host` (default 127.0.0.1; keep-alive); `port` 0 (default) picks a
   * free one. Requests whose `Host` is neither a loopback name nor this address (nor `allowedHosts`)
   * are refused with 421, and those from an `Origin` not allowed (see `cors`) with 403. On a
   * non-loopback host (`0.0.0.0`, a LAN address) the control plane and `PATCH /config` take the control
   * token (the `controlToken` option, else a generated one: `server.controlToken`), and the inspector
   * and its event stream ask for the Basic credentials too.
   */
  listen(port?: number, host?: string): Promise<SandboxServer>;
  /** The sandbox clock; `advance`/`set` also run whatever became due (expiry, settlement). */
  clock: Clock;
  /** The public key webhook signatures verify with. */
  webhookPublicKey: { pem: string; hex: string };
  /** Webhook deliveries. */
  webhooks: {
    /** Resolves once every pending delivery (retries included, backoff skipped) has finished. */
    flush(): Promise<void>;
    /** The delivery log, oldest first. */
    readonly deliveries: readonly Delivery[];
  };
  /** Read-only state, for tests. */
  state: SandboxState;
  /** `sandbox` or `production`. */
  environment: SandboxEnvironment;
  /** Claims an invitation as its invitee would (what `POST /invitations/{code}/claim` does, without the request); sends INVITATION.CLAIMED. */
  claimInvitation(code: string, inviteeUma?: string): Invitation;
  /**
   * Forgets all state, pending work and deliveries, and puts the clock back where it stood when the
   * sandbox was made (undoing every `advance`/`set`); servers keep running. Ids go on from where they
   * were (an id handed out before a reset is never handed out again).
   */
  reset(): void;
  /** The whole state as a JSON document (what `GET /_sandbox/state` answers). */
  exportState(): SandboxStateDocument;
  /**
   * Replaces the state with an exported one (a document or its JSON text): seed fixtures, or reload
   * what a previous run saved. Pending quote expiries and settlements are scheduled again.
   * @throws Error when it is not a sandbox state.
   */
  importState(state: SandboxStateDocument | string): void;
  /**
   * Calls `listener` (with no argument) after anything that may have changed the state: a request
   * answered (other than a preflight or a read of the `/_sandbox/` controls), a scheduler round that
   * ran tasks (expiry, settlement), a webhook delivery's progress, `reset`, `importState`, a clock
   * move and `claimInvitation`. It may be called when nothing changed (a GET that created nothing):
   * compare what you export if that matters. What {@link persistStateTo} writes the state file on.
   * @returns the unsubscribe.
   */
  onChange(listener: () => void): () => void;
  /** The faults injected (see {@link SandboxOptions.faults}). */
  faults: {
    /** Replaces the faults (`{}`: none). @throws Error naming the field of a bad configuration. */
    set(faults: SandboxFaults): void;
    /** The faults now injected. */
    get(): SandboxFaults;
  };
  /** Money moved, for exactly-once checks. */
  ledger: {
    /** One entry per quote execution (quote turned PROCESSING), oldest first; emptied by `reset()`. */
    readonly executions: readonly LedgerExecution[];
  };
  /** Stops timers, deliveries and every server started by `listen()`. */
  close(): Promise<void>;
}

/** Creates a sandbox without msw handlers (no msw import). */
export function createSandboxCore(options: SandboxOptions = {}): SandboxCore {
  const environment = options.environment ?? 'sandbox';
  if (environment !== 'sandbox' && environment !== 'production') throw new Error(`environment must be 'sandbox' or 'production', got '${String(environment)}'`);
  const seed = options.seed ?? 1;
  checkControlToken(options.controlToken);
  const onError = options.onError ?? ((error: unknown) => console.error('[crossborder sandbox]', error));
  const base = options.clock ?? createClock();
  const live = createLive(onError);
  const scheduler = new Scheduler(base, onError, (ran) => live.publish({ type: 'change', change: { source: 'scheduler', at: iso(base.now()), ran } }));
  const keyPair = options.webhookDelivery?.keyPair ?? createWebhookKeyPair();
  // advance/set settle what became due at once, so tests never wait.
  const runDue = () => {
    try {
      scheduler.runDue();
    } catch (error) {
      onError(error);
    }
  };
  const { clock, rewind } = createSandboxClock(base, runDue, live.changed);
  const generations = createGenerations(seed, clock);
  const ctx: Ctx = {
    environment,
    clock,
    scheduler,
    seed,
    webhooks: new WebhookDispatcher(
      options.webhookDelivery ?? {},
      keyPair,
      clock,
      () => generations.webhookIds,
      () => ctx.world.config.webhookEndpoint,
      (d) =>
        live.publish({
          type: 'change',
          change: { source: 'delivery', at: iso(base.now()), eventId: d.eventId, type: d.type, state: d.state, attempts: d.attempts.length },
        }),
    ),
    ...generations.fresh(),
  };
  configureFaults(ctx, options.faults);
  const state = stateControls(ctx, generations, rewind, live.changed);
  // Request ids are random per process, as webhook event ids: a restart (a state reloaded) never hands one out again.
  const api = createCore(ctx, routes, createUniqueRandom(), onError);
  const requests = createRequestLog((req, exposure) => route(req, exposure), clock, live, options.onRequest);
  const route = createRouter(options.cors ?? {}, createControls(ctx, clock, state, requests, live), api);
  const handle = fetchAdapter((req) => requests.handle(req));
  const servers = createListener(requests.handle, options);

  return {
    fetch: (input, init) => handle(new Request(input, init)),
    handle,
    listen: servers.listen,
    clock,
    webhookPublicKey: { pem: keyPair.publicKeyPem, hex: keyPair.publicKeyHex },
    webhooks: {
      flush: () => ctx.webhooks.flush(),
      get deliveries() {
        return ctx.webhooks.deliveries;
      },
    },
    state: stateView(() => ctx.world),
    environment,
    claimInvitation: (code, inviteeUma) => {
      const invitation = claimInvitation(ctx, code, inviteeUma);
      live.changed();
      return invitation;
    },
    ...state,
    faults: { set: (faults) => configureFaults(ctx, faults), get: () => currentFaults(ctx) },
    ledger: {
      get executions() {
        return ledgerExecutions(ctx);
      },
    },
    onChange: live.onChange,
    async close() {
      scheduler.dispose();
      ctx.webhooks.cancel();
      await servers.closeAll();
    },
  };
}
