/**
 * RedisDedupeStore against a real redis-server (Debian's package; `.ci/run` installs it), started
 * here on 127.0.0.1 with a random port and stopped by its pid: several workers, each with its own
 * client, receive the same deliveries and redeliveries; each event's handler runs exactly once.
 */
// @ts-nocheck

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dedupe, RedisDedupeStore } from '../../src/webhooks/dedupe';

const WORKERS = 8;
const EVENTS = 200;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

let redis: ChildProcess | undefined;
let port = 0;
const clients: Redis[] = [];

beforeAll(async () => {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error('redis-server is not installed: `apt-get install -y redis-server` (.ci/run installs it); this test needs a real one');
  }
  port = await freePort();
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  // Bounded wait for the server to answer PING.
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined); // refused until the server is up: expected
  for (let i = 0; ; i++) {
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') break;
    } catch {
      if (i > 100) throw new Error(`redis-server did not answer on 127.0.0.1:${port}`);
      probe.disconnect();
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  probe.disconnect();
}, 30_000);

afterAll(async () => {
  for (const c of clients) c.disconnect();
  redis?.kill('SIGTERM');
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
    // eslint-disable-next-line no-console
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
