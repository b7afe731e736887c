/**
 * The edges, under TCP faults (issue 22): the TCP fault proxy (test/helpers/fault-proxy.ts) cuts
 * before the reply, cuts mid-body, delays, resets, and plays a dead peer on two edges at once.
 *
 * 1. Webhooks: a "service" delivers N events at least once (a delivery answered non-2xx, cut, or not
 *    answered in time is delivered again; some are delivered again after a 2xx too) to W receivers over
 *    HTTP through one proxy each; the receivers share a `RedisDedupeStore` on a real redis-server behind
 *    another proxy, and claim → handle → confirm (`dedupe(…, { lease })`, `confirmHandled`). Counted:
 *    events processed once, twice, never.
 * 2. SDK calls: transfer-ins (writes with an Idempotency-Key) and reads through a proxy in front of the
 *    sandbox's HTTP port. Each outcome is checked against the sandbox's state: a success that did not
 *    happen (or happened twice), an error saying "not sent" for a write the sandbox made, or a read
 *    answering other data than the sandbox holds is a wrongly reported outcome.
 *
 * Goal, asserted: 0 lost, 0 processed twice, 0 wrongly reported. `RELIABILITY_FULL=1` runs more.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/client';
import { APIConnectionError, CrossborderError } from '../../src/core/errors';
import type { Sandbox } from '../../src/sandbox/index';
import type { SandboxServer } from '../../src/sandbox/sandbox';
import { confirmHandled, dedupe, RedisDedupeStore } from '../../src/webhooks/dedupe';
import {
  startTcpFaultProxy,
  tcpOnly,
  tcpScript,
  tcpSeeded,
  TCP_FAULT_KINDS,
  type TcpFault,
  type TcpFaultKind,
  type TcpFaultProxy,
} from '../helpers/fault-proxy';
import { startRedisServer, type RedisServer } from '../helpers/redis-server';
import { command, count, pool, prng, report, SEED } from './support';
import { startReliabilityWorld, type ReliabilityWorld } from './world';

const N_EVENTS = count(80, 2_000);
const N_EVENTS_PLAIN = count(100, 2_000);
const WORKERS = 3;
const N_WRITES = count(60, 600);
const N_READS = count(60, 600);

/**
 * The same mix on every edge, `rate` of the exchanges in all (0.24: about one in four). One Redis
 * connection carries every command of a receiver, so a fault there hits all of them in flight.
 */
const faults = (rate: number, latencyMs: number, deadCloseAfter: number | undefined): [number, TcpFault][] =>
  (
    [
      [0.25, { kind: 'cut-before-reply' }],
      [0.15, { kind: 'cut-mid-body' }],
      [0.25, { kind: 'latency', ms: latencyMs }],
      [0.2, { kind: 'reset' }],
      [0.15, { kind: 'dead', closeAfter: deadCloseAfter }],
    ] as [number, TcpFault][]
  ).map(([w, f]) => [w * rate, f]);

const sum = (records: Record<TcpFaultKind, number>[]) => {
  const total = Object.fromEntries(TCP_FAULT_KINDS.map((k) => [k, 0])) as Record<TcpFaultKind, number>;
  for (const r of records) for (const k of TCP_FAULT_KINDS) total[k] += r[k];
  return total;
};
const faultNotes = (t: Record<TcpFaultKind, number>) =>
  TCP_FAULT_KINDS.filter((k) => k !== 'pass')
    .map((k) => `${k} ${t[k]}`)
    .join(', ');

describe('the TCP fault proxy does what each fault says (an echo server that answers 64 bytes per line)', () => {
  it('pass, cut-before-reply, cut-mid-body, latency, reset, dead', async () => {
    const seen: string[] = [];
    const echo = createTcpServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('data', (d) => {
        seen.push(d.toString());
        socket.write('A'.repeat(64));
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
    const proxy = await startTcpFaultProxy((echo.address() as AddressInfo).port);
    /** Writes `line` on a new connection; what came back, how it ended, and when. */
    const exchange = (line: string) =>
      new Promise<{ got: number; end: string; ms: number }>((resolve) => {
        const started = performance.now();
        let got = 0;
        const socket = connect({ host: '127.0.0.1', port: proxy.port }, () => socket.write(line));
        const done = (end: string) => {
          clearTimeout(timer);
          socket.destroy();
          resolve({ got, end, ms: performance.now() - started });
        };
        const timer = setTimeout(() => done('no answer'), 400);
        socket.on('data', (d) => {
          got += d.length;
          if (got >= 64) done('answered');
        });
        socket.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? 'error'));
        socket.on('close', () => done('closed'));
      });
    try {
      proxy.setPlan(
        tcpScript([
          { kind: 'pass' },
          { kind: 'cut-before-reply' },
          { kind: 'cut-mid-body', keep: 10 },
          { kind: 'latency', ms: 150 },
          { kind: 'reset' },
          { kind: 'dead' },
        ]),
      );
      const results = [];
      for (const line of ['pass', 'cut', 'mid', 'slow', 'reset', 'dead']) results.push(await exchange(line));
      expect(results.map(({ got, end }) => [got, end])).toEqual([
        [64, 'answered'],
        [0, 'closed'],
        [10, 'closed'],
        [64, 'answered'],
        [0, 'ECONNRESET'],
        [0, 'no answer'],
      ]);
      expect(results[3]!.ms).toBeGreaterThanOrEqual(140);
      // The server saw what was forwarded, and only that: not the reset nor the dead peer's bytes.
      expect(seen).toEqual(['pass', 'cut', 'mid', 'slow']);
      expect(proxy.records.map((r) => [r.fault.kind, r.forwarded])).toEqual([
        ['pass', true],
        ['cut-before-reply', true],
        ['cut-mid-body', true],
        ['latency', true],
        ['reset', false],
        ['dead', false],
      ]);
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });
});

interface WebhookRun {
  /** Each event not processed exactly once, with what its deliveries met. */
  notOnce: string[];
  deliveries: number;
  undelivered: number;
  once: number;
  twice: number;
  never: number;
  answers: Map<string, number>;
  redisFaults: Record<TcpFaultKind, number>;
  redisExchanges: number;
  receiverFaults: Record<TcpFaultKind, number>;
  ms: number;
}

/**
 * N events delivered at least once to W receivers (each a node:http server behind its own TCP fault
 * proxy, with its own ioredis client to redis-server through one shared TCP fault proxy), each
 * receiver running `dedupe` (with `lease`: claim → handle → confirm; without: as the recipes'
 * `handleOnce` does) and a handler that fails before acting one time in twenty.
 */
async function runWebhooks(
  redisPort: number,
  o: { events: number; key: string; seed: number; lease?: number; storeTimeout: number; redisFaults: [number, TcpFault][] },
): Promise<WebhookRun> {
  const processed = new Map<string, number>();
  const answers = new Map<string, number>();
  /** What each delivery of an event met, for the report of an event that was not processed once. */
  const trail = new Map<string, string[]>();
  const note = (id: string, what: string) => trail.set(id, [...(trail.get(id) ?? []), what]);
  const clients: Redis[] = [];
  const servers: Server[] = [];
  const receivers: TcpFaultProxy[] = [];
  // Only the store's own commands (EVAL, SET, DEL on its keys) get faults; ioredis's handshake passes.
  const redisProxy = await startTcpFaultProxy(
    redisPort,
    tcpOnly((x) => x.data.includes(o.key), tcpSeeded(o.seed, o.redisFaults)),
  );
  try {
    const handlerRandom = prng(o.seed + 1);
    for (let w = 0; w < WORKERS; w++) {
      const c = new Redis({ host: '127.0.0.1', port: redisProxy.port, retryStrategy: (times) => Math.min(times * 20, 200) });
      c.on('error', () => undefined); // cuts and resets are the point
      clients.push(c);
      const store = new RedisDedupeStore(c, { prefix: o.key, timeout: o.storeTimeout });
      const options = o.lease === undefined ? {} : { lease: o.lease };
      const receive = async (req: IncomingMessage, res: ServerResponse) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; timestamp: string };
        let status = 200;
        try {
          const { duplicate, stale, inProgress } = await dedupe(event, store, options);
          if (inProgress) status = 409;
          else if (!duplicate && !stale) {
            try {
              if (handlerRandom() < 0.05) throw new Error('handler failed before acting');
              processed.set(event.id, (processed.get(event.id) ?? 0) + 1);
            } catch (error) {
              await store.delete(event.id);
              throw error;
            }
            if (o.lease !== undefined) await confirmHandled(event, store);
          }
        } catch (error) {
          status = 500; // not sure, or our failure: the service delivers it again
          note(event.id, `500 ${String(error).slice(0, 80)}`);
        }
        if (status !== 500) note(event.id, String(status));
        answers.set(String(status), (answers.get(String(status)) ?? 0) + 1);
        res.writeHead(status).end();
      };
      // A delivery the fault proxy cuts off mid-body fails while its body is read: nothing to note, the sender retries.
      const server = createServer((req, res) => {
        receive(req, res).catch(() => res.destroy());
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      servers.push(server);
      receivers.push(await startTcpFaultProxy((server.address() as AddressInfo).port, tcpSeeded(o.seed + 10 + w, faults(0.24, 300, undefined))));
    }

    const random = prng(o.seed + 2);
    const timestamp = new Date().toISOString();
    let deliveries = 0;
    let undelivered = 0;
    /** One delivery: true when the receiver answered 2xx. */
    const deliver = async (id: string): Promise<boolean> => {
      deliveries++;
      const proxy = receivers[Math.floor(random() * WORKERS)]!;
      try {
        const res = await fetch(`${proxy.url}/webhooks`, { method: 'POST', body: JSON.stringify({ id, timestamp }), signal: AbortSignal.timeout(1_000) });
        await res.arrayBuffer();
        return res.ok;
      } catch (error) {
        note(id, `delivery: ${String((error as Error).cause ?? error).slice(0, 60)}`);
        return false; // cut, reset, or no answer in time
      }
    };
    const started = performance.now();
    await pool([...Array(o.events).keys()], 16, async (i) => {
      const id = `Webhook:${o.key}${i}`;
      // At least once, bounded like a service's retry schedule, scaled down: a growing pause (up to
      // 500 ms) for 30 s at most. A claim whose command ran late (after its answer timed out) holds the
      // event for a lease once more, so an event can take a few leases when its Redis connection is hit.
      let acknowledged = false;
      const deadline = performance.now() + 30_000;
      for (let attempt = 0; attempt < 200 && !acknowledged && performance.now() < deadline; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(50 * attempt, 500)));
        acknowledged = await deliver(id);
      }
      if (!acknowledged) undelivered++;
      // Redeliveries after a 2xx happen too (the service did not see the answer in time): one in five.
      if (random() < 0.2) await deliver(id);
    });
    const ms = Math.round(performance.now() - started);
    const counts = [...Array(o.events).keys()].map((i) => processed.get(`Webhook:${o.key}${i}`) ?? 0);
    return {
      deliveries,
      undelivered,
      notOnce: counts.flatMap((n, i) => (n === 1 ? [] : [`${o.key}${i} ×${n}: ${(trail.get(`Webhook:${o.key}${i}`) ?? []).join(' | ')}`])),
      once: counts.filter((n) => n === 1).length,
      twice: counts.filter((n) => n >= 2).length,
      never: counts.filter((n) => n === 0).length,
      answers,
      redisFaults: redisProxy.injected(),
      redisExchanges: redisProxy.records.length,
      receiverFaults: sum(receivers.map((p) => p.injected())),
      ms,
    };
  } finally {
    for (const c of clients) c.disconnect();
    await Promise.all([redisProxy, ...receivers].map((p) => p.close()));
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))));
  }
}

const runNotes = (r: WebhookRun) =>
  `${r.deliveries} deliveries in ${r.ms} ms; processed once ${r.once}, twice ${r.twice}, never ${r.never}; ` +
  `answers ${[...r.answers].map(([s, n]) => `${s}: ${n}`).join(', ')}; ` +
  `Redis faults: ${faultNotes(r.redisFaults)} (of ${r.redisExchanges} exchanges); receiver faults: ${faultNotes(r.receiverFaults)}`;

describe(`webhooks at least once, Redis and receivers behind TCP faults (${WORKERS} receivers)`, () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  }, 30_000);
  afterAll(() => redis?.stop());

  it(
    `claim → handle → confirm, every fault kind on both edges: each of ${N_EVENTS} events processed exactly once`,
    async () => {
      const r = await runWebhooks(redis.port, {
        events: N_EVENTS,
        key: 'lease:',
        seed: SEED,
        lease: 3_000,
        // The store's timeout (300 ms) is shorter than the longest delay (450 ms) and a dead peer (500 ms):
        // some answers come too late to be sure of, and the command they answer runs after all.
        storeTimeout: 300,
        redisFaults: faults(0.12, 450, 500),
      });
      report({
        scenario: 'Webhooks at least once, claim → handle → confirm (Redis store and receivers behind TCP faults)',
        unit: 'events',
        cases: N_EVENTS,
        failures: r.twice + r.never,
        command: command('edges.test.ts', 'claim → handle → confirm'),
        notes: runNotes(r),
      });
      // The faults really happened, on both edges, of every kind, and receivers answered "not sure" (500).
      for (const kind of TCP_FAULT_KINDS) {
        expect(r.redisFaults[kind], `Redis ${kind}`).toBeGreaterThan(0);
        expect(r.receiverFaults[kind], `receivers ${kind}`).toBeGreaterThan(0);
      }
      expect(r.answers.get('500') ?? 0).toBeGreaterThan(0);
      expect(r.notOnce).toEqual([]);
      expect(r.undelivered).toBe(0);
      expect({ once: r.once, twice: r.twice, never: r.never }).toEqual({ once: N_EVENTS, twice: 0, never: 0 });
    },
    count(120_000, 900_000),
  );

  it(
    `dedupe alone (the recipes' handleOnce), Redis replies lost, cut or reset and resent by ioredis: each of ${N_EVENTS_PLAIN} events processed exactly once`,
    async () => {
      // Faults ioredis recovers from by resending the command: the store must know its own claim again.
      // (An answer that times out is where dedupe alone can lose an event: the scenario above closes it.)
      const redisFaults: [number, TcpFault][] = [
        [0.08, { kind: 'cut-before-reply' }],
        [0.04, { kind: 'cut-mid-body' }],
        [0.04, { kind: 'reset' }],
      ];
      const r = await runWebhooks(redis.port, { events: N_EVENTS_PLAIN, key: 'plain:', seed: SEED + 100, storeTimeout: 3_000, redisFaults });
      report({
        scenario: 'Webhooks at least once, dedupe alone (Redis replies lost and resent; receivers behind TCP faults)',
        unit: 'events',
        cases: N_EVENTS_PLAIN,
        failures: r.twice + r.never,
        command: command('edges.test.ts', 'dedupe alone'),
        notes: runNotes(r),
      });
      for (const kind of ['cut-before-reply', 'cut-mid-body', 'reset'] as const) expect(r.redisFaults[kind], `Redis ${kind}`).toBeGreaterThan(0);
      expect(r.notOnce).toEqual([]);
      expect(r.undelivered).toBe(0);
      expect({ once: r.once, twice: r.twice, never: r.never }).toEqual({ once: N_EVENTS_PLAIN, twice: 0, never: 0 });
    },
    count(120_000, 900_000),
  );
});

describe(`SDK calls behind TCP faults (${N_WRITES} transfer-ins with an Idempotency-Key, ${N_READS} reads)`, () => {
  let sandbox: Sandbox;
  let server: SandboxServer;
  let proxy: TcpFaultProxy;
  let direct: Crossborder;
  let cb: Crossborder;
  let source: string;
  let bank: string;
  let customerId: string;
  let credentials: ReliabilityWorld['base'];

  beforeAll(async () => {
    ({ sandbox, server, direct, source, bank, customerId, base: credentials } = await startReliabilityWorld('tok_edges', 'sk_edges', 'Ada Edges'));
    proxy = await startTcpFaultProxy(Number(new URL(server.url).port));
    cb = new Crossborder({ ...credentials, baseUrl: proxy.url, maxRetries: 2, timeout: 1_000, sleep: async () => undefined });
    proxy.setPlan(tcpSeeded(SEED + 3, faults(0.24, 400, undefined)));
  }, 30_000);

  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  it(
    'no outcome is wrongly reported: a success happened once, "not sent" was not sent, a read answers what the sandbox holds',
    async () => {
      type Outcome = { i: number; ok: boolean; error?: unknown; key?: string | undefined };
      const writes: Outcome[] = [];
      const started = performance.now();
      await pool([...Array(N_WRITES).keys()], 4, async (i) => {
        const idempotencyKey = `edges-${SEED}-${i}`;
        try {
          await cb.transferIn.create({ source: { accountId: bank }, destination: { accountId: source }, amount: 1_000 + i }, { idempotencyKey });
          writes.push({ i, ok: true, key: idempotencyKey });
        } catch (error) {
          writes.push({ i, ok: false, error, key: idempotencyKey });
        }
      });
      const expected = await direct.customers.retrieve(customerId);
      let readsOk = 0;
      let readsFailed = 0;
      const wrong: string[] = [];
      await pool([...Array(N_READS).keys()], 4, async (i) => {
        try {
          const got = await cb.customers.retrieve(customerId);
          readsOk++;
          if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push(`read ${i}: other data than the sandbox holds`);
        } catch (error) {
          readsFailed++;
          if (!(error instanceof CrossborderError)) wrong.push(`read ${i}: ${String(error)} is not a CrossborderError`);
        }
      });
      const ms = Math.round(performance.now() - started);

      const inbound = sandbox.state
        .snapshot()
        .transactions.filter((t) => t.type === 'INCOMING' && t.source?.sourceType === 'ACCOUNT' && t.source.accountId === bank);
      let unknown = 0;
      let knownNotSent = 0;
      for (const o of writes) {
        const made = inbound.filter((t) => t.receivedAmount?.amount === 1_000 + o.i).length;
        if (made > 1) wrong.push(`write ${o.i}: made ${made} times`);
        if (o.ok) {
          if (made !== 1) wrong.push(`write ${o.i}: reported done, made ${made} times`);
          continue;
        }
        if (!(o.error instanceof CrossborderError)) {
          wrong.push(`write ${o.i}: ${String(o.error)} is not a CrossborderError`);
          continue;
        }
        const mayHaveActed = (o.error as { outcomeUnknown?: boolean }).outcomeUnknown === true;
        if (mayHaveActed) unknown++;
        else {
          knownNotSent++;
          if (made !== 0) wrong.push(`write ${o.i}: reported as not done (${(o.error as Error).name}), but the sandbox made it`);
        }
        if ((o.error as { idempotencyKey?: string }).idempotencyKey !== o.key) wrong.push(`write ${o.i}: the error does not carry the key it sent`);
      }
      const injected = proxy.injected();
      const succeeded = writes.filter((o) => o.ok).length;
      report({
        scenario: 'SDK calls behind TCP faults (sandbox over HTTP)',
        unit: 'calls',
        cases: N_WRITES + N_READS,
        failures: wrong.length,
        command: command('edges.test.ts', 'wrongly reported'),
        notes:
          `${N_WRITES} writes: ${succeeded} succeeded, ${unknown} failed with outcomeUnknown, ${knownNotSent} failed known not done; ` +
          `${N_READS} reads: ${readsOk} answered, ${readsFailed} failed; ${ms} ms; faults: ${faultNotes(injected)} (of ${proxy.records.length} exchanges); wrongly reported ${wrong.length}`,
      });
      for (const kind of TCP_FAULT_KINDS) expect(injected[kind], kind).toBeGreaterThan(0);
      expect(writes.filter((o) => !o.ok && o.error instanceof APIConnectionError).length).toBeGreaterThan(0);
      expect(wrong).toEqual([]);
    },
    count(60_000, 300_000),
  );
});
