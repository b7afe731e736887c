/**
 * Many machines on one batch: BullMQ workers (separate processes) on one real Redis, against the HTTP
 * sandbox; one worker SIGKILLed mid-batch and Redis restarted once (its AOF keeps the queue). In the
 * sandbox's ledger: 0 doubled, 0 missing; every reference final in the shared Redis journal.
 *
 * Behind `npm run test:payouts` (PAYOUTS_FULL=1; PAYOUTS_BULLMQ_REFS references, 2,000 there): 70 s for 500,
 * 30 s for 40, too slow for `npm test`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { enqueuePayouts, RedisJournal } from '../../src/payouts/index';
import { freePort } from '../helpers/redis-server';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { exactlyOnce, instructions, sandboxClient, setUpWorld } from './world';

const REFS = Number(process.env.PAYOUTS_BULLMQ_REFS ?? 40);
const WORKERS = 4;
const WORKER = fileURLToPath(new URL('./fixtures/worker.ts', import.meta.url));

/** redis-server on `port` with an append-only file fsynced per write in `dir` (a restart keeps the queue). */
async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  if (spawnSync('redis-server', ['--version']).status !== 0) throw new Error('redis-server is not installed (scripts/ensure-system-deps.mjs installs it)');
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''],
    { stdio: 'ignore' },
  );
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  for (let i = 0; ; i++) {
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') break;
    } catch {
      if (i > 100) throw new Error(`redis-server did not answer on ${port}`);
      probe.disconnect();
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  probe.disconnect();
  return child;
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe.runIf(process.env.PAYOUTS_FULL === '1')(`BullMQ: ${REFS} references, ${WORKERS} worker processes, one SIGKILLed, Redis restarted once`, () => {
  let sandbox: Sandbox;
  let redis: ChildProcess;
  let port: number;
  let dir: string;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cb-bullmq-'));
    port = await freePort();
    redis = await startRedis(port, dir);
    sandbox = createSandbox();
  });

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    redis?.kill('SIGTERM');
    if (redis) await stopped(redis);
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('pays each reference exactly once', { timeout: 900_000 }, async () => {
    const server = await sandbox.listen();
    const world = await setUpWorld(sandboxClient(sandbox, fetch, server.url), 4);
    const queueName = `payouts-${Date.now()}`;
    const batchId = 'bullmq-batch';
    for (let i = 0; i < WORKERS; i++) {
      const w = spawn(process.execPath, ['--import', 'tsx', WORKER, String(port), queueName, server.url], { stdio: ['ignore', 'pipe', 'inherit'] });
      workers.push(w);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('a worker did not start within 30 s')), 30_000);
        w.stdout.on('data', (c: Buffer) => c.toString().includes('ready') && (clearTimeout(timer), resolve()));
      });
    }
    // Mid-batch, on a signal that does not depend on speed: the first worker is SIGKILLed the moment the
    // service makes the Nth execution (inside the sandbox's handler, before it answers), whatever the load.
    const N = Math.max(1, Math.floor(REFS / 4));
    let executionsAtKill: number | undefined;
    const killed = new Promise<void>((resolve) => {
      const ledger = sandbox.ledger.executions as unknown as { push(...items: unknown[]): number };
      const push = ledger.push;
      ledger.push = function (this: unknown, ...items: unknown[]) {
        const n = push.apply(this, items);
        if (executionsAtKill === undefined && n >= N) {
          executionsAtKill = n;
          workers[0]!.kill('SIGKILL');
          ledger.push = push;
          resolve();
        }
        return n;
      };
    });
    const queue = new Queue(queueName, { connection: { host: '127.0.0.1', port, maxRetriesPerRequest: null } });
    queue.on('error', () => undefined); // during the restart
    const list = instructions(world, REFS);
    await enqueuePayouts(queue, batchId, list, { jobOptions: { attempts: 50, backoff: { type: 'fixed', delay: 500 } } });
    // Enqueuing again adds nothing: the job ids derive from (batch, reference).
    await enqueuePayouts(queue, batchId, list.slice(0, 5), { jobOptions: { attempts: 50 } });

    const probe = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined);
    const journal = new RedisJournal(probe);
    await journal.open(batchId);
    const finals = async () => {
      try {
        const all = (await probe.hvals(`crossborder:payouts:${batchId}`)).map((t) => JSON.parse(t) as { state: string });
        return all.filter((r) => ['completed', 'failed', 'needs_attention'].includes(r.state)).length;
      } catch {
        return -1;
      }
    };
    const until = async (check: () => Promise<boolean>, ms: number) => {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        if (await check()) return true;
        await new Promise((r) => setTimeout(r, 200));
      }
      return false;
    };
    // Mid-batch: one worker SIGKILLed (at the Nth execution), then Redis restarted.
    expect(await until(async () => executionsAtKill !== undefined, 300_000)).toBe(true);
    await killed;
    await stopped(workers[0]!);
    expect(executionsAtKill).toBe(N);
    expect(N).toBeLessThan(REFS);
    redis.kill('SIGTERM');
    await stopped(redis);
    await new Promise((r) => setTimeout(r, 500));
    redis = await startRedis(port, dir);

    expect(await until(async () => (await finals()) === REFS, 800_000)).toBe(true);
    const records = await Promise.all(list.map((i) => journal.get(i.reference)));
    expect(records.filter((r) => r?.state === 'completed')).toHaveLength(REFS);
    expect(
      exactlyOnce(
        sandbox,
        list.map((i) => i.reference),
      ),
    ).toEqual({ doubled: [], missing: [], executions: REFS });
    await queue.close();
    probe.disconnect();
  });
});
