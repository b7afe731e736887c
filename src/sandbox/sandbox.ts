/**
 * `createSandboxCore`: the sandbox without its msw handlers (what the CLI runs). The public
 * `createSandbox` of `crossborder-sdk/sandbox` adds `handlers` on top.
 * @module
 */
import type {
  Credential,
  Customer,
  ExternalAccount,
  InternalAccount,
  Invitation,
  PlatformConfig,
  Quote,
  Session,
  Transaction,
  Verification,
} from '../generated/types';
import { checkAdvance, createClock, iso, type Clock } from './clock';
import { defaultConfig } from './config';
import type { Ctx, SandboxEnvironment } from './context';
import { createCore } from './core';
import { walletId } from './finders';
import { bodyLimit, decodeUtf8, tooLarge, type SandboxRequest, type SandboxResponse } from './http';
import { IdFactory, createRandom, createUniqueRandom } from './random';
import { routes } from './routes';
import { claimInvitation } from './routes/platform';
import { Scheduler } from './scheduler';
import { createWorld } from './state';
import { CONTROL_PREFIX, corsHeaders, forbiddenOrigin, handleControl, originVerdict, preflight, type Controls, type CorsOptions, type Exposure, type LiveEvent } from './control';
import { checkControlToken, CONTROL_TOKEN_COOKIE, CONTROL_TOKEN_HEADER, cookieValue, generateControlToken, hostAllowed, isLoopbackHost, requiresControlToken, sameToken, type Binding } from './exposure';
import { resume } from './payments';
import { exportWorld, parseState, type SandboxStateDocument } from './persist';
import { createWebhookKeyPair } from './webhook-keys';
import { WebhookDispatcher, type Delivery, type WebhookDeliveryOptions } from './webhooks';

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
}

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

/** Everything the sandbox holds, as the API would render it (deep copies). */
export interface SandboxSnapshot {
  config: PlatformConfig;
  customers: Customer[];
  internalAccounts: InternalAccount[];
  externalAccounts: ExternalAccount[];
  quotes: Quote[];
  transactions: Transaction[];
  invitations: Invitation[];
  verifications: Verification[];
  credentials: Credential[];
  sessions: (Session & { revoked: boolean })[];
}

/** Read-only view of the sandbox's state, for tests. Every read is a fresh deep copy. */
export interface SandboxState {
  /** The whole state; compare two snapshots to prove a request changed nothing. */
  snapshot(): SandboxSnapshot;
  /** The balance of an internal account (`InternalAccount:` or `EmbeddedWallet:` id), or undefined. */
  balance(accountId: string): number | undefined;
}

/** A running HTTP server of the sandbox. */
export interface SandboxServer {
  /** `http://127.0.0.1:<port>`, without the version segment. */
  url: string;
  /**
   * The control token this server asks for (`X-Sandbox-Token`): the `controlToken` option, or one
   * generated because the address is not loopback; undefined when none is asked. Print it for whoever
   * drives the controls; never log it with the requests.
   */
  controlToken?: string | undefined;
  close(): Promise<void>;
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
  /** Claims an invitation as its invitee would (no API exists for it); sends INVITATION.CLAIMED. */
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
  /** Stops timers, deliveries and every server started by `listen()`. */
  close(): Promise<void>;
}

/** In-process calls (fetch, msw) never cross a network: treated like loopback. */
const IN_PROCESS: Exposure = { loopback: true };

/**
 * Whether a request may have changed the state: everything but preflights and the reads of the
 * `/_sandbox/` controls (an API GET may record something, a UMA lookup for one).
 */
function mayChange(method: string, path: string): boolean {
  const m = method.toUpperCase();
  if (m === 'OPTIONS' || m === 'HEAD') return false;
  return !(m === 'GET' && (path === '/_sandbox' || path.startsWith(CONTROL_PREFIX)));
}

/** `PATCH /config` (under any version segment): where webhooks go, so it takes the control token. */
function isConfigWrite(method: string, path: string): boolean {
  const m = method.toUpperCase();
  return m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS' && /^\/[^/]+\/config\/?$/.test(path);
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** 421: a `Host` this server does not answer for (DNS rebinding). */
function misdirected(): SandboxResponse {
  return {
    status: 421,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify({ status: 421, code: 'MISDIRECTED_REQUEST', message: 'The Host header names neither a loopback address nor the address the sandbox is bound to (allowedHosts adds names).' }),
  };
}

/** 401: the control token is missing or wrong (its value is never echoed). */
function tokenRequired(cors: Record<string, string>): SandboxResponse {
  return {
    status: 401,
    headers: { ...JSON_HEADERS, ...cors },
    body: JSON.stringify({ status: 401, code: 'UNAUTHORIZED', message: `This sandbox asks for its control token on /_sandbox/* and PATCH /config: send it in the ${CONTROL_TOKEN_HEADER} header (the inspector page: open /_sandbox/?token=<token> once).` }),
  };
}

/** Requests the sandbox remembers for the inspector. */
const REQUEST_LOG_SIZE = 200;

/** Creates a sandbox without msw handlers (no msw import). */
export function createSandboxCore(options: SandboxOptions = {}): SandboxCore {
  const environment = options.environment ?? 'sandbox';
  if (environment !== 'sandbox' && environment !== 'production') throw new Error(`environment must be 'sandbox' or 'production', got '${String(environment)}'`);
  const seed = options.seed ?? 1;
  checkControlToken(options.controlToken);
  const onError = options.onError ?? ((error: unknown) => console.error('[crossborder sandbox]', error));
  const base = options.clock ?? createClock();
  // The inspector's live stream: requests answered, and changes no request made (timers, deliveries).
  const listeners = new Set<(event: LiveEvent) => void>();
  // Whoever keeps the state somewhere (persistStateTo): told after anything that may have changed it.
  const changeListeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...changeListeners]) {
      try {
        listener();
      } catch (error) {
        onError(error); // a listener never changes an answer
      }
    }
  };
  const publish = (event: LiveEvent) => {
    if (event.type === 'change') changed();
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // a listener never changes an answer
      }
    }
  };
  const scheduler = new Scheduler(base, onError, (ran) => publish({ type: 'change', change: { source: 'scheduler', at: iso(base.now()), ran } }));
  const keyPair = options.webhookDelivery?.keyPair ?? createWebhookKeyPair();

  // The run-due-work hook makes advance/set settle payments at once, so tests never wait.
  const runDue = () => {
    try {
      scheduler.runDue();
    } catch (error) {
      onError(error);
    }
  };
  // Where the clock stood when the sandbox was made, as an offset from real time (or the instant, when
  // frozen): reset() puts it back there.
  const startedAt = base.now();
  const startOffset = startedAt - Date.now();
  const clock: Clock = {
    frozen: base.frozen ?? false,
    now: () => base.now(),
    advance(ms) {
      checkAdvance(base.now(), ms); // a custom clock may not check: past the last valid date every answer would fail
      base.advance(ms);
      runDue();
      changed();
    },
    set(date) {
      base.set(date);
      runDue();
      changed();
    },
  };

  // Webhook event ids are random per process (a receiver's dedupe store outlives a sandbox restart)
  // and their sequence goes on across reset() and a state import: an id is never sent twice for two events.
  const webhookIds = new IdFactory(createUniqueRandom());
  /** A new world; `ids` continue after those already handed out (reset never reuses an id). */
  const fresh = (after = 0) => {
    const ids = new IdFactory(createRandom(seed));
    ids.continueAfter(after);
    return { ids, random: createRandom(seed * 31 + 7), world: createWorld(defaultConfig(ids, clock.now())) };
  };
  const initial = fresh();
  const ctx: Ctx = {
    environment,
    clock,
    scheduler,
    seed,
    webhooks: new WebhookDispatcher(options.webhookDelivery ?? {}, keyPair, clock, () => webhookIds, () => ctx.world.config.webhookEndpoint, (d) =>
      publish({ type: 'change', change: { source: 'delivery', at: iso(base.now()), eventId: d.eventId, type: d.type, state: d.state, attempts: d.attempts.length } }),
    ),
    ...initial,
  };
  // Request ids are random per process, as webhook event ids: a restart (a state reloaded) never hands one out again.
  const api = createCore(ctx, routes, createUniqueRandom(), onError);
  const controls: Controls = {
    reset: () => sandbox.reset(),
    advance: (ms) => clock.advance(ms),
    now: () => clock.now(),
    snapshot: () => sandbox.exportState(),
    importState: (state) => sandbox.importState(state as SandboxStateDocument),
    deliveries: () => structuredClone(ctx.webhooks.deliveries),
    trigger: (type, resourceId) => {
      if (!ctx.world.config.webhookEndpoint) return { error: 'No webhookEndpoint is configured (PATCH /config): there is nowhere to deliver.' };
      const data = resourceId === undefined ? (type === 'TEST' ? { message: 'Sent from the sandbox.' } : undefined) : resourceData(resourceId);
      if (data === undefined) return { error: resourceId === undefined ? `${type} needs a resourceId (the transaction, customer, invitation or verification it is about).` : `No resource ${resourceId}.` };
      const before = ctx.webhooks.deliveries.length;
      ctx.webhooks.emit(type, data);
      return { eventId: ctx.webhooks.deliveries[before]?.eventId };
    },
    redeliver: (eventId) => ctx.webhooks.redeliver(eventId),
    requests: () => [...requestLog],
    subscribe: (listener) => {
      const own = (event: LiveEvent) => listener(event);
      listeners.add(own);
      return () => void listeners.delete(own);
    },
    subscribers: () => listeners.size,
  };
  /** A resource of the world by its id, as the API renders it. */
  const resourceData = (id: string): unknown => {
    const w = ctx.world;
    for (const map of [w.transactions, w.customers, w.verifications, w.quotes, w.externalAccounts, w.internalAccounts] as Map<string, { data: unknown }>[]) {
      const rec = map.get(id);
      if (rec) return structuredClone(rec.data);
    }
    for (const inv of w.invitations.values()) if ((inv as { data: { code: string } }).data.code === id) return structuredClone((inv as { data: unknown }).data);
    return undefined;
  };
  // Over HTTP, in this order: the Host (DNS rebinding), the Origin (a foreign page), then the control
  // token for the control plane and the configuration writes. Then CORS on every answer, preflights
  // answered without credentials, and the /_sandbox/ controls. In-process calls skip the three checks.
  const cors = options.cors ?? {};
  const core = async (req: SandboxRequest, exposure: Exposure): Promise<SandboxResponse> => {
    const origin = req.header('origin');
    const host = req.header('host');
    if (exposure.binding && !hostAllowed(host, exposure.binding)) return misdirected();
    if (req.method.toUpperCase() === 'OPTIONS') return preflight(origin, cors, exposure, req.header('access-control-request-headers'), host);
    if (exposure.binding && originVerdict(origin, cors, exposure, host) === undefined) return forbiddenOrigin(origin!);
    const url = new URL(req.url, 'http://sandbox.invalid');
    const path = url.pathname;
    const control = path.startsWith(CONTROL_PREFIX) || path === '/_sandbox';
    let setCookie: string | undefined;
    if (exposure.controlToken !== undefined && (control || isConfigWrite(req.method, path))) {
      const token = exposure.controlToken;
      // The inspector page opened as /_sandbox/?token=…: the token goes into a cookie its own reads carry.
      const fromQuery = control && req.method.toUpperCase() === 'GET' ? url.searchParams.get('token') ?? undefined : undefined;
      if (fromQuery !== undefined && sameToken(fromQuery, token)) setCookie = `${CONTROL_TOKEN_COOKIE}=${token}; Path=/_sandbox; HttpOnly; SameSite=Strict`;
      else if (!sameToken(req.header(CONTROL_TOKEN_HEADER), token) && !sameToken(cookieValue(req.header('cookie'), CONTROL_TOKEN_COOKIE), token)) return tokenRequired(corsHeaders(origin, cors, exposure, host));
    }
    const res = control ? handleControl(req, path, controls, exposure) : await api(req);
    Object.assign(res.headers, corsHeaders(origin, cors, exposure, host));
    if (setCookie) res.headers['set-cookie'] = setCookie;
    return res;
  };
  // Every way in (fetch, msw, HTTP) goes through here, so each request is logged once: the option's
  // hook (the CLI), the inspector's live stream, and the last REQUEST_LOG_SIZE kept.
  const requestLog: (RequestLogEntry & { at: string })[] = [];
  const handleRaw = async (req: SandboxRequest, exposure: Exposure = IN_PROCESS): Promise<SandboxResponse> => {
    const started = performance.now();
    const url = new URL(req.url, 'http://sandbox.invalid');
    // A browser asks for an icon when it opens the inspector: answer nothing, quietly.
    if (url.pathname === '/favicon.ico' && ['GET', 'HEAD'].includes(req.method.toUpperCase())) return { status: 204, headers: { 'cache-control': 'max-age=86400' }, body: undefined };
    const res = await core(req, exposure);
    if (mayChange(req.method, url.pathname)) changed();
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
    requestLog.push({ ...entry, at: iso(clock.now()) });
    if (requestLog.length > REQUEST_LOG_SIZE) requestLog.shift();
    publish({ type: 'request', entry: { ...entry, at: iso(clock.now()) } });
    try {
      options.onRequest?.({ ...entry, at: iso(clock.now()) } as RequestLogEntry);
    } catch {
      // a log hook never changes an answer
    }
    return res;
  };
  const servers = new Set<SandboxServer>();

  async function handle(request: Request): Promise<Response> {
    request.signal?.throwIfAborted();
    let body: string | undefined;
    let bodyError: string | undefined;
    if (request.body) {
      const bytes = new Uint8Array(await request.arrayBuffer());
      const limit = bodyLimit(request.method, request.url);
      if (bytes.length > limit) bodyError = tooLarge(limit);
      else if (bytes.length > 0) {
        body = decodeUtf8(bytes);
        if (body === undefined) bodyError = 'The request body is not valid UTF-8.';
      }
    }
    const req: SandboxRequest = { method: request.method, url: request.url, header: (name) => request.headers.get(name) ?? undefined, body, bodyError };
    const res: SandboxResponse = await handleRaw(req);
    return new Response(res.body ?? null, { status: res.status, headers: res.headers });
  }

  const snapshot = (): SandboxSnapshot => {
    const w = ctx.world;
    const data = <T>(records: Iterable<{ data: T }>) => [...records].map((r) => r.data);
    return structuredClone({
      config: w.config,
      customers: data(w.customers.values()),
      internalAccounts: data(w.internalAccounts.values()),
      externalAccounts: data(w.externalAccounts.values()),
      quotes: data(w.quotes.values()),
      transactions: data(w.transactions.values()),
      invitations: data(w.invitations.values()),
      verifications: data(w.verifications.values()),
      credentials: data(w.credentials.values()),
      sessions: [...w.sessions.values()].map((s) => ({
        id: s.id,
        accountId: walletId(s.walletSuffix),
        type: s.type,
        createdAt: iso(s.createdMs),
        expiresAt: iso(s.expiresMs),
        revoked: s.revoked,
      })),
    });
  };

  const sandbox: SandboxCore = {
    fetch: (input, init) => handle(new Request(input, init)),
    handle,
    async listen(port = 0, host = '127.0.0.1') {
      const { serve } = await import('./node');
      const loopback = isLoopbackHost(host);
      // Beyond loopback the control plane always takes a token: the one given, else a new one.
      const controlToken = requiresControlToken(host, options.controlToken) ? (options.controlToken ?? generateControlToken()) : undefined;
      const binding: Binding = { host, port, allowedHosts: options.allowedHosts };
      const exposure: Exposure = { loopback, binding, controlToken };
      const server = await serve((req) => handleRaw(req, exposure), port, host);
      binding.port = Number(new URL(server.url).port); // before any request is read
      const tracked: SandboxServer = {
        url: server.url,
        controlToken,
        close: async () => {
          servers.delete(tracked);
          await server.close();
        },
      };
      servers.add(tracked);
      return tracked;
    },
    clock,
    webhookPublicKey: { pem: keyPair.publicKeyPem, hex: keyPair.publicKeyHex },
    webhooks: {
      flush: () => ctx.webhooks.flush(),
      get deliveries() {
        return ctx.webhooks.deliveries;
      },
    },
    state: {
      snapshot,
      balance(accountId) {
        const suffix = accountId.slice(accountId.indexOf(':') + 1);
        return ctx.world.internalAccounts.get(`InternalAccount:${suffix}`)?.data.balance.amount;
      },
    },
    environment,
    claimInvitation: (code, inviteeUma) => {
      const invitation = claimInvitation(ctx, code, inviteeUma);
      changed();
      return invitation;
    },
    reset() {
      scheduler.clear();
      ctx.webhooks.cancel();
      base.set(base.frozen ? startedAt : Date.now() + startOffset);
      Object.assign(ctx, fresh(ctx.ids.nextSequence - 1));
      changed();
    },
    exportState: () => exportWorld(ctx.world, iso(clock.now()), ctx.ids.nextSequence - 1, webhookIds.nextSequence - 1),
    importState(state) {
      const next = fresh(ctx.ids.nextSequence - 1);
      const { world, lastSequence, lastWebhookSequence } = parseState(state, next.world);
      next.ids.continueAfter(lastSequence);
      webhookIds.continueAfter(lastWebhookSequence);
      scheduler.clear();
      ctx.webhooks.cancel();
      Object.assign(ctx, { ...next, world });
      resume(ctx);
      changed();
    },
    onChange(listener) {
      const own = () => listener(); // the same function twice is two subscriptions
      changeListeners.add(own);
      return () => void changeListeners.delete(own);
    },
    async close() {
      scheduler.dispose();
      ctx.webhooks.cancel();
      await Promise.all([...servers].map((s) => s.close()));
    },
  };
  return sandbox;
}
