/**
 * The BullMQ processor as a second driver of the state machine (issue 47 §1 and its BullMQ findings),
 * on a real redis-server (skipped when none is installed) with plain job objects and a counting client:
 * - a second job for a reference with a changed amount is refused with INSTRUCTION_CHANGED, never
 *   `completed` with the first job's transaction, and sends nothing;
 * - a worker taking jobs of two batches keeps each batch under its own Redis key;
 * - `enqueuePayouts` counts the jobs it added, not the rows it read, and job ids derive from the v2 fingerprint.
 */
import { spawnSync } from 'node:child_process';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueuePayouts, instructionFingerprintV2, payoutJobId, payoutKey, payoutProcessor, RedisJournal } from '../../src/payouts/index';
import { startRedisServer, type RedisServer } from '../helpers/redis-server';
import { ok, service } from './instant-service';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

describe.runIf(hasRedis)('payoutProcessor on a real Redis', () => {
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis({ port: server.port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await redis?.quit();
    server?.stop();
  });

  it('a second job for a reference with a changed amount is refused (INSTRUCTION_CHANGED), not completed with the first transaction', async () => {
    const { client, keys } = service();
    const journal = new RedisJournal(redis, { prefix: 'changed:' });
    const process = payoutProcessor({ client, journal });
    const first = await process({ data: { batchId: 'b', instruction: ok('inv-1', 100) } });
    expect(first).toEqual({ reference: 'inv-1', state: 'completed', transactionId: 'Transaction:1' });
    const second = await process({ data: { batchId: 'b', instruction: ok('inv-1', 250) } });
    expect(second.state).toBe('rejected');
    expect(second.transactionId).toBeUndefined();
    expect(second.reason).toMatch(/^INSTRUCTION_CHANGED: /);
    expect(keys).toEqual([payoutKey('b', 'inv-1', 'create')]);
    // The same job again (a BullMQ retry): the journaled payout, nothing sent.
    expect(await process({ data: { batchId: 'b', instruction: ok('inv-1', 100) } })).toEqual(first);
    expect(keys).toHaveLength(1);
    expect(JSON.parse((await redis.hget('changed:b', 'inv-1'))!)).toMatchObject({ state: 'completed', instruction: { amount: 100 } });
  });

  it('jobs of two batches, interleaved on one worker: each batch under its own key, each paid under its own keys', async () => {
    const { client, keys } = service();
    const journal = new RedisJournal(redis, { prefix: 'two:' });
    const process = payoutProcessor({ client, journal });
    const results = await Promise.all([
      process({ data: { batchId: 'A', instruction: ok('r1') } }),
      process({ data: { batchId: 'B', instruction: ok('r1') } }),
      process({ data: { batchId: 'A', instruction: ok('r2') } }),
      process({ data: { batchId: 'B', instruction: ok('r2', 300) } }),
    ]);
    expect(results.map((r) => r.state)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect((await redis.hkeys('two:A')).sort()).toEqual(['r1', 'r2']);
    expect((await redis.hkeys('two:B')).sort()).toEqual(['r1', 'r2']);
    expect(JSON.parse((await redis.hget('two:B', 'r2'))!).instruction.amount).toBe(300);
    expect(keys.sort()).toEqual(
      [payoutKey('A', 'r1', 'create'), payoutKey('A', 'r2', 'create'), payoutKey('B', 'r1', 'create'), payoutKey('B', 'r2', 'create')].sort(),
    );
  });
});

describe('enqueuePayouts', () => {
  it('counts the jobs it added (a queue holding a job id adds nothing), with ids from the v2 fingerprint', async () => {
    const held = new Set<string>();
    const added: string[] = [];
    const queue = {
      addBulk: async (jobs: { opts?: Record<string, unknown> }[]) => {
        for (const j of jobs) {
          added.push(j.opts!.jobId as string);
          held.add(j.opts!.jobId as string);
        }
      },
      getJob: async (id: string) => (held.has(id) ? { id } : undefined),
    };
    const list = [ok('a'), ok('b'), ok('c')];
    expect(await enqueuePayouts(queue, 'q', list, { chunk: 2 })).toEqual({ read: 3, enqueued: 3 });
    expect(await enqueuePayouts(queue, 'q', [...list, ok('b', 999)], { chunk: 2 })).toEqual({ read: 4, enqueued: 1 });
    expect(added).toHaveLength(4);
    const id = payoutJobId('q', 'a', ok('a'));
    expect(id).toBe(`${payoutKey('q', 'a', 'job').replace(/^po1_/, 'po2j_')}_${instructionFingerprintV2(ok('a')).slice(3, 19)}`);
    expect(id).toMatch(/^po2j_[0-9a-f]{48}_[0-9a-f]{16}$/);
    expect(payoutJobId('q', 'b', ok('b', 999))).not.toBe(payoutJobId('q', 'b', ok('b')));
  });
});
