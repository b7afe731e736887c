/**
 * A TCP fault proxy on 127.0.0.1, for the edges the SDK opens toward other systems: put it between
 * a client and any TCP server (the SDK and the sandbox's HTTP port, `RedisDedupeStore` and a real
 * `redis-server`) and it cuts, delays or swallows bytes on the wire, below any protocol.
 *
 * test/reliability/proxy.ts is the HTTP-level proxy (it reads whole requests and answers statuses or
 * HTML pages); this one works on raw bytes, so it reaches what an HTTP proxy cannot: a Redis reply
 * lost after the command ran, a dead peer that accepted the connection, a TCP reset.
 *
 * Each chunk the client writes is one *exchange* (an HTTP request or a Redis command, or a pipeline of
 * them): the plan chooses a {@link TcpFault} for it, and the proxy records what it did. A connection
 * that got a fault is closed (or left dead); the next exchange on a new connection is planned afresh.
 * Everything it opens (sockets, timers) is closed by `close()`.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { drawn, scripted } from '../reliability/support';

/** What the proxy does with one exchange (the bytes a client wrote, and the reply to them). */
export type TcpFault =
  /** Forward the bytes and relay the reply. */
  | { kind: 'pass' }
  /** Forward the bytes (the server acts on them), then cut both sockets as the reply arrives: the reply is lost. */
  | { kind: 'cut-before-reply' }
  /** Forward the bytes, relay `keep` bytes of the reply (default: half of its first chunk), then cut both sockets. */
  | { kind: 'cut-mid-body'; keep?: number | undefined }
  /** Hold the bytes `ms` before forwarding them (the reply follows; later bytes keep their order). */
  | { kind: 'latency'; ms: number }
  /** Reset the client's connection (TCP RST) without forwarding: the server never sees the bytes. */
  | { kind: 'reset' }
  /**
   * A dead peer: swallow these bytes and everything after on this connection, never answer; close it
   * after `closeAfter` ms (as the OS does once keepalive probes go unanswered), or never.
   */
  | { kind: 'dead'; closeAfter?: number | undefined };

export type TcpFaultKind = TcpFault['kind'];
export const TCP_FAULT_KINDS: readonly TcpFaultKind[] = ['pass', 'cut-before-reply', 'cut-mid-body', 'latency', 'reset', 'dead'];

/** What a plan sees of an exchange. */
export interface Exchange {
  /** 0-based order of arrival, over all connections. */
  seq: number;
  /** 0-based connection number. */
  conn: number;
  /** The bytes the client wrote. */
  data: Buffer;
}

/** Chooses the fault of each exchange. */
export type TcpPlan = (exchange: Exchange) => TcpFault;

/** One exchange, and what was done to it. */
export interface ExchangeRecord {
  seq: number;
  conn: number;
  /** The client's bytes, as latin1 text (enough to find a command or a request line). */
  text: string;
  fault: TcpFault;
  /** Whether the bytes reached the server. */
  forwarded: boolean;
}

/** A running TCP fault proxy. */
export interface TcpFaultProxy {
  host: '127.0.0.1';
  port: number;
  /** `http://127.0.0.1:<port>`, for HTTP clients. */
  url: string;
  records: ExchangeRecord[];
  /** Exchanges that got each fault kind (pass included). */
  injected(): Record<TcpFaultKind, number>;
  setPlan(plan: TcpPlan): void;
  /** Destroys every socket and timer, and stops listening. */
  close(): Promise<void>;
}

export const PASS: TcpFault = { kind: 'pass' };

/** Faults in order, one per exchange; then `then` (default: pass). */
export function tcpScript(faults: readonly TcpFault[], then: TcpPlan = () => PASS): TcpPlan {
  return scripted(faults, then);
}

/** Faults drawn by a seeded PRNG with these weights (the rest of 1 passes). */
export function tcpSeeded(seed: number, weights: readonly (readonly [number, TcpFault])[]): TcpPlan {
  return drawn(seed, weights, PASS);
}

/** Only exchanges whose bytes match `when` get `plan`'s faults (`plan` is not consulted for the others). */
export function tcpOnly(when: (exchange: Exchange) => boolean, plan: TcpPlan): TcpPlan {
  return (exchange) => (when(exchange) ? plan(exchange) : PASS);
}

/** Starts a proxy in front of `127.0.0.1:upstreamPort`. */
export async function startTcpFaultProxy(upstreamPort: number, initialPlan: TcpPlan = () => PASS): Promise<TcpFaultProxy> {
  let plan = initialPlan;
  const records: ExchangeRecord[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let conns = 0;
  let closed = false;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined); // resets and cuts are the point here
    return socket;
  };

  const server = createServer((client) => {
    track(client);
    const conn = conns++;
    const upstream = track(connect({ host: '127.0.0.1', port: upstreamPort }));
    // Client bytes go upstream in order, a latency fault holding back what follows it.
    let chain = Promise.resolve();
    // What to do with the next reply bytes: relay them, or cut (keeping `keep` bytes).
    let onReply: { keep: number | undefined } | undefined;
    let dead = false;
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };

    upstream.on('data', (chunk: Buffer) => {
      if (dead || client.destroyed) return;
      if (onReply) {
        const keep = Math.min(onReply.keep ?? Math.floor(chunk.length / 2), chunk.length - 1);
        onReply = undefined;
        if (keep > 0) {
          client.write(chunk.subarray(0, keep), () => cut());
          return;
        }
        cut();
        return;
      }
      client.write(chunk);
    });
    upstream.on('close', () => {
      if (!dead) client.destroy();
    });
    client.on('close', () => {
      if (!dead) upstream.destroy();
    });

    client.on('data', (data: Buffer) => {
      if (dead) return;
      const exchange: Exchange = { seq: records.length, conn, data };
      const fault = closed ? PASS : plan(exchange);
      const rec: ExchangeRecord = { seq: exchange.seq, conn, text: data.toString('latin1'), fault, forwarded: false };
      records.push(rec);
      const send = () => {
        if (upstream.destroyed || dead) return;
        upstream.write(data);
        rec.forwarded = true;
      };
      switch (fault.kind) {
        case 'pass':
          chain = chain.then(send);
          return;
        case 'cut-before-reply':
          chain = chain.then(() => {
            onReply = { keep: 0 };
            send();
          });
          return;
        case 'cut-mid-body':
          chain = chain.then(() => {
            onReply = { keep: fault.keep };
            send();
          });
          return;
        case 'latency':
          chain = chain.then(
            () =>
              new Promise<void>((resolve) => {
                const timer = setTimeout(() => {
                  timers.delete(timer);
                  send();
                  resolve();
                }, fault.ms);
                timers.add(timer);
              }),
          );
          return;
        case 'reset':
          client.resetAndDestroy();
          upstream.destroy();
          return;
        case 'dead':
          dead = true;
          upstream.destroy();
          if (fault.closeAfter !== undefined) {
            const timer = setTimeout(() => {
              timers.delete(timer);
              client.destroy();
            }, fault.closeAfter);
            timers.add(timer);
          }
          return;
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    host: '127.0.0.1',
    port,
    url: `http://127.0.0.1:${port}`,
    records,
    injected() {
      const counts = Object.fromEntries(TCP_FAULT_KINDS.map((k) => [k, 0])) as Record<TcpFaultKind, number>;
      for (const r of records) counts[r.fault.kind]++;
      return counts;
    },
    setPlan(next) {
      plan = next;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
