/**
 * The simulation's own checks can fail: a journal write that takes a reference back from a final state,
 * and a second execution of one destination, are caught when they happen (not only at the end).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Process, SimJournal, World } from './harness';
import type { PayoutRecord } from '../../../src/payouts/index';

afterEach(() => {
  vi.useRealTimers();
});

const record = (state: PayoutRecord['state']): PayoutRecord => ({
  reference: 'p000',
  state,
  fingerprint: 'f2:x',
  instruction: { reference: 'p000', source: { accountId: 'InternalAccount:sim' }, destination: { accountId: 'ExternalAccount:p000' }, amount: 1_000 },
  keys: { create: 'k-c', execute: 'k-e' },
  attempts: 1,
  updatedAt: '2026-11-30T09:00:00.000Z',
});

describe('simulation harness: its invariants catch what they name', () => {
  it('a record taken back from a final state is a violation, in this process and in the next (from the durable journal)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const world = new World({ seed: 1, n: 1 });
    const first = new SimJournal(world, new Process(1));
    await first.open('b');
    const put = (journal: SimJournal, r: PayoutRecord) => {
      const done = journal.put(r);
      return vi.advanceTimersByTimeAsync(5).then(() => done);
    };
    await put(first, record('submitted'));
    await put(first, record('completed'));
    expect(world.violations).toEqual([]);
    await put(first, record('completed')); // the same final state again: no move
    expect(world.violations).toEqual([]);
    await put(first, record('processing'));
    expect(world.violations).toHaveLength(1);
    expect(world.violations[0]).toMatch(/p000 went back from completed to processing/);
    // The next process reads the durable record (processing, the last write): taking it to `submitted` is no violation…
    const second = new SimJournal(world, new Process(2));
    const records = [...(await second.open('b'))];
    expect(records.map((r) => r.state)).toEqual(['processing']);
    // …and another batch id is refused, as every journal refuses it.
    await expect(new SimJournal(world, new Process(3)).open('other')).rejects.toThrow(/holds batch b/);
  });

  it('a destination executed twice is a violation at the execution itself', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const world = new World({ seed: 2, n: 1 });
    const client = world.service.clientFor(new Process(1));
    const body = {
      source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:sim' },
      destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:p000' },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 1_000,
      immediatelyExecute: true,
    } as never;
    const create = (key: string) => {
      const answer = Promise.resolve(client.quotes.create(body, { idempotencyKey: key }));
      return vi.advanceTimersByTimeAsync(100).then(() => answer);
    };
    const a = await create('key-1');
    const replay = await create('key-1'); // the same key: the first answer again, no second execution
    expect(replay).toEqual(a);
    expect(world.violations).toEqual([]);
    // Past the window the key is forgotten: the same request acts again.
    vi.setSystemTime(Date.now() + 25 * 3_600_000);
    await create('key-1');
    expect(world.service.executions.get('ExternalAccount:p000')).toBe(2);
    expect(world.violations.some((v) => /ExternalAccount:p000 executed 2 times/.test(v))).toBe(true);
  });

  it('another body under a known key is refused 409 IDEMPOTENCY_KEY_REUSED', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const world = new World({ seed: 3, n: 1 });
    const client = world.service.clientFor(new Process(1));
    const body = (amount: number) =>
      ({
        source: { sourceType: 'ACCOUNT', accountId: 'I' },
        destination: { destinationType: 'ACCOUNT', accountId: 'E' },
        lockedCurrencySide: 'RECEIVING',
        lockedCurrencyAmount: amount,
      }) as never;
    const first = Promise.resolve(client.quotes.create(body(1), { idempotencyKey: 'k' }));
    await vi.advanceTimersByTimeAsync(100);
    await first;
    const second = Promise.resolve(client.quotes.create(body(2), { idempotencyKey: 'k' })).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(100);
    expect(await second).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
  });
});
