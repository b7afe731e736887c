/**
 * A fault-injecting HTTP proxy on 127.0.0.1 between the SDK and the sandbox (`await sandbox.listen()`).
 * Each request it receives is read in full, then handled by one {@link Fault} chosen by a plan (a
 * seeded PRNG, an explicit script, or any function), and recorded with what was done to it and what
 * the upstream answered. Everything it opens (client sockets, upstream sockets, timers) is closed by
 * `close()`.
 *
 * Below HTTP, test/helpers/fault-proxy.ts is its TCP counterpart (cut before the reply, cut mid-body,
 * latency, reset, dead peer, on raw bytes): it also sits in front of redis-server, where no HTTP
 * proxy can, and test/reliability/edges.test.ts drives both edges through it.
 */
import { Agent, createServer, request as upstreamRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { drawn, scripted } from './support';

/** What the proxy does with one request. */
export type Fault =
  /** Forward and relay the answer unchanged. */
  | { kind: 'pass' }
  /** Lost response: forward, wait for the upstream's full answer (it has acted), then destroy the client socket. */
  | { kind: 'reset-after' }
  /** Destroy the client socket without forwarding (the upstream never sees the request). */
  | { kind: 'reset-before' }
  /** Forward, then hold the upstream's answer `ms` before relaying it (a slow path: past the client's timeout). */
  | { kind: 'delay'; ms: number }
  /** Answer `status` without forwarding (a gateway or rate limiter in front), with or without `Retry-After`. */
  | { kind: 'status'; status: number; retryAfter?: string | undefined }
  /** Forward, then send the upstream's headers (full `content-length`), `keep` of its body bytes, and destroy. */
  | { kind: 'truncate'; keep?: number | undefined }
  /** Answer an HTML page with `status`; `forward` first sends the request upstream (the answer is then lost). */
  | { kind: 'html'; status: number; forward?: boolean | undefined }
  /** Forward the same request twice (one after the other) and relay the first answer. */
  | { kind: 'duplicate' };

export type FaultKind = Fault['kind'];

/** What a plan sees of a request. */
export interface ProxyRequest {
  /** 0-based order of arrival. */
  seq: number;
  method: string;
  /** Path and query, as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One upstream answer, in full. */
export interface UpstreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Everything the proxy did with one request. */
export interface ProxyRecord extends ProxyRequest {
  fault: Fault;
  /** The upstream's answers, one per forward (0, 1, or 2 for `duplicate`). */
  upstream: UpstreamAnswer[];
  /** Status and body the client was sent in full, when it was. */
  answered?: { status: number; body: string } | undefined;
  /** `answered`, `reset` (socket destroyed, nothing sent), `truncated`, `client-gone` (closed before the answer), `upstream-error`. */
  outcome?: 'answered' | 'reset' | 'truncated' | 'client-gone' | 'upstream-error' | undefined;
  /** `performance.now()` when the request had been read, and when the proxy finished with it. */
  receivedAt: number;
  finishedAt?: number | undefined;
}

/** Chooses the fault of each request. */
export type Plan = (request: ProxyRequest) => Fault;

/** A running proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:<port>`: give it to the SDK as `baseUrl`. */
  url: string;
  /** Every request received, in order of arrival. */
  records: ProxyRecord[];
  /** Replaces the plan for the requests that follow. */
  setPlan(plan: Plan): void;
  /** Resolves once no request is being handled. */
  idle(): Promise<void>;
  /** Destroys every socket, timer and upstream request, and stops listening. */
  close(): Promise<void>;
}

export const PASS: Fault = { kind: 'pass' };

/** Faults in order, one per request; `then` decides once the script is used up (default: pass). */
export function script(faults: readonly Fault[], then: Plan = () => PASS): Plan {
  return scripted(faults, then);
}

/** Faults drawn by a seeded PRNG with the given weights (the rest of 1 is `pass`). */
export function seeded(seed: number, weights: readonly (readonly [number, Fault | ((random: () => number) => Fault)])[]): Plan {
  return drawn(seed, weights, PASS);
}

/** Only requests that match `when` get `plan`'s faults; the others pass. */
export function only(when: (req: ProxyRequest) => boolean, plan: Plan): Plan {
  return (req) => (when(req) ? plan(req) : PASS);
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length']);

function forwardable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

const HTML_PAGE = (status: number) =>
  `<!DOCTYPE html>\n<html><head><title>${status} ${status === 200 ? 'OK' : 'Bad Gateway'}</title></head>` +
  `<body><center><h1>${status === 200 ? 'Please sign in to the network' : `${status} Bad Gateway`}</h1></center><hr><center>nginx</center></body></html>\n`;

function errorBody(status: number): string {
  const code = status === 429 ? 'RATE_LIMITED' : 'INTERNAL_ERROR';
  return JSON.stringify({ status, code, message: `injected by the fault proxy (${status})` });
}

/** Starts a proxy in front of `upstream` (e.g. the sandbox's `listen()` url). */
export async function startFaultProxy(upstream: string, initialPlan: Plan = () => PASS): Promise<FaultProxy> {
  const target = new URL(upstream);
  if (target.hostname !== '127.0.0.1') throw new Error('the fault proxy only forwards to 127.0.0.1');
  let plan = initialPlan;
  const records: ProxyRecord[] = [];
  const clientSockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const upstreamRequests = new Set<ReturnType<typeof upstreamRequest>>();
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let inFlight = 0;
  let idleWaiters: (() => void)[] = [];
  let closed = false;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  function forward(rec: ProxyRecord): Promise<UpstreamAnswer> {
    return new Promise((resolve, reject) => {
      const headers = forwardable(rec.headers);
      headers['content-length'] = Buffer.byteLength(rec.body);
      const req = upstreamRequest({ host: target.hostname, port: target.port, method: rec.method, path: rec.url, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          upstreamRequests.delete(req);
          const answer = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') };
          rec.upstream.push(answer);
          resolve(answer);
        });
        res.on('error', reject);
      });
      upstreamRequests.add(req);
      req.on('error', (error) => {
        upstreamRequests.delete(req);
        reject(error);
      });
      req.end(rec.body);
    });
  }

  const server = createServer({ keepAlive: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: ProxyRequest = {
        seq: records.length,
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const fault = plan(request);
      const rec: ProxyRecord = { ...request, fault, upstream: [], receivedAt: performance.now() };
      records.push(rec);
      inFlight++;
      const socket = req.socket;
      const gone = () => socket.destroyed || closed;
      const relay = (status: number, headers: OutgoingHttpHeaders, body: string) => {
        if (gone()) {
          rec.outcome = 'client-gone';
          return;
        }
        res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
        res.end(body);
        rec.answered = { status, body };
        rec.outcome = 'answered';
      };
      const relayUpstream = (a: UpstreamAnswer) => relay(a.status, forwardable(a.headers), a.body);
      const handle = async () => {
        switch (fault.kind) {
          case 'pass':
            return relayUpstream(await forward(rec));
          case 'reset-after':
            await forward(rec);
            socket.destroy();
            rec.outcome = 'reset';
            return;
          case 'reset-before':
            socket.destroy();
            rec.outcome = 'reset';
            return;
          case 'delay': {
            const answer = await forward(rec);
            await wait(fault.ms);
            return relayUpstream(answer);
          }
          case 'status': {
            const headers: OutgoingHttpHeaders = { 'content-type': 'application/json', 'x-request-id': `proxy_${rec.seq}` };
            if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
            return relay(fault.status, headers, errorBody(fault.status));
          }
          case 'truncate': {
            const answer = await forward(rec);
            if (gone()) {
              rec.outcome = 'client-gone';
              return;
            }
            const bytes = Buffer.from(answer.body, 'utf8');
            const keep = Math.min(fault.keep ?? Math.floor(bytes.length / 2), Math.max(0, bytes.length - 1));
            res.writeHead(answer.status, { ...forwardable(answer.headers), 'content-length': bytes.length });
            res.flushHeaders();
            await new Promise<void>((resolve) => (keep > 0 ? res.write(bytes.subarray(0, keep), () => resolve()) : resolve()));
            // Let the bytes leave before the reset, so the client sees a cut body rather than no answer.
            await wait(5);
            socket.destroy();
            rec.outcome = 'truncated';
            return;
          }
          case 'html': {
            if (fault.forward) await forward(rec);
            return relay(fault.status, { 'content-type': 'text/html; charset=utf-8' }, HTML_PAGE(fault.status));
          }
          case 'duplicate': {
            const first = await forward(rec);
            await forward(rec);
            return relayUpstream(first);
          }
        }
      };
      handle()
        .catch(() => {
          rec.outcome = 'upstream-error';
          socket.destroy();
        })
        .finally(() => {
          rec.finishedAt = performance.now();
          inFlight--;
          if (inFlight === 0) {
            const waiters = idleWaiters;
            idleWaiters = [];
            for (const w of waiters) w();
          }
        });
    });
  });
  server.on('connection', (socket) => {
    clientSockets.add(socket);
    socket.on('close', () => clientSockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    records,
    setPlan(next) {
      plan = next;
    },
    idle() {
      return inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const r of upstreamRequests) r.destroy();
      for (const s of clientSockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    },
  };
}

/** Header value of a recorded request (lower-case name; first value of a list). */
export function header(rec: ProxyRequest, name: string): string | undefined {
  const v = rec.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
