/**
 * BullMQ from a producer's side: a job whose instruction is refused ends without paying, and the
 * corrected instruction, enqueued again under the same reference, is a new job that pays it once
 * (BullMQ keeps finished jobs and ignores a job id it holds: with an id of (batch id, reference) alone,
 * the fix added nothing and the reference was never paid, silently). A real redis-server, the
 * in-process sandbox.
 */
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueuePayouts, RedisJournal, startPayoutWorker, userDescription, type PayoutInstruction } from '../../src/payouts/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { startRedisServer, type RedisServer } from '../helpers/redis-server';
import { sandboxClient, setUpWorld, type PayoutWorld } from './world';

let redis: RedisServer;
let sandbox: Sandbox;
let world: PayoutWorld;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  sandbox = createSandbox();
  world = await setUpWorld(sandboxClient(sandbox), 1);
});

afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await sandbox?.close();
  redis?.stop();
});

describe('BullMQ: a rejected instruction, fixed and enqueued again', () => {
  it('is a new job that pays the reference once; the same instructions enqueued again add nothing', { timeout: 60_000 }, async () => {
    const connection = { host: '127.0.0.1', port: redis.port };
    const queue = new Queue('fixed-row', { connection });
    cleanups.push(() => queue.close());
    const events = new QueueEvents('fixed-row', { connection });
    cleanups.push(() => events.close());
    await events.waitUntilReady();
    const journal = await RedisJournal.connect(`redis://127.0.0.1:${redis.port}`);
    cleanups.push(() => journal.close());
    const worker = await startPayoutWorker({
      queueName: 'fixed-row',
      connection: { ...connection, maxRetriesPerRequest: null },
      client: sandboxClient(sandbox),
      journal,
      concurrency: 2,
      pollIntervalMs: 50,
    });
    cleanups.push(() => worker.close());

    const finished = (n: number) =>
      new Promise<unknown[]>((resolve) => {
        const results: unknown[] = [];
        const on = ({ returnvalue }: { returnvalue: unknown }) => {
          results.push(typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue);
          if (results.length === n) (events.off('completed', on), resolve(results));
        };
        events.on('completed', on);
      });
    const bounded = <T>(p: Promise<T>) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no job finished in 20 s')), 20_000))]);

    const bad: PayoutInstruction = {
      reference: 'inv-7',
      source: { accountId: world.accountId },
      destination: { accountId: world.payees[0]! },
      amount: 12.5,
      description: 'inv-7',
    };
    const first = finished(1);
    await enqueuePayouts(queue, 'fixed-batch', [bad]);
    // Refused before anything was sent: a rejected row (journaled under a key of its own), not a payout that failed.
    expect(await bounded(first)).toEqual([{ reference: 'inv-7', state: 'rejected', reason: 'amount: expected a whole number of minor units' }]);
    expect(await journal.batch('fixed-batch').get('inv-7')).toBeUndefined();
    expect(sandbox.ledger.executions).toHaveLength(0);

    const fixed = { ...bad, amount: 1250 };
    const second = finished(1);
    await enqueuePayouts(queue, 'fixed-batch', [fixed]);
    expect(await bounded(second)).toMatchObject([{ reference: 'inv-7', state: 'completed' }]);
    expect((await journal.batch('fixed-batch').get('inv-7'))?.state).toBe('completed');
    expect(sandbox.ledger.executions.map((e) => userDescription(e.description))).toEqual(['inv-7']);

    // The same instructions again: BullMQ holds both job ids, nothing is added, nothing more is paid.
    const before = await queue.getJobCounts('completed', 'waiting', 'active', 'failed');
    expect(await enqueuePayouts(queue, 'fixed-batch', [bad, fixed])).toEqual({ read: 2, enqueued: 0 });
    expect(await queue.getJobCounts('completed', 'waiting', 'active', 'failed')).toEqual(before);
    expect(sandbox.ledger.executions).toHaveLength(1);
  });
});
