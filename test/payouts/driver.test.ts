/**
 * The batch runner and the BullMQ processor are two drivers of one per-payout driver: given the same
 * instruction (and the same journaled record to resume), a processor job and a batch run write the same
 * journal records, in the same order, and send the same requests under the same Idempotency-Keys.
 * Only what is made per run or per clock (run id, timestamps) may differ.
 */
import { describe, expect, it } from 'vitest';
import { APIConnectionError } from '../../src/index';
import {
  createPayoutBatch,
  MemoryJournal,
  payoutKey,
  payoutProcessor,
  type PayoutClient,
  type PayoutJournal,
  type PayoutRecord,
} from '../../src/payouts/index';
import { ok } from './instant-service';

/**
 * A service whose first create answer is lost after it acted (replayed under its key), and whose
 * transaction is PROCESSING on the quote's answer and COMPLETED on the second poll.
 */
function slowService(): { client: PayoutClient; sent: string[] } {
  const sent: string[] = [];
  const paid = new Map<string, string>();
  const polls = new Map<string, number>();
  const client: PayoutClient = {
    quotes: {
      create: async (_body, options) => {
        const key = options!.idempotencyKey!;
        sent.push(`create ${key}`);
        let transactionId = paid.get(key);
        if (transactionId === undefined) {
          transactionId = `Transaction:${paid.size + 1}`;
          paid.set(key, transactionId);
          throw new APIConnectionError('fetch failed', { outcomeUnknown: true }); // it acted; the answer is lost
        }
        return { id: `Quote:${transactionId}`, status: 'PROCESSING', transactionId, totalSendingAmount: 100, totalReceivingAmount: 95 } as never;
      },
      execute: async () => {
        throw new Error('not used: quotes execute immediately');
      },
    },
    transactions: {
      retrieve: async (id) => {
        sent.push(`retrieve ${id}`);
        const n = (polls.get(id) ?? 0) + 1;
        polls.set(id, n);
        return { id, status: n >= 2 ? 'COMPLETED' : 'PROCESSING' } as never;
      },
    },
    receiver: { lookupUma: async () => ({}) as never },
  };
  return { client, sent };
}

/** A journal that remembers every record written to it, in order. */
function recording(inner: PayoutJournal & { batch?: unknown }): { journal: PayoutJournal; writes: PayoutRecord[] } {
  const writes: PayoutRecord[] = [];
  const journal: PayoutJournal = {
    open: (batchId) => inner.open(batchId),
    get: (reference) => inner.get(reference),
    put: async (record) => {
      writes.push(JSON.parse(JSON.stringify(record)) as PayoutRecord);
      await inner.put(record);
    },
    close: () => inner.close(),
  };
  return { journal, writes };
}

/** A record without what is made per run or read off the clock. */
function stable(record: PayoutRecord): Record<string, unknown> {
  const { runId: _runId, updatedAt: _updatedAt, firstSentAt: _firstSentAt, unknownSince: _unknownSince, ...rest } = record;
  return rest;
}

const settings = { pollIntervalMs: 5, maxPollIntervalMs: 5 };

/** Runs `instruction` through createPayoutBatch, and through one processor job, each on a fresh journal seeded with `seed`. */
async function both(instruction: ReturnType<typeof ok>, seed?: (journal: MemoryJournal) => Promise<void>) {
  const runs = [];
  for (const driver of ['batch', 'processor'] as const) {
    const memory = new MemoryJournal();
    if (seed) {
      await memory.open('b');
      await seed(memory);
    }
    const { journal, writes } = recording(memory);
    const { client, sent } = slowService();
    if (driver === 'batch') {
      const summary = await createPayoutBatch({ client, batchId: 'b', journal, ...settings }).run([instruction]);
      expect(summary.counts.completed).toBe(1);
    } else {
      const result = await payoutProcessor({ client, journal, ...settings })({ data: { batchId: 'b', instruction } });
      expect(result).toEqual({ reference: instruction.reference, state: 'completed', transactionId: 'Transaction:1' });
    }
    runs.push({ writes, sent, final: await memory.get(instruction.reference) });
  }
  return { batch: runs[0]!, processor: runs[1]! };
}

describe('the batch runner and the BullMQ processor drive a payout the same way', () => {
  it('a new instruction: the same journal writes, in order, and the same requests under the same keys', async () => {
    const { batch, processor } = await both(ok('inv-1', 100));
    const create = payoutKey('b', 'inv-1', 'create');
    // The lost answer is replayed under its key, then the transaction is polled until it ends.
    expect(batch.sent).toEqual([`create ${create}`, `create ${create}`, 'retrieve Transaction:1', 'retrieve Transaction:1']);
    expect(processor.sent).toEqual(batch.sent);
    // Sent; its outcome unknown (journaled); sent again; processing; completed.
    expect(batch.writes.map((r) => r.state)).toEqual(['submitted', 'submitted', 'submitted', 'processing', 'completed']);
    expect(processor.writes.map(stable)).toEqual(batch.writes.map(stable));
    expect(batch.final).toMatchObject({ state: 'completed', transactionId: 'Transaction:1', attempts: 2, keys: { create } });
    expect(stable(processor.final!)).toEqual(stable(batch.final!));
    // Each run stamped the records it admitted with a run id of its own.
    expect(processor.final!.runId).toMatch(/^[0-9a-z]{6,}$/);
  });

  it('a record journaled `submitted` by an earlier run is resumed by either: replayed under its keys, never admitted anew', async () => {
    const instruction = ok('inv-2', 250);
    // An earlier run: sent once, its answer lost (a batch on the same journal stopped right after its send).
    const earlier = async (memory: MemoryJournal) => {
      const { client } = slowService();
      const stop = new AbortController();
      const tripped: PayoutClient = {
        ...client,
        quotes: {
          ...client.quotes,
          create: async (body, options) => {
            try {
              return await client.quotes.create(body, options);
            } finally {
              stop.abort();
            }
          },
        },
      };
      await expect(
        createPayoutBatch({ client: tripped, batchId: 'b', journal: memory, signal: stop.signal, ...settings }).run([instruction]),
      ).rejects.toThrow();
      expect(await memory.get('inv-2')).toMatchObject({ state: 'submitted', attempts: 1 });
    };
    const { batch, processor } = await both(instruction, earlier);
    const create = payoutKey('b', 'inv-2', 'create');
    expect(batch.sent[0]).toBe(`create ${create}`);
    expect(processor.sent).toEqual(batch.sent);
    expect(batch.writes[0]).toMatchObject({ state: 'submitted', attempts: 2 });
    expect(processor.writes.map(stable)).toEqual(batch.writes.map(stable));
    expect(stable(processor.final!)).toEqual(stable(batch.final!));
  });
});
