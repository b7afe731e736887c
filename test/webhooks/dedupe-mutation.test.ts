/**
 * The exact answers of the dedupe stores that the mutation run (issue 22) found untested: boundaries
 * of the memory store's bound and sweep, the Redis store's commands, its bound on held claims and the
 * messages a user reads when a store answers what it cannot mean. The Redis store runs here against a
 * scripted client (no server): test/webhooks/redis.test.ts covers the real one.
 */
import { describe, expect, it } from 'vitest';
import { confirmHandled, dedupe, MemoryDedupeStore, RedisDedupeStore, type DedupeStore } from '../../src/webhooks/dedupe';

const HOUR = 3600_000;
const T0 = Date.parse('2025-10-13T12:00:00Z');
const SKEW = 5 * 60_000;

/** A scripted ioredis-like client: answers with `reply(args)` and records every command. */
function scripted(reply: (args: string[]) => unknown) {
  const sent: string[][] = [];
  const client = {
    call: async (command: string, ...args: (string | number)[]) => {
      const all = [command, ...args.map(String)];
      sent.push(all);
      return reply(all);
    },
  };
  return { client, sent };
}

async function message(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a rejection');
}

describe('MemoryDedupeStore boundaries', () => {
  it('a cap of 1 is accepted and holds one id; a bad cap is refused with its value named', () => {
    const store = new MemoryDedupeStore({ maxEntries: 1 });
    expect(store.add('a', HOUR)).toBe(true);
    expect(store.add('b', HOUR)).toBe(true);
    expect(store.size).toBe(1);
    expect(store.add('b', HOUR)).toBe(false);
    expect(() => new MemoryDedupeStore({ maxEntries: 0 })).toThrow('maxEntries must be an integer ≥ 1, got 0');
  });

  it('an id whose expiry is exactly now is swept (not counted) by the next add', () => {
    let now = T0;
    const store = new MemoryDedupeStore({ now: () => now });
    store.add('a', 10);
    now += 10;
    store.add('b', 10);
    expect(store.size).toBe(1);
    expect(store.add('a', 10)).toBe(true);
  });
});

describe('dedupe boundaries and messages', () => {
  it('an event dated exactly the skew allowance ahead is usable; 1 ms more is not', async () => {
    const store = new MemoryDedupeStore({ now: () => T0 });
    const at = (ms: number, id: string) => ({ id, timestamp: new Date(T0 + ms).toISOString() });
    expect(await dedupe(at(SKEW, 'edge'), store, { now: () => T0 })).toEqual({ duplicate: false, stale: false });
    expect(await dedupe(at(SKEW + 1, 'past'), store, { now: () => T0 })).toEqual({ duplicate: false, stale: false, unusableTimestamp: true });
  });

  it('names what a store answered that it cannot mean', async () => {
    const event = { id: 'Webhook:m', timestamp: new Date(T0).toISOString() };
    const options = { now: () => T0 };
    const weird = (answer: unknown): DedupeStore => ({ add: () => answer as boolean, claim: () => answer as 'done' });
    expect(await message(dedupe(event, weird('yes'), options))).toBe(
      "dedupe: the store's add answered string, not a boolean; whether the id is held is unknown",
    );
    expect(await message(dedupe(event, weird('OK'), { ...options, lease: 1000 }))).toBe(
      'dedupe: the store\'s claim answered "OK"; whether the id is held is unknown',
    );
    expect(await message(dedupe(event, weird('x'.repeat(30)), { ...options, lease: 1000 }))).toBe(
      `dedupe: the store's claim answered "${'x'.repeat(20)}"; whether the id is held is unknown`,
    );
    expect(await message(dedupe(event, weird(2), { ...options, lease: 1000 }))).toBe(
      "dedupe: the store's claim answered number; whether the id is held is unknown",
    );
    expect(await message(dedupe(event, new MemoryDedupeStore(), { ...options, lease: 0 }))).toBe('lease must be a positive number of milliseconds, got 0');
  });

  // Each test file has its own module instance: no test of this file uses the default store before this one.
  it('confirmHandled without a store, before any dedupe call, confirms in the same default store dedupe uses', async () => {
    const event = { id: `Webhook:first-confirm-${Math.random()}`, timestamp: new Date().toISOString() };
    await confirmHandled(event);
    expect(await dedupe(event)).toEqual({ duplicate: true, stale: false });
  });
});

describe('RedisDedupeStore commands (scripted client)', () => {
  it('uses the prefix crossborder:webhook: by default, sends the TTL in whole ms, and SET … done on confirm', async () => {
    const { client, sent } = scripted(([command]) => (command === 'SET' ? 'OK' : 1));
    const store = new RedisDedupeStore(client);
    expect(await store.add('Webhook:1', 1500.2)).toBe(true);
    await store.confirm('Webhook:1', 0.4);
    expect(sent[0]!.slice(2)).toEqual(['1', 'crossborder:webhook:Webhook:1', sent[0]![4]!, '1501']);
    expect(sent[0]![4]).toMatch(/^add:[0-9a-f-]{36}$/);
    expect(sent[1]).toEqual(['SET', 'crossborder:webhook:Webhook:1', 'done', 'PX', '1']);
  });

  it('delete: DEL for an id it never claimed, the release script for its own claim; 0 (already gone) is fine, anything else is an error naming the command', async () => {
    let release: unknown = 1;
    const { client, sent } = scripted(([command, script]) => (command === 'DEL' ? 0 : script!.includes("'DEL'") ? release : 1));
    const store = new RedisDedupeStore(client, { prefix: 'p:' });
    await store.delete('never-claimed');
    expect(sent.at(-1)).toEqual(['DEL', 'p:never-claimed']);
    expect(await store.claim('c', 1000)).toBe('claimed');
    const token = sent.at(-1)![4]!;
    expect(token).toMatch(/^claim:[0-9a-f-]{36}$/);
    release = 'OK';
    expect(await message(store.delete('c'))).toBe('RedisDedupeStore: unexpected reply to EVAL ("OK"); whether the id is held is unknown');
    expect(sent.at(-1)!.slice(2)).toEqual(['1', 'p:c', token]);
    release = 0;
    await store.delete('c');
    // Released: a later delete of the same id is a plain DEL.
    await store.delete('c');
    expect(sent.at(-1)).toEqual(['DEL', 'p:c']);
  });

  it('holds at most 10,000 claims: the oldest is forgotten (its delete is a plain DEL), the next one is still held', async () => {
    const { client, sent } = scripted(() => 1);
    const store = new RedisDedupeStore(client);
    await Promise.all(Array.from({ length: 10_001 }, (_, i) => store.claim(`id${i}`, 1000)));
    await store.delete('id0');
    expect(sent.at(-1)![0]).toBe('DEL');
    await store.delete('id1');
    expect(sent.at(-1)![0]).toBe('EVAL');
    await store.delete('id10000');
    expect(sent.at(-1)![0]).toBe('EVAL');
  });

  it('the reply it did not expect is shown in the error, short, and never as more than its type otherwise', async () => {
    const cases: [unknown, string][] = [
      ['OK', '"OK"'],
      [3, '3'],
      [null, 'object'],
      [[1], 'object'],
      [undefined, 'undefined'],
      ['x'.repeat(50), `"${'x'.repeat(39)}`],
    ];
    for (const [reply, shown] of cases) {
      const store = new RedisDedupeStore(scripted(() => reply).client);
      expect(await message(store.add('x', 1000))).toBe(`RedisDedupeStore: unexpected reply to EVAL (${shown}); whether the id is held is unknown`);
    }
  });

  it("a client's own error is passed on at once, not after the timeout", async () => {
    const store = new RedisDedupeStore({ call: async () => Promise.reject(new Error('ECONNRESET')) }, { timeout: 5_000 });
    const started = performance.now();
    expect(await message(store.add('x', 1000))).toBe('ECONNRESET');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses a bad timeout and a client without a command method, saying what it needs', () => {
    expect(() => new RedisDedupeStore({ call: async () => 1 }, { timeout: 0 })).toThrow('timeout must be a positive number of milliseconds, got 0');
    expect(() => new RedisDedupeStore({} as never)).toThrow('RedisDedupeStore needs an ioredis client (call) or a redis v4+ client (sendCommand)');
  });
});

it('confirmHandled refuses a store without confirm() and says which do have it', async () => {
  expect(await message(confirmHandled({ id: 'x', timestamp: new Date(T0).toISOString() }, { add: () => true }, { now: () => T0 }))).toBe(
    'confirmHandled needs a store with confirm() (MemoryDedupeStore, RedisDedupeStore)',
  );
});
