/**
 * The `sleep` option of a batch (and of the BullMQ processor): a payout's waits (the delay before a
 * retry, the wait between polls) are waited through it, so a clock of the caller's (a test's) decides
 * them. Told an hour, a run given a sleep that resolves at once ends at once; a stop ends a run whose
 * sleep never resolves; a sleep that rejects stops the run with its error; a sleep that is no function
 * is refused, naming the option.
 */
import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIUserAbortError } from '../../src/index';
import { createPayoutBatch, MemoryJournal, payoutProcessor, type PayoutClient } from '../../src/payouts/index';
import { ok } from './instant-service';

const HOUR = 3_600_000;

/** A service whose first create answer is lost (after it acted), then PROCESSING; the transaction COMPLETED on its first poll. */
function service(): { client: PayoutClient; calls: string[] } {
  const calls: string[] = [];
  let creates = 0;
  const client: PayoutClient = {
    quotes: {
      create: async () => {
        calls.push('create');
        if (++creates === 1) throw new APIConnectionError('fetch failed', { outcomeUnknown: true });
        return { id: 'Quote:1', status: 'PROCESSING', transactionId: 'Transaction:1', totalSendingAmount: 100, totalReceivingAmount: 100 } as never;
      },
      execute: async () => ({}) as never,
    },
    transactions: {
      retrieve: async (id) => {
        calls.push('retrieve');
        return { id, status: 'COMPLETED' } as never;
      },
    },
    receiver: { lookupUma: async () => ({}) as never },
  };
  return { client, calls };
}

/** Resolves with `run`'s outcome, or 'still waiting' after `ms` of real time (bounded: an ignored sleep waits an hour). */
async function within<T>(ms: number, run: Promise<T>): Promise<T | 'still waiting'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([run, new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the sleep option', () => {
  it("waits a payout's retry and its polls through it: told an hour, the run ends at once", async () => {
    const { client, calls } = service();
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    const batch = createPayoutBatch({ client, batchId: 'b', journal: new MemoryJournal(), pollIntervalMs: HOUR, maxPollIntervalMs: HOUR, sleep });
    const summary = await within(5_000, batch.run([ok('inv-1')]));
    expect(summary).not.toBe('still waiting');
    expect((summary as { counts: { completed: number } }).counts.completed).toBe(1);
    expect(calls).toEqual(['create', 'create', 'retrieve']);
    // The retry of the lost answer (the first backoff: 250 ms less up to a quarter), then the poll's hour.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(187.5);
    expect(waits[0]).toBeLessThanOrEqual(250);
    expect(waits[1]).toBe(HOUR);
  });

  it('the BullMQ processor waits through it too', async () => {
    const { client, calls } = service();
    const waits: number[] = [];
    const processor = payoutProcessor({
      client,
      journal: new MemoryJournal(),
      pollIntervalMs: HOUR,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const result = await within(5_000, processor({ data: { batchId: 'b', instruction: ok('inv-1') } }));
    expect(result).toEqual({ reference: 'inv-1', state: 'completed', transactionId: 'Transaction:1' });
    expect(calls).toEqual(['create', 'create', 'retrieve']);
    expect(waits.slice(1)).toEqual([HOUR]);
  });

  it('a stop ends a run whose sleep never resolves, and the wait it dropped runs nothing', async () => {
    const { client, calls } = service();
    const stop = new AbortController();
    const sleep = (): Promise<void> => {
      setTimeout(() => stop.abort(), 10);
      return new Promise<void>(() => {});
    };
    const run = createPayoutBatch({ client, batchId: 'b', journal: new MemoryJournal(), signal: stop.signal, sleep }).run([ok('inv-1')]);
    await expect(within(5_000, run)).rejects.toBeInstanceOf(APIUserAbortError);
    expect(calls).toEqual(['create']);
  });

  it('a sleep that rejects stops the run with its error; one that is no function is refused, naming the option', async () => {
    const { client } = service();
    const broken = new Error('the clock broke');
    const run = createPayoutBatch({ client, batchId: 'b', journal: new MemoryJournal(), sleep: () => Promise.reject(broken) }).run([ok('inv-1')]);
    await expect(within(5_000, run)).rejects.toBe(broken);
    expect(() => createPayoutBatch({ client, batchId: 'b', journal: new MemoryJournal(), sleep: 5 as never })).toThrow(
      new TypeError('sleep: expected a function (ms) => Promise<void>'),
    );
  });
});
