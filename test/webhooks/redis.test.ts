/**
 * RedisDedupeStore against a real redis-server (test/helpers/redis-server.ts: 127.0.0.1, a random
 * port, stopped by its pid): several workers, each with its own client, receive the same deliveries
 * and redeliveries, and each event's handler runs exactly once; claim → handle → confirm with a lease;
 * and, through the TCP fault proxy (test/helpers/fault-proxy.ts), a claim whose reply is lost.
 */
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmHandled, dedupe, RedisDedupeStore } from '../../src/webhooks/dedupe';
import { handleOnceConfirmed } from '../../examples/webhooks/handle-once-confirmed';
import { startTcpFaultProxy, tcpOnly, tcpScript, type TcpFaultProxy } from '../helpers/fault-proxy';
import { startRedisServer, type RedisServer } from '../helpers/redis-server';

const WORKERS = 8;
const EVENTS = 200;

let server: RedisServer | undefined;
let port = 0;
const clients: Redis[] = [];
const proxies: TcpFaultProxy[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  port = server.port;
}, 30_000);

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await Promise.all(proxies.map((p) => p.close()));
  server?.stop();
});

function client(): Redis {
  const c = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  clients.push(c);
  return c;
}

describe('RedisDedupeStore (real redis-server)', () => {
  it(`${WORKERS} workers, ${EVENTS} events each delivered to every worker, some twice: every handler runs exactly once`, async () => {
    const handled = new Map<string, number>();
    const workers = Array.from({ length: WORKERS }, () => new RedisDedupeStore(client(), { prefix: `t1:` }));
    const now = new Date().toISOString();
    const events = Array.from({ length: EVENTS }, (_, i) => ({ id: `Webhook:${i}`, timestamp: now }));
    // Every worker gets every event, interleaved, and the first quarter arrives a second time.
    const deliveries = workers.flatMap((store, w) => [...events, ...events.slice(0, EVENTS / 4)].map((event) => ({ store, event, w })));
    await Promise.all(
      deliveries.map(async ({ store, event }) => {
        const { duplicate } = await dedupe(event, store);
        if (!duplicate) handled.set(event.id, (handled.get(event.id) ?? 0) + 1);
      }),
    );
    expect(handled.size).toBe(EVENTS);
    expect([...handled.values()].every((n) => n === 1)).toBe(true);

    console.log(`[redis] ${deliveries.length} deliveries to ${WORKERS} workers: ${handled.size} events handled once, 0 twice`);
  });

  it('forgets an id after its TTL, and on delete (a failed handler is retried)', async () => {
    const store = new RedisDedupeStore(client(), { prefix: 't2:' });
    expect(await store.add('a', 150)).toBe(true);
    expect(await store.add('a', 150)).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.add('a', 150)).toBe(true);
    expect(await store.add('b', 60_000)).toBe(true);
    await store.delete('b');
    expect(await store.add('b', 60_000)).toBe(true);
  });

  it('keys carry the prefix and the TTL dedupe asks for', async () => {
    const c = client();
    const store = new RedisDedupeStore(c, { prefix: 't3:' });
    await dedupe({ id: 'Webhook:ttl', timestamp: new Date().toISOString() }, store);
    const ttl = await c.pttl('t3:Webhook:ttl');
    expect(ttl).toBeGreaterThan(24 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000 + 5 * 60_000);
  });

  it('takes a client that only has sendCommand (redis v4+ style)', async () => {
    const c = client();
    const store = new RedisDedupeStore({ sendCommand: (args: string[]) => c.call(args[0]!, ...args.slice(1)) }, { prefix: 't4:' });
    expect(await store.add('x', 10_000)).toBe(true);
    expect(await store.add('x', 10_000)).toBe(false);
    expect(() => new RedisDedupeStore({} as never)).toThrow(TypeError);
  });
});

describe('RedisDedupeStore: claim → handle → confirm (real redis-server)', () => {
  it('a claim is in progress for other workers until confirmed, then a duplicate; the key holds done for the whole window', async () => {
    const c = client();
    const [a, b] = [new RedisDedupeStore(c, { prefix: 't7:' }), new RedisDedupeStore(client(), { prefix: 't7:' })];
    const event = { id: 'Webhook:lease', timestamp: new Date().toISOString() };
    expect(await dedupe(event, a, { lease: 60_000 })).toEqual({ duplicate: false, stale: false });
    expect(await c.get('t7:Webhook:lease')).toMatch(/^claim:[0-9a-f-]{36}$/);
    expect(await c.pttl('t7:Webhook:lease')).toBeLessThanOrEqual(60_000);
    expect(await dedupe(event, b, { lease: 60_000 })).toEqual({ duplicate: false, stale: false, inProgress: true });
    await confirmHandled(event, a);
    expect(await c.get('t7:Webhook:lease')).toBe('done');
    expect(await c.pttl('t7:Webhook:lease')).toBeGreaterThan(24 * 3600_000);
    expect(await dedupe(event, b, { lease: 60_000 })).toEqual({ duplicate: true, stale: false });
    expect(await dedupe(event, b)).toEqual({ duplicate: true, stale: false });
  });

  it('a claim never confirmed runs out, and the next redelivery handles the event', async () => {
    const store = new RedisDedupeStore(client(), { prefix: 't8:' });
    const event = { id: 'Webhook:crash', timestamp: new Date().toISOString() };
    expect((await dedupe(event, store, { lease: 150 })).duplicate).toBe(false);
    expect((await dedupe(event, store, { lease: 150 })).inProgress).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(await dedupe(event, store, { lease: 150 })).toEqual({ duplicate: false, stale: false });
  });

  it('a key from the previous version (value 1) counts as handled; add stores its own token', async () => {
    const c = client();
    await c.set('t9:Webhook:old', '1', 'PX', 60_000);
    const store = new RedisDedupeStore(c, { prefix: 't9:' });
    expect(await store.add('Webhook:old', 60_000)).toBe(false);
    expect(await store.claim('Webhook:old', 60_000)).toBe('done');
    expect(await store.add('Webhook:new', 60_000)).toBe(true);
    expect(await c.get('t9:Webhook:new')).toMatch(/^add:[0-9a-f-]{36}$/);
  });

  it('a reply it does not expect is an error, and so is a bad timeout', async () => {
    const replies: unknown[] = ['OK', null, 3, [1], 'QUEUED'];
    for (const reply of replies) {
      const store = new RedisDedupeStore({ call: async () => reply });
      await expect(store.add('x', 1000)).rejects.toThrow(/RedisDedupeStore: unexpected reply to EVAL/);
      await expect(store.claim('x', 1000)).rejects.toThrow(/unexpected reply to EVAL/);
      await expect(dedupe({ id: 'x', timestamp: new Date().toISOString() }, store)).rejects.toThrow(/whether the id is held is unknown/);
    }
    await expect(new RedisDedupeStore({ call: async () => 'NO' }).confirm('x', 1000)).rejects.toThrow(/unexpected reply to SET/);
    await expect(new RedisDedupeStore({ call: async () => 'OK' }).delete('x')).rejects.toThrow(/unexpected reply to DEL/);
    for (const timeout of [0, -5, Number.NaN]) expect(() => new RedisDedupeStore({ call: async () => 1 }, { timeout })).toThrow(RangeError);
  });
});

describe('RedisDedupeStore through a TCP fault proxy (issue 22, defect 1)', () => {
  /** An ioredis client (its defaults: reconnect, resend unfulfilled commands) reaching redis-server through a proxy. */
  async function viaProxy(prefix: string, plan: Parameters<typeof startTcpFaultProxy>[1]) {
    const proxy = await startTcpFaultProxy(port, plan);
    proxies.push(proxy);
    const c = new Redis({ port: proxy.port, host: '127.0.0.1' });
    c.on('error', () => undefined); // the cut is the point
    clients.push(c);
    const touching = () => proxy.records.filter((r) => r.text.includes(prefix));
    return { proxy, c, touching };
  }

  it('the reply to the claim is lost after Redis ran it, ioredis resends it on reconnect: a first delivery is not a duplicate', async () => {
    const prefix = 't5:';
    const { touching } = await viaProxy(
      prefix,
      tcpOnly((x) => x.data.toString('latin1').includes(prefix), tcpScript([{ kind: 'cut-before-reply' }])),
    );
    const store = new RedisDedupeStore(clients.at(-1)!, { prefix });
    const event = { id: 'Webhook:lost-reply', timestamp: new Date().toISOString() };
    expect(await dedupe(event, store)).toEqual({ duplicate: false, stale: false });
    // The claim reached Redis twice: the first send (it ran, its reply was cut) and ioredis's resend.
    const sent = touching();
    expect(sent.map((r) => [r.fault.kind, r.forwarded])).toEqual([
      ['cut-before-reply', true],
      ['pass', true],
    ]);
    // And the id is held: a real redelivery is a duplicate.
    expect(await dedupe(event, store)).toEqual({ duplicate: true, stale: false });
  });

  it('an answer the store cannot be sure of (dead peer: no reply) is an error, never a duplicate', async () => {
    const prefix = 't6:';
    await viaProxy(
      prefix,
      tcpOnly(
        (x) => x.data.toString('latin1').includes(prefix),
        () => ({ kind: 'dead' }),
      ),
    );
    const store = new RedisDedupeStore(clients.at(-1)!, { prefix, timeout: 300 });
    const started = performance.now();
    await expect(dedupe({ id: 'Webhook:dead', timestamp: new Date().toISOString() }, store)).rejects.toThrow(
      /RedisDedupeStore: no answer from Redis within 300 ms/,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('RedisDedupeStore: release', () => {
  it("a late release (the handler failed, the lease ran out, another worker claimed) never drops the other worker's claim, nor a confirmed id", async () => {
    const c = client();
    const [a, b] = [new RedisDedupeStore(c, { prefix: 't10:' }), new RedisDedupeStore(client(), { prefix: 't10:' })];
    expect(await a.claim('e', 100)).toBe('claimed');
    await new Promise((r) => setTimeout(r, 200));
    expect(await b.claim('e', 60_000)).toBe('claimed');
    await a.delete('e'); // a's handler failed, late
    expect(await a.claim('e', 60_000)).toBe('busy');
    await b.confirm('e', 60_000);
    expect(await c.get('t10:e')).toBe('done');
    // A release right after its own claim does forget it.
    expect(await a.claim('f', 60_000)).toBe('claimed');
    await a.delete('f');
    expect(await c.exists('t10:f')).toBe(0);
  });
});

describe('the claim → handle → confirm recipe (examples/webhooks/handle-once-confirmed.ts, real redis-server)', () => {
  it('a worker that dies after its claim loses nothing: redeliveries are refused until the lease runs out, then handled once; later ones are duplicates', async () => {
    const [a, b] = [new RedisDedupeStore(client(), { prefix: 't11:' }), new RedisDedupeStore(client(), { prefix: 't11:' })];
    const event = { id: 'Webhook:recipe', timestamp: new Date().toISOString(), type: 'OUTGOING_PAYMENT.COMPLETED', data: {} };
    const handled: string[] = [];
    // Worker a claims, then "dies" inside its handler: it never answers, never confirms.
    const dying = handleOnceConfirmed(event, () => new Promise<void>(() => undefined), a, 200);
    void dying;
    await new Promise((r) => setTimeout(r, 50));
    // The redelivery to b meanwhile must not be acknowledged: it throws, the receiver answers 500.
    await expect(handleOnceConfirmed(event, async (e) => void handled.push(e.id), b, 200)).rejects.toThrow('is being handled');
    expect(handled).toEqual([]);
    await new Promise((r) => setTimeout(r, 250));
    await handleOnceConfirmed(event, async (e) => void handled.push(e.id), b, 200);
    await handleOnceConfirmed(event, async (e) => void handled.push(e.id), b, 200);
    expect(handled).toEqual(['Webhook:recipe']);
  });

  it('a handler that fails releases its claim: the next delivery runs it at once', async () => {
    const store = new RedisDedupeStore(client(), { prefix: 't12:' });
    const event = { id: 'Webhook:fails', timestamp: new Date().toISOString(), type: 'OUTGOING_PAYMENT.COMPLETED', data: {} };
    await expect(handleOnceConfirmed(event, () => Promise.reject(new Error('db down')), store)).rejects.toThrow('db down');
    const handled: string[] = [];
    await handleOnceConfirmed(event, async (e) => void handled.push(e.id), store);
    expect(handled).toEqual(['Webhook:fails']);
  });
});
