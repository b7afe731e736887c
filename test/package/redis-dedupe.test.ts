/**
 * Issue 22, defect 1, against the packed package (`crossborder-sdk` is the tarball here): a
 * `RedisDedupeStore` over ioredis, its documented client, reaching a real redis-server through the
 * TCP fault proxy, which cuts the connection after forwarding the claim and before its reply. ioredis
 * resends the claim on reconnect; the first delivery must not be answered as a duplicate.
 */
import { confirmHandled, dedupe, RedisDedupeStore } from 'crossborder-sdk';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpFaultProxy, tcpOnly, tcpScript, type TcpFaultProxy } from '../helpers/fault-proxy';
import { startRedisServer, type RedisServer } from '../helpers/redis-server';

let server: RedisServer | undefined;
const proxies: TcpFaultProxy[] = [];
const clients: Redis[] = [];

beforeAll(async () => {
  server = await startRedisServer();
}, 30_000);

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await Promise.all(proxies.map((p) => p.close()));
  server?.stop();
});

/** An ioredis client with its defaults (reconnect, resend unfulfilled commands) whose first command on `prefix` loses its reply. */
async function lossyClient(prefix: string) {
  const proxy = await startTcpFaultProxy(
    server!.port,
    tcpOnly((x) => x.data.toString('latin1').includes(prefix), tcpScript([{ kind: 'cut-before-reply' }])),
  );
  proxies.push(proxy);
  const c = new Redis({ host: '127.0.0.1', port: proxy.port });
  c.on('error', () => undefined); // the cut is the point
  clients.push(c);
  return { c, proxy };
}

describe('RedisDedupeStore from the package, the claim reply lost after Redis ran it', () => {
  it('dedupe: a first delivery is not a duplicate; a real redelivery is', async () => {
    const { proxy } = await lossyClient('pkg1:');
    const store = new RedisDedupeStore(clients.at(-1)!, { prefix: 'pkg1:' });
    const event = { id: 'Webhook:packed', timestamp: new Date().toISOString() };
    expect(await dedupe(event, store)).toEqual({ duplicate: false, stale: false });
    // The claim reached Redis twice: the cut send, and ioredis's resend.
    expect(proxy.records.filter((r) => r.text.includes('pkg1:')).map((r) => [r.fault.kind, r.forwarded])).toEqual([
      ['cut-before-reply', true],
      ['pass', true],
    ]);
    expect(await dedupe(event, store)).toEqual({ duplicate: true, stale: false });
  });

  it("claim → handle → confirm: the claim is this delivery's, then the event is handled for good", async () => {
    await lossyClient('pkg2:');
    const store = new RedisDedupeStore(clients.at(-1)!, { prefix: 'pkg2:' });
    const event = { id: 'Webhook:packed-lease', timestamp: new Date().toISOString() };
    expect(await dedupe(event, store, { lease: 60_000 })).toEqual({ duplicate: false, stale: false });
    await confirmHandled(event, store);
    expect(await dedupe(event, store, { lease: 60_000 })).toEqual({ duplicate: true, stale: false });
  });
});
