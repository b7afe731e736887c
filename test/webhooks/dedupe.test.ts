import { describe, expect, it } from 'vitest';
import { confirmHandled, dedupe, MemoryDedupeStore, WebhookVerificationError, type DedupeStore } from '../../src/webhooks/index';

const HOUR = 3600_000;
const T0 = Date.parse('2025-10-13T12:00:00Z');

function clock(start = T0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const event = (id: string, at = T0) => ({ id: `Webhook:${id}`, timestamp: new Date(at).toISOString() });

describe('MemoryDedupeStore', () => {
  it('reports an id seen before', () => {
    const store = new MemoryDedupeStore();
    expect(store.add('a', 1000)).toBe(true);
    expect(store.add('a', 1000)).toBe(false);
    expect(store.add('b', 1000)).toBe(true);
  });

  it('forgets an id once its ttl has passed', () => {
    const c = clock();
    const store = new MemoryDedupeStore({ now: c.now });
    store.add('a', 1000);
    c.advance(999);
    expect(store.add('a', 1000)).toBe(false);
    c.advance(1);
    expect(store.add('a', 1000)).toBe(true);
  });

  it('sweeps expired ids so they do not count against the bound', () => {
    const c = clock();
    const store = new MemoryDedupeStore({ now: c.now });
    for (let i = 0; i < 100; i++) store.add(`old-${i}`, 10);
    c.advance(11);
    store.add('new', 10);
    expect(store.size).toBe(1);
  });

  it('stays within maxEntries by evicting the oldest id', () => {
    const store = new MemoryDedupeStore({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) expect(store.add(id, HOUR)).toBe(true);
    expect(store.size).toBe(3);
    expect(store.add('d', HOUR)).toBe(false);
    expect(store.add('b', HOUR)).toBe(false);
    expect(store.add('a', HOUR)).toBe(true); // evicted, so new again
    for (let i = 0; i < 10_000; i++) store.add(`x${i}`, HOUR);
    expect(store.size).toBe(3);
  });

  it('never forgets a live id for traffic: 10,001 deliveries later, a redelivery of the first is still a duplicate', () => {
    const store = new MemoryDedupeStore();
    for (let i = 0; i < 10_001; i++) expect(store.add(`x${i}`, HOUR)).toBe(true);
    expect(store.size).toBe(10_001);
    expect(store.add('x0', HOUR)).toBe(false);
  });

  it('is bounded by time: ids past their TTL are swept', () => {
    let now = 0;
    const store = new MemoryDedupeStore({ now: () => now });
    for (let i = 0; i < 1_000; i++) store.add(`old${i}`, HOUR);
    now += HOUR + 1;
    store.add('fresh', HOUR);
    expect(store.size).toBe(1);
    expect(store.add('old0', HOUR)).toBe(true);
  });

  it('a hard cap, when given, drops the oldest', () => {
    const store = new MemoryDedupeStore({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) store.add(id, HOUR);
    expect(store.size).toBe(3);
    expect(store.add('a', HOUR)).toBe(true);
  });

  it('delete forgets an id', () => {
    const store = new MemoryDedupeStore();
    store.add('a', HOUR);
    store.delete('a');
    expect(store.add('a', HOUR)).toBe(true);
  });

  it('refuses a nonsensical bound', () => {
    expect(() => new MemoryDedupeStore({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => new MemoryDedupeStore({ maxEntries: 1.5 })).toThrow(RangeError);
  });
});

describe('dedupe', () => {
  it('detects a duplicate delivery', async () => {
    const c = clock();
    const store = new MemoryDedupeStore({ now: c.now });
    expect(await dedupe(event('1'), store, { now: c.now })).toEqual({ duplicate: false, stale: false });
    expect(await dedupe(event('1'), store, { now: c.now })).toEqual({ duplicate: true, stale: false });
    expect(await dedupe(event('2'), store, { now: c.now })).toEqual({ duplicate: false, stale: false });
  });

  it('reports an event older than maxAge as stale, without storing it', async () => {
    const c = clock(T0 + 25 * HOUR);
    const added: string[] = [];
    const store: DedupeStore = { add: (id) => (added.push(id), true) };
    expect(await dedupe(event('old'), store, { now: c.now })).toEqual({ duplicate: false, stale: true });
    expect(await dedupe(event('old'), store, { now: c.now, maxAge: 26 * HOUR })).toEqual({
      duplicate: false,
      stale: false,
    });
    expect(added).toEqual(['Webhook:old']);
  });

  it('remembers an id until its event turns stale, so a replay is caught either way', async () => {
    const c = clock();
    const store = new MemoryDedupeStore({ now: c.now });
    const options = { now: c.now, maxAge: HOUR };
    await dedupe(event('r'), store, options);
    c.advance(HOUR);
    expect(await dedupe(event('r'), store, options)).toEqual({ duplicate: true, stale: false });
    c.advance(1);
    expect(await dedupe(event('r'), store, options)).toEqual({ duplicate: false, stale: true });
  });

  it('keeps an id dated a little ahead (within the skew allowance) until that event turns stale', async () => {
    const c = clock();
    const store = new MemoryDedupeStore({ now: c.now });
    const options = { now: c.now, maxAge: HOUR };
    const ahead = event('a', T0 + 4 * 60_000);
    expect(await dedupe(ahead, store, options)).toEqual({ duplicate: false, stale: false });
    c.advance(HOUR + 3 * 60_000); // 59 min after its date: not stale yet, still remembered
    expect(await dedupe(ahead, store, options)).toEqual({ duplicate: true, stale: false });
  });

  it('an event dated far ahead says so, and its id is held for maxAge + skew, not until its date (memory bounded by time)', async () => {
    const c = clock();
    const store = new MemoryDedupeStore({ now: c.now });
    const options = { now: c.now, maxAge: HOUR };
    const ttls: number[] = [];
    const far = event('far', T0 + 300 * 365 * 24 * HOUR);
    expect(await dedupe(far, { add: (id, ttl) => (ttls.push(ttl), store.add(id, ttl)) }, options)).toEqual({
      duplicate: false,
      stale: false,
      unusableTimestamp: true,
    });
    expect(ttls).toEqual([HOUR + 5 * 60_000]);
    expect(await dedupe(far, store, options)).toEqual({ duplicate: true, stale: false, unusableTimestamp: true });
    c.advance(HOUR + 5 * 60_000 + 1);
    await dedupe(event('next', c.now()), store, options); // any add sweeps
    expect(store.size).toBe(1);
  });

  it('gives the store a ttl covering the rest of the window', async () => {
    const ttls: number[] = [];
    const store: DedupeStore = { add: async (_id, ttl) => (ttls.push(ttl), true) };
    await dedupe(event('t', T0 - HOUR), store, { now: () => T0, maxAge: 2 * HOUR });
    expect(ttls).toEqual([HOUR + 5 * 60_000]);
  });

  it('uses a shared in-process store by default', async () => {
    const e = event(`default-${Math.random()}`, Date.now());
    expect((await dedupe(e)).duplicate).toBe(false);
    expect((await dedupe(e)).duplicate).toBe(true);
  });

  it('a verified event without a readable timestamp is still deduplicated (counted as made now) and says its timestamp is unusable', async () => {
    const store = new MemoryDedupeStore();
    await expect(dedupe({ id: 'Webhook:x', timestamp: 'yesterday' }, store)).resolves.toEqual({ duplicate: false, stale: false, unusableTimestamp: true });
    await expect(dedupe({ id: 'Webhook:x', timestamp: 'yesterday' }, store)).resolves.toEqual({ duplicate: true, stale: false, unusableTimestamp: true });
  });
});

describe('claim → handle → confirm (dedupe with a lease)', () => {
  const MIN = 60_000;

  it('a claim holds the id for the lease: a redelivery meanwhile is in progress, not a duplicate; after confirm it is a duplicate', async () => {
    const c = clock();
    const store = new MemoryDedupeStore({ now: c.now });
    const options = { now: c.now, lease: MIN };
    expect(await dedupe(event('l'), store, options)).toEqual({ duplicate: false, stale: false });
    expect(await dedupe(event('l'), store, options)).toEqual({ duplicate: false, stale: false, inProgress: true });
    await confirmHandled(event('l'), store, { now: c.now });
    expect(await dedupe(event('l'), store, options)).toEqual({ duplicate: true, stale: false });
    // Confirmed for the whole window, not the lease: 23 h later still a duplicate.
    c.advance(23 * HOUR);
    expect(await dedupe(event('l'), store, options)).toEqual({ duplicate: true, stale: false });
  });

  it('a claim never confirmed (the worker died) runs out: the next redelivery after the lease handles the event', async () => {
    const c = clock();
    const store = new MemoryDedupeStore({ now: c.now });
    const options = { now: c.now, lease: MIN };
    expect(await dedupe(event('crash'), store, options)).toEqual({ duplicate: false, stale: false });
    c.advance(MIN - 1);
    expect((await dedupe(event('crash'), store, options)).inProgress).toBe(true);
    c.advance(1);
    expect(await dedupe(event('crash'), store, options)).toEqual({ duplicate: false, stale: false });
  });

  it('without a lease, an id recorded by add is a duplicate for a claimer too, and a lease is never longer than the window', async () => {
    const c = clock();
    const store = new MemoryDedupeStore({ now: c.now });
    await dedupe(event('a'), store, { now: c.now });
    expect(await dedupe(event('a'), store, { now: c.now, lease: MIN })).toEqual({ duplicate: true, stale: false });
    const leases: number[] = [];
    const spy: DedupeStore = { add: () => true, claim: (_id, ms) => (leases.push(ms), 'claimed') };
    await dedupe(event('b', T0 - 24 * HOUR + MIN), spy, { now: c.now, lease: HOUR });
    expect(leases).toEqual([MIN + 5 * MIN]);
  });

  it('a store answer that is not one it can mean is an error, never a duplicate', async () => {
    const weird = (answer: unknown): DedupeStore => ({ add: () => answer as boolean, claim: () => answer as 'done' });
    for (const answer of [undefined, 'OK', 1, null]) {
      await expect(dedupe(event('w'), weird(answer), { now: () => T0 })).rejects.toThrow(TypeError);
      await expect(dedupe(event('w'), weird(answer), { now: () => T0, lease: MIN })).rejects.toThrow(/whether the id is held is unknown/);
    }
    const throwing: DedupeStore = { add: () => Promise.reject(new Error('ECONNRESET')) };
    await expect(dedupe(event('w'), throwing, { now: () => T0 })).rejects.toThrow('ECONNRESET');
  });

  it('refuses a lease without a claiming store, a nonsensical lease, and a confirm without confirm()', async () => {
    await expect(dedupe(event('x'), { add: () => true }, { now: () => T0, lease: MIN })).rejects.toThrow(/needs a store with claim/);
    for (const lease of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(dedupe(event('x'), new MemoryDedupeStore(), { now: () => T0, lease })).rejects.toThrow(RangeError);
    }
    await expect(confirmHandled(event('x'), { add: () => true }, { now: () => T0 })).rejects.toThrow(/needs a store with confirm/);
  });

  it('confirm gives the store the rest of the window; a stale event is not stored', async () => {
    const calls: [string, number][] = [];
    const store: DedupeStore = { add: () => true, confirm: (id, ttl) => void calls.push([id, ttl]) };
    await confirmHandled(event('t', T0 - HOUR), store, { now: () => T0, maxAge: 2 * HOUR });
    await confirmHandled(event('old', T0 - 3 * HOUR), store, { now: () => T0, maxAge: 2 * HOUR });
    expect(calls).toEqual([['Webhook:t', HOUR + 5 * 60_000]]);
  });

  it('delete forgets a claim, so a failed handler is retried at once', async () => {
    const store = new MemoryDedupeStore({ now: () => T0 });
    await dedupe(event('d'), store, { now: () => T0, lease: MIN });
    store.delete('Webhook:d');
    expect(await dedupe(event('d'), store, { now: () => T0, lease: MIN })).toEqual({ duplicate: false, stale: false });
  });
});
